"""doctor's checks, against temporary directories, the emulators and MockFactory."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from drivers.doctor import Check, System, check_libraries, run_checks
from drivers.emulators.mfrc522 import Mfrc522Chip
from drivers.emulators.pn532 import Pn532Emulator

PINS = {"roll": 5, "help": 6, "run": 13, "next": 19, "undo": 26}
PI_OS = System(pi_os=True, raspi_config=True, python="/opt/munchkin-table/.venv/bin/python", user="munchkin")
DEBIAN = System(pi_os=False, raspi_config=False, boot_config="/boot/firmware/config.txt",
                python="/opt/munchkin-table/.venv/bin/python", user="munchkin-table")


def found(module):
    return True


@pytest.fixture(autouse=True)
def _no_boot_files_of_this_machine(tmp_path, monkeypatch):
    """The machine's own /boot (a Pi's, or an installed root's) must not leak into a test."""
    monkeypatch.setattr("drivers.doctor.BOOT_CONFIGS", (str(tmp_path / "no-boot" / "config.txt"),))
    monkeypatch.setattr("drivers.doctor.CMDLINES", (str(tmp_path / "no-boot" / "cmdline.txt"),))


@pytest.fixture
def dev(tmp_path):
    d = tmp_path / "dev"
    d.mkdir()
    return d


@pytest.fixture
def boot(tmp_path):
    """A Pi's /boot/firmware: SPI on, no serial console; tests spoil it as they need."""
    d = tmp_path / "boot" / "firmware"
    d.mkdir(parents=True)
    (d / "config.txt").write_text("# a Pi 5\n[all]\ndtparam=audio=on\ndtparam=spi=on\nenable_uart=1\n")
    (d / "cmdline.txt").write_text("console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 fsck.repair=yes rootwait\n")
    return d


def on_pi(boot, **kw):
    """run_checks's keyword arguments for the temporary boot files and a user in every group."""
    return dict(boot_configs=[str(boot / "config.txt")], cmdlines=[str(boot / "cmdline.txt")],
                groups=["munchkin", "gpio", "spi", "dialout"], system=PI_OS, find_module=found, **kw)


def by_name(checks):
    return {c.name: c for c in checks}


def test_a_healthy_mfrc522_box_passes_every_check(hw, dev, tmp_path, factory, boot):
    hw.attach(Mfrc522Chip(reset_pin=25))
    (dev / "spidev0.0").touch()
    checks = run_checks("mfrc522", spi_bus=0, spi_device=0, reset_pin=25, button_pins=PINS,
                        state_dir=str(tmp_path / "state"), pin_factory=factory, dev_dir=str(dev), **on_pi(boot))
    assert [c.name for c in checks] == ["hardware libraries", "SPI in the boot config", "SPI enabled", "SPI permission", "reader answers",
                                        "device groups", "buttons readable", "state directory writable"]
    assert all(c.ok for c in checks), [str(c) for c in checks]
    assert "VersionReg 0x92" in by_name(checks)["reader answers"].detail


def test_spi_disabled_says_how_to_enable_it(dev, tmp_path):
    checks = by_name(run_checks("mfrc522", state_dir=str(tmp_path), dev_dir=str(dev), system=PI_OS))
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


def test_a_pn532_that_answers_reports_its_firmware(tmp_path, boot):
    with Pn532Emulator(directory=str(tmp_path)) as emu:
        checks = run_checks("pn532", port=emu.path, baudrate=115200, state_dir=str(tmp_path / "s"), **on_pi(boot))
    assert all(c.ok for c in checks), [str(c) for c in checks]
    assert "firmware 1.6" in by_name(checks)["reader answers"].detail


def test_a_silent_pn532_fails_and_says_what_to_check(tmp_path):
    with Pn532Emulator(directory=str(tmp_path)) as emu:
        emu.inject("silence", times=10)
        check = by_name(run_checks("pn532", port=emu.path, state_dir=str(tmp_path)))["reader answers"]
    assert not check.ok and "reader offline" in check.detail and "TX/RX" in check.fix


def test_a_missing_uart_says_how_to_enable_it(tmp_path):
    check = by_name(run_checks("pn532", port=str(tmp_path / "ttyAMA0"), state_dir=str(tmp_path), system=PI_OS))["UART enabled"]
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


# boot config, serial console, groups -------------------------------------------------------


