"""The accepted commands of the current game in memory, with a state snapshot every few commands
(the first and the newest live, the others as the bytes stored in the journal).

The journal is the durable copy; this is the fast one. Undo goes back to the
nearest snapshot and replays the few commands after it, so taking back an
action costs the same at action 20 and at action 2,000.

Snapshots are also stored in the journal (``encode_state``/``decode_state``),
so a start replays only the commands after the newest good one. A stored
snapshot is only trusted when it was made by the same rules code and the same
catalog (``fingerprint``); any other is ignored and the game is replayed.
"""

from __future__ import annotations

import hashlib
import io
import logging
import pickle
from pathlib import Path
from collections.abc import Callable, Iterable, Iterator
from typing import Any, overload

from engine import commands as c
from engine.cards import Catalog
from engine.game import new_game, replay_steps
from engine.messages import msg
from engine.results import Rejected
from engine.rules import Ruleset
from engine.state import GameState
from table.storage.faults import JournalError

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 50
RECENT = 16        # the states after the last few commands stay in memory: undo of those replays nothing

_ENGINE_DIR = Path(__file__).resolve().parents[2] / "engine"
_fingerprints: dict[int, tuple[Catalog, str]] = {}
_engine_hash: str | None = None


def fingerprint(catalog: Catalog) -> str:
    """What a stored snapshot depends on: the rules code and the catalog."""
    global _engine_hash
    cached = _fingerprints.get(id(catalog))
    if cached is not None and cached[0] is catalog:
        return cached[1]
    if _engine_hash is None:
        h = hashlib.sha256()
        for path in sorted(_ENGINE_DIR.glob("*.py")):
            h.update(path.name.encode())
            h.update(path.read_bytes())
        _engine_hash = h.hexdigest()[:16]
    cards = hashlib.sha256(repr(sorted((k, repr(v)) for k, v in catalog.items())).encode()).hexdigest()[:16]
    value = f"{_engine_hash}-{cards}"
    _fingerprints[id(catalog)] = (catalog, value)
    return value


class _StateUnpickler(pickle.Unpickler):
    """Only the engine's own data classes and plain values come back out of a snapshot."""

    SAFE_BUILTINS = {"list", "dict", "tuple", "set", "frozenset", "str", "int", "float", "bool", "bytes"}

    def find_class(self, module: str, name: str) -> Any:
        if module.startswith("engine.") or (module == "builtins" and name in self.SAFE_BUILTINS):
            return super().find_class(module, name)
        if module == "copyreg" and name == "_reconstructor":
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a game state")


def encode_state(state: GameState) -> bytes:
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def decode_state(body: bytes) -> GameState | None:
    try:
        state = _StateUnpickler(io.BytesIO(body)).load()
    except Exception as exc:  # noqa: BLE001 - a snapshot that does not decode is simply not used
        log.warning("a stored snapshot does not decode (%s); replaying instead", exc)
        return None
    return state if isinstance(state, GameState) else None


def replayed(state: GameState, commands: Iterable[c.Command], catalog: Catalog) -> Iterator[tuple[c.Command, GameState]]:
    """Each command with the state after it, from ``state``, up to (not including) the first
    command the engine refuses: the engine's one replay (``replay_steps``), as undo and load want it."""
    for step in replay_steps(catalog, state, commands):
        if isinstance(step.result, Rejected):
            return
        yield step.command, step.state


class Commands:
    """A game's commands as a list whose first ``head`` items are read from the journal only when
    something needs them (an undo back past the snapshot the game started from, a full comparison)."""

    def __init__(self, tail: list[c.Command] | None = None, head: int = 0,
                 load_head: Callable[[], list[c.Command]] | None = None) -> None:
        self._items: list[c.Command] = list(tail or [])
        self._head = head
        self._load_head = load_head

    def _materialise(self) -> list[c.Command]:
        if self._head:
            assert self._load_head is not None
            head = self._load_head()
            self._items = list(head) + self._items
            self._head = 0
        return self._items

    def __len__(self) -> int:
        return self._head + len(self._items)

    @overload
    def __getitem__(self, index: int) -> c.Command: ...
    @overload
    def __getitem__(self, index: slice) -> list[c.Command]: ...

    def __getitem__(self, index: int | slice) -> c.Command | list[c.Command]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step == 1 and start >= self._head:
                return self._items[start - self._head:stop - self._head]
            return self._materialise()[index]
        n = index + len(self) if index < 0 else index
        if n >= self._head:
            return self._items[n - self._head]
        return self._materialise()[index]

    def __iter__(self) -> Iterator[c.Command]:
        return iter(self._materialise())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Commands):
            other = list(other)
        return isinstance(other, list) and len(other) == len(self) and self._materialise() == other

    def append(self, cmd: c.Command) -> None:
        self._items.append(cmd)

    def pop(self) -> c.Command:
        if not self._items:
            self._materialise()
        return self._items.pop()

    def __repr__(self) -> str:
        return f"<Commands {len(self)} ({self._head} not read yet)>"


