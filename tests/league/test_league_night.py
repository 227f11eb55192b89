"""Must show (issue 25): three tables into one broker, the broker killed mid-game, a box restarted."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from table.league.standings import standings, table_rows
from tests.league.rig import (ANN_WINS, BOB_WINS, CY_WINS, MID_GAME, Box, by_name, league_config, read, received,
                              summed, until)


def test_three_tables_one_broker_standings_are_the_sum_of_each_boxs_stats(tmp_path: Path, broker) -> None:
    boxes = [Box(league_config(tmp_path / t, broker.url(), t)) for t in ("table-a", "table-b", "table-c")]
    games = {"table-a": [ANN_WINS, BOB_WINS], "table-b": [CY_WINS, MID_GAME], "table-c": [BOB_WINS, CY_WINS, ANN_WINS]}
    try:
        for box in boxes:
            for n, script in enumerate(games[box.config.league.table]):
                if n:
                    box.new_game()              # table-b's second game is abandoned by the new one below
                box.play(script)
            if box.config.league.table == "table-b":
                box.new_game()
        until(lambda: all(b.waiting() == 0 for b in boxes), what="every outbox empty")
        assert [b.publisher.acknowledged for b in boxes] == [2, 2, 3]
        league = read(boxes[0].config)
        result = standings(league)
        assert result["games"] == 7 and result["tables"] == 3
        assert by_name(result) == summed([b.stats() for b in boxes])
        wins = {p["name"]: p["wins"] for p in result["players"]}
        assert wins == {"Ann": 2, "Bob": 2, "Cy": 2}
        statuses = sorted(g["history"]["status"] for g in league.games.values())
        assert statuses == ["abandoned"] + ["finished"] * 6
        rows = {r["table"]: r for r in table_rows(read(boxes[0].config))}
        assert set(rows) == {"table-a", "table-b", "table-c"} and all(r["online"] for r in rows.values())
        assert rows["table-a"]["games"] == 2
        latest = {"table-a": ("game-over", ["Bob"]), "table-b": ("setup", []), "table-c": ("game-over", ["Ann"])}
        until(lambda: {r["table"]: (r["phase"], r["winners"]) for r in table_rows(read(boxes[0].config))} == latest,
              what="each table's latest state")
    finally:
        for box in boxes:
            box.close()


def test_the_broker_killed_mid_game_loses_nothing_and_gets_nothing_twice(tmp_path: Path, broker) -> None:
    box = Box(league_config(tmp_path / "a", broker.url(), "table-a"))
    try:
        box.play(ANN_WINS)
        until(lambda: box.waiting() == 0, what="game 1 acknowledged")
        first = box.table.controller.game_id
        until(lambda: broker.saved(f"munchkin/friday/games/table-a/{first}"), what="game 1 in the broker's save")
        box.new_game()
        box.play(MID_GAME)
        broker.kill()                               # mid-game: SIGKILL, no goodbye
        box.play("tap boots-of-butt-kicking\ntap lame-goblin\npress next\n")     # Bob wins while it is down
        assert box.phase == "game-over"             # the game went on
        second = box.table.controller.game_id
        assert box.waiting() == 1
        until(lambda: box.publisher.problem is not None, what="the box notices")
        assert "went away" in str(box.publisher.problem) or "cannot be reached" in str(box.publisher.problem)
        broker.start()
        until(lambda: box.waiting() == 0, timeout=40, what="the outbox sent after the restart")
        league = read(box.config)
        assert sorted(g for _t, g in league.games) == [first, second]
        assert {p["name"]: p["wins"] for p in standings(league)["players"]} == {"Ann": 1, "Bob": 1, "Cy": 0}
        assert received(broker, f"munchkin/friday/games/table-a/{first}") == 1
        assert received(broker, f"munchkin/friday/games/table-a/{second}") == 1
        assert box.publisher.problem is None
        # the states written while it was down went nowhere; the connect sent the latest
        until(lambda: (read(box.config).tables["table-a"].state or {}).get("phase") == "game-over",
              what="the latest state after the restart")
    finally:
        box.close()


def test_a_box_restarted_from_its_journal_resends_only_what_was_not_acknowledged(tmp_path: Path, broker) -> None:
    config = league_config(tmp_path / "a", broker.url(), "table-a")
    box = Box(config)
    box.play(ANN_WINS)
    until(lambda: box.waiting() == 0, what="game 1 acknowledged")
    first = box.table.controller.game_id
    until(lambda: broker.saved(f"munchkin/friday/games/table-a/{first}"), what="game 1 in the broker's save")
    broker.kill()
    box.new_game()
    box.play(BOB_WINS)
    second = box.table.controller.game_id
    assert box.waiting() == 1
    box.close()                                     # the box goes off with game 2 unsent
    db = sqlite3.connect(tmp_path / "a" / "journal.sqlite3")
    assert [g for (g,) in db.execute("SELECT game FROM league_outbox")] == [second]
    db.close()
    broker.start()
    again = Box(config)                             # the box starts again: only game 2 goes
    try:
        until(lambda: again.waiting() == 0, timeout=20, what="the outbox sent after the box restarted")
        until(lambda: received(broker, f"munchkin/friday/games/table-a/{second}") == 1, what="game 2 received")
        assert received(broker, f"munchkin/friday/games/table-a/{first}") == 1
        assert sorted(g for _t, g in read(config).games) == [first, second]
    finally:
        again.close()


def test_an_undone_win_is_sent_again_and_does_not_count_until_it_ends_again(tmp_path: Path, broker) -> None:
    box = Box(league_config(tmp_path / "a", broker.url(), "table-a"))
    try:
        box.play(ANN_WINS)
        game = box.table.controller.game_id
        until(lambda: box.publisher.acknowledged == 1, what="the win")
        box.play("press undo\n")
        until(lambda: box.publisher.acknowledged == 2, what="the undo")
        league = read(box.config)
        assert league.games[("table-a", game)]["history"]["status"] == "unfinished"
        assert standings(league)["games"] == 0
        box.play("press next\n")                    # and won again
        until(lambda: box.publisher.acknowledged == 3, what="the win again")
        result = standings(read(box.config))
        assert result["games"] == 1 and by_name(result)["Ann"]["wins"] == 1 and by_name(result)["Ann"]["kills"] == 1
    finally:
        box.close()


def test_the_league_off_writes_no_outbox(tmp_path: Path) -> None:
    from drivers.base import ManualClock
    from table.config import parse_config
    from table.control.assembly import build_table
    from table.league.publisher import attach
    from tests.league.rig import PLAYERS

    config = parse_config({"storage": {"state_dir": str(tmp_path / "s")}, "players": PLAYERS,
                           "rules": {"winning_level": 2, "interference_seconds": 0}})
    table = build_table(config, ManualClock(), seed_source=lambda: 7)
    assert attach(config, table) is None and not table.controller.session.league_outbox
    from tests.league.rig import Box as _Box

    player = _Box.__new__(_Box)                      # the same driving, without a publisher
    player.table, player.clock = table, table.controller.clock
    from drivers.sim import SimButtons, SimReader

    player.reader, player.buttons = SimReader(table.events, clock=player.clock), SimButtons(table.events, clock=player.clock)
    from table.sim.harness import perform
    from table.sim.script import parse_script

    for action in parse_script(ANN_WINS, table.catalog, source="test"):
        perform(action, table, player.reader, player.buttons, player.clock)
    assert table.controller.state.phase.value == "game-over"
    tables = {r[0] for r in table.journal.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "league_outbox" not in tables
    table.journal.close()
