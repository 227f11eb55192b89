"""Simulated twins of the real drivers: shipped code with helpers for tests.

Like gpiozero's MockPin they deliver synchronously: ``scan`` and ``press``
put the event on the sink before returning.
"""

from __future__ import annotations

from drivers.base import Clock, EventSink, Started, SystemClock
from drivers.events import BUTTONS, Press, ReaderStatus, Release, Tap, normalise_uid
from drivers.said import Said


class SimReader(Started):
    def __init__(self, sink: EventSink, *, clock: Clock | None = None, name: str = "pad",
                 seat: int | None = None) -> None:
        self.sink = sink
        self.seat = seat            # the seat whose pad it stands for; None: the shared pad
        self.clock = clock or SystemClock()
        self.name = name
        self.is_open = False

    def start(self) -> None:
        self.is_open = True
        self.sink.put(ReaderStatus(self.name, True, Said("simulated reader ready"), self.clock.monotonic()))

    def scan(self, uid: str) -> None:
        """Present a tag to the simulated pad."""
        self.sink.put(Tap(normalise_uid(uid), self.clock.monotonic(), self.name, seat=self.seat))

    def scan_card(self, name: str) -> None:
        """Present a card (or player token) by name, as if its tag were enrolled."""
        self.sink.put(Tap("", self.clock.monotonic(), self.name, card=name, seat=self.seat))

    def unplug(self, message: str = Said("simulated reader unplugged")) -> None:
        self.sink.put(ReaderStatus(self.name, False, message, self.clock.monotonic()))

    def close(self) -> None:
        self.is_open = False

    def __repr__(self) -> str:
        return f"<SimReader {self.name} {'open' if self.is_open else 'closed'}>"


class SimButtons(Started):
    def __init__(self, sink: EventSink, *, clock: Clock | None = None) -> None:
        self.sink = sink
        self.clock = clock or SystemClock()
        self.is_open = False

    def start(self) -> None:
        self.is_open = True

    def press(self, button: str, *, held: bool = False) -> None:
        """Press and release a button."""
        if button not in BUTTONS:
            raise ValueError(f"unknown button {button!r}; buttons are {', '.join(BUTTONS)}")
        now = self.clock.monotonic()
        self.sink.put(Press(button, now, held))
        self.sink.put(Release(button, now))

    def hold(self, button: str) -> None:
        """A long press, as the real buttons report one: the press, then the hold, then the release."""
        if button not in BUTTONS:
            raise ValueError(f"unknown button {button!r}; buttons are {', '.join(BUTTONS)}")
        now = self.clock.monotonic()
        self.sink.put(Press(button, now))
        self.sink.put(Press(button, now, True))
        self.sink.put(Release(button, now))

    def close(self) -> None:
        self.is_open = False

    def __repr__(self) -> str:
        return f"<SimButtons {'open' if self.is_open else 'closed'}>"


class NullFeedback:
    """No buzzer, no LED. Counts calls so tests can see what would have sounded."""

    def __init__(self) -> None:
        self.log: list[str] = []

    def accepted(self) -> None:
        self.log.append("accepted")

    def refused(self) -> None:
        self.log.append("refused")

    def reader_online(self, online: bool) -> None:
        self.log.append("online" if online else "offline")

    def close(self) -> None:
        pass

    def __repr__(self) -> str:
        return f"<NullFeedback {len(self.log)} signals>"
