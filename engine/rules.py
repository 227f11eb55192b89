"""Ruleset options: the official rules by default, the source texts' variants on request."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
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
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruleset:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown ruleset option(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return cls(**data)
