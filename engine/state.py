"""The game state: plain data that serialises to the state JSON of design §4."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, is_dataclass
from enum import Enum
from typing import Any

from engine.rules import Ruleset

PLAYER_TOKENS = tuple(f"player-{n}" for n in range(1, 7))


class Phase(Enum):
    SETUP = "setup"
    KICK_OPEN_THE_DOOR = "kick-open-the-door"
    LOOK_FOR_TROUBLE = "look-for-trouble"
    COMBAT = "combat"
    RUN_AWAY = "run-away"
    CHARITY = "charity"
    GAME_OVER = "game-over"


@dataclass
class Player:
    id: str
    name: str
    sex: str = "male"
    level: int = 1
    races: list[str] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)
    equipped: list[str] = field(default_factory=list)
    carried: list[str] = field(default_factory=list)
    curses: list[str] = field(default_factory=list)
    alive: bool = True
    level_history: tuple[int, ...] = (1,)   # a tuple: shared between states, never copied
    specials: list[str] = field(default_factory=list)      # half-breed, super-munchkin
    cheat_on: str | None = None                              # the item Cheat! is attached to
    next_combat: list[str] = field(default_factory=list)     # curses that hit the next combat
    sold_double_turn: int = 0                                # halfling: turn of the double-price sale
    big_discarded_turn: int = -1                             # turn a Big item was discarded from the table

    def in_play(self) -> list[str]:
        """Every card this player has on the table."""
        cheat = ["cheat"] if self.cheat_on else []
        return [*self.races, *self.classes, *self.equipped, *self.carried, *self.curses,
                *self.specials, *cheat]


@dataclass
class MonsterInPlay:
    card: str
    enhancers: list[str] = field(default_factory=list)
    slain: bool = False          # killed outright (Potion of Halitosis): counts 0, still a kill
    mate: bool = False           # a copy made by Mate


@dataclass
class OneShot:
    card: str
    side: str  # "players" or "monsters"
    bonus: int


@dataclass
class Promise:
    """An item promised to a player for their help: it changes hands when the fight is won."""

    giver: str
    card: str
    receiver: str


@dataclass
class Combat:
    monsters: list[MonsterInPlay]
    fighters: list[str]
    one_shots: list[OneShot] = field(default_factory=list)
    window_until: float | None = None
    from_door: bool = False
    wandering_pending: bool = False
    illusion_pending: int = -1                  # Illusion: which monster the next one replaces
    bonuses: dict[str, int] = field(default_factory=dict)      # Berserking, Turning per player
    discards: dict[str, int] = field(default_factory=dict)     # ability discards per player/ability
    backstabs: list[tuple[str, str]] = field(default_factory=list)  # (thief, victim)
    auto_escape: list[str] = field(default_factory=list)       # Instant Wall
    charmed_treasures: int = 0                                 # treasure of monsters charmed away
    promises: list[Promise] = field(default_factory=list)      # items promised to a helper

    @property
    def helper(self) -> str | None:
        return self.fighters[1] if len(self.fighters) > 1 else None


@dataclass
class Flight:
    """A run away in progress: who still has to roll against which monster."""

    pending: list[tuple[str, int]]          # (player id, index into combat.monsters)
    results: list[tuple[str, int, int, bool]] = field(default_factory=list)  # player, monster, roll, escaped
    bonus: dict[str, int] = field(default_factory=dict)        # Flight Spell per player
    before_roll: GameState | None = None      # the GameState before the last roll (Loaded Die, Invisibility)
    rerolled: list[str] = field(default_factory=list)          # halflings who used their re-roll
    result_cards: list[str] = field(default_factory=list)      # the card id of each result's monster


@dataclass
class PendingLoss:
    """A player must tap the item(s) to lose: ``count`` items, or items worth ``gold``."""

    player: str
    kind: str            # big | small | any item; class: one of two classes
    count: int
    gold: int = 0
    source: str = ""
    lost_gold: int = 0


@dataclass
class PendingRoll:
    """A piece of bad stuff that needs the die (3,872 Orcs, Snails on Speed): ``player`` presses ROLL.

    ``effect`` is its index in the bad stuff of ``source``; the effects after it follow the roll."""

    player: str
    source: str
    effect: int


@dataclass
class GameState:
    seed: int
    ruleset: Ruleset = field(default_factory=Ruleset)
    phase: Phase = Phase.SETUP
    turn: int = 0
    active_player: str | None = None
    players: list[Player] = field(default_factory=list)
    combat: Combat | None = None
    flight: Flight | None = None
    rolls: int = 0
    last_roll: int | None = None
    winners: list[str] = field(default_factory=list)
    first_player: str | None = None
    treasures_to_draw: int = 0
    treasures_face_up: bool = False
    pending_loss: PendingLoss | None = None
    pending_roll: PendingRoll | None = None
    looting: dict[str, Any] | None = None           # engine/looting.py: body, items, order, taken, waiting
    after_combat: bool = False            # a combat ended this turn (Mutilate the Bodies)
    warnings: list[str] = field(default_factory=list)

    def player(self, player_id: str) -> Player:
        for p in self.players:
            if p.id == player_id:
                return p
        raise KeyError(f"no player {player_id!r} at the table")

    def has_player(self, player_id: str) -> bool:
        return any(p.id == player_id for p in self.players)

    def clone(self) -> GameState:
        copy: GameState = _clone(self)
        return copy


def _clone(value: Any) -> Any:
    """A deep copy of the mutable parts only: lists, dicts and unfrozen dataclasses.

    Tuples, strings, numbers, enums and frozen dataclasses are shared, which
    keeps ``apply`` cheap however long the game has run. What a type is to the
    copy is worked out once per type, not per value: a shared type goes into
    ``_SHARED``, a mutable one gets its copier in ``_COPIERS``. A state is a
    few hundred values (most of them short lists of card ids), cloned on every
    action, so a list whose items are all shared is copied whole, and an
    unfrozen dataclass is copied by a copier made for its fields.
    """
    kind = type(value)
    if kind in _SHARED:
        return value
    copier = _COPIERS.get(kind) or _copier(kind)
    return copier(value)


_SHARED: set[type] = set()
_COPIERS: dict[type, Callable[[Any], Any]] = {}


def _copier(kind: type) -> Callable[[Any], Any]:
    """How ``_clone`` copies a value of type ``kind``: remembered in ``_COPIERS``, or ``kind`` in ``_SHARED``."""
    copier: Callable[[Any], Any]
    if issubclass(kind, list):
        copier = _copy_list
    elif issubclass(kind, dict):
        copier = _copy_dict
    elif is_dataclass(kind) and not getattr(kind, "__dataclass_params__").frozen:
        copier = _fields_copier(kind)
    else:
        _SHARED.add(kind)
        return _share
    _COPIERS[kind] = copier
    return copier


def _share(value: Any) -> Any:
    return value


def _copy_list(value: list[Any]) -> list[Any]:
    if _SHARED.issuperset(map(type, value)):
        return list(value)
    return [v if type(v) in _SHARED else _clone(v) for v in value]


def _copy_dict(value: dict[Any, Any]) -> dict[Any, Any]:
    new = dict(value)
    for k, v in new.items():
        if type(v) not in _SHARED:
            new[k] = _clone(v)
    return new


def _copy_attributes(value: Any) -> Any:
    """An unfrozen dataclass whose attributes are not just its fields, copied attribute by attribute."""
    attributes = value.__dict__.copy()
    for k, v in attributes.items():
        if type(v) not in _SHARED:
            attributes[k] = _clone(v)
    new = object.__new__(type(value))
    new.__dict__ = attributes
    return new


def _fields_copier(kind: type) -> Callable[[Any], Any]:
    """A copier for the unfrozen dataclass ``kind``: its ``__dict__`` copied at once, then each field
    whose value is not of a shared type cloned in place. Every field is looked at whatever its
    annotation says; the fields annotated as lists are only looked at first, as lists."""
    all_fields = fields(kind)
    lists = tuple(f.name for f in all_fields if str(f.type).startswith("list"))
    others = tuple(f.name for f in all_fields if f.name not in lists)
    size = len(all_fields)
    shared = _SHARED
    new_object = object.__new__

    def copy(value: Any) -> Any:
        attributes = value.__dict__.copy()
        if len(attributes) != size:
            return _copy_attributes(value)
        try:
            for k in lists:
                v = attributes[k]
                if type(v) is list:
                    if v:
                        attributes[k] = v.copy() if shared.issuperset(map(type, v)) else _copy_list(v)
                    else:
                        attributes[k] = []
                elif type(v) not in shared:
                    attributes[k] = _clone(v)
            for k in others:
                v = attributes[k]
                if type(v) not in shared:
                    attributes[k] = _clone(v)
        except KeyError:                # a field deleted and another attribute set in its place
            return _copy_attributes(value)
        new: Any = new_object(kind)
        new.__dict__ = attributes
        return new

    return copy
