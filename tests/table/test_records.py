"""Every game remembered: history and stats against games counted by hand, undo, abandon, names."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest

from table.cli import main

CONFIG = """
[storage]
state_dir = "{state}"
[rules]
winning_level = 3
[players.player-1]
name = "Ann"
sex = "female"
[players.player-2]
name = "Bob"
[players.player-3]
name = "Cy"
"""

# Hand count of GAME_ONE (winning level 3):
#   Ann kills the Lame Goblin (level 2), then the Large Angry Chicken (level 3: she wins).
#   Bob flees the Net Troll with Ann helping: Bob escapes (5), Ann is caught (2).
#   Cy flees the Horror, is caught (1) and dies.
#   Ann's Maul Rat is undone: it never happened.
#   22 accepted actions, 4 turns, 6 simulated seconds from the start to the win.
GAME_ONE = """
tap player-1
tap player-2
tap player-3
press next
tap boots-of-butt-kicking
tap lame-goblin
press next
wait 3
press next
tap net-troll
press help
tap player-1
press run
die 5
press roll
die 2
press roll
press next
tap unspeakably-awful-indescribable-horror
press run
die 1
press roll
press next
tap maul-rat
press undo
tap large-angry-chicken
press next
wait 3
"""


def setup_dir(tmp_path: Path) -> Path:
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(state=tmp_path / "state"))
    return config


def play(config: Path, script: str, tmp_path: Path, name: str = "game.txt") -> dict:
    path = tmp_path / name
    path.write_text(script)
    out, err = io.StringIO(), io.StringIO()
    from table.config import load_config
    from table.sim.simulate import simulate

    assert simulate(path, load_config(config), out=out, err=err) == 0
    return json.loads(out.getvalue())


def cli_json(capsys, *args: str):
    capsys.readouterr()
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def test_history_and_stats_match_a_game_counted_by_hand(tmp_path: Path, capsys) -> None:
    config = setup_dir(tmp_path)
    state = play(config, GAME_ONE, tmp_path)
    assert state["phase"] == "game-over"

    history = cli_json(capsys, "history", "--json", "--config", str(config))
    assert len(history) == 1
    game = history[0]
    assert game["players"] == ["Ann", "Bob", "Cy"]
    assert game["winners"] == ["Ann"]
    assert (game["turns"], game["actions"], game["minutes"]) == (4, 22, 0.1)
    assert game["status"] == "finished" and game["abandoned"] is False
    assert game["started"] is not None and game["ended"] is not None and game["ended"] > game["started"]

    stats = cli_json(capsys, "stats", "--json", "--config", str(config))
    players = {p["name"]: p for p in stats["players"]}
    assert players["Ann"] == {"name": "Ann", "games": 1, "wins": 1, "kills": 2, "deaths": 0,
                              "runs": {"attempted": 1, "escaped": 0}, "runs_attempted": 1, "runs_escaped": 0,
                              "highest_level": 3, "helped": 1}
    assert players["Bob"] == {"name": "Bob", "games": 1, "wins": 0, "kills": 0, "deaths": 0,
                              "runs": {"attempted": 1, "escaped": 1}, "runs_attempted": 1, "runs_escaped": 1,
                              "highest_level": 1, "helped": 0}
    assert players["Cy"] == {"name": "Cy", "games": 1, "wins": 0, "kills": 0, "deaths": 1,
                             "runs": {"attempted": 1, "escaped": 0}, "runs_attempted": 1, "runs_escaped": 0,
                             "highest_level": 1, "helped": 0}
    monsters = {m["card"]: (m["fought"], m["won"], m["killed"]) for m in stats["monsters"]}
    assert monsters == {"lame-goblin": (1, 0, 1), "large-angry-chicken": (1, 0, 1), "net-troll": (1, 1, 0),
                        "unspeakably-awful-indescribable-horror": (1, 1, 0)}      # the undone Maul Rat is not there


def test_csv_exports_for_a_spreadsheet(tmp_path: Path, capsys) -> None:
    import csv

    config = setup_dir(tmp_path)
    play(config, GAME_ONE, tmp_path)
    capsys.readouterr()
    assert main(["history", "--csv", "--config", str(config)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert rows == [{"id": "1", "started": rows[0]["started"], "ended": rows[0]["ended"], "status": "finished",
                     "players": "Ann; Bob; Cy", "winners": "Ann", "turns": "4", "actions": "22", "minutes": "0.1"}]
    assert main(["stats", "--csv", "--config", str(config)]) == 0
    players_part, monsters_part = capsys.readouterr().out.split("\n\n")
    players = {r["name"]: r for r in csv.DictReader(io.StringIO(players_part))}
    assert players["Ann"]["kills"] == "2" and players["Bob"]["runs_escaped"] == "1" and players["Cy"]["deaths"] == "1"
    monsters = {r["card"]: r for r in csv.DictReader(io.StringIO(monsters_part))}
    assert monsters["net-troll"]["won"] == "1" and monsters["net-troll"]["name"] == "Net Troll"


def test_several_games_add_up_and_an_abandoned_one_stays_listed(tmp_path: Path, capsys) -> None:
    config = setup_dir(tmp_path)
    play(config, GAME_ONE, tmp_path)
    # A second game from the game-over screen: Bob kills the goblin (level 2), and the game is
    # left unfinished when the box goes off.
    play(config, """
