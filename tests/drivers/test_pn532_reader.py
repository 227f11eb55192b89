"""The PN532 driver through the real serial.Serial, on a pty with the emulated chip."""

from __future__ import annotations

import queue
import time

import pytest

from drivers.base import ManualClock
from drivers.events import ReaderStatus, Tap
from drivers.pn532 import Pn532Reader, parse_target
from drivers.presence import backoff_delays
from tests.drivers.helpers import UID4, UID7, drain


@pytest.fixture
def clock():
    return ManualClock(10.0)


@pytest.fixture
def sink():
    return queue.Queue()


@pytest.fixture
def reader(emu, clock, sink):
    r = Pn532Reader(sink, clock=clock, port=emu.path, ack_timeout=0.05, answer_timeout=0.1)
    yield r
    r.close()


def polls(reader, clock, n, step=0.1):
    for _ in range(n):
        reader.poll_once()
        clock.advance(step)


def test_connect_wakes_and_configures_the_chip_and_reports_online(emu, reader, sink):
    assert reader.connect()
    assert emu.commands == [0x02, 0x14, 0x32]
    assert emu.max_retries == 0xFF  # look for ever: the chip answers when a card comes
    [status] = drain(sink)
    assert status.online and "PN532" in status.message and "firmware 1.6" in status.message


@pytest.mark.parametrize("uid", [UID4, UID7])
def test_a_card_gives_its_full_uid(emu, reader, clock, sink, uid):
    reader.connect()
    drain(sink)
    emu.present(uid)
    polls(reader, clock, 1)
    assert drain(sink) == [Tap(uid, 10.0, "pad")]


def test_a_card_held_for_five_seconds_is_one_tap_and_a_second_presentation_another(emu, reader, clock, sink):
    reader.connect()
    drain(sink)
    emu.present(UID4)
    polls(reader, clock, 50)
    emu.present(None)
    polls(reader, clock, 5)
    emu.present(UID4)
    polls(reader, clock, 5)
    assert [e.uid for e in drain(sink)] == [UID4, UID4]


def test_no_card_gives_no_event(emu, reader, clock, sink):
    reader.connect()
    drain(sink)
    polls(reader, clock, 10)
    assert drain(sink) == []


@pytest.mark.parametrize("fault", ["garbage", "bad_checksum", "nack", "silence"])
def test_a_spoilt_answer_is_retried_and_the_card_still_read(emu, reader, clock, sink, fault):
    reader.connect()
    drain(sink)
    emu.present(UID7)
    emu.inject(fault)
    polls(reader, clock, 1)
    assert drain(sink) == [Tap(UID7, 10.0, "pad")]
    assert reader.errors == (0 if fault == "garbage" else 1)


def test_a_chip_that_keeps_failing_is_given_up_on_after_bounded_retries(emu, reader, clock, sink):
    reader.connect()
    drain(sink)
    emu.present(UID4)
    emu.inject("silence", times=3)
    polls(reader, clock, 1)
    assert drain(sink) == []
    polls(reader, clock, 1)
    assert [type(e) for e in drain(sink)] == [Tap]


def test_a_missing_port_is_reported_offline_with_the_reason(tmp_path, sink, clock):
    r = Pn532Reader(sink, clock=clock, port=str(tmp_path / "ttyNOPE"))
    assert not r.connect()
    [status] = drain(sink)
    assert status == ReaderStatus("pad", False, status.message, 10.0)
    assert status.message.startswith("reader offline: ") and "does not exist" in status.message


def test_a_silent_chip_is_reported_offline(emu, reader, sink):
    emu.inject("silence", times=3)
    assert not reader.connect()
    [status] = drain(sink)
    assert not status.online and "no PN532 answers" in status.message


def test_unplug_reports_offline_and_replug_reinitialises_and_reports_online(emu, reader, clock, sink):
    reader.connect()
    emu.unplug()
    polls(reader, clock, 1)
    assert not reader.connect()  # still gone: no second offline event
    emu.plug()  # a fresh chip, asleep and unconfigured
    assert reader.connect()
    assert emu.commands[-3:] == [0x02, 0x14, 0x32] and emu.max_retries == 0xFF
    emu.present(UID4)
    polls(reader, clock, 1)
    events = drain(sink)
    assert [(type(e).__name__, getattr(e, "online", None)) for e in events] == [
        ("ReaderStatus", True),
        ("ReaderStatus", False),
        ("ReaderStatus", True),
        ("Tap", None),
    ]
    assert events[1].message.startswith("reader offline: ")
    assert reader.reconnects == 1


def test_the_thread_reconnects_by_itself_after_a_replug(emu, sink):
    with Pn532Reader(sink, port=emu.path, backoff=(0.01, 0.05), poll_interval=0.01) as r:
        assert sink.get(timeout=5).online
        emu.unplug()
        assert sink.get(timeout=5).online is False
        emu.plug()
        assert sink.get(timeout=5).online is True
        emu.present(UID7)
        tap = sink.get(timeout=5)
        assert tap.uid == UID7 and "online" in repr(r)
    assert "closed" in repr(r)


def test_back_off_doubles_from_half_a_second_to_five():
    delays = backoff_delays()
    assert [next(delays) for _ in range(6)] == [0.5, 1.0, 2.0, 4.0, 5.0, 5.0]


def test_parse_target_reads_seven_byte_uids_and_no_target():
    assert parse_target(bytes.fromhex("00")) is None
    assert parse_target(bytes.fromhex("01 01 0044 00 07 04A1B2C3D4E5F6")) == UID7


def test_close_is_idempotent(reader):
    reader.close()
    reader.close()
    assert repr(reader).endswith("closed>")
