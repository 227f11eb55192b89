"""What ``apply`` returns: the new state and what happened, or a refusal as a value."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import TYPE_CHECKING, Any

from engine.messages import Msg
from engine.state import GameState

if TYPE_CHECKING:
    from engine.events import GameEvent


class RejectCode(Enum):
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    WRONG_PHASE = "WRONG_PHASE"
    NOT_IN_HAND = "NOT_IN_HAND"
    ILLEGAL_TARGET = "ILLEGAL_TARGET"
    ILLEGAL_PLAY = "ILLEGAL_PLAY"
    NOT_UNDOABLE = "NOT_UNDOABLE"
    GAME_OVER = "GAME_OVER"
    UNKNOWN_CARD = "UNKNOWN_CARD"


@dataclass(frozen=True, kw_only=True)
class Event:
    """Something that happened, past tense: each kind is a dataclass in engine/events.py.

    ``automatic`` marks what the players did not do themselves (a turn starting, a fight ending):
    the message line leaves it out. ``name`` is the class name and ``data`` the fields as a plain
    dict, keyed as the engine's events were before they were typed; ``data`` is for the transition,
    while table code moves to the typed fields, and goes once nothing reads it.
    """

    automatic: bool = False

    @property
    def name(self) -> str:
        return type(self).__name__

    @property
    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "automatic":
                continue
            value = getattr(self, f.name)
            if f.metadata.get("optional") and value == f.default:
                continue
            out[f.metadata.get("key", f.name.rstrip("_"))] = _plain(value)
        return out


def _plain(value: Any) -> Any:
    """A field's value as the untyped events had it: lists, dicts and strings."""
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return dict(value)
    return value


@dataclass(frozen=True)
class Accepted:
    state: GameState
    events: tuple[GameEvent, ...] = ()

    @property
    def ok(self) -> bool:
        return True


@dataclass(frozen=True)
class Rejected:
    """A refusal: its code, and its message (a ``Msg``: a template and values; as text, English)."""

    code: RejectCode
    message: str

    def __post_init__(self) -> None:
        if not isinstance(self.message, Msg):
            object.__setattr__(self, "message", Msg(self.message))

    @property
    def values(self) -> dict[str, Any]:
        return self.message.values if isinstance(self.message, Msg) else {}

    @property
    def ok(self) -> bool:
        return False

    def __str__(self) -> str:
        return self.message


class Refusal(Exception):
    """Raised inside the engine to abandon a command; turned into Rejected by apply.

    ``message`` is an English template with named values (see engine/messages.py)."""

    def __init__(self, code: RejectCode, message: str, /, **values: Any) -> None:
        text = message if isinstance(message, Msg) and not values else Msg(message, **values)
        super().__init__(text)
        self.code = code
        self.message = text