press next
tap player-2
tap player-3
tap player-1
press next
tap boots-of-butt-kicking
tap lame-goblin
press next
wait 3
""", tmp_path, "two.txt")
    history = cli_json(capsys, "history", "--json", "--config", str(config))
    assert [(g["id"], g["status"], g["ended"]) for g in history] == [(1, "finished", history[0]["ended"]),
                                                                    (2, "unfinished", None)]
    assert history[1]["players"] == ["Bob", "Cy", "Ann"]          # seating order: the order of joining
    # The box comes back on: the unfinished game is offered; NEXT twice abandons it for a new one.
    state = play(config, "press next\npress next\ntap player-1\n", tmp_path, "three.txt")
    assert state["phase"] == "setup" and [p["name"] for p in state["players"]] == ["Ann"]
    history = cli_json(capsys, "history", "--json", "--config", str(config))
    assert [(g["id"], g["status"], g["abandoned"]) for g in history] == [(1, "finished", False),
                                                                        (2, "abandoned", True)]
    assert history[1]["ended"] is not None and history[1]["winners"] == []
    stats = cli_json(capsys, "stats", "--json", "--config", str(config))
    bob = next(p for p in stats["players"] if p["name"] == "Bob")
    assert (bob["games"], bob["wins"], bob["kills"], bob["highest_level"]) == (2, 0, 1, 2)
    assert stats["games"] == 2
    goblin = next(m for m in stats["monsters"] if m["card"] == "lame-goblin")
    assert (goblin["fought"], goblin["killed"]) == (2, 2)


def test_state_shows_the_unfinished_game_itself_not_the_offer_to_resume_it(tmp_path: Path, capsys) -> None:
    config = setup_dir(tmp_path)
    played = play(config, "tap player-1\ntap player-2\ntap player-3\npress next\n", tmp_path)
    looked = cli_json(capsys, "state", "--config", str(config))
    assert looked["prompt"] is None
    assert looked == played


def test_the_unfinished_game_plays_on_after_anything_but_next(tmp_path: Path, capsys) -> None:
    config = setup_dir(tmp_path)
    play(config, "tap player-1\ntap player-2\ntap player-3\npress next\n", tmp_path)
    state = play(config, "press undo\npress next\n", tmp_path, "again.txt")   # UNDO plays on; NEXT ends the phase
    assert state["phase"] == "look-for-trouble"
    history = cli_json(capsys, "history", "--json", "--config", str(config))
    assert [(g["status"], g["actions"]) for g in history] == [("unfinished", 5)]


def controller(tmp_path: Path, **rules):
    from drivers.base import ManualClock
    from table.config import parse_config
    from table.control.assembly import build_table

    cfg = parse_config({"rules": {"winning_level": 3, **rules},
                        "players": {"player-1": {"name": "Ann"}, "player-2": {"name": "Bob"},
                                    "player-3": {"name": "Cy"}}})
    clock = ManualClock()
    return build_table(cfg, clock, state_dir=tmp_path / "state", seed_source=lambda: 1, wall=lambda: 1000 + clock.now)


def run(table, script: str) -> list:
    from drivers.sim import SimButtons, SimReader
    from table.sim.script import parse_script
    from table.sim.harness import perform

    clock = table.controller.clock
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    outcomes = []
    for action in parse_script(script, table.catalog, source="test"):
        outcomes += perform(action, table, reader, buttons, clock)
    return outcomes


def summary(table) -> dict:
    ctl = table.controller
    return ctl.records.summary(ctl.state, ctl.history_len)


def test_undone_kills_deaths_and_wins_do_not_count(tmp_path: Path) -> None:
    table = controller(tmp_path, interference_seconds=0)     # NEXT kills at once: one action to undo
    run(table, "tap player-1\ntap player-2\ntap player-3\npress next\ntap boots-of-butt-kicking\ntap lame-goblin\n"
               "press next\n")
    assert summary(table)["per_player"][0]["kills"] == 1
    run(table, "press undo\n")                  # the kill is taken back
    s = summary(table)
    assert s["per_player"][0]["kills"] == 0 and s["monsters"] == {} and s["per_player"][0]["highest_level"] == 1
    run(table, "press next\n")                  # and won again: one kill, not two
    assert summary(table)["per_player"][0]["kills"] == 1
    run(table, "press next\ntap unspeakably-awful-indescribable-horror\npress run\ndie 1\npress roll\n")  # Bob dies
    assert summary(table)["per_player"][1]["deaths"] == 1
    run(table, "press undo\n")
    assert summary(table)["per_player"][1]["deaths"] == 0
    assert summary(table)["per_player"][1]["runs"] == 0
    # The stored row follows every undo: a fresh table on the same journal reads the same facts.
    table.journal.close()
    again = controller(tmp_path)
    assert summary(again)["per_player"][1]["deaths"] == 0
    assert summary(again)["per_player"][0]["kills"] == 1


def test_undoing_the_win_reopens_the_game(tmp_path: Path) -> None:
    table = controller(tmp_path, winning_level=2, interference_seconds=0)
    run(table, "tap player-1\ntap player-2\ntap player-3\nwait 60\npress next\ntap boots-of-butt-kicking\n"
               "wait 120\ntap lame-goblin\npress next\n")
    s = summary(table)
    assert s["status"] == "finished" and s["winners"] == ["Ann"]
    assert (s["started"], s["ended"], s["minutes"]) == (1060.0, 1180.0, 2.0)
    run(table, "press undo\n")
    s = summary(table)
    assert s["status"] == "unfinished" and s["winners"] == [] and s["ended"] is None


def test_a_roll_taken_again_replaces_the_first(tmp_path: Path) -> None:
    """Invisibility (Bob's) after a deadly catch: the death never happened, the run escaped."""
    table = controller(tmp_path)
    run(table, "tap player-1\ntap player-2\ntap player-3\npress next\n"
               "tap unspeakably-awful-indescribable-horror\npress run\ndie 1\npress roll\n")
    ann = summary(table)["per_player"][0]
    assert (ann["deaths"], ann["runs"], ann["escaped"]) == (1, 1, 0)
    outcomes = run(table, "tap player-2\ntap invisibility-potion\n")     # Bob plays it for her
    assert outcomes and outcomes[-1].accepted, outcomes[-1].message
    s = summary(table)
    ann = s["per_player"][0]
    assert (ann["deaths"], ann["runs"], ann["escaped"]) == (0, 1, 1)
    assert s["monsters"]["unspeakably-awful-indescribable-horror"] == {"fought": 1, "won": 1, "killed": 0}
    run(table, "press undo\n")                  # the potion undone: the death is back
    assert summary(table)["per_player"][0]["deaths"] == 1


def test_game_over_facts_name_the_biggest_fight_and_who_helped_whom(tmp_path: Path) -> None:
    table = controller(tmp_path)
    run(table, "tap player-1\ntap player-2\ntap player-3\npress next\ntap boots-of-butt-kicking\n"
               "tap gelatinous-octahedron\npress help\ntap player-2\npress next\nwait 3\npress next\n")
    s = summary(table)
    assert s["helps"] == [["Bob", "Ann", 1]]
    assert s["biggest_fight"] == {"fighters": ["Ann", "Bob"], "monsters": ["gelatinous-octahedron"],
                                  "players": 4, "monsters_strength": 2, "how": "kill"}


def test_rows_missing_or_behind_the_journal_are_rebuilt(tmp_path: Path, capsys) -> None:
    config = setup_dir(tmp_path)
    play(config, GAME_ONE, tmp_path)
    play(config, "press next\ntap player-1\ntap player-2\ntap player-3\npress next\ntap boots-of-butt-kicking\n",
         tmp_path, "two.txt")
    before = cli_json(capsys, "stats", "--json", "--config", str(config))
    db = sqlite3.connect(tmp_path / "state" / "journal.sqlite3")
    db.execute("DROP TABLE game_record")        # a journal kept before the games were remembered
    db.commit()
    db.close()
    assert cli_json(capsys, "history", "--json", "--config", str(config)) == []
    play(config, "press undo\n", tmp_path, "three.txt")      # opened, no action: nothing is written
    assert cli_json(capsys, "history", "--json", "--config", str(config)) == []
    play(config, "press undo\npress next\n", tmp_path, "four.txt")      # UNDO plays on; the first action rebuilds
    history = cli_json(capsys, "history", "--json", "--config", str(config))
    assert [(g["id"], g["status"], g["actions"]) for g in history] == [(1, "finished", 22), (2, "unfinished", 6)]
    after = cli_json(capsys, "stats", "--json", "--config", str(config))
    assert after == before


def test_history_and_stats_only_read(tmp_path: Path, capsys) -> None:
    config = setup_dir(tmp_path)
    assert cli_json(capsys, "history", "--json", "--config", str(config)) == []
    assert cli_json(capsys, "stats", "--json", "--config", str(config)) == {"games": 0, "players": [], "monsters": []}
    assert not (tmp_path / "state").exists()
    play(config, GAME_ONE, tmp_path)
    files = {p.name: p.read_bytes() for p in (tmp_path / "state").iterdir() if p.is_file()}
    for fmt in ("--json", "--csv", None):
        for what in ("history", "stats"):
            assert main([what, "--config", str(config), *([fmt] if fmt else [])]) == 0
    assert {p.name: p.read_bytes() for p in (tmp_path / "state").iterdir() if p.is_file()} == files
    text = capsys.readouterr().out
    assert "#1" in text and "won: Ann" in text and "Net Troll" in text


def test_a_damaged_database_is_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    config = setup_dir(tmp_path)
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "journal.sqlite3").write_bytes(b"this is not a database" * 100)
    capsys.readouterr()
    assert main(["history", "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot read the saved games" in err[0]


def test_a_name_is_picked_from_names_seen_before(tmp_path: Path) -> None:
    from drivers.base import ManualClock
    from table.config import parse_config
    from table.control.assembly import build_table

    first = controller(tmp_path)
    run(first, "tap player-1\ntap player-2\ntap player-3\npress next\n")
    first.journal.close()
    # Another evening, without names in the config: the tokens join as Player 1..3, and the
    # names of the last game are offered.
    clock = ManualClock()
    table = build_table(parse_config({}), clock, state_dir=tmp_path / "state", seed_source=lambda: 1)
    ctl = table.controller
    run(table, "press next\npress next\ntap player-1\ntap player-2\ntap player-3\n")
    assert [p.name for p in ctl.state.players] == ["Player 1", "Player 2", "Player 3"]
    run(table, "tap player-2\n")
    assert ctl.prompt is not None and ctl.prompt.kind == "name"
    assert ctl.name_choices == ["Player 2", "Ann", "Bob", "Cy"]
    assert ctl.soft_keys()["roll"] == "Next name"
    run(table, "press roll\ntap player-2\n")    # ROLL and the token step on: Ann, Bob
    assert ctl.prompt.value == 2
    run(table, "press next\n")
    assert ctl.state.player("player-2").name == "Bob" and ctl.prompt is None
    run(table, "tap player-1\npress run\npress next\n")      # RUN steps back: to Cy
    assert ctl.state.player("player-1").name == "Cy"
    run(table, "tap player-3\n")
    assert "Bob" not in ctl.name_choices and "Cy" not in ctl.name_choices   # taken at this table
    run(table, "press undo\n")                   # UNDO keeps the old name
    assert ctl.prompt is None and ctl.state.player("player-3").name == "Player 3"
    run(table, "press undo\n")                   # and UNDO again takes back the rename
    assert ctl.state.player("player-1").name == "Player 1"


def test_the_engine_refuses_a_name_already_at_the_table(catalog) -> None:
    from engine import commands as c
    from engine.game import apply, new_game
    from engine.results import Rejected

    state = new_game(1)
    for token, name in (("player-1", "Ann"), ("player-2", "Bob")):
        state = apply(state, c.Join(player=token, name_=name), catalog).state
    refused = apply(state, c.Rename(player="player-2", name_="ann"), catalog)
    assert isinstance(refused, Rejected) and refused.message == "another player is already called ann"
    assert isinstance(apply(state, c.Rename(player="player-2", name_=" "), catalog), Rejected)
    renamed = apply(state, c.Rename(player="player-2", name_="  Dee  "), catalog)
    assert renamed.state.player("player-2").name == "Dee"
    started = apply(apply(renamed.state, c.Join(player="player-3"), catalog).state, c.StartGame(), catalog).state
    assert isinstance(apply(started, c.Rename(player="player-2", name_="Eve"), catalog), Rejected)


def test_setup_buttons_open_the_standings_and_the_past_games(tmp_path: Path) -> None:
    config_dir = tmp_path
    table = controller(config_dir)
    for _ in range(10):                          # ten short games, each won by Ann's second kill
        run(table, "tap player-1\ntap player-2\ntap player-3\npress next\ntap boots-of-butt-kicking\n"
                   "tap lame-goblin\npress next\nwait 3\npress next\npress next\npress next\npress next\n"
                   "press next\npress next\npress next\ntap lame-goblin\npress next\nwait 3\n")
        assert table.controller.state.phase.value == "game-over"
        run(table, "press next\n")
    ctl = table.controller
    assert ctl.soft_keys()["help"] == "Standings" and ctl.soft_keys()["run"] == "Past games"
    run(table, "press help\n")
    assert ctl.prompt.kind == "standings"
    from table.control.records import screen_view

    view = screen_view(ctl)
    assert [r["name"] for r in view["rows"]] == ["Ann", "Bob", "Cy"]
    assert view["rows"][0]["wins"] == 10 and view["pages"] == 1
    run(table, "press run\n")
    view = screen_view(ctl)
    assert view["kind"] == "games" and view["pages"] == 2 and view["total"] == 10
    assert [r["id"] for r in view["rows"]] == [10, 9, 8, 7, 6, 5, 4, 3]     # the newest first
    run(table, "press next\n")
    assert [r["id"] for r in screen_view(ctl)["rows"]] == [2, 1]
    run(table, "press next\n")                   # past the last page: back to the first
    assert screen_view(ctl)["page"] == 1
    run(table, "press roll\n")
    assert screen_view(ctl)["page"] == 2
    run(table, "press undo\n")
    assert ctl.prompt is None and ctl.state.phase.value == "setup"
    run(table, "press help\ntap player-1\n")     # a token goes back to the setup and joins
    assert ctl.prompt is None and [p.id for p in ctl.state.players] == ["player-1"]


def test_json_and_csv_exclude_each_other() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["history", "--json", "--csv"])
    assert exc.value.code == 2


def test_what_these_flows_say_is_translated(tmp_path: Path) -> None:
    """Every message, prompt and soft key of the names, standings, past games and resume flows, in es and zh."""
    from table.words import i18n

    table = controller(tmp_path)
    run(table, "tap player-1\ntap player-2\ntap player-3\npress next\n")
    table.journal.close()
    table = controller(tmp_path)                 # the unfinished game is found on start
    ctl = table.controller
    seen: list[tuple[str, bool]] = []

    def note() -> None:
        for text in (ctl.message.text if ctl.message else "", ctl.prompt.text if ctl.prompt else ""):
            if text:
                seen.append((text, False))
        seen.extend((k, True) for k in ctl.soft_keys().values() if k)

    note()
    for line in ("press next", "press next", "tap player-1", "tap player-2", "tap player-3", "tap player-2",
                 "press roll", "press help", "press next", "tap player-2", "press next", "tap player-1",
                 "press undo", "press help", "press next", "press run", "press roll", "press undo"):
        run(table, line + "\n")
        note()
    assert len({t for t, _k in seen}) > 15
    untranslated = []
    for lang in ("es", "zh"):
        i18n.set_language(lang)
        try:
            for text, key in seen:
                shown = i18n.text(text)
                if shown == text:
                    untranslated.append(f"{lang}: {text}")
        finally:
            i18n.set_language("en")
    assert not untranslated, "\n".join(sorted(set(untranslated)))


def test_the_commands_read_the_journal_the_table_writes() -> None:
    from table.web import records as records_web

    from table.storage.paths import JOURNAL_FILE
    assert records_web.JOURNAL_FILE == JOURNAL_FILE


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_screens_show_the_facts(tmp_path: Path, size) -> None:
    """Game over: the facts beside the chart; setup: standings and past games; a name being chosen."""
    from table.ui.display import Display
    from table.ui.view import build_view

    table = controller(tmp_path)
    run(table, GAME_ONE)
    display = Display(size, language="en")
    try:
        def shown(script: str = "") -> list[str]:
            run(table, script)
            display.render(build_view(table.controller, language="en"))
            screen = display.window.get_rect()
            for d in display.drawn:
                assert d.box.contains(d.rect) and screen.contains(d.box), d.text
            return [d.text for d in display.drawn]

        texts = shown()
        assert "game-facts" in display.panels and "chart" in display.panels
        facts = " ".join(texts)
        for expected in ("Kills: Ann 2", "Deaths: Cy 1", "Ann helped Bob", "4 turns, 0.1 min"):
            assert expected in facts, (expected, texts)
        assert "Biggest fight: Cy vs Unspeakably Awful" in facts
        texts = shown("press next\npress help\n")
        assert "records" in display.panels and "Standings" in texts
        row = texts[texts.index("Ann"):texts.index("Ann") + 7]
        assert row == ["Ann", "1", "1", "2", "0", "3", "1"]      # games, wins, kills, deaths, best level, helped
        texts = shown("press run\n")
        assert "Past games" in texts and "#1" in texts and "won: Ann" in texts and "Ann, Bob, Cy" in texts
        texts = shown("press undo\ntap player-3\ntap player-3\n")
        assert "name-choice" in display.panels and "Cy" in texts and "1 / 4" in texts     # Cy, Ann, Bob, Player 3
        texts = shown("press roll\n")
        assert "Ann" in texts and "2 / 4" in texts
    finally:
        display.close()
        table.journal.close()


def test_opening_a_game_to_read_it_writes_no_facts(tmp_path: Path, capsys) -> None:
    config = setup_dir(tmp_path)
    play(config, "tap player-1\ntap player-2\ntap player-3\npress next\n", tmp_path)

    def rows() -> list:
        db = sqlite3.connect(tmp_path / "state" / "journal.sqlite3")
        try:
            return db.execute("SELECT * FROM game_record").fetchall()
        finally:
            db.close()

    before = rows()
    assert len(before) == 1
    assert main(["state", "--config", str(config)]) == 0
    assert rows() == before


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_facts_after_any_undos_equal_those_of_the_game_as_it_stands(tmp_path: Path, seed: int) -> None:
    """Play with undos sprinkled in: the kept facts equal the facts of replaying only what remains."""
    import random

    from bench._games import long_script
    from table.session.facts import fold_commands

    rng = random.Random(seed)
    lines = []
    for number, line in enumerate(long_script(400, players=4, seed=seed)):
        lines.append(line)
        if number > 6 and rng.random() < 0.15:          # once the game has started
            lines += ["press undo"] * rng.randint(1, 3)
    table = controller(tmp_path, winning_level=10)
    run(table, "\n".join(lines) + "\n")
    ctl = table.controller
    kept = ctl.records.summary(ctl.state, ctl.history_len)
    facts, state, n = fold_commands(ctl.catalog, ctl.game.seed, ctl.game.ruleset, ctl.history.commands)
    rebuilt = facts.summary(ctl.game.id, state, n)
    for key in ("started", "ended", "minutes"):
        kept.pop(key), rebuilt.pop(key)
    assert kept == rebuilt
    assert sum(p["runs"] for p in kept["per_player"]) > 10          # the game did run from monsters


def test_history_reads_while_the_table_plays(tmp_path: Path, capsys) -> None:
    """With the table running (its journal open, the -wal file present), the facts are current."""
    config = setup_dir(tmp_path)
    from drivers.base import ManualClock
    from table.config import load_config
    from table.control.assembly import build_table

    clock = ManualClock()
    table = build_table(load_config(config), clock, seed_source=lambda: 1)
    try:
        run(table, "tap player-1\ntap player-2\ntap player-3\npress next\ntap boots-of-butt-kicking\ntap lame-goblin\n"
                   "press next\nwait 3\n")
        assert (tmp_path / "state" / "journal.sqlite3-wal").exists()
        history = cli_json(capsys, "history", "--json", "--config", str(config))
        assert [(g["status"], g["actions"], g["turns"]) for g in history] == [("unfinished", 8, 1)]
        stats = cli_json(capsys, "stats", "--json", "--config", str(config))
        assert stats["players"][0]["name"] == "Ann" and stats["players"][0]["kills"] == 1
        run(table, "press next\n")
        assert cli_json(capsys, "history", "--json", "--config", str(config))[0]["actions"] == 9
    finally:
        table.journal.close()


def test_web_pages_and_api_carry_the_same_facts(tmp_path: Path, capsys) -> None:
    from table.words import i18n
    from table.web.records import api_json, history_data, history_page, stats_data, stats_page

    config = setup_dir(tmp_path)
    play(config, GAME_ONE, tmp_path)
    state_dir = tmp_path / "state"
    assert json.loads(api_json(history_data(state_dir))) == cli_json(capsys, "history", "--json", "--config", str(config))
    from cards.loader import load_catalog

    stats = stats_data(state_dir, load_catalog())
    assert json.loads(api_json(stats)) == cli_json(capsys, "stats", "--json", "--config", str(config))
    page = history_page(history_data(state_dir), key="k<1>")
    assert "Ann, Bob, Cy" in page and "won: Ann" in page and "k<1>" not in page and "k&lt;1&gt;" in page
    page = stats_page(stats)
    assert "<td>Ann</td>" in page and "Net Troll" in page
    i18n.set_language("zh")
    try:
        page = stats_page(stats, "zh", names={"net-troll": "网巨魔"})
        assert "排行榜" in page and "网巨魔" in page and "怪物" in page
    finally:
        i18n.set_language("en")
    assert "no games yet" in history_page([]) and "no games yet" in stats_page({"players": [], "monsters": []})


def test_hundreds_of_games_are_listed_from_their_facts_without_a_replay(tmp_path: Path, capsys, monkeypatch) -> None:
    """300 games: history lists them all and stats adds them up, and neither replays a game."""
    import engine.game
    import table.session.facts

    config = setup_dir(tmp_path)
    play(config, GAME_ONE, tmp_path)
    db = sqlite3.connect(tmp_path / "state" / "journal.sqlite3")
    with db:
        for gid in range(2, 301):
            db.execute("INSERT INTO game (id, seed, ruleset, created) SELECT ?, seed, ruleset, created FROM game "
                       "WHERE id = 1", (gid,))
            db.execute("INSERT INTO command SELECT ?, seq, body, crc FROM command WHERE game = 1", (gid,))
            db.execute("INSERT INTO game_record SELECT ?, status, started, ended, last, actions, "
                       "json_set(brief, '$.id', ?), tally, log FROM game_record WHERE game = 1", (gid, gid))
    db.close()

    def no_replay(*args, **kwargs):
        raise AssertionError("history and stats must not replay games")

    monkeypatch.setattr(table.session.facts, "fold_commands", no_replay)
    monkeypatch.setattr(engine.game, "apply", no_replay)
    history = cli_json(capsys, "history", "--json", "--config", str(config))
    assert [g["id"] for g in history] == list(range(1, 301))
    assert all(g["winners"] == ["Ann"] and g["actions"] == 22 for g in history)
    stats = cli_json(capsys, "stats", "--json", "--config", str(config))
    ann = stats["players"][0]
    assert (stats["games"], ann["name"], ann["games"], ann["wins"], ann["kills"]) == (300, "Ann", 300, 300, 600)
    troll = next(m for m in stats["monsters"] if m["card"] == "net-troll")
    assert (troll["fought"], troll["won"]) == (300, 300)
