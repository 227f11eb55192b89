"""The reader contract and a button press on the real devices of a built box.

Skipped unless MUNCHKIN_HW=1. Run them on the Pi, on their own (the other driver tests put a
fake spidev in place), with -s so the instructions reach the terminal:

    MUNCHKIN_HW=1 MUNCHKIN_HW_READER=mfrc522 .venv/bin/python -m pytest -s -m hardware tests/drivers/test_real_hardware.py
    MUNCHKIN_HW=1 MUNCHKIN_HW_READER=pn532 MUNCHKIN_HW_PORT=/dev/ttyUSB0 .venv/bin/python -m pytest -s -m hardware ...

Settings (all optional but MUNCHKIN_HW):
    MUNCHKIN_HW_READER    mfrc522 (default) | pn532
    MUNCHKIN_HW_SPI       BUS.DEVICE of the MFRC522, default 0.0
    MUNCHKIN_HW_RST       BCM reset pin of the MFRC522, default 25
    MUNCHKIN_HW_PORT      serial port of the PN532, default /dev/serial0
    MUNCHKIN_HW_BAUD      default 115200
    MUNCHKIN_HW_UID       the UID of the tag you will use (hex); checked when given
    MUNCHKIN_HW_BUTTON    the button to press, default next
    MUNCHKIN_HW_PIN       its BCM pin, default the design's pin for that button
    MUNCHKIN_HW_TIMEOUT   seconds to wait for you, default 20

The tests talk to an Operator: the person at the box by default. tests/drivers/
test_real_hardware_selftest.py runs the same test functions with an operator that drives the
emulators instead, so this file is checked on every run even where no hardware is.
"""

from __future__ import annotations

import os
import queue
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from drivers.base import SystemClock
from drivers.events import BUTTONS, Press, ReaderStatus, Release, Tap, normalise_uid
from drivers.events import DEFAULT_BUTTON_PINS
from drivers.factory import open_reader

pytestmark = [
    pytest.mark.hardware,
    pytest.mark.skipif(os.environ.get("MUNCHKIN_HW") != "1",
                       reason="real hardware: set MUNCHKIN_HW=1 (and MUNCHKIN_HW_READER, MUNCHKIN_HW_PORT, …) on a Pi"),
]


@dataclass(frozen=True)
class Settings:
    reader: str = "mfrc522"
    spi_bus: int = 0
    spi_device: int = 0
    reset_pin: int = 25
    port: str = "/dev/serial0"
    baudrate: int = 115200
    uid: str | None = None
    button: str = "next"
    button_pin: int = DEFAULT_BUTTON_PINS["next"]
    timeout: float = 20.0
    hold: float = 3.0           # how long a tag must lie on the pad to prove it is one Tap
    reader_options: tuple[tuple[str, Any], ...] = ()


def parse_settings(env: Mapping[str, str]) -> Settings:
    """The MUNCHKIN_HW_* variables; ValueError naming the variable and the expected form."""

    def number(name: str, default: int, kind: type = int) -> Any:
        text = env.get(name)
        if text is None or text == "":
            return default
        try:
            return kind(text)
        except ValueError:
            raise ValueError(f"{name}={text!r}: expected a number") from None

    reader = env.get("MUNCHKIN_HW_READER", "mfrc522")
    if reader not in ("mfrc522", "pn532"):
        raise ValueError(f"MUNCHKIN_HW_READER={reader!r}: expected mfrc522 or pn532")
    spi = env.get("MUNCHKIN_HW_SPI", "0.0")
    try:
        bus, device = (int(part) for part in spi.split("."))
    except ValueError:
        raise ValueError(f"MUNCHKIN_HW_SPI={spi!r}: expected BUS.DEVICE, like 0.0") from None
    button = env.get("MUNCHKIN_HW_BUTTON", "next")
    if button not in BUTTONS:
        raise ValueError(f"MUNCHKIN_HW_BUTTON={button!r}: expected one of {', '.join(BUTTONS)}")
    uid = env.get("MUNCHKIN_HW_UID") or None
    if uid is not None:
        try:
            uid = normalise_uid(uid)
        except ValueError as exc:
            raise ValueError(f"MUNCHKIN_HW_UID: {exc}") from None
    return Settings(reader=reader, spi_bus=bus, spi_device=device, reset_pin=number("MUNCHKIN_HW_RST", 25),
                    port=env.get("MUNCHKIN_HW_PORT", "/dev/serial0"), baudrate=number("MUNCHKIN_HW_BAUD", 115200),
                    uid=uid, button=button, button_pin=number("MUNCHKIN_HW_PIN", DEFAULT_BUTTON_PINS[button]),
                    timeout=number("MUNCHKIN_HW_TIMEOUT", 20.0, float))


