"""The reader, buttons and feedback a config names, opened for the run loop and the enroll wizard."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from drivers.base import Clock
from drivers.factory import open_buttons, open_feedback, open_reader
from drivers.seats import open_readers
from table.config import Config, is_raspberry_pi


@dataclass
class Drivers:
    reader: Any
    buttons: Any
    feedback: Any

    def close(self) -> None:
        for device in (self.reader, self.buttons, self.feedback):
            device.close()


def uses_gpio(*, sim: bool) -> bool:
    """GPIO buttons and feedback only where there are GPIO pins: a Pi, or gpiozero's pin factory
    chosen by the environment. Elsewhere the table (and doctor) use the simulated ones."""

    return not sim and (is_raspberry_pi() or bool(os.environ.get("GPIOZERO_PIN_FACTORY")))


def open_pads(config: Config, sink: Any, clock: Clock, *, sim: bool, seat_pads: bool = True) -> Any:
    """The one reader of ``[reader]``, as always; or every ``[[reader]]`` entry's, at its seat, started and
    closed together (a ``ReaderSet``: MFRC522s on one SPI bus share a thread, each PN532 has its own).
    ``sim`` without ``seat_pads``: one simulated shared pad even so (the enroll wizard types into it)."""
    specs = config.reader_specs(sim=sim)
    if not config.readers or (sim and not seat_pads):
        one = specs[0]
        return open_reader(one.kind, sink, clock=clock, spi_bus=one.spi_bus, spi_device=one.spi_device,
                           reset_pin=one.reset_pin, port=one.port, baudrate=one.baudrate)
    return open_readers(specs, sink, clock=clock)


def open_drivers(config: Config, sink: Any, clock: Clock, *, sim: bool, seat_pads: bool = True) -> Drivers:
    """The reader, buttons and feedback the config names; raises DriverError naming what failed.

    GPIO buttons only where there are GPIO pins (a Pi, or gpiozero's pin factory chosen by the
    environment): a laptop with a USB reader keeps the keyboard's buttons.
    """
    gpio = uses_gpio(sim=sim)
    reader = open_pads(config, sink, clock, sim=sim, seat_pads=seat_pads)
    timing = {"debounce": config.buttons.bounce_ms / 1000, "hold_time": config.buttons.hold_seconds} if gpio else {}
    buttons = open_buttons("gpio" if gpio else "sim", sink, clock=clock, pins=config.buttons.pins(), **timing)
    feedback = open_feedback("gpio" if gpio else "sim", clock=clock,
                             buzzer_pin=config.feedback.pin("buzzer"), led_pin=config.feedback.pin("led"))
    return Drivers(reader, buttons, feedback)
