"""Buttons and feedback on GPIO pins, through gpiozero.

gpiozero is an ordinary dependency; the pin factory (lgpio on a Pi,
MockFactory in tests) is passed in, never taken from a global.

Debouncing, long presses and mashing are decided here, on our ``clock``,
not by gpiozero's ``bounce_time``/``when_held``: the mock pins neither
bounce nor share our clock, so only our own logic can be tested.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from gpiozero import LED, Button, Buzzer

from drivers.base import Clock, EventSink, Started, SystemClock
from drivers.events import BUTTONS, DEFAULT_BUTTON_PINS, Press, Release


class ButtonConfigError(ValueError):
    """The button pins in the config cannot be used as given."""


def check_pins(pins: dict[str, int]) -> dict[str, int]:
    """Return ``pins`` if every name is a known button and no pin is shared."""
    unknown = sorted(set(pins) - set(BUTTONS))
    if unknown:
        raise ButtonConfigError(f"unknown button(s) {', '.join(unknown)}; buttons are {', '.join(BUTTONS)}")
    seen: dict[int, str] = {}
    for name, pin in pins.items():
        if not isinstance(pin, int) or isinstance(pin, bool) or not 0 <= pin <= 27:
            raise ButtonConfigError(f"button {name!r}: expected a BCM pin number 0-27, got {pin!r}")
        if pin in seen:
            raise ButtonConfigError(f"buttons {seen[pin]!r} and {name!r} both use BCM {pin}")
        seen[pin] = name
    return dict(pins)


@dataclass
class _ButtonState:
    raw_down: bool = False  # what the pin says now
    down: bool = False  # the debounced state
    changed_at: float = float("-inf")  # when ``down`` last changed
    pending: bool = False  # edges arrived inside the debounce window
    pressed_at: float = float("-inf")  # the last press that was reported
    reported: bool = False  # this press was reported (not swallowed as mashing)
    hold_due: float | None = None  # when to report the long press


class GpioButtons(Started):
    """The five buttons, wired to ground with the Pi's internal pull-ups.

    * A change is taken on its first edge (no added latency); edges in the
      following ``debounce`` seconds are contact bounce and are ignored. If
      the pin ends the window in the other state, that change is taken then.
    * A button kept down for ``hold_time`` gives one ``Press(held=True)``.
    * A press less than ``min_interval`` after the last reported press of
      the same button is swallowed with its release (mashing).

    gpiozero's callbacks only record edges and put events; one timer thread
    sleeps until the next hold or debounce deadline (or for ever when idle).
    ``tick()`` is that thread's work, public so tests can drive it with a
    ManualClock.
    """

    def __init__(
        self,
        sink: EventSink,
        *,
        clock: Clock | None = None,
        pins: dict[str, int] | None = None,
        pin_factory: Any = None,
        debounce: float = 0.05,
        hold_time: float = 1.0,
        min_interval: float = 0.25,
    ) -> None:
        self.sink = sink
        self.clock = clock or SystemClock()
        self.pins = check_pins(DEFAULT_BUTTON_PINS if pins is None else pins)
        self.pin_factory = pin_factory
        self.debounce = debounce
        self.hold_time = hold_time
        self.min_interval = min_interval
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._state = {name: _ButtonState() for name in self.pins}
        self._buttons: dict[str, Button] = {}
        self._thread: threading.Thread | None = None
        self.is_open = False
        self._closed = False

    # lifecycle -------------------------------------------------------------

    def start(self) -> None:
        if self._closed:
            raise RuntimeError(f"{self!r} is closed")
        if self.is_open:
            return
        try:
            for name, pin in self.pins.items():
                # Holds are timed by us on our clock. gpiozero's HoldThread still
                # waits hold_time on a held button before close() can join it,
                # so keep its hold_time short.
                button = Button(pin, pull_up=True, bounce_time=None, hold_time=0.05, pin_factory=self.pin_factory)
                self._buttons[name] = button
                with self._lock:
                    state = self._state[name]
                    state.raw_down = state.down = button.is_pressed
                button.when_pressed = lambda name=name: self._edge(name, True)
                button.when_released = lambda name=name: self._edge(name, False)
        except Exception:
            self._close_buttons()
            raise
        self.is_open = True
        self._thread = threading.Thread(target=self._run, name="buttons-timer", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._closed = True
        self.is_open = False
        self._stop.set()
        self._wake.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._thread = None
        self._close_buttons()

    def _close_buttons(self) -> None:
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()

    def __repr__(self) -> str:
        status = "open" if self.is_open else ("closed" if self._closed else "not started")
        down = [name for name, s in self._state.items() if s.down]
        pins = " ".join(f"{name}={pin}" for name, pin in self.pins.items())
        return f"<GpioButtons {pins} {status}{' down=' + ','.join(down) if down else ''}>"

    # the logic ---------------------------------------------------------------

    def _edge(self, name: str, down: bool) -> None:
        now = self.clock.monotonic()
        with self._lock:
            state = self._state[name]
            state.raw_down = down
            if down == state.down:
                state.pending = state.raw_down != state.down
            elif now - state.changed_at >= self.debounce:
                self._change(name, state, down, now)
            else:
                state.pending = True
        self._wake.set()

    def _change(self, name: str, state: _ButtonState, down: bool, now: float) -> None:
        state.down = down
        state.changed_at = now
        state.pending = False
        if down:
            state.reported = now - state.pressed_at >= self.min_interval
            state.hold_due = now + self.hold_time if state.reported else None
            if state.reported:
                state.pressed_at = now
                self.sink.put(Press(name, now, False))
        else:
            state.hold_due = None
            if state.reported:
                self.sink.put(Release(name, now))
            state.reported = False

    def tick(self) -> float | None:
        """Settle debounce windows and report long presses that are due.

        Returns the clock time of the next deadline, or None when idle.
        """
        now = self.clock.monotonic()
        with self._lock:
            for name, state in self._state.items():
                if state.pending and now - state.changed_at >= self.debounce:
                    state.pending = False
                    if state.raw_down != state.down:
                        self._change(name, state, state.raw_down, now)
                if state.hold_due is not None and state.down and now >= state.hold_due:
                    state.hold_due = None
                    self.sink.put(Press(name, now, True))
            return self._next_deadline()

    def _next_deadline(self) -> float | None:
        deadlines = [s.changed_at + self.debounce for s in self._state.values() if s.pending]
        deadlines += [s.hold_due for s in self._state.values() if s.hold_due is not None]
        return min(deadlines) if deadlines else None

    def _run(self) -> None:
        while not self._stop.is_set():
            deadline = self.tick()
            if deadline is None:
                self._wake.wait()
            else:
                # Capped, so a clock that does not follow real time (a
                # ManualClock in tests) costs a wake-up a second, not a spin.
                self._wake.wait(min(max(deadline - self.clock.monotonic(), 0.001), 1.0))
            self._wake.clear()


class GpioFeedback:
    """An optional buzzer and status LED. A pin of None means that part is absent.

    * accepted: one short beep; refused: two short beeps.
    * LED steady on while the reader is online, blinking while it is offline.

    Patterns play on gpiozero's background threads unless ``wait=True``
    (tests, ``doctor``), which plays them before returning.
    """

    def __init__(
        self,
        *,
        buzzer_pin: int | None = None,
        led_pin: int | None = None,
        pin_factory: Any = None,
        clock: Clock | None = None,
        beep_time: float = 0.08,
        blink_time: float = 0.5,
        wait: bool = False,
    ) -> None:
        self.clock = clock or SystemClock()
        self.buzzer_pin = buzzer_pin
        self.led_pin = led_pin
        self.beep_time = beep_time
        self.blink_time = blink_time
        self.wait = wait
        self.online: bool | None = None
        self._closed = False
        self.buzzer: Buzzer | None = None
        self.led: LED | None = None
        try:
            if buzzer_pin is not None:
                self.buzzer = Buzzer(buzzer_pin, initial_value=False, pin_factory=pin_factory)
            if led_pin is not None:
                self.led = LED(led_pin, initial_value=False, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    def _beep(self, n: int) -> None:
        if self.buzzer is not None and not self._closed:
            self.buzzer.beep(on_time=self.beep_time, off_time=self.beep_time, n=n, background=not self.wait)

    def accepted(self) -> None:
        self._beep(1)

    def refused(self) -> None:
        self._beep(2)

    def reader_online(self, online: bool) -> None:
        if self.online == online:
            return
        self.online = online
        if self.led is None or self._closed:
            return
        if online:
            self.led.on()
        else:
            self.led.blink(on_time=self.blink_time, off_time=self.blink_time, background=True)

    def close(self) -> None:
        self._closed = True
        for device in (self.buzzer, self.led):
            if device is not None:
                device.close()

    def __enter__(self) -> GpioFeedback:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        parts = [f"buzzer={self.buzzer_pin}", f"led={self.led_pin}"]
        parts.append({None: "reader unknown", True: "reader online", False: "reader offline"}[self.online])
        return f"<GpioFeedback {' '.join(parts)}{' closed' if self._closed else ''}>"
