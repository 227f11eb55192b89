"""Fixtures the driver tests share: the emulated MFRC522 behind fake spidev/RPi.GPIO, and mock pins."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from drivers.emulators.mfrc522 import install_fakes


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
