"""The state as the table thread writes it (table/league/publisher.py): one MQTT PUBLISH of its own,
QoS 0 and retained, that the broker takes whole, never in the middle of a packet of paho's."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from table.league.publisher import publish_packet
from tests.league.rig import Box, league_config, read, until


def test_a_state_of_any_size_reaches_the_broker_whole_and_retained(tmp_path: Path, broker) -> None:
    box = Box(league_config(tmp_path / "a", broker.url(), "table-a"))
    try:
        until(lambda: box.publisher.connected, what="connected")
        state = box.table.controller.state
        for size in (10, 200, 20_000, 300_000):         # remaining lengths of 1, 2 and 3 bytes
            state = dataclasses.replace(state, turn=state.turn + 1)
            data = {"phase": "setup", "turn": state.turn, "pad": "é" * size}
            box.publisher.state(state, data)
            until(lambda: (read(box.config).tables["table-a"].state or {}).get("turn") == state.turn,
                  what=f"the {size}-character state")
            assert read(box.config).tables["table-a"].state == data
        assert box.publisher.problem is None and box.publisher.connected
    finally:
        box.close()


def test_the_packet_is_an_mqtt_5_publish_at_qos_0_retained() -> None:
    packet = publish_packet(b"munchkin/friday/tables/t/state", b"{}")
    assert packet[0] == 0x31                            # PUBLISH, QoS 0, retain
    assert packet[1] == len(packet) - 2                 # one byte of remaining length
    assert packet[2:4] == (30).to_bytes(2, "big") and packet[4:34] == b"munchkin/friday/tables/t/state"
    assert packet[34] == 0 and packet[35:] == b"{}"     # no properties, then the payload
    long = publish_packet(b"t", b"x" * 16_384)          # 16,388 bytes after the fixed header: 3 bytes of length
    assert long[1:4] == bytes([0x84 | 0x80, 0x80, 0x01]) and len(long) == 1 + 3 + 16_388


class Trickle:
    """A socket that takes ``per_call`` bytes at a time and is full after ``calls`` calls."""

    def __init__(self, per_call: int, calls: int) -> None:
        self.per_call, self.calls, self.got = per_call, calls, bytearray()

    def send(self, data: bytes) -> int:
        if self.calls == 0:
            raise BlockingIOError
        self.calls -= 1
        self.got += data[:self.per_call]
        return min(self.per_call, len(data))


def test_what_the_socket_does_not_take_is_finished_before_paho_writes_again(tmp_path: Path, broker) -> None:
    box = Box(league_config(tmp_path / "a", broker.url(), "table-a"))
    publisher = box.publisher
    try:
        until(lambda: publisher.connected, what="connected")
        packet = publish_packet(b"t", b"y" * 5000)
        with publisher._io:
            publisher._unsent.append(packet)
            sock = Trickle(1000, 2)
            assert publisher._finish_unsent(sock) is False          # full after 2,000 bytes
            assert bytes(sock.got) + publisher._unsent[0] == packet  # the rest, exactly, waits
            sock.calls = 10
            assert publisher._finish_unsent(sock) is True
            assert bytes(sock.got) == packet and not publisher._unsent
    finally:
        box.close()


def test_a_state_never_goes_into_the_middle_of_a_packet_of_pahos(tmp_path: Path, broker, monkeypatch) -> None:
    box = Box(league_config(tmp_path / "a", broker.url(), "table-a"))
    publisher = box.publisher
    try:
        until(lambda: publisher.connected, what="connected")
        client = publisher._client
        assert client is not None
        monkeypatch.setattr(client, "want_write", lambda: True)    # paho has bytes of its own queued
        sent = publisher.states_sent
        state = dataclasses.replace(box.table.controller.state, turn=99)
        with publisher._io:
            assert publisher._publish_state(state, {"turn": 99}) is False
        assert publisher.states_sent == sent and publisher._state == (state, {"turn": 99})    # it waits
        monkeypatch.undo()
        publisher._ring()
        until(lambda: (read(box.config).tables["table-a"].state or {}).get("turn") == 99, what="sent afterwards")
    finally:
        box.close()


def test_a_subscriber_gets_the_state_as_retained_json(tmp_path: Path, broker) -> None:
    box = Box(league_config(tmp_path / "a", broker.url(), "table-a"))
    got: list[Any] = []
    try:
        until(lambda: publisher_sent(box), what="the first state")
        sub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="state-sub", protocol=mqtt.MQTTv5)
        sub.username_pw_set("board", "pw-board")
        sub.on_message = lambda _c, _u, m: got.append(m)
        sub.connect("127.0.0.1", broker.port)
        sub.loop_start()
        sub.subscribe("munchkin/friday/tables/table-a/state", 1)
        until(lambda: bool(got), what="the retained state")
        sub.disconnect()
        sub.loop_stop()
        assert got[0].retain and json.loads(got[0].payload)["phase"] == "setup"
    finally:
        box.close()


def publisher_sent(box: Box) -> bool:
    return box.publisher.states_sent > 0
