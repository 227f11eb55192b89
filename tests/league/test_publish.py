"""A box publishes its games to a real Mosquitto: outbox, PUBACK, restart, the broker killed."""

from __future__ import annotations

from pathlib import Path

from tests.league.rig import ANN_WINS, BOB_WINS, Box, league_config, read, until


def test_a_finished_game_reaches_the_broker_and_leaves_the_outbox(tmp_path: Path, broker) -> None:
    box = Box(league_config(tmp_path / "a", broker.url(), "table-a"))
    try:
        box.play(ANN_WINS)
        assert box.phase == "game-over"
        until(lambda: box.waiting() == 0 and box.publisher.acknowledged == 1, what="the PUBACK")
        league = read(box.config)
        game = league.games[("table-a", box.table.controller.game_id)]
        assert game["table"] == "table-a" and game["league"] == "friday"
        assert game["history"]["status"] == "finished" and game["history"]["winners"] == ["Ann"]
        assert [p["name"] for p in game["tally"]["per_player"]] == ["Ann", "Bob", "Cy"]
        until(lambda: (read(box.config).tables["table-a"].state or {}).get("phase") == "game-over",
              what="the latest state")
        seen = read(box.config).tables["table-a"]
        assert seen.online is True and seen.state is not None and seen.state["winners"] == ["player-1"]
    finally:
        box.close()
    until(lambda: read(box.config).tables["table-a"].online is False, what="online false after close")


def test_a_box_that_drops_off_without_a_goodbye_is_offline_by_its_last_will(tmp_path: Path, broker) -> None:
    import signal
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    config = league_config(tmp_path / "a", broker.url(), "table-a")
    proc = subprocess.Popen([sys.executable, "-m", "tests.league.standalone", str(tmp_path / "a"), broker.url(),
                             "table-a"], cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        until(lambda: read(config).tables.get("table-a") is not None
              and read(config).tables["table-a"].online is True, timeout=30, what="online")
    finally:
        proc.send_signal(signal.SIGKILL)            # the box loses its power: no goodbye, no DISCONNECT
        proc.wait(10)
    until(lambda: read(config).tables["table-a"].online is False, what="the last will")
