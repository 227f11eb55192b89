"""Card definitions: what the engine knows about a card, loaded from data by ``cards``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engine.errors import UnknownCardError


class Kind(Enum):
    MONSTER = "monster"
    CURSE = "curse"
    RACE = "race"
    CLASS = "class"
    MONSTER_ENHANCER = "monster-enhancer"
    WANDERING_MONSTER = "wandering-monster"
    SPECIAL = "special"
    ITEM = "item"
    ONE_SHOT = "one-shot"
    GO_UP_A_LEVEL = "go-up-a-level"


class Slot(Enum):
    HEADGEAR = "headgear"
    ARMOR = "armor"
    FOOTGEAR = "footgear"
    ONE_HAND = "1-hand"
    TWO_HANDS = "2-hand"
    NONE = "none"


@dataclass(frozen=True)
class Effect:
    """One step of what a card does, in the engine's effect vocabulary.

    ``op`` names the step (``lose-levels``, ``death``, ...); ``args`` holds its
    parameters. The vocabulary and its argument checks live in engine.effects.
    """

    op: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.args.get(key, default)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.args.items())
        return f"Effect({self.op}{': ' + inner if inner else ''})"


@dataclass(frozen=True)
class VsModifier:
    """A monster's strength change against a race, class or sex (``+5 vs elf``)."""

    target: str
    bonus: int


@dataclass(frozen=True)
class CardDef:
    id: str
    name: str
    kind: Kind
    deck: str
    copies: int = 1
    level: int | None = None
    treasures: int | None = None
    levels_gained: int | None = None
    bonus: int | None = None
    gold: int | None = None
    slot: Slot | None = None
    big: bool = False
    requires: str | None = None
    undead: bool = False
    vs: tuple[VsModifier, ...] = ()
    bad_stuff: tuple[Effect, ...] = ()
    effects: tuple[Effect, ...] = ()
    note: str = ""
    names: Mapping[str, str] = field(default_factory=dict)
    set_id: str = "base"

    def name_in(self, language: str) -> str:
        return self.names.get(language) or self.name

    def has_effect(self, op: str) -> bool:
        return any(e.op == op for e in self.effects)

    def effect(self, op: str) -> Effect | None:
        return next((e for e in self.effects if e.op == op), None)

    def __repr__(self) -> str:
        return f"<CardDef {self.id} {self.kind.value}>"


class Catalog(Mapping[str, CardDef]):
    """All cards the table knows, by id."""

    def __init__(self, cards: Iterable[CardDef]) -> None:
        self._cards: dict[str, CardDef] = {}
        self._names: dict[str, dict[str, str]] = {}
        for card in cards:
            if card.id in self._cards:
                raise ValueError(f"duplicate card id {card.id!r}")
            self._cards[card.id] = card

    def __getitem__(self, card_id: str) -> CardDef:
        try:
            return self._cards[card_id]
        except KeyError:
            raise UnknownCardError(f"unknown card {card_id!r}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def of_kind(self, kind: Kind) -> list[CardDef]:
        return [c for c in self._cards.values() if c.kind is kind]

    def names_in(self, language: str) -> dict[str, str]:
        """Every card's name in ``language``, by id: made once per language (the screen asks on
        every frame). Shared: not to be changed."""
        names = self._names.get(language)
        if names is None:
            names = self._names[language] = {cid: card.name_in(language) for cid, card in self._cards.items()}
        return names

    def __repr__(self) -> str:
        return f"<Catalog {len(self._cards)} cards>"
