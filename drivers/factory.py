"""Build drivers by name, as the config chooses them.

Hardware libraries are imported inside the branch that needs them, so a
laptop without ``spidev`` or ``RPi.GPIO`` can still open the simulated ones.
"""

from __future__ import annotations

from typing import Any

from drivers.base import ButtonPanel, Clock, EventSink, Feedback, RfidReader
from drivers.sim import NullFeedback, SimButtons, SimReader

READER_TYPES = ("mfrc522", "pn532", "sim")
BUTTON_TYPES = ("gpio", "sim")


class DriverError(Exception):
    """A driver could not be opened; the message says what to check."""


def open_reader(kind: str, sink: EventSink, *, clock: Clock, **options: Any) -> RfidReader:
    if kind == "sim":
        return SimReader(sink, clock=clock)
    raise DriverError(f"reader type {kind!r} is not available; expected one of {', '.join(READER_TYPES)}")


def open_buttons(kind: str, sink: EventSink, *, clock: Clock, pins: dict[str, int], pin_factory: Any = None) -> ButtonPanel:
    if kind == "sim":
        return SimButtons(sink, clock=clock)
    raise DriverError(f"button type {kind!r} is not available; expected one of {', '.join(BUTTON_TYPES)}")


def open_feedback(kind: str, *, buzzer_pin: int | None, led_pin: int | None, pin_factory: Any = None) -> Feedback:
    return NullFeedback()
