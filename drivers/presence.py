"""One tap per presentation: turn a reader's per-poll sightings into Tap events."""

from __future__ import annotations

from collections.abc import Iterator


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
