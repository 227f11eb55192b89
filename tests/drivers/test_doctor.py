"""doctor's checks, against temporary directories, the emulators and MockFactory."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from drivers.doctor import Check, run_checks
from drivers.emulators.mfrc522 import Mfrc522Chip, install_fakes
from drivers.emulators.pn532 import Pn532Emulator

PINS = {"roll": 5, "help": 6, "run": 13, "next": 19, "undo": 26}


@pytest.fixture
def hw():
    hardware = install_fakes()
    hardware.clear()
    yield hardware
    hardware.clear()


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def dev(tmp_path):
    d = tmp_path / "dev"
    d.mkdir()
    return d


def by_name(checks):
    return {c.name: c for c in checks}


def test_a_healthy_mfrc522_box_passes_every_check(hw, dev, tmp_path, factory):
    hw.attach(Mfrc522Chip(reset_pin=25))
    (dev / "spidev0.0").touch()
    checks = run_checks("mfrc522", spi_bus=0, spi_device=0, reset_pin=25, button_pins=PINS,
                        state_dir=str(tmp_path / "state"), pin_factory=factory, dev_dir=str(dev))
    assert [c.name for c in checks] == ["SPI enabled", "SPI permission", "reader answers", "buttons readable", "state directory writable"]
    assert all(c.ok for c in checks), [str(c) for c in checks]
    assert "VersionReg 0x92" in by_name(checks)["reader answers"].detail


def test_spi_disabled_says_how_to_enable_it(dev, tmp_path):
    checks = by_name(run_checks("mfrc522", state_dir=str(tmp_path), dev_dir=str(dev)))
    assert not checks["SPI enabled"].ok and "raspi-config nonint do_spi 0" in checks["SPI enabled"].fix
    assert "reader answers" not in checks


def test_the_wrong_spi_device_names_the_ones_that_exist(dev, tmp_path):
    (dev / "spidev0.1").touch()
    check = by_name(run_checks("mfrc522", spi_device=0, state_dir=str(tmp_path), dev_dir=str(dev)))["SPI enabled"]
    assert "only spidev0.1 exist" in check.fix


def test_no_permission_on_the_spi_node_names_the_groups(dev, tmp_path):
    (dev / "spidev0.0").touch()
    checks = by_name(run_checks("mfrc522", state_dir=str(tmp_path), dev_dir=str(dev), access=lambda p, m: False))
    assert not checks["SPI permission"].ok and "usermod -aG spi,gpio" in checks["SPI permission"].fix


def test_a_miswired_mfrc522_fails_with_the_wiring_message(hw, dev, tmp_path):
    hw.attach(Mfrc522Chip(reset_pin=25, wired=False))
    (dev / "spidev0.0").touch()
    check = by_name(run_checks("mfrc522", state_dir=str(tmp_path), dev_dir=str(dev)))["reader answers"]
    assert not check.ok and "VersionReg 0x00" in check.detail and "check the wiring" in check.detail


def test_a_pn532_that_answers_reports_its_firmware(tmp_path):
    with Pn532Emulator(directory=str(tmp_path)) as emu:
        checks = run_checks("pn532", port=emu.path, baudrate=115200, state_dir=str(tmp_path / "s"))
    assert all(c.ok for c in checks), [str(c) for c in checks]
    assert "firmware 1.6" in by_name(checks)["reader answers"].detail


def test_a_silent_pn532_fails_and_says_what_to_check(tmp_path):
    with Pn532Emulator(directory=str(tmp_path)) as emu:
        emu.inject("silence", times=10)
        check = by_name(run_checks("pn532", port=emu.path, state_dir=str(tmp_path)))["reader answers"]
    assert not check.ok and "reader offline" in check.detail and "TX/RX" in check.fix


def test_a_missing_uart_says_how_to_enable_it(tmp_path):
    check = by_name(run_checks("pn532", port=str(tmp_path / "ttyAMA0"), state_dir=str(tmp_path)))["UART enabled"]
    assert not check.ok and "do_serial_hw 0" in check.fix


class ShortedPin(MockPin):
    """A pin wired straight to ground: the pull-up cannot lift it."""

    def _set_pull(self, value):
        self._pull = value


def test_a_button_held_at_rest_is_reported(factory, tmp_path):
    factory.pin(26, pin_class=ShortedPin)
    check = by_name(run_checks("sim", button_pins=PINS, pin_factory=factory, state_dir=str(tmp_path)))["buttons readable"]
    assert not check.ok and "undo (BCM 26)" in check.detail


def test_bad_button_pins_fail_with_the_config_message(factory, tmp_path):
    check = by_name(run_checks("sim", button_pins={"roll": 5, "next": 5}, pin_factory=factory, state_dir=str(tmp_path)))["buttons readable"]
    assert not check.ok and "both use BCM 5" in check.detail


def test_an_unwritable_state_dir_fails(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    check = by_name(run_checks("sim", state_dir=str(blocker / "state")))["state directory writable"]
    assert not check.ok and "[storage] state_dir" in check.fix


def test_a_check_prints_its_fix_only_when_it_failed():
    assert str(Check("x", True, "fine", "do y")) == "[ok] x: fine"
    assert str(Check("x", False, "broken", "do y")) == "[FAIL] x: broken\n       fix: do y"
