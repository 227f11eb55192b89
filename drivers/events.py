"""The facts that drivers report. Plain data, no game meaning."""

from __future__ import annotations

from dataclasses import dataclass

BUTTONS = ("roll", "help", "run", "next", "undo")
# The BCM pins of the five buttons on a built box (design §1), in BUTTONS order; the config may move them.
DEFAULT_BUTTON_PINS = {"roll": 5, "help": 6, "run": 13, "next": 19, "undo": 26}


def normalise_uid(text: str) -> str:
    """Return a tag UID as upper-case hex without separators.

    Accepts ``04:a1:b2``, ``04 A1 B2`` and ``04a1b2``. Raises ValueError for
    anything that is not 4, 7 or 10 bytes of hex.
    """
    cleaned = "".join(ch for ch in text if ch not in ": -").upper()
    if not cleaned or any(ch not in "0123456789ABCDEF" for ch in cleaned):
        raise ValueError(f"tag UID must be hex bytes like 04A1B2C3: {text!r}")
    if len(cleaned) not in (8, 14, 20):
        raise ValueError(f"tag UID must be 4, 7 or 10 bytes, got {len(cleaned) // 2}: {text!r}")
    return cleaned


@dataclass(frozen=True)
class Tap:
    """A tag entered a reader's field (once per presentation, not per poll).

    ``seat`` is the seat (1-6) whose pad it was, or None for the table's shared pad (the one reader
    of a single-reader box)."""

    uid: str
    at: float
    reader: str = "pad"
    card: str | None = None   # simulation only: a tap that names its card, with no tag behind it
    seat: int | None = None


@dataclass(frozen=True)
class Press:
    """A button went down (after debouncing). ``held`` marks a long press."""

    button: str
    at: float
    held: bool = False


@dataclass(frozen=True)
class Release:
    """A button came back up."""

    button: str
    at: float


@dataclass(frozen=True)
class ReaderStatus:
    """A reader went online or offline; ``message`` says why, for the screen."""

    reader: str
    online: bool
    message: str
    at: float


InputEvent = Tap | Press | Release | ReaderStatus
