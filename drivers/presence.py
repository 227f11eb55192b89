"""One tap per presentation: turn a reader's per-poll sightings into Tap events."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator

from drivers.base import Clock, EventSink, Started, SystemClock
from drivers.events import Tap
from drivers.said import Said


log = logging.getLogger(__name__)


class Presence:
    """Remembers which tag is on the pad.

    ``seen(uid, now)`` is True only when a tag arrives: a new UID, or the same
    one after it was away for at least ``removal_time`` seconds. Shorter gaps
    are the reader's flicker (a poll that missed a card still lying there),
    not a removal.
    """

    def __init__(self, *, removal_time: float = 0.35) -> None:
        self.removal_time = removal_time
        self.uid: str | None = None
        self.last_seen = float("-inf")

    def seen(self, uid: str, now: float) -> bool:
        is_new = uid != self.uid or now - self.last_seen >= self.removal_time
        self.uid = uid
        self.last_seen = now
        return is_new

    def missed(self, now: float) -> None:
        if self.uid is not None and now - self.last_seen >= self.removal_time:
            self.uid = None

    @property
    def is_present(self) -> bool:
        return self.uid is not None

    def __repr__(self) -> str:
        return f"<Presence {self.uid or 'empty'}>"


def backoff_delays(first: float = 0.5, most: float = 5.0) -> Iterator[float]:
    """0.5, 1, 2, 4, 5, 5, … seconds between reconnection attempts."""
    delay = first
    while True:
        yield delay
        delay = min(delay * 2, most)


class PollingReader(Started):
    """The thread and lifecycle that the polled readers share.

    A subclass provides ``connect() -> bool`` (open and initialise; report
    online or offline), ``is_connected()``, ``poll_once()`` and ``_release()``;
    this class runs them: poll every ``poll_interval`` while connected (or, with
    ``_poll_step`` overridden, as the reader says), and reconnect with back-off
    while not.
    """

    def __init__(self, sink: EventSink, *, clock: Clock | None, name: str, poll_interval: float,
                 removal_time: float, backoff: tuple[float, float], seat: int | None = None) -> None:
        self.sink = sink
        self.seat = seat  # the seat whose pad this is; None: the shared pad
        self.clock = clock or SystemClock()
        self.name = name
        self.poll_interval = poll_interval
        self.backoff = backoff
        self.presence = Presence(removal_time=removal_time)
        self.online: bool | None = None
        self.reconnects = 0  # times it came back online after going offline
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._delays = backoff_delays(*backoff)

    @property
    def status(self) -> str:
        """closed, starting, online or offline: for reprs and logs."""
        return "closed" if self._closed else {None: "starting", True: "online", False: "offline"}[self.online]

    def _saw(self, uid: str | None) -> None:
        """One poll's answer: a UID in the field, or none. A new presentation becomes one Tap."""
        now = self.clock.monotonic()
        if uid is None:
            self.presence.missed(now)
        elif self.presence.seen(uid, now):
            self.sink.put(Tap(uid, now, self.name, seat=self.seat))

    def connect(self) -> bool:
        raise NotImplementedError

    def is_connected(self) -> bool:
        raise NotImplementedError

    def poll_once(self) -> None:
        raise NotImplementedError

    def _release(self) -> None:
        raise NotImplementedError

    def _report(self, online: bool, message: str) -> None:
        raise NotImplementedError

    def start(self) -> None:
        if self._closed:
            raise RuntimeError(f"{self!r} is closed")
        if self._thread is None:
            label = type(self).__name__.replace("Reader", "").lower()
            self._thread = threading.Thread(target=self._run, name=f"{label}-{self.name}", daemon=True)
            self._thread.start()

    def close(self) -> None:
        self._closed = True
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self._thread = None
        self._release()

    def _run(self) -> None:
        while not self._stop.is_set():
            wait = self.step()
            if wait > 0:
                self._stop.wait(wait)

    def step(self) -> float:
        """One turn of the polling loop: connect (when not connected) or poll once; the seconds to wait
        before the next turn (the poll interval, or the back-off after a failed connection).

        A reader's own thread calls it in a loop; ``drivers.seats.SpiBus`` calls it for each reader on a
        shared bus in turn, so that one thread does every transaction on that bus.
        """
        try:
            if not self.is_connected():
                if self.connect():
                    self._delays = backoff_delays(*self.backoff)
                    return 0.0
                return next(self._delays)
            return self._poll_step()
        except Exception as exc:  # a driver bug or a library surprise must not end the thread for good
            log.exception("%r: unexpected error; reconnecting", self)
            self._release()
            self._report(False, Said("reader offline: {why}", why=Said("unexpected error: {error}", error=repr(exc))))
            return next(self._delays)

    def _poll_step(self) -> float:
        """One poll from the reading loop; the seconds until the next. A reader that can wait on its own
        line for a card to come (the PN532) overrides it to sleep there instead of polling."""
        self.poll_once()
        return self.poll_interval
