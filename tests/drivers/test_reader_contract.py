"""The reader contract, run over every implementation: sim, MFRC522 and PN532 on their emulators.

Each rig opens its reader through the factory, with a ManualClock, and can
put a tag on the pad, take it away and let the reader poll for a while.
"""

from __future__ import annotations

import queue

import pytest

from drivers.base import ManualClock, RfidReader
from drivers.emulators.mfrc522 import Card, Mfrc522Chip, install_fakes
from drivers.emulators.pn532 import Pn532Emulator
from drivers.events import ReaderStatus, Tap
from drivers.factory import open_reader
from tests.drivers.helpers import drain


class SimRig:
    def __init__(self, tmp_path):
        self.clock, self.sink = ManualClock(), queue.Queue()
        self.reader = open_reader("sim", self.sink, clock=self.clock)

    def connect(self):
        self.reader.start()

    def present(self, uid):
        self.reader.scan(uid)  # the sim reports the presentation itself

    def remove(self):
        pass

    def wait(self, seconds):
        self.clock.advance(seconds)

    def close(self):
        self.reader.close()


class PolledRig:
    def connect(self):
        assert self.reader.connect()

    def wait(self, seconds):
        for _ in range(round(seconds / 0.1)):
            self.reader.poll_once()
            self.clock.advance(0.1)

    def close(self):
        self.reader.close()


class Mfrc522Rig(PolledRig):
    def __init__(self, tmp_path):
        self.hw = install_fakes()
        self.hw.clear()
        self.chip = self.hw.attach(Mfrc522Chip(reset_pin=25))
        self.clock, self.sink = ManualClock(), queue.Queue()
        self.reader = open_reader("mfrc522", self.sink, clock=self.clock, spi_bus=0, spi_device=0, reset_pin=25)

    def present(self, uid):
        self.chip.present(Card(uid))

    def remove(self):
        self.chip.present(None)

    def close(self):
        super().close()
        self.hw.clear()


class Pn532Rig(PolledRig):
    def __init__(self, tmp_path):
        self.emu = Pn532Emulator(directory=str(tmp_path))
        self.emu.plug()
        self.clock, self.sink = ManualClock(), queue.Queue()
        self.reader = open_reader("pn532", self.sink, clock=self.clock, port=self.emu.path, baudrate=115200)

    def present(self, uid):
        self.emu.present(uid)

    def remove(self):
        self.emu.present(None)

    def close(self):
        super().close()
        self.emu.close()


@pytest.fixture(params=[SimRig, Mfrc522Rig, Pn532Rig], ids=["sim", "mfrc522", "pn532"])
def rig(request, tmp_path):
    r = request.param(tmp_path)
    yield r
    r.close()


def test_a_reader_satisfies_the_protocol(rig):
    assert isinstance(rig.reader, RfidReader)


def test_starting_reports_the_reader_online(rig):
    rig.connect()
    [status] = drain(rig.sink)
    assert isinstance(status, ReaderStatus) and status.online and status.reader == "pad"


@pytest.mark.parametrize("uid", ["04a1b2c3", "04:A1:B2:C3:D4:E5:F6"])
def test_a_presented_tag_is_one_tap_with_the_normalised_uid(rig, uid):
    rig.connect()
    drain(rig.sink)
    rig.present(uid)
    rig.wait(3.0)
    [tap] = drain(rig.sink)
    assert tap == Tap(uid.replace(":", "").upper(), 0.0, "pad")


def test_presenting_again_after_taking_it_away_is_a_second_tap(rig):
    rig.connect()
    rig.present("04A1B2C3D4E5F6")
    rig.wait(1.0)
    rig.remove()
    rig.wait(1.0)
    rig.present("04A1B2C3D4E5F6")
    rig.wait(1.0)
    assert [type(e) for e in drain(rig.sink)] == [ReaderStatus, Tap, Tap]


def test_nothing_on_the_pad_is_no_event(rig):
    rig.connect()
    drain(rig.sink)
    rig.wait(1.0)
    assert drain(rig.sink) == []


def test_close_is_idempotent_and_repr_says_closed(rig):
    rig.connect()
    rig.reader.close()
    rig.reader.close()
    assert "closed" in repr(rig.reader)
