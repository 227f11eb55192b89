"""The emulated MFRC522's timer runs as the chip's does (about 15 ms with MFRC522_Init's set-up), and our
driver waits for it asleep: an empty poll looks at the IRQ register twice, not thirty times."""

from __future__ import annotations

import pytest

from drivers.emulators.mfrc522 import COM_IRQ, T_MODE, TIMER_IRQ, Card, Mfrc522Chip
from drivers.mfrc522_spi import Mfrc522Reader

WUPA = [0x26 << 1 & 0x7E]


class Ticks:
    def __init__(self) -> None:
        self.now = 10.0

    def __call__(self) -> float:
        return self.now


def transceive_to_nobody(chip: Mfrc522Chip) -> None:
    """A WUPA sent over SPI as the driver sends it, with no card in the field."""
    for addr, value in ((0x04, 0x7F), (0x0A, 0x80), (0x01, 0x00), (0x09, 0x52), (0x0D, 0x07), (0x01, 0x0C), (0x0D, 0x87)):
        chip.xfer2([(addr << 1) & 0x7E, value])


def irq(chip: Mfrc522Chip) -> int:
    return chip.xfer2([0x80 | (COM_IRQ << 1), 0])[1]


@pytest.fixture
def ticks():
    return Ticks()


@pytest.fixture
def initialised(hw, ticks):
    """A chip set up by the real library's MFRC522_Init (TMode 0x8D, TPrescaler 0x3E, TReload 30)."""
    import RPi.GPIO as GPIO
    from mfrc522 import MFRC522

    chip = hw.attach(Mfrc522Chip(reset_pin=25, clock=ticks))
    GPIO.setmode(GPIO.BCM)
    MFRC522(pin_rst=25)
    return chip


def test_the_library_set_up_gives_the_chips_15_ms_timer(initialised) -> None:
    assert initialised.timer_period() == pytest.approx(0.0155, abs=0.0002)


def test_with_no_card_the_timer_irq_rises_when_the_timer_runs_out_not_at_once(initialised, ticks) -> None:
    transceive_to_nobody(initialised)
    assert not irq(initialised) & TIMER_IRQ
    ticks.now += 0.015
    assert not irq(initialised) & TIMER_IRQ
    ticks.now += 0.001
    assert irq(initialised) & TIMER_IRQ


def test_without_tauto_the_timer_never_runs(initialised, ticks) -> None:
    initialised.xfer2([(T_MODE << 1) & 0x7E, 0x0D])
    transceive_to_nobody(initialised)
    ticks.now += 10
    assert not irq(initialised) & TIMER_IRQ


def test_a_card_answers_at_once(initialised, ticks) -> None:
    initialised.present(Card("A1B2C3D4"))
    transceive_to_nobody(initialised)
    assert irq(initialised) & 0x20                      # RxIRq, without waiting for the timer


def test_an_empty_poll_waits_for_the_timer_asleep(hw, sink, clock, monkeypatch) -> None:
    """Two looks at ComIrqReg per WUPA: once after the answer time, once when the timer is due."""
    import drivers.mfrc522_spi as spi

    chip = hw.attach(Mfrc522Chip(reset_pin=25))         # the real clock: the timer takes its 15 ms
    reader = Mfrc522Reader(sink, clock=clock)
    assert reader.connect()
    assert reader.timer_period == pytest.approx(0.0155, abs=0.0002)
    sleeps: list[float] = []
    real_sleep = spi.time.sleep
    monkeypatch.setattr(spi.time, "sleep", lambda s: (sleeps.append(s), real_sleep(s)))
    looks = 0
    read = chip.read

    def counting(addr: int) -> int:
        nonlocal looks
        looks += addr == COM_IRQ
        return read(addr)

    chip.read = counting  # type: ignore[method-assign]
    try:
        for _ in range(5):
            reader.poll_once()
    finally:
        reader.close()
    assert looks <= 5 * 3
    assert sum(sleeps) >= 5 * 0.012                     # it waited out the timer (less the SPI time) ...
    assert len(sleeps) <= 5 * 3                          # ... in a few sleeps, not half-millisecond steps
