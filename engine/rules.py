"""Ruleset options: the official rules by default, the source texts' variants on request."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from typing import Any


@dataclass(frozen=True)
class Ruleset:
    starting_hand: int = 4          # cards of each deck; first edition dealt 2
    winning_level: int = 10         # 20 for "epic" play
    min_players: int = 3            # 2 allowed for practice
    max_players: int = 6
    hand_limit: int = 5             # dwarf +1
    interference_seconds: float = 2.6   # 0 turns the window off
    death_keeps_race_and_class: bool = True   # False: "you are human again"
    halfling_run_away: str = "penalty"  # "penalty" (-1) or "reroll" (later printing)
    level_floor: int = 1

    def to_dict(self) -> dict[str, Any]:
        return dict(_as_dict(self))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruleset:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown ruleset option(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return cls(**data)


@lru_cache(maxsize=16)
def _as_dict(ruleset: Ruleset) -> dict[str, Any]:
    """``asdict`` of a ruleset, worked out once per ruleset (frozen, hashed by its values): every
    state JSON carries it. ``to_dict`` hands out a copy."""
    return asdict(ruleset)
