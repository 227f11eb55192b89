"""The MFRC522 driver running the real mfrc522 0.0.7 code against the register-level emulator."""

from __future__ import annotations

import logging

import pytest

from drivers.emulators.mfrc522 import BCM, Card, Mfrc522Chip, install_fakes
from drivers.events import ReaderStatus, Tap
from drivers.mfrc522_spi import Mfrc522Reader, Mfrc522WiringError
from tests.drivers.helpers import drain, polls

UID4 = "A1B2C3D4"
UID7 = "04A1B2C3D4E5F6"


@pytest.fixture
def chip(hw):
    return hw.attach(Mfrc522Chip(reset_pin=25), bus=0, device=0)


@pytest.fixture
def reader(chip, clock, sink):
    r = Mfrc522Reader(sink, clock=clock)
    assert r.connect()
    sink.get_nowait()  # the online status
    yield r
    r.close()


def test_the_real_library_is_the_one_running():
    install_fakes()
    import sys

    import mfrc522  # noqa: F401

    lib = sys.modules["mfrc522.MFRC522"]  # the package's __init__ shadows the module with the class

    assert lib.spidev.__doc__.startswith("Fake spidev") and lib.__file__.endswith("mfrc522/MFRC522.py")


@pytest.mark.parametrize("uid", [UID4, UID7])
def test_a_card_gives_its_full_uid(chip, reader, clock, sink, uid):
    chip.present(Card(uid))
    polls(reader, clock, 0.1)
    assert drain(sink) == [Tap(uid, 50.0, "pad")]


def test_a_seven_byte_uid_goes_through_cascade_level_two(chip, reader, clock, sink):
    chip.present(Card(UID7))
    polls(reader, clock, 0.1)
    selects = [f[:2] for f in chip.frames if len(f) == 9]
    assert selects == [b"\x93\x70", b"\x95\x70"]


def test_a_card_held_for_five_seconds_is_one_tap(chip, reader, clock, sink):
    chip.present(Card(UID7))
    polls(reader, clock, 5.0)
    assert [type(e) for e in drain(sink)] == [Tap]
    assert chip.card.state == "HALT"  # halted after each read, woken by WUPA


def test_removed_and_tapped_again_is_two_taps(chip, reader, clock, sink):
    card = Card(UID4)
    chip.present(card)
    polls(reader, clock, 1.0)
    chip.present(None)
    polls(reader, clock, 1.0)
    chip.present(card)
    polls(reader, clock, 1.0)
    assert [e.uid for e in drain(sink)] == [UID4, UID4]


def test_a_flick_off_the_pad_shorter_than_the_removal_time_is_not_a_new_tap(chip, reader, clock, sink):
    card = Card(UID4)
    chip.present(card)
    polls(reader, clock, 0.5)
    chip.present(None)
    polls(reader, clock, 0.2)
    chip.present(card)
    polls(reader, clock, 0.5)
    assert len(drain(sink)) == 1


def test_two_different_cards_one_after_the_other_are_two_taps(chip, reader, clock, sink):
    chip.present(Card(UID4))
    polls(reader, clock, 0.3)
    chip.present(Card(UID7))
    polls(reader, clock, 0.3)
    assert [e.uid for e in drain(sink)] == [UID4, UID7]


def test_no_card_gives_no_event(chip, reader, clock, sink):
    polls(reader, clock, 2.0)
    assert drain(sink) == []


@pytest.mark.parametrize("fault, counter", [("crc", "crc_errors"), ("collision", "collisions")])
def test_a_spoilt_frame_is_ignored_and_counted_and_the_next_poll_reads_the_card(chip, reader, clock, sink, fault, counter):
    chip.present(Card(UID7))
    chip.inject(fault)
    polls(reader, clock, 0.1)
    assert drain(sink) == []
    assert getattr(reader, counter) == 1
    polls(reader, clock, 1.0)
    assert [e.uid for e in drain(sink)] == [UID7]


def test_the_configured_bus_device_and_bcm_reset_pin_are_used(hw, clock, sink):
    chip = hw.attach(Mfrc522Chip(reset_pin=22), bus=1, device=2)
    with Mfrc522Reader(sink, clock=clock, spi_bus=1, spi_device=2, reset_pin=22) as _r:
        status = sink.get(timeout=5)
    assert status.online, status.message
    assert hw.opened == [(1, 2)]
    assert ("setmode", BCM) in hw.log and ("setup", 22, 0) in hw.log and ("output", 22, 1) in hw.log
    assert not chip.powered  # close released the reset pin


def test_a_wrong_reset_pin_leaves_the_chip_in_reset_and_says_to_check_the_wiring(hw, clock, sink):
    hw.attach(Mfrc522Chip(reset_pin=25))
    reader = Mfrc522Reader(sink, clock=clock, reset_pin=24)
    assert not reader.connect()
    [status] = drain(sink)
    assert status == ReaderStatus("pad", False, status.message, 50.0)
    assert "reader offline: " in status.message and "VersionReg 0x00" in status.message
    assert "RST to BCM 24 (header pin 18)" in status.message
    with pytest.raises(Mfrc522WiringError, match="check the wiring"):
        reader.open()


def test_a_missing_spi_device_says_to_enable_spi(hw, clock, sink):
    reader = Mfrc522Reader(sink, clock=clock, spi_bus=0, spi_device=1)
    assert not reader.connect()
    assert "/dev/spidev0.1 does not exist: enable SPI" in drain(sink)[0].message


def test_the_library_log_handlers_do_not_pile_up(chip, clock, sink):
    logger = logging.getLogger("mfrc522Logger")
    before = len(logger.handlers)
    for _ in range(5):
        r = Mfrc522Reader(sink, clock=clock)
        r.connect()
        r.close()
    assert len(logger.handlers) == before


def test_the_thread_polls_and_reports(chip, sink):
    chip.present(Card(UID4))
    with Mfrc522Reader(sink, poll_interval=0.01) as r:
        assert sink.get(timeout=5).online
        assert sink.get(timeout=5).uid == UID4
        assert "online" in repr(r)
    assert "closed" in repr(r)


def test_close_is_idempotent(reader):
    reader.close()
    reader.close()
    assert repr(reader) == "<Mfrc522Reader pad spi0.0 rst=BCM25 closed>"
