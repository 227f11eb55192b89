"""The league heals (issue 44): a broker that lost its store, or an empty one in its place, gets every
box's acknowledged games again on the box's next connect, with the boxes running on; a broker that
holds them gets nothing twice."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from table.league.standings import standings
from tests.league.rig import ANN_WINS, BOB_WINS, CY_WINS, Box, by_name, league_config, read, received, until


def emptied(broker) -> None:
    """The broker's machine dies and a fresh broker takes its place: same address, nothing retained."""
    broker.kill()
    shutil.rmtree(broker.where / "data")
    (broker.where / "data").mkdir()
    broker.start()


def test_a_broker_replaced_by_an_empty_one_has_complete_standings_within_30_s(tmp_path: Path, broker) -> None:
    boxes = [Box(league_config(tmp_path / t, broker.url(), t)) for t in ("table-a", "table-b")]
    try:
        boxes[0].play(ANN_WINS)
        boxes[1].play(BOB_WINS)
        boxes[1].new_game()
        boxes[1].play(CY_WINS)
        until(lambda: all(b.waiting() == 0 for b in boxes), what="every game acknowledged")
        before = standings(read(boxes[0].config))
        assert before["games"] == 3
        emptied(broker)
        assert standings(read(boxes[0].config))["games"] == 0          # the new broker knows nothing
        until(lambda: standings(read(boxes[0].config))["games"] == 3, timeout=30, what="the standings complete again")
        assert by_name(standings(read(boxes[0].config))) == by_name(before)
        for box in boxes:                           # still running: connected, and a game goes on
            until(lambda: box.publisher.connected and box.publisher.problem is None, what="connected")
            box.new_game()
            box.play(ANN_WINS)
        until(lambda: standings(read(boxes[0].config))["games"] == 5, what="the games after it")
    finally:
        for box in boxes:
            box.close()


def test_a_box_that_starts_against_a_broker_that_lost_its_games_sends_them_again(tmp_path: Path, broker) -> None:
    config = league_config(tmp_path / "a", broker.url(), "table-a")
    box = Box(config)
    box.play(ANN_WINS)
    game = box.table.controller.game_id
    until(lambda: box.waiting() == 0, what="acknowledged")
    box.close()
    db = sqlite3.connect(tmp_path / "a" / "journal.sqlite3")           # the record is in the journal
    assert [g for (g,) in db.execute("SELECT game FROM league_sent")] == [game]
    db.close()
    emptied(broker)
    again = Box(config)
    try:
        until(lambda: ("table-a", game) in read(config).games, timeout=30, what="the game sent again")
        assert again.publisher.resent == 1
    finally:
        again.close()


def test_a_broker_that_kept_its_games_gets_nothing_again(tmp_path: Path, broker) -> None:
    box = Box(league_config(tmp_path / "a", broker.url(), "table-a"))
    try:
        box.play(ANN_WINS)
        game = box.table.controller.game_id
        topic = f"munchkin/friday/games/table-a/{game}"
        until(lambda: box.waiting() == 0 and broker.saved(topic), what="acknowledged and saved")
        looks = box.publisher.looks
        broker.kill()
        broker.start()                              # the same broker, its store kept
        until(lambda: box.publisher.looks > looks, timeout=30, what="the look after the reconnect")
        assert box.publisher.resent == 0 and box.waiting() == 0
        assert received(broker, topic) == 1
    finally:
        box.close()


def test_a_broker_holding_an_older_version_of_a_game_gets_the_one_it_acknowledged_last(tmp_path: Path,
                                                                                        broker) -> None:
    box = Box(league_config(tmp_path / "a", broker.url(), "table-a"))
    try:
        box.play(ANN_WINS)
        game = box.table.controller.game_id
        topic = f"munchkin/friday/games/table-a/{game}"
        store = broker.where / "data" / "mosquitto.db"
        until(lambda: box.publisher.acknowledged == 1, what="the win")
        box.play("press undo\n")                    # the end taken back: the broker holds "unfinished"
        until(lambda: box.publisher.acknowledged == 2 and broker.saved(topic) and b'"unfinished"' in store.read_bytes(),
              what="the undo, saved")
        saved = store.read_bytes()
        box.play("press next\n")                    # and won again
        until(lambda: box.publisher.acknowledged == 3, what="the win again")
        broker.kill()
        store.write_bytes(saved)                    # the broker restored from a backup older than the last win
        broker.start()
        until(lambda: read(box.config).games.get(("table-a", game), {}).get("history", {}).get("status")
              == "finished" and box.publisher.resent >= 1, timeout=30, what="the last version again")
    finally:
        box.close()
