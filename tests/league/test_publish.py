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
    import socket

    box = Box(league_config(tmp_path / "a", broker.url(), "table-a"))
    try:
        until(lambda: read(box.config).tables.get("table-a") is not None
              and read(box.config).tables["table-a"].online is True, what="online")
        publisher = box.publisher
        client = publisher._client
        assert client is not None
        publisher._goodbye = lambda: None           # its thread stops without a word, as when the box loses power
        publisher._stop.set()
        publisher._ring()
        publisher._thread.join(5)
        assert not publisher._thread.is_alive()
        sock = client.socket()
        assert sock is not None
        sock.shutdown(socket.SHUT_RDWR)             # the connection cut: no DISCONNECT
        until(lambda: read(box.config).tables["table-a"].online is False, what="the last will")
    finally:
        box.publisher.close()
        box.table.journal.close()
