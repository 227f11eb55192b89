"""What the screen waits for (typed prompts), what an input came to, and what prompt handlers may use.

``PromptKind`` has the same string values the state JSON's ``prompt.kind`` always had. A ``Prompt``
is frozen: a change is a new prompt given to ``Desk.open`` or ``Desk.show``, so the controller sees
every change (and its revision follows by construction). ``Desk`` is the one interface through which
the prompt families (card menu, player menu, choices, sale, enrolment, records) act on the table; they
never reach into the controller.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, overload

from cards.tags import TagRegistry
from drivers.base import Feedback
from engine import commands as c
from engine.cards import Catalog
from engine.events import GameEvent
from engine.state import GameState
from table.storage.facts import FactsStore


class PromptKind(enum.StrEnum):
    HELPER = "helper"
    VICTIM = "victim"
    TARGET = "target"
    GIVE = "give"
    PROMISE = "promise"
    RECEIVER = "receiver"
    ITEM = "item"
    MONSTER = "monster"
    VALUE = "value"
    SIDE = "side"
    CARD_MENU = "card-menu"
    PLAYER_MENU = "player-menu"
    SELL = "sell"
    ENROLL = "enroll"
    STANDINGS = "standings"
    GAMES = "games"
    NAME = "name"
    RESUME = "resume"


# What each prompt waits for, for the state JSON (``prompt.expects``); "button" for the rest.
EXPECTS: dict[PromptKind, str] = {
    PromptKind.HELPER: "player-token", PromptKind.VICTIM: "player-token", PromptKind.TARGET: "player-token",
    PromptKind.GIVE: "player-token", PromptKind.PROMISE: "player-token", PromptKind.RECEIVER: "player-token",
    PromptKind.ITEM: "item", PromptKind.MONSTER: "monster", PromptKind.VALUE: "number", PromptKind.SIDE: "side",
    PromptKind.CARD_MENU: "button", PromptKind.PLAYER_MENU: "card-or-button", PromptKind.SELL: "card-or-next",
    PromptKind.ENROLL: "tag"}

# Prompts an accepted action leaves open: the tapped player's own menu (it names who acts) and a tag
# being enrolled (it is about the tags, not the game).
KEPT_OPEN = (PromptKind.PLAYER_MENU, PromptKind.ENROLL)


@dataclass(frozen=True)
class Prompt:
    """The screen waits for a particular tap (a helper, a victim) or shows a menu.

    ``card``: the card it is about (an enroll prompt: the unknown tag's UID); ``player``: who it is for;
    ``until``: it lapses then; ``value``: the number, monster, page or name chosen so far, or a
    confirmation pending; ``choices`` and ``rows``: the names or records it steps through;
    ``calm_until``: it takes no press before then (a prompt that ends a game, after an unclean stop).
    """

    kind: PromptKind
    text: Any
    card: str = ""
    player: str = ""
    until: float | None = None
    value: int = 0
    choices: tuple[str, ...] = ()
    rows: dict[str, list[Any]] = field(default_factory=dict)
    calm_until: float | None = None


@dataclass
class Message:
    text: Any
    kind: str = "info"          # info | refusal | event
    at: float = 0.0


@dataclass
class Outcome:
    accepted: bool
    message: Message | None = None
    events: tuple[GameEvent, ...] = ()


@dataclass
class PlayerDefaults:
    names: dict[str, tuple[str, str]] = field(default_factory=dict)   # token -> (name, sex)


Keys = dict[str, Any]       # button -> its soft-key label (a message), "" where it does nothing


T = TypeVar("T")


class Shown(Generic[T]):
    """An attribute the screen shows: each time it is set, its owner's ``revision`` goes up by one, so
    the run loop knows to draw a new frame. A change inside the value (an item added to a list) is
    not seen: the controller sets a new value instead."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type) -> Shown[T]: ...
    @overload
    def __get__(self, obj: object, owner: type) -> T: ...

    def __get__(self, obj: object | None, owner: type) -> Shown[T] | T:
        if obj is None:
            return self
        value: T = obj.__dict__[self.name]
        return value

    def __set__(self, obj: Any, value: T) -> None:
        obj.__dict__[self.name] = value
        obj.revision += 1


class Desk(Protocol):
    """What a prompt family may use: the game as it stands, the open prompt, and the ways to act."""

    catalog: Catalog
    registry: TagRegistry
    feedback: Feedback
    players: PlayerDefaults
    token_seconds: float
    basket: list[str]
    acting_override: tuple[str, float] | None
    roll_against: int | None
    forced_die: int | None
    message: Message | None
    explaining: bool                 # the "what can I do now" panel is open

    @property
    def prompt(self) -> Prompt | None: ...
    @property
    def state(self) -> GameState: ...
    @property
    def now(self) -> float: ...
    @property
    def game_id(self) -> int: ...
    @property
    def records_store(self) -> FactsStore: ...
    def acting_player(self) -> str: ...
    def say(self, text: Any, kind: str = "info") -> Message: ...
    def refuse(self, text: Any) -> Outcome: ...
    def open(self, prompt: Prompt | None) -> None: ...
    def close(self) -> None: ...
    def show(self, prompt: Prompt | None, text: Any = None, accepted: bool = True, kind: str = "info") -> Outcome: ...
    def submit(self, cmd: c.Command, *, keep_prompt: bool = False) -> Outcome: ...
    def handle_press(self, button: str) -> Outcome: ...
    def start_new_game(self) -> None: ...
    def token_name(self, token: str) -> Any: ...
    def standing_prompt(self) -> tuple[str, Any]: ...
    def soft_keys(self) -> Keys: ...
    @property
    def history_len(self) -> int: ...
