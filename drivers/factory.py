"""Build drivers by name, as the config chooses them.

Hardware libraries are imported inside the branch that needs them, so a
laptop without ``spidev`` or ``RPi.GPIO`` can still open the simulated ones.
"""

from __future__ import annotations

from typing import Any

from drivers.base import ButtonPanel, Clock, EventSink, Feedback, RfidReader
from drivers.events import DEFAULT_BUTTON_PINS
from drivers.sim import NullFeedback, SimButtons, SimReader

READER_TYPES = ("mfrc522", "pn532", "sim")
BUTTON_TYPES = ("gpio", "sim")
FEEDBACK_TYPES = ("gpio", "none", "sim")


class DriverError(Exception):
    """A driver could not be opened; the message says what to check."""


def open_reader(
    kind: str,
    sink: EventSink,
    *,
    clock: Clock,
    spi_bus: int = 0,
    spi_device: int = 0,
    reset_pin: int = 25,
    port: str = "/dev/serial0",
    baudrate: int = 115200,
    **options: Any,
) -> RfidReader:
    """Build a reader; call ``start()`` (or use ``with``) to begin polling.

    The config's keys for the other kind are ignored. ``options`` go to the
    driver (name, poll_interval, removal_time, ...).
    """
    if kind == "sim":
        return SimReader(sink, clock=clock, **{k: v for k, v in options.items() if k in ("name", "seat")})
    if kind == "mfrc522":
        from drivers.mfrc522_spi import Mfrc522Reader

        return Mfrc522Reader(sink, clock=clock, spi_bus=spi_bus, spi_device=spi_device, reset_pin=reset_pin, **options)
    if kind == "pn532":
        from drivers.pn532 import Pn532Reader

        return Pn532Reader(sink, clock=clock, port=port, baudrate=baudrate, **options)
    raise DriverError(f"reader type {kind!r} is not available; expected one of {', '.join(READER_TYPES)}")


def open_buttons(
    kind: str,
    sink: EventSink,
    *,
    clock: Clock,
    pins: dict[str, int] | None = None,
    pin_factory: Any = None,
    **options: Any,
) -> ButtonPanel:
    """``options`` go to GpioButtons: debounce, hold_time, min_interval (seconds)."""
    if kind == "sim":
        return SimButtons(sink, clock=clock)
    if kind == "gpio":
        from drivers.gpio import GpioButtons

        return GpioButtons(sink, clock=clock, pins=DEFAULT_BUTTON_PINS if pins is None else pins, pin_factory=pin_factory, **options)
    raise DriverError(f"button type {kind!r} is not available; expected one of {', '.join(BUTTON_TYPES)}")


def open_feedback(
    kind: str,
    *,
    buzzer_pin: int | None = None,
    led_pin: int | None = None,
    pin_factory: Any = None,
    clock: Clock | None = None,
) -> Feedback:
    """``gpio`` with both pins None, ``none`` and ``sim`` give a silent NullFeedback."""
    if kind in ("none", "null", "sim") or (kind == "gpio" and buzzer_pin is None and led_pin is None):
        return NullFeedback()
    if kind == "gpio":
        from drivers.gpio import GpioFeedback

        return GpioFeedback(buzzer_pin=buzzer_pin, led_pin=led_pin, pin_factory=pin_factory, clock=clock)
    raise DriverError(f"feedback type {kind!r} is not available; expected one of {', '.join(FEEDBACK_TYPES)}")
