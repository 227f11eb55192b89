"""The real-hardware tests, run with an operator that drives the emulators instead of a person.

So test_real_hardware.py is known to work before anyone takes it to a Pi, and its settings
parser says clearly what is wrong with a MUNCHKIN_HW_* variable.
"""

from __future__ import annotations

import queue
import time

import pytest
from gpiozero.pins.mock import MockFactory

from drivers.emulators.mfrc522 import Card, Mfrc522Chip, install_fakes
from drivers.emulators.pn532 import Pn532Emulator
from tests.drivers import test_real_hardware as real

UID = "04A1B2C3D4E5F6"
FAST = (("poll_interval", 0.01), ("removal_time", 0.05))


class EmulatorOperator:
    """Does what the instructions say, on an emulated reader and mock pins."""

    def __init__(self, present, factory=None, pins=None):
        self.present, self.factory, self.pins = present, factory, pins or {}

    def present_tag(self):
        self.present(UID)

    def remove_tag(self):
        self.present(None)
        time.sleep(0.15)  # the reader runs on the real clock here: let it see the pad empty

    def press_button(self, name):
        pin = self.factory.pin(self.pins[name])
        pin.drive_low()
        pin.drive_high()


@pytest.fixture(params=["mfrc522", "pn532"])
def rig(request, tmp_path):
    sink = queue.Queue()
    if request.param == "pn532":
        emu = Pn532Emulator(directory=str(tmp_path))
        emu.plug()
        settings = real.Settings(reader="pn532", port=emu.path, uid=UID, timeout=5, hold=0.3, reader_options=FAST)
        reader = real.open_configured_reader(settings, sink)
        yield settings, sink, reader, EmulatorOperator(emu.present)
        reader.close()
        emu.close()
    else:
        hw = install_fakes()
        hw.clear()
        chip = hw.attach(Mfrc522Chip(reset_pin=25))
        settings = real.Settings(reader="mfrc522", uid=UID, timeout=5, hold=0.3, reader_options=FAST)
        reader = real.open_configured_reader(settings, sink, allow_fake=True)
        yield settings, sink, reader, EmulatorOperator(lambda uid: chip.present(Card(uid) if uid else None))
        reader.close()
        hw.clear()


def test_the_reader_tests_pass_on_the_emulators(rig):
    settings, sink, reader, operator = rig
    reader.start()
    real.test_the_reader_comes_online(reader, sink, settings)
    for test in (real.test_a_tag_held_on_the_pad_is_one_tap_and_a_second_presentation_another,
                 real.test_an_empty_pad_gives_no_event):
        sink.put(real.ReaderStatus("pad", True, "as at start", 0.0))  # each real test begins with a fresh reader
        test(reader, sink, settings, operator)
    real.test_close_is_idempotent(reader)


def test_the_reader_test_fails_when_a_held_tag_gives_two_taps(rig):
    settings, sink, reader, operator = rig
    reader.presence.removal_time = 0.0  # a broken debounce: every poll is a new Tap
    reader.start()
    with pytest.raises(pytest.fail.Exception, match="must be one Tap"):
        real.test_a_tag_held_on_the_pad_is_one_tap_and_a_second_presentation_another(reader, sink, settings, operator)


def test_the_button_test_passes_on_mock_pins():
    factory = MockFactory()
    try:
        settings = real.Settings(button="undo", button_pin=26, timeout=5)
        real.test_a_button_press_is_one_press_and_one_release(settings, queue.Queue(), EmulatorOperator(None, factory, {"undo": 26}), factory)
    finally:
        factory.reset()


def test_the_real_tests_are_marked_and_skipped_without_munchkin_hw(monkeypatch):
    marks = {m.name: m for m in real.pytestmark}
    assert "hardware" in marks
    if real.os.environ.get("MUNCHKIN_HW") != "1":
        assert marks["skipif"].args[0] is True


def test_settings_come_from_the_environment():
    s = real.parse_settings({"MUNCHKIN_HW_READER": "pn532", "MUNCHKIN_HW_PORT": "/dev/ttyUSB0", "MUNCHKIN_HW_BAUD": "9600",
                             "MUNCHKIN_HW_UID": "04:a1:b2:c3", "MUNCHKIN_HW_BUTTON": "roll", "MUNCHKIN_HW_SPI": "1.2"})
    assert (s.reader, s.port, s.baudrate, s.uid, s.button, s.button_pin, s.spi_bus, s.spi_device) == (
        "pn532", "/dev/ttyUSB0", 9600, "04A1B2C3", "roll", 5, 1, 2)
    assert real.parse_settings({}) == real.Settings()


@pytest.mark.parametrize("env, message", [
    ({"MUNCHKIN_HW_READER": "rc522"}, "MUNCHKIN_HW_READER='rc522': expected mfrc522 or pn532"),
    ({"MUNCHKIN_HW_SPI": "0"}, "MUNCHKIN_HW_SPI='0': expected BUS.DEVICE"),
    ({"MUNCHKIN_HW_BAUD": "fast"}, "MUNCHKIN_HW_BAUD='fast': expected a number"),
    ({"MUNCHKIN_HW_BUTTON": "jump"}, "expected one of roll, help, run, next, undo"),
    ({"MUNCHKIN_HW_UID": "xyz"}, "MUNCHKIN_HW_UID: "),
])
def test_a_bad_setting_names_the_variable(env, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(".", r"\.")):
        real.parse_settings(env)
