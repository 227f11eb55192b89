"""The accepted commands of the current game in memory, with a state snapshot every few commands.

The journal is the durable copy; this is the fast one. Undo goes back to the
nearest snapshot and replays the few commands after it, so taking back an
action costs the same at action 20 and at action 2,000.
"""

from __future__ import annotations

from engine import commands as c
from engine.cards import Catalog
from engine.game import apply, new_game
from engine.results import Rejected
from engine.rules import Ruleset
from engine.state import GameState

SNAPSHOT_EVERY = 50


class History:
    def __init__(self, catalog: Catalog, seed: int, ruleset: Ruleset) -> None:
        self.catalog = catalog
        self.commands: list[c.Command] = []
        self.snapshots: dict[int, GameState] = {0: new_game(seed, ruleset)}
        self.state = self.snapshots[0]

    def __len__(self) -> int:
        return len(self.commands)

    def push(self, cmd: c.Command, state: GameState) -> None:
        """Record an accepted command and the state it led to (``apply`` never mutates states)."""
        self.commands.append(cmd)
        self.state = state
        if len(self.commands) % SNAPSHOT_EVERY == 0:
            self.snapshots[len(self.commands)] = state

    def load(self, commands: list[c.Command]) -> int:
        """Replay ``commands``; returns how many were accepted (the rest are not kept)."""
        for cmd in commands:
            result = apply(self.state, cmd, self.catalog)
            if isinstance(result, Rejected):
                break
            self.push(cmd, result.state)
        return len(self.commands)

    def pop(self) -> GameState:
        """Forget the last command; the state before it."""
        self.commands.pop()
        n = len(self.commands)
        for key in [k for k in self.snapshots if k > n]:
            del self.snapshots[key]
        base = max(self.snapshots)
        state = self.snapshots[base]
        for cmd in self.commands[base:]:
            result = apply(state, cmd, self.catalog)
            assert not isinstance(result, Rejected), result.message   # it was accepted before
            state = result.state
        self.state = state
        return state

    def __repr__(self) -> str:
        return f"<History {len(self.commands)} commands, {len(self.snapshots)} snapshots>"
