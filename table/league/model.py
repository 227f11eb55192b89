"""What the league's topics hold, read back: every table's online flag and state, every game's facts.
Plain data, without paho: the standings and the pages read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class TableSeen:
    """What the league knows of one table: online (None: never said), its last state JSON."""

    online: bool | None = None
    state: dict[str, Any] | None = None


@dataclass
class League:
    """Everything read from the league's topics."""

    name: str
    tables: dict[str, TableSeen] = field(default_factory=dict)
    games: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    bad: int = 0                        # messages that were not what their topic says

    def copy(self) -> League:
        return League(self.name, {k: TableSeen(v.online, v.state) for k, v in self.tables.items()},
                      dict(self.games), self.bad)