@pytest.mark.parametrize("config_txt, ok", [
    ("dtparam=spi=on\n", True),
    ("dtparam=i2c_arm=on,spi=on\n", True),
    ("dtoverlay=spi0-1cs\n", True),            # what one Pi 5 needed instead
    ("#dtparam=spi=on\n", False),              # commented out, as Pi OS ships it
    ("dtparam=spi=on\ndtparam=spi=off\n", False),  # the last setting wins
    ("", False),
])
def test_spi_must_be_on_in_the_boot_config_for_an_mfrc522(dev, tmp_path, boot, config_txt, ok):
    (boot / "config.txt").write_text(config_txt)
    check = by_name(run_checks("mfrc522", state_dir=str(tmp_path), dev_dir=str(dev), **on_pi(boot)))["SPI in the boot config"]
    assert check.ok is ok
    if not ok:
        assert check.fix.startswith("sudo raspi-config nonint do_spi 0")
        plain = by_name(run_checks("mfrc522", state_dir=str(tmp_path), dev_dir=str(dev),
                                   **{**on_pi(boot), "system": DEBIAN}))["SPI in the boot config"]
        assert f"add the line dtparam=spi=on to {boot / 'config.txt'}" in plain.fix and "raspi-config" not in plain.fix


def test_the_older_boot_config_path_is_read_when_the_new_one_is_missing(dev, tmp_path, boot):
    old = tmp_path / "config.txt"
    old.write_text("dtparam=spi=on\n")
    check = by_name(run_checks("mfrc522", state_dir=str(tmp_path), dev_dir=str(dev),
                               **{**on_pi(boot), "boot_configs": [str(tmp_path / "missing.txt"), str(old)]}))["SPI in the boot config"]
    assert check.ok and str(old) in check.detail


def test_no_boot_config_at_all_is_reported_not_a_crash(dev, tmp_path, boot):
    check = by_name(run_checks("mfrc522", state_dir=str(tmp_path), dev_dir=str(dev),
                               **{**on_pi(boot), "boot_configs": [str(tmp_path / "nope.txt")]}))["SPI in the boot config"]
    assert not check.ok and "is this a Raspberry Pi?" in check.detail


def test_an_unreadable_boot_config_is_reported(dev, tmp_path, boot):
    (boot / "config.txt").unlink()
    (boot / "config.txt").mkdir()          # reading it fails with an OSError other than "missing"
    check = by_name(run_checks("mfrc522", state_dir=str(tmp_path), dev_dir=str(dev), **on_pi(boot)))["SPI in the boot config"]
    assert not check.ok and "cannot read" in check.detail


@pytest.mark.parametrize("port", ["/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0"])
def test_a_serial_console_on_the_readers_uart_fails_with_its_fix(tmp_path, boot, port):
    (boot / "cmdline.txt").write_text("console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootwait\n")
    check = by_name(run_checks("pn532", port=port, state_dir=str(tmp_path), **on_pi(boot)))["serial console off"]
    assert not check.ok and "console on serial0" in check.detail
    assert check.fix.startswith("sudo raspi-config nonint do_serial_cons 1")
    plain = by_name(run_checks("pn532", port=port, state_dir=str(tmp_path),
                               **{**on_pi(boot), "system": DEBIAN}))["serial console off"]
    assert f"remove console=serial0,115200 from {boot / 'cmdline.txt'}" in plain.fix and "raspi-config" not in plain.fix


def test_no_serial_console_passes(tmp_path, boot):
    check = by_name(run_checks("pn532", port="/dev/serial0", state_dir=str(tmp_path), **on_pi(boot)))["serial console off"]
    assert check.ok


def test_a_console_does_not_matter_for_a_usb_adapter(tmp_path, boot):
    (boot / "cmdline.txt").write_text("console=serial0,115200 console=tty1\n")
    check = by_name(run_checks("pn532", port="/dev/ttyUSB0", state_dir=str(tmp_path), **on_pi(boot)))["serial console off"]
    assert check.ok


def test_the_console_check_is_only_for_the_pn532(dev, tmp_path, boot):
    (boot / "cmdline.txt").write_text("console=serial0,115200\n")
    checks = by_name(run_checks("mfrc522", state_dir=str(tmp_path), dev_dir=str(dev), **on_pi(boot)))
    assert "serial console off" not in checks


@pytest.mark.parametrize("reader, groups, missing", [
    ("mfrc522", ["gpio"], "spi"),
    ("mfrc522", ["spi"], "gpio"),
    ("pn532", ["gpio"], "dialout"),
])
def test_a_user_outside_a_device_group_is_told_to_join_it(dev, tmp_path, boot, factory, reader, groups, missing):
    checks = by_name(run_checks(reader, state_dir=str(tmp_path), dev_dir=str(dev), port=str(tmp_path / "ttyUSB0"),
                                button_pins=PINS, pin_factory=factory, **{**on_pi(boot), "groups": groups},
                                group_exists=lambda g: True))
    check = checks["device groups"]
    assert not check.ok and f"not in {missing}" in check.detail and f"sudo usermod -aG {missing} munchkin," in check.fix


def test_a_group_missing_from_the_system_is_named(dev, tmp_path, boot):
    check = by_name(run_checks("mfrc522", state_dir=str(tmp_path), dev_dir=str(dev),
                               **{**on_pi(boot), "groups": ["users"]}, group_exists=lambda g: g == "gpio"))["device groups"]
    assert not check.ok and "spi do not exist here" in check.detail