class HumanOperator:
    """The person at the box: instructions on the terminal, and time to follow them."""

    def __init__(self, write: Any, settings: Settings) -> None:
        self.write, self.settings = write, settings

    def say(self, text: str) -> None:
        self.write(f"\n>>> {text}\n")

    def present_tag(self) -> None:
        which = f"the tag {self.settings.uid}" if self.settings.uid else "a tag"
        self.say(f"put {which} on the pad (within {self.settings.timeout:.0f} s) and LEAVE IT THERE")

    def remove_tag(self) -> None:
        self.say("take the tag off the pad (you have 3 s)")
        time.sleep(3.0)

    def press_button(self, name: str) -> None:
        self.say(f"press the {name.upper()} button once (within {self.settings.timeout:.0f} s)")


def open_configured_reader(settings: Settings, sink: queue.Queue, *, allow_fake: bool = False) -> Any:
    if settings.reader == "mfrc522" and not allow_fake:
        spidev = sys.modules.get("spidev")
        if spidev is not None and (spidev.__doc__ or "").startswith("Fake spidev"):
            pytest.skip("the fake spidev of the emulator tests is loaded: run the hardware tests on their own")
    return open_reader(settings.reader, sink, clock=SystemClock(), spi_bus=settings.spi_bus,
                       spi_device=settings.spi_device, reset_pin=settings.reset_pin, port=settings.port,
                       baudrate=settings.baudrate, **dict(settings.reader_options))


def real_pin_factory() -> Any:
    """lgpio on a Pi (any model), else RPi.GPIO; never the mock that conftest makes the default."""
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    except Exception as first:  # noqa: BLE001 - report both attempts
        try:
            from gpiozero.pins.rpigpio import RPiGPIOFactory

            return RPiGPIOFactory()
        except Exception as second:  # noqa: BLE001
            pytest.fail(f"no real GPIO pin factory: lgpio: {first}; RPi.GPIO: {second}")


def next_event(sink: queue.Queue, kind: type, timeout: float, what: str) -> Any:
    """The next event of ``kind``; fails naming ``what`` was awaited, and anything else that came."""
    deadline = time.monotonic() + timeout
    others = []
    while True:
        try:
            event = sink.get(timeout=max(deadline - time.monotonic(), 0.001))
        except queue.Empty:
            pytest.fail(f"no {what} within {timeout:.0f} s" + (f"; got {others}" if others else ""))
        if isinstance(event, kind):
            return event
        others.append(event)


def assert_quiet(sink: queue.Queue, seconds: float, why: str) -> None:
    try:
        event = sink.get(timeout=seconds)
    except queue.Empty:
        return
    pytest.fail(f"{why}, but got {event}")


# fixtures (the self-test builds these itself) ------------------------------------------


@pytest.fixture(scope="module")
def settings() -> Settings:
    return parse_settings(os.environ)


@pytest.fixture
def operator(settings, capsys):
    def write(text: str) -> None:
        with capsys.disabled():
            sys.stdout.write(text)
            sys.stdout.flush()

    return HumanOperator(write, settings)


@pytest.fixture
def sink() -> queue.Queue:
    return queue.Queue()


@pytest.fixture
def reader(settings, sink):
    r = open_configured_reader(settings, sink)
    r.start()
    yield r
    r.close()


@pytest.fixture
def pin_factory():
    factory = real_pin_factory()
    yield factory
    factory.close()


# the tests ------------------------------------------------------------------------------


def test_the_reader_comes_online(reader, sink, settings):
    status = next_event(sink, ReaderStatus, settings.timeout, "ReaderStatus")
    assert status.online, status.message


def test_a_tag_held_on_the_pad_is_one_tap_and_a_second_presentation_another(reader, sink, settings, operator):
    assert next_event(sink, ReaderStatus, settings.timeout, "ReaderStatus").online
    operator.present_tag()
    first = next_event(sink, Tap, settings.timeout, "Tap")
    if settings.uid:
        assert first.uid == settings.uid
    assert len(first.uid) in (8, 14, 20)
    assert_quiet(sink, settings.hold, "a tag left on the pad must be one Tap")
    operator.remove_tag()
    operator.present_tag()
    second = next_event(sink, Tap, settings.timeout, "second Tap")
    assert second.uid == first.uid and second.at > first.at
    operator.remove_tag()


def test_an_empty_pad_gives_no_event(reader, sink, settings, operator):
    assert next_event(sink, ReaderStatus, settings.timeout, "ReaderStatus").online
    assert_quiet(sink, settings.hold, "nothing lies on the pad")


def test_close_is_idempotent(reader):
    reader.close()
    reader.close()
    assert "closed" in repr(reader)


def test_a_button_press_is_one_press_and_one_release(settings, sink, operator, pin_factory):
    from drivers.gpio import GpioButtons

    with GpioButtons(sink, clock=SystemClock(), pins={settings.button: settings.button_pin}, pin_factory=pin_factory):
        operator.press_button(settings.button)
        press = next_event(sink, Press, settings.timeout, f"Press of {settings.button.upper()}")
        release = next_event(sink, Release, settings.timeout, f"Release of {settings.button.upper()}")
    assert press.button == release.button == settings.button and not press.held
    assert release.at >= press.at
