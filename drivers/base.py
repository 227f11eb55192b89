"""The protocols every driver kind implements, real or simulated."""

from __future__ import annotations

import time
from typing import Protocol, Self, runtime_checkable

from drivers.events import InputEvent


class EventSink(Protocol):
    """Where drivers put events: a ``queue.Queue`` or anything with ``put``."""

    def put(self, item: InputEvent) -> None: ...


class Clock(Protocol):
    def monotonic(self) -> float: ...


class SystemClock:
    """The real monotonic clock."""

    def monotonic(self) -> float:
        return time.monotonic()

    def __repr__(self) -> str:
        return "<SystemClock>"


class ManualClock:
    """A clock that moves only when told to; for simulations and tests."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def monotonic(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError(f"cannot move a clock backwards by {seconds}")
        self.now += seconds

    def __repr__(self) -> str:
        return f"<ManualClock t={self.now:.3f}>"


class Started:
    """``with driver:`` for a driver with ``start`` and ``close``: started on entry, closed on exit."""

    def start(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@runtime_checkable
class RfidReader(Protocol):
    """A tap pad. ``start`` begins reporting Tap and ReaderStatus events."""

    def start(self) -> None: ...

    def close(self) -> None: ...


@runtime_checkable
class ButtonPanel(Protocol):
    """The five buttons. ``start`` begins reporting Press and Release events."""

    def start(self) -> None: ...

    def close(self) -> None: ...


@runtime_checkable
class Feedback(Protocol):
    """Beeps and lights that answer an action."""

    def accepted(self) -> None: ...

    def refused(self) -> None: ...

    def reader_online(self, online: bool) -> None: ...

    def close(self) -> None: ...
