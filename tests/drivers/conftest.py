"""Fixtures the driver tests share: the emulated MFRC522 behind fake spidev/RPi.GPIO, and mock pins."""

from __future__ import annotations

import queue

import pytest
from gpiozero.pins.mock import MockFactory

from drivers.base import ManualClock
from drivers.emulators.mfrc522 import install_fakes
from drivers.emulators.pn532 import Pn532Emulator


@pytest.fixture
def clock():
    """Simulated time, started away from zero so that 'never happened' and 'at 0' differ."""
    return ManualClock(50.0)


@pytest.fixture
def emu(tmp_path):  # type: ignore[no-untyped-def]
    """An emulated PN532 on a pseudo-terminal of its own (its port: ``emu.path``)."""
    with Pn532Emulator(directory=str(tmp_path)) as e:
        yield e


@pytest.fixture
def sink():
    """Where a driver under test puts its events."""
    return queue.Queue()


@pytest.fixture
def hw():
    """The fake SPI bus and GPIO the real mfrc522 library talks to, cleared before and after."""
    hardware = install_fakes()
    hardware.clear()
    yield hardware
    hardware.clear()


@pytest.fixture
def factory():
    """gpiozero's mock pins, released after the test (pins stay reserved otherwise)."""
    f = MockFactory()
    yield f
    f.reset()
