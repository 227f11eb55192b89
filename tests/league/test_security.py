"""Credentials, TLS and the documented ACL against a real Mosquitto: one clear line, and the game goes on."""

from __future__ import annotations

import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from table.league.connection import LeagueError
from table.league.watch import read_league
from tests.league.broker import make_ca, sign
from tests.league.rig import ANN_WINS, Box, league_config, read, until


def test_a_table_cannot_write_another_tables_topics_under_the_documented_acl(broker) -> None:
    acks: dict[int, int] = {}
    done = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="intruder", protocol=mqtt.MQTTv5)
    client.username_pw_set("table-a", "pw-a")

    def on_publish(_c, _u, mid, reason, _p) -> None:
        acks[mid] = reason.value
        if len(acks) == 3:
            done.set()

    client.on_publish = on_publish
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        own = client.publish("munchkin/friday/games/table-a/900", '{"x": 1}', qos=1, retain=True).mid
        other_game = client.publish("munchkin/friday/games/table-b/900", '{"x": 1}', qos=1, retain=True).mid
        other_state = client.publish("munchkin/friday/tables/table-b/state", '{"phase": "x"}', qos=1, retain=True).mid
        assert done.wait(10)
    finally:
        client.disconnect()
        client.loop_stop()
    assert acks[own] < 128                                          # taken (16: nobody subscribed yet)
    assert acks[other_game] == 135 and acks[other_state] == 135      # not authorized
    config = league_config(broker.where / "reader", broker.url(), "board", password="pw-board")
    league = read(config)
    assert league.bad == 1                  # table-a's own went in (and is no game: read, left out)
    assert ("table-b", 900) not in league.games and "table-b" not in league.tables


def test_a_box_whose_acl_refuses_its_topic_keeps_its_game_and_says_why(tmp_path: Path, broker) -> None:
    # table-b's name with table-a's login: the ACL lets it write only munchkin/friday/*/table-a/#
    config = league_config(tmp_path / "b", broker.url(), "table-b", password="pw-a", username="table-a")
    box = Box(config)
    try:
        box.play(ANN_WINS)
        until(lambda: box.publisher.problem is not None and "ACL" in str(box.publisher.problem), what="the refusal")
        assert box.waiting() == 1 and box.publisher.acknowledged == 0
        assert box.phase == "game-over"
    finally:
        box.close()


def refused_and_plays_on(config, words: str) -> Box:  # type: ignore[no-untyped-def]
    """A box the broker will not take: one line saying ``words``, and its game played to the end
    anyway, the game's facts kept in the outbox."""
    box = Box(config)
    try:
        until(lambda: box.publisher.problem is not None, what="the refusal")
        line = str(box.publisher.problem)
        assert words in line and "\n" not in line, line
        box.play(ANN_WINS)
        assert box.phase == "game-over" and box.waiting() == 1
    finally:
        box.close()
    return box


def test_a_wrong_password_is_one_clear_line_and_the_game_goes_on(tmp_path: Path, broker) -> None:
    box = refused_and_plays_on(league_config(tmp_path / "a", broker.url(), "table-a", password="nope"),
                               "wrong username or password")
    assert "table-a" in str(box.publisher.problem)
    with pytest.raises(LeagueError, match="wrong username or password"):
        read_league(box.config.league, timeout=5)


def test_a_broker_certificate_from_another_ca_is_one_clear_line_and_the_game_goes_on(tmp_path: Path, broker) -> None:
    other_ca = make_ca(tmp_path / "other", "other-ca")
    refused_and_plays_on(league_config(tmp_path / "a", broker.url("tls"), "table-a", ca=str(other_ca[0])),
                         "certificate is not trusted")


def test_tls_with_the_right_ca_publishes(tmp_path: Path, broker) -> None:
    box = Box(league_config(tmp_path / "a", broker.url("tls"), "table-a", ca=str(broker.ca[0])))
    try:
        box.play(ANN_WINS)
        until(lambda: box.waiting() == 0, what="the PUBACK over TLS")
    finally:
        box.close()


def test_a_client_certificate_the_broker_does_not_trust_is_refused_clearly(tmp_path: Path, broker) -> None:
    other_ca = make_ca(tmp_path / "other", "other-ca")
    crt, key = sign(tmp_path / "other", other_ca, "table-a", server=False)
    refused_and_plays_on(league_config(tmp_path / "a", broker.url("cert"), "table-a", username="", password="",
                                       ca=str(broker.ca[0]), cert=str(crt), key=str(key)),
                         "refused this box's certificate")


def test_a_client_certificate_the_broker_trusts_publishes_as_its_table(tmp_path: Path, broker) -> None:
    crt, key = sign(broker.where / "ca", broker.ca, "table-a", server=False)
    box = Box(league_config(tmp_path / "a", broker.url("cert"), "table-a", username="", password="",
                            ca=str(broker.ca[0]), cert=str(crt), key=str(key)))
    try:
        box.play(ANN_WINS)
        until(lambda: box.waiting() == 0, what="the PUBACK with a client certificate")
    finally:
        box.close()
