"""doctor on a box with a pad at every seat (issue 26): every reader listed with its bus and seat, and
the one missing or miswired named."""

from __future__ import annotations

import tomllib

import pytest

from drivers.doctor import run_checks
from drivers.emulators.mfrc522 import Mfrc522Chip
from drivers.emulators.pn532 import Pn532Emulator
from drivers.seats import ReaderSpec
from table.cli.checks import hardware_checks
from table.config import parse_config
from tests.drivers.test_doctor import _no_boot_files_of_this_machine, boot, by_name, dev, on_pi  # noqa: F401

CHIPS = {1: (0, 0, 25), 2: (0, 1, 24), 3: (1, 0, 23), 4: (1, 1, 22)}


@pytest.fixture
def six(hw, dev, tmp_path, boot):  # type: ignore[no-untyped-def]
    """Four MFRC522s on SPI0 and SPI1 and two PN532s on ptys, their device nodes, SPI1's overlay."""
    (boot / "config.txt").write_text("dtparam=spi=on\ndtoverlay=spi1-2cs\n")
    chips = {}
    for seat, (bus, device, reset) in CHIPS.items():
        chips[seat] = hw.attach(Mfrc522Chip(reset_pin=reset), bus=bus, device=device)
        (dev / f"spidev{bus}.{device}").touch()
    emus = [Pn532Emulator(directory=str(tmp_path)) for _ in range(2)]
    for emu in emus:
        emu.plug()
    specs = [ReaderSpec("mfrc522", seat, bus, device, reset) for seat, (bus, device, reset) in CHIPS.items()]
    specs += [ReaderSpec("pn532", 5, port=emus[0].path), ReaderSpec("pn532", 6, port=emus[1].path)]
    yield chips, emus, specs
    for emu in emus:
        emu.close()


def doctor(specs, dev, tmp_path, boot):  # type: ignore[no-untyped-def]
    return by_name(run_checks("mfrc522", readers=specs, state_dir=str(tmp_path / "state"), dev_dir=str(dev),
                              **on_pi(boot)))


def test_every_reader_is_listed_with_its_bus_and_seat(six, dev, tmp_path, boot) -> None:  # type: ignore[no-untyped-def]
    _, _, specs = six
    checks = doctor(specs, dev, tmp_path, boot)
    assert all(c.ok for c in checks.values()), [str(c) for c in checks.values()]
    assert "VersionReg 0x92" in checks["seat 3: reader answers"].detail
    assert "spi1.0 (SPI1 CE0), reset BCM 23" in checks["seat 3: reader answers"].detail
    assert "PN532" in checks["seat 6: reader answers"].detail
    summary = checks["readers"].detail
    assert summary.startswith("6 readers answer: seat 1: mfrc522 on spi0.0 (SPI0 CE0), reset BCM 25; ")
    assert "seat 5: pn532 on " in summary and checks["SPI1 in the boot config"].ok


def test_the_missing_and_the_miswired_reader_are_named(six, dev, tmp_path, boot) -> None:  # type: ignore[no-untyped-def]
    chips, emus, specs = six
    (dev / "spidev1.1").unlink()            # seat 4's chip select is not there (no overlay for CE1)
    chips[2].wired = False                  # seat 2's chip answers nothing: MISO not connected
    emus[1].unplug()                        # seat 6's USB PN532 is unplugged
    checks = doctor(specs, dev, tmp_path, boot)
    summary = checks["readers"]
    assert not summary.ok
    assert "3 of 6 answer" in summary.detail
    assert "missing: seat 4 (spi1.1 (SPI1 CE1), reset BCM 22), seat 6 (" in summary.detail
    assert "miswired or not answering: seat 2 (spi0.1 (SPI0 CE1), reset BCM 24)" in summary.detail
    assert "check the wiring" in checks["seat 2: reader answers"].detail
    assert checks["seat 1: reader answers"].ok and checks["seat 5: reader answers"].ok


def test_spi1_without_its_overlay_says_which_line_to_add(six, dev, tmp_path, boot) -> None:  # type: ignore[no-untyped-def]
    _, _, specs = six
    (boot / "config.txt").write_text("dtparam=spi=on\n")
    check = doctor(specs, dev, tmp_path, boot)["SPI1 in the boot config"]
    assert not check.ok and "dtoverlay=spi1-2cs" in check.fix


def test_doctor_checks_the_configs_readers_at_their_seats(six, tmp_path) -> None:  # type: ignore[no-untyped-def]
    _, emus, _ = six
    lines = "".join(f'[[reader]]\ntype = "pn532"\nport = "{emu.path}"\nseat = {seat}\n' for seat, emu in zip((5, 6), emus))
    config = parse_config(tomllib.loads(lines + f'[storage]\nstate_dir = "{tmp_path / "state"}"\n'))
    checks = by_name(hardware_checks(config, groups=["dialout"], find_module=lambda m: True))
    assert checks["seat 5: reader answers"].ok and checks["seat 6: reader answers"].ok
    assert checks["readers"].ok and checks["readers"].detail.startswith("2 readers answer: seat 5: pn532 on ")