def test_a_simulated_table_needs_no_device_groups(tmp_path, boot):
    checks = by_name(run_checks("sim", state_dir=str(tmp_path), **{**on_pi(boot), "groups": []}))
    assert "device groups" not in checks


def test_a_missing_uart_on_plain_debian_says_which_file_to_edit(tmp_path):
    check = by_name(run_checks("pn532", port=str(tmp_path / "ttyAMA0"), state_dir=str(tmp_path), system=DEBIAN))["UART enabled"]
    assert not check.ok and "add the line enable_uart=1 to /boot/firmware/config.txt" in check.fix
    assert "raspi-config" not in check.fix


@pytest.mark.parametrize("system, fixes", [
    (PI_OS, ["sudo apt-get install python3-spidev", "sudo apt-get install python3-rpi-lgpio",
             "sudo /opt/munchkin-table/.venv/bin/python -m pip install --no-deps mfrc522==0.0.7",
             "sudo apt-get install python3-lgpio"]),
    (DEBIAN, ["sudo apt-get install python3-spidev", "sudo /opt/munchkin-table/.venv/bin/python -m pip install rpi-lgpio",
              "sudo /opt/munchkin-table/.venv/bin/python -m pip install --no-deps mfrc522==0.0.7",
              "sudo /opt/munchkin-table/.venv/bin/python -m pip install lgpio"]),
])
def test_a_missing_library_is_named_with_this_systems_command(tmp_path, boot, system, fixes, monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)      # gpiozero would use lgpio
    monkeypatch.setattr("drivers.doctor.check_buttons", lambda pins, factory, system: Check("buttons readable", False, "-"))
    checks = by_name(run_checks("mfrc522", button_pins=PINS, state_dir=str(tmp_path),
                                **{**on_pi(boot), "system": system, "find_module": lambda m: None}))
    check = checks["hardware libraries"]
    assert not check.ok and check.detail == "cannot import spidev, RPi.GPIO, mfrc522, lgpio"
    for fix in fixes:
        assert fix in check.fix


def test_libraries_are_looked_up_not_imported():
    assert check_libraries(["os", "json"], DEBIAN).ok
    check = check_libraries(["os", "no_such_module_here.sub"], DEBIAN)
    assert not check.ok and "no_such_module_here.sub" in check.detail


def test_a_group_missing_from_a_plain_debian_says_to_run_the_installer(dev, tmp_path, boot):
    check = by_name(run_checks("mfrc522", state_dir=str(tmp_path), dev_dir=str(dev),
                               **{**on_pi(boot), "groups": ["users"], "system": DEBIAN},
                               group_exists=lambda g: False))["device groups"]
    assert not check.ok and f"sudo sh {DEBIAN.installer}" in check.fix and "groupadd --system gpio spi" in check.fix
    assert "sudo usermod -aG gpio,spi munchkin-table" in check.fix


def test_the_system_is_detected_from_its_files(tmp_path):
    (tmp_path / "etc/apt/sources.list.d").mkdir(parents=True)
    (tmp_path / "etc/os-release").write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n')
    (tmp_path / "boot").mkdir()
    (tmp_path / "boot/config.txt").write_text("")
    plain = System.detect(str(tmp_path))
    assert not plain.pi_os and plain.boot_config == "/boot/config.txt"
    (tmp_path / "etc/apt/sources.list.d/raspi.list").write_text("deb http://archive.raspberrypi.com/debian/ bookworm main\n")
    assert System.detect(str(tmp_path)).pi_os


def test_a_virtual_environment_without_system_packages_is_told_to_use_pip():
    own = System(pi_os=True, raspi_config=True, python="/home/me/munchkin/.venv/bin/python", user="me",
                 system_site=False, pip_sudo=False)
    assert own.install_module("lgpio") == "/home/me/munchkin/.venv/bin/python -m pip install lgpio"
    assert own.install_module("spidev") == ("sudo apt-get install gcc python3-dev && "
                                            "/home/me/munchkin/.venv/bin/python -m pip install spidev")


def test_spi_on_in_the_boot_config_but_no_device_asks_for_a_reboot(dev, tmp_path, boot):
    checks = by_name(run_checks("mfrc522", state_dir=str(tmp_path), dev_dir=str(dev), **{**on_pi(boot), "system": DEBIAN}))
    assert checks["SPI in the boot config"].ok
    assert not checks["SPI enabled"].ok and checks["SPI enabled"].fix.endswith("reboot (sudo reboot)")
    assert "dtparam" not in checks["SPI enabled"].fix


def test_lgpio_is_needed_only_without_another_pin_factory(tmp_path, boot, monkeypatch):
    def checks():
        return by_name(run_checks("sim", button_pins=PINS, state_dir=str(tmp_path), pin_factory=None,
                                  **{**on_pi(boot), "find_module": lambda m: None}))
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert "hardware libraries" not in checks()
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY")
    assert checks()["hardware libraries"].detail == "cannot import lgpio"
