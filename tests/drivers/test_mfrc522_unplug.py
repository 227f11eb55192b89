"""The MFRC522 stops answering after a good start: offline, back-off, online again (real mfrc522 0.0.7 code)."""

from __future__ import annotations


import pytest

from drivers.emulators.mfrc522 import Card, Mfrc522Chip
from drivers.events import ReaderStatus, Tap
from drivers.mfrc522_spi import Mfrc522Reader
from drivers.pn532 import Pn532Reader
from tests.drivers.helpers import drain, polls

UID4 = "A1B2C3D4"
UID7 = "04A1B2C3D4E5F6"

FAULTS = {
    "MISO low (0x00)": dict(reads=0x00),
    "MISO high (0xFF)": dict(reads=0xFF),
    "spidev raises OSError": dict(error=True),
}


@pytest.fixture
def chip(hw):
    return hw.attach(Mfrc522Chip(reset_pin=25))


@pytest.fixture
def reader(chip, clock, sink):
    r = Mfrc522Reader(sink, clock=clock)
    assert r.connect()
    yield r
    r.close()


@pytest.mark.parametrize("fault", FAULTS)
def test_a_chip_that_stops_answering_goes_offline_and_comes_back_online_when_replugged(hw, chip, reader, clock, sink, fault):
    chip.present(Card(UID7))
    polls(reader, clock, 0.5)
    chip.unplug(**FAULTS[fault])
    polls(reader, clock, 1.0)
    assert not reader.is_connected() and "offline" in repr(reader)
    for _ in range(3):
        assert not reader.connect()  # still gone: tried again, no second offline event
    assert hw.open_handles == 0  # the failed attempts closed every SPI handle they opened
    chip.plug()
    chip.present(None)
    assert reader.connect()
    chip.present(Card(UID4))
    polls(reader, clock, 0.5)
    events = drain(sink)
    assert [(type(e).__name__, getattr(e, "online", None)) for e in events] == [
        ("ReaderStatus", True), ("Tap", None), ("ReaderStatus", False), ("ReaderStatus", True), ("Tap", None),
    ]
    offline = events[2]
    assert offline == ReaderStatus("pad", False, offline.message, pytest.approx(50.5))
    assert offline.message.startswith("reader offline: ") and "spi0.0" in offline.message
    if "error" in FAULTS[fault]:
        assert "SPI error" in offline.message
    else:
        assert f"stopped answering (VersionReg 0x{FAULTS[fault]['reads']:02X})" in offline.message
    assert "MFRC522 v2.0 (VersionReg 0x92) ready" in events[3].message
    assert events[4].uid == UID4 and reader.reconnects == 1


def test_a_chip_power_cycled_between_two_polls_is_set_up_again_without_going_offline(chip, reader, clock, sink):
    chip.present(Card(UID4))
    polls(reader, clock, 0.5)
    chip.unplug()
    chip.plug()  # back before the next poll: registers reset, antenna off
    polls(reader, clock, 0.5)
    events = drain(sink)
    assert [type(e) for e in events] == [ReaderStatus, Tap, Tap]  # the card on it is presented again
    assert reader.reinits == 1 and reader.is_connected()


def test_no_card_costs_two_extra_register_reads_per_poll(chip, reader, clock):
    chip.transfers = 0
    polls(reader, clock, 1.0)
    per_poll = chip.transfers / 10
    assert per_poll < 20  # the liveness check is cheap; the WUPA with its timer dominates


class RecordingStop:
    """Stands in for the reader thread's stop event: records each wait, stops after ``n``."""

    def __init__(self, n):
        self.waits, self.n = [], n

    def is_set(self):
        return len(self.waits) >= self.n

    def wait(self, timeout):
        self.waits.append(timeout)
        return self.is_set()

    def set(self):
        self.n = 0


def test_reconnection_backs_off_like_the_pn532(hw, tmp_path, sink):
    mfrc = Mfrc522Reader(sink)  # nothing attached: /dev/spidev0.0 does not exist
    pn532 = Pn532Reader(sink, port=str(tmp_path / "ttyNONE"))
    waits = []
    for r in (mfrc, pn532):
        r._stop = RecordingStop(7)
        r._run()
        waits.append(r._stop.waits)
    assert waits[0] == waits[1] == [0.5, 1.0, 2.0, 4.0, 5.0, 5.0, 5.0]


def test_an_unexpected_error_in_a_poll_does_not_end_the_thread(chip, clock, sink, monkeypatch):
    r = Mfrc522Reader(sink, clock=clock)
    calls = []

    def broken():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("library surprise")
        return None

    monkeypatch.setattr(r, "read_uid", broken)
    r._stop = RecordingStop(4)
    r._run()  # connect, poll (raises), back off, connect again, poll
    events = drain(sink)
    assert [e.online for e in events] == [True, False, True]
    assert "unexpected error" in events[1].message and len(calls) >= 2


def test_the_thread_reconnects_by_itself_after_a_replug(chip, sink):
    with Mfrc522Reader(sink, backoff=(0.01, 0.05), poll_interval=0.01) as r:
        assert sink.get(timeout=5).online
        chip.unplug()
        assert sink.get(timeout=5).online is False
        chip.plug()
        assert sink.get(timeout=5).online is True
        chip.present(Card(UID7))
        assert sink.get(timeout=5).uid == UID7
        assert "online" in repr(r)
