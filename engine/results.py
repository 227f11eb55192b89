"""What ``apply`` returns: the new state and what happened, or a refusal as a value."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from engine.events import Event, GameEvent
from engine.messages import Msg
from engine.state import GameState

__all__ = ["Accepted", "Event", "Refusal", "RejectCode", "Rejected"]


class RejectCode(Enum):
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    WRONG_PHASE = "WRONG_PHASE"
    NOT_IN_HAND = "NOT_IN_HAND"
    ILLEGAL_TARGET = "ILLEGAL_TARGET"
    ILLEGAL_PLAY = "ILLEGAL_PLAY"
    NOT_UNDOABLE = "NOT_UNDOABLE"
    GAME_OVER = "GAME_OVER"
    UNKNOWN_CARD = "UNKNOWN_CARD"


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
