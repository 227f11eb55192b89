"""What ``apply`` returns: the new state and what happened, or a refusal as a value."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engine.state import GameState


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
class Event:
    """Something that happened, past tense: ``LevelGained``, ``RunAwayFailed``."""

    name: str
    data: dict[str, Any] = field(default_factory=dict)
    automatic: bool = False

    def __repr__(self) -> str:
        return f"<Event {self.name} {self.data}>"


@dataclass(frozen=True)
class Accepted:
    state: GameState
    events: tuple[Event, ...] = ()

    @property
    def ok(self) -> bool:
        return True


@dataclass(frozen=True)
class Rejected:
    code: RejectCode
    message: str

    @property
    def ok(self) -> bool:
        return False

    def __str__(self) -> str:
        return self.message


class Refusal(Exception):
    """Raised inside the engine to abandon a command; turned into Rejected by apply."""

    def __init__(self, code: RejectCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