class History:
    def __init__(self, catalog: Catalog, seed: int, ruleset: Ruleset) -> None:
        self.catalog = catalog
        self.commands: Commands = Commands()
        self.snapshots: dict[int, GameState] = {0: new_game(seed, ruleset)}
        self.stored: dict[int, bytes] = {}       # snapshots as stored in the journal, decoded when undo needs them
        self.state = self.snapshots[0]
        self.recent: dict[int, GameState] = {0: self.state}   # command count -> the state after it
        self.from_snapshot = 0                   # the stored snapshot the last load started from
        self.gaps: frozenset[int] = frozenset()  # undo stops here: a repair went on past actions that did not read

    def __len__(self) -> int:
        return len(self.commands)

    def push(self, cmd: c.Command, state: GameState, encoded: bytes | None = None) -> None:
        """Record an accepted command and the state it led to (``apply`` never mutates states).
        ``encoded``: that state as stored in the journal, when it was (a snapshot's turn). Then
        it is the newest snapshot, kept live, and the live ones before it (but the first state) are
        kept as their stored bytes alone, decoded when an undo reaches them: every state holds the
        players' level histories whole, so keeping each snapshot live grew with actions times turns."""
        self.commands.append(cmd)
        self.state = state
        n = len(self.commands)
        if n % SNAPSHOT_EVERY == 0:
            self.snapshots[n] = state
            if encoded is not None:
                self.stored[n] = encoded
                for k in [k for k in self.snapshots if 0 < k < n and k in self.stored]:
                    del self.snapshots[k]
        self._remember(n, state)

    def _base(self, n: int) -> tuple[int, GameState]:
        """The newest snapshot at or before command ``n``, live or decoded from its stored bytes
        (those that do not decode passed over), changing nothing."""
        base = max(k for k in self.snapshots if k <= n)
        for seq in sorted((k for k in self.stored if base < k <= n), reverse=True):
            state = decode_state(self.stored[seq])
            if state is not None:
                return seq, state
        return base, self.snapshots[base]

    def _remember(self, n: int, state: GameState) -> None:
        self.recent[n] = state
        self.recent.pop(n - RECENT - 1, None)

    def load(self, commands: list[c.Command] | Commands, stored: dict[int, bytes] | None = None) -> int:
        """Replay ``commands`` from the newest stored snapshot that decodes; returns how many were
        accepted (the rest are not kept)."""
        if not isinstance(commands, Commands):
            commands = Commands(commands)
        self.stored = {k: v for k, v in (stored or {}).items() if 0 < k <= len(commands)}
        start = 0
        for seq in sorted(self.stored, reverse=True):
            state = decode_state(self.stored[seq])
            if state is None:
                del self.stored[seq]
                continue
            self.snapshots[seq] = state
            self.state = state
            start = seq
            break
        self.from_snapshot = start
        self.recent = {start: self.state}
        rest = commands[start:]
        self.commands = commands
        while len(self.commands) > start:     # kept from the snapshot on only as far as they replay
            self.commands.pop()
        for cmd, state in replayed(self.state, rest, self.catalog):
            self.push(cmd, state)
        return len(self.commands)

    def prepare_pop(self) -> None:
        """Read from the journal what taking back the last command needs; raises JournalError (and
        changes nothing) when those older actions are damaged."""
        if len(self.commands) in self.gaps:
            raise JournalError(msg("actions up to {n} were restored from a snapshot past damaged ones and cannot "
                                   "be taken back", n=len(self.commands)))
        n = len(self.commands) - 1
        base = max([k for k in self.snapshots if k <= n] + [k for k in self.stored if k <= n])
        if base < self.commands._head:
            self.commands._materialise()

    def before_last(self) -> GameState:
        """The state before the last command, changing nothing (what an undo will leave)."""
        n = len(self.commands) - 1
        if n in self.recent:
            return self.recent[n]
        self.prepare_pop()
        base, state = self._base(n)
        for _cmd, state in replayed(state, self.commands[base:n], self.catalog):
            pass
        return state

    def pop(self) -> GameState:
        """Forget the last command; the state before it."""
        self.prepare_pop()
        self.commands.pop()
        n = len(self.commands)
        for key in [k for k in self.snapshots if k > n]:
            del self.snapshots[key]
        for key in [k for k in self.stored if k > n]:
            del self.stored[key]
        for key in [k for k in self.recent if k > n]:
            del self.recent[key]
        if n in self.recent:                     # one of the last few: nothing to replay
            self.state = self.recent[n]
            return self.state
        base, state = self._base(n)
        self.snapshots[base] = state             # live until the next snapshot (its bytes stay stored)
        for key in [k for k in self.stored if base < k <= n]:
            del self.stored[key]                 # newer than the base: they did not decode
        self.recent = {base: state}
        k = base
        for k, (_cmd, state) in enumerate(replayed(state, self.commands[base:], self.catalog), start=base + 1):
            if k > n - RECENT:                   # the next undos find these without a replay
                self._remember(k, state)
        assert k == n, f"command {k + 1} was accepted before and is refused on replay"
        self.state = state
        return state

    def __repr__(self) -> str:
        return f"<History {len(self.commands)} commands, {len(self.snapshots)} snapshots>"
