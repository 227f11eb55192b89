"""Every game remembered: the facts of each game, folded from its accepted events as it is played.

The journal holds what was done; this module works out what it amounted to — who played, who won,
kills, deaths, run-away rolls, helpers, the fights — and keeps one row per game current through
:class:`table.storage.facts.FactsStore`, so ``munchkin-table history`` and ``stats`` read one small
row per game and never replay a game.

The facts are a log of entries, each tagged with the number of the action that produced it; an
undo drops the entries of the action it takes back, so undone actions never count. Cards that
take a run-away roll back (Invisibility, Loaded Die, Glue) add a ``retract`` entry that cancels
the last roll and everything it caused.

A row that does not match the journal (a crash between the two writes, a journal from before the
facts were kept) is rebuilt by replaying that one game when the table starts.
"""

from __future__ import annotations

import copy
import json
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from engine import commands as c
from engine.cards import Catalog
from engine.events import (CombatEnd, CombatEnded, EscapeUndone, GameStarted, GameWon, HelperJoined, LevelGained,
                           PlayerDied, RollRetaken, RunAwayFailed, RunAwaySucceeded)
from engine.game import new_game, replay_steps
from engine.results import Event, Rejected
from engine.rules import Ruleset
from engine.state import GameState, Phase, Player
from engine.strength import combat_totals
from table.storage.facts import (ABANDONED, FINISHED, FactsStore, FactsUnwritable, SETUP, UNFINISHED, fact_rows,
                                 touch_row, whole_row)
from table.storage.journal import GameRecord
from table.storage.writing import Statement

log = logging.getLogger(__name__)


class CommandLog(Protocol):
    """A game's commands as the session holds them: counted and walked in order."""

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[c.Command]: ...
# How a fight ended, from the engine's CombatEnded "how": the monsters won when the players fled
# or died; a kill is the players' win; anything else (charmed, chased off, removed by a card)
# is neither.
MONSTER_WINS = {CombatEnd.RAN_AWAY, CombatEnd.ESCAPED, CombatEnd.DIED}


@dataclass
class GameFacts:
    """The facts of one game so far: entries in the order their actions happened."""

    entries: list[list[Any]] = field(default_factory=list)   # [kind, action number, data]
    started: float | None = None        # wall time of the start (the action that started the game)
    ended: float | None = None          # wall time of the win
    last: float | None = None           # wall time of the last action or undo
    abandoned: float | None = None      # wall time a new game replaced it unfinished
    # each entry's JSON as ``entry_texts`` last made it (None: not made yet), with the entry it was
    # made from: an entry is never changed once made, so each is encoded once, not the log each time
    _encoded: list[tuple[list[Any], str | None]] = field(default_factory=list, compare=False, repr=False)
    # what the live entries add up to, folded an entry at a time as entries are added (``_tallied``)
    _tally: Tally | None = field(default=None, compare=False, repr=False)

    # ------------------------------------------------------------ folding actions in

    def add(self, n: int, before: GameState, events: Iterable[Event], after: GameState, catalog: Catalog,
            at: float) -> None:
        """Action number ``n`` was accepted: ``before`` -> ``after`` with ``events``."""
        for event in events:
            self._event(n, event, before, after, catalog, at)
        self.last = at

    def _event(self, n: int, e: Event, before: GameState, after: GameState, catalog: Catalog, at: float) -> None:
        match e:
            case GameStarted():
                self.entries.append(["start", n, {"players": [[p.id, p.name] for p in after.players]}])
                self.started = at
            case CombatEnded():
                self._fight(n, e, before, catalog)
            case RunAwaySucceeded() | RunAwayFailed():
                self.entries.append(["run", n, {"player": e.player, "monster": e.monster,
                                                "escaped": isinstance(e, RunAwaySucceeded)}])
            case PlayerDied():
                self.entries.append(["death", n, {"player": e.player}])
            case HelperJoined():
                combat = after.combat
                helped = combat.fighters[0] if combat is not None and combat.fighters else ""
                self.entries.append(["help", n, {"helper": e.player, "player": helped}])
            case LevelGained():
                self.entries.append(["level", n, {"player": e.player, "to": e.to}])
            case RollRetaken() | EscapeUndone():
                self.entries.append(["retract", n, {}])
            case GameWon():
                self.ended = at
            case _:
                pass                    # the other events leave no fact

    def _fight(self, n: int, e: CombatEnded, before: GameState, catalog: Catalog) -> None:
        if e.how is CombatEnd.IGNORED:
            return
        how = str(e.card if e.how is CombatEnd.BY_CARD else e.how)      # as stored: the card that ended it
        combat = before.combat
        if combat is None and before.flight is not None and isinstance(before.flight.before_roll, GameState):
            combat = before.flight.before_roll.combat      # a roll taken again after the fight had ended
        if combat is None:
            return
        ps, ms = _totals(before, combat, catalog)
        self.entries.append(["fight", n, {"monsters": [m.card for m in combat.monsters],
                                          "fighters": list(combat.fighters), "how": how,
                                          "players": ps, "monsters_strength": ms}])

    def mark(self) -> tuple[Any, ...]:
        """What :meth:`restore` needs to take back an ``add`` (which only appends entries)."""
        return len(self.entries), self.started, self.ended, self.last, self.abandoned

    def restore(self, mark: tuple[Any, ...]) -> None:
        count, self.started, self.ended, self.last, self.abandoned = mark
        del self.entries[count:]

    def undo_to(self, n: int, state: GameState, at: float) -> None:
        """Every action after number ``n`` was taken back: the entries past it, the last ones (they
        are in the order of their actions), cut from the same list. When those actions left no entry
        (most do not) the list stays as it is, and so does its tally: the next summary folds nothing
        again (made afresh, it went over the whole game's entries: ~0.9 ms of an undo in the latency
        game)."""
        entries = self.entries
        keep = len(entries)
        while keep and entries[keep - 1][1] > n:
            keep -= 1
        del entries[keep:]
        if state.phase is not Phase.GAME_OVER:
            self.ended = None
        if not any(e[0] == "start" for e in self.entries):
            self.started = None
        self.last = at

    # ------------------------------------------------------------ what they amount to

    def live_entries(self) -> list[list[Any]]:
        """The entries with every retracted roll (and what it caused) taken out."""
        out: list[list[Any]] = []
        for entry in self.entries:
            if entry[0] != "retract":
                out.append(entry)
                continue
            last_run = next((i for i in range(len(out) - 1, -1, -1) if out[i][0] == "run"), None)
            if last_run is not None:
                del out[last_run:]
        return out

    def status(self, state: GameState) -> str:
        if self.started is None and state.phase is Phase.SETUP:
            return SETUP
        if state.phase is Phase.GAME_OVER:
            return FINISHED
        return ABANDONED if self.abandoned is not None else UNFINISHED

    def _tallied(self) -> Tally:
        """The tally of the live entries: the kept one with the entries added since folded in, or,
        when entries were taken out (a refusal, an undo) or a roll was retracted, made afresh."""
        entries, tally = self.entries, self._tally
        if (tally is None or tally.entries is not entries or tally.count > len(entries)
                or (tally.count and entries[tally.count - 1] is not tally.last)
                or any(e[0] == "retract" for e in entries[tally.count:])):
            tally = self._tally = Tally(entries)
            for entry in self.live_entries():
                tally.fold(entry)
        else:
            for entry in entries[tally.count:]:
                tally.fold(entry)
        tally.count, tally.last = len(entries), entries[-1] if entries else None
        return tally

    def summary(self, game: int, state: GameState, actions: int) -> dict[str, Any]:
        """The game's facts as plain data (what ``history``, ``stats`` and the screens show)."""
        tally = self._tallied()
        start = tally.start
        seats: list[list[str]] = start[2]["players"] if start else [[p.id, p.name] for p in state.players]
        names = {pid: name for pid, name in seats}
        at_table: dict[str, Player] = {}              # each seated player by id (the first, as ``state.player``)
        for seated in state.players:                  # before the start, the names as they are now
            names.setdefault(seated.id, seated.name)
            at_table.setdefault(seated.id, seated)
        per: dict[str, dict[str, Any]] = {}
        for pid, _name in seats:
            counted = tally.players.get(pid, {})
            player = at_table.get(pid)
            per[pid] = {"id": pid, "name": names[pid], "kills": counted.get("kills", 0), "deaths": counted.get("deaths", 0),
                        "runs": counted.get("runs", 0), "escaped": counted.get("escaped", 0),
                        "highest_level": counted.get("highest_level", 1), "helped": counted.get("helped", 0),
                        "won": pid in state.winners,
                        "level": player.level if player is not None else None,
                        "left": player is None}
        helps: dict[tuple[str, str], int] = {}
        for (helper, helped), n in tally.helps.items():
            if helper in per:
                key = (names.get(helper, helper), names.get(helped, helped))
                helps[key] = helps.get(key, 0) + n
        for pid, p in per.items():
            if pid in at_table:
                p["highest_level"] = max(p["highest_level"], at_table[pid].level)
        biggest = None
        if tally.biggest is not None:
            top = tally.biggest
            biggest = {"fighters": [names.get(f, f) for f in top["fighters"]], "monsters": top["monsters"],
                       "players": top["players"], "monsters_strength": top["monsters_strength"], "how": top["how"]}
        monsters = {card: dict(m) for card, m in tally.monsters.items()}
        end = self.ended if self.ended is not None else self.last
        minutes = round(max(0.0, end - self.started) / 60, 1) if self.started is not None and end is not None else 0.0
        status = self.status(state)
        return {
            "id": game,
            "status": status,
            "started": self.started,
            "ended": self.ended if status == FINISHED else (self.last if status == ABANDONED else None),
            "players": [name for _pid, name in seats],
            "winners": [names.get(w, w) for w in state.winners],
            "turns": state.turn,
            "actions": actions,
            "minutes": minutes,
            "per_player": [per[pid] for pid, _name in seats],
            "monsters": monsters,
            "biggest_fight": biggest,
            "helps": [[a, b, n] for (a, b), n in sorted(helps.items(), key=lambda kv: -kv[1])],
        }

    # ------------------------------------------------------------ stored form

    def log_json(self) -> str:
        """``{"entries": [...], "started", "ended", "last", "abandoned"}``, compact: the same text as
        ``json.dumps`` of it, with the entries it encoded before taken from ``_encoded`` (the whole
        log in one text, as rows of older journals hold it; see ``stored_log``)."""
        rest = _COMPACT.encode({"started": self.started, "ended": self.ended, "last": self.last,
                                "abandoned": self.abandoned})
        return '{"entries":[' + ",".join(self.entry_texts()) + "]," + rest[1:]

    def entry_texts(self, start: int = 0) -> list[str]:
        """The JSON of each entry from number ``start`` on, as ``json.dumps`` writes it compact; an
        entry encoded before is taken from ``_encoded`` (an entry is never changed once made). Only
        the entries from ``start`` on are looked at: one before it (stored already, or resumed from
        its row) is neither encoded nor checked."""
        entries, encoded = self.entries, self._encoded
        del encoded[len(entries):]
        encoded.extend((entry, None) for entry in entries[len(encoded):])
        out = []
        for i in range(start, len(entries)):
            entry, text = encoded[i]
            if entry is not entries[i] or text is None:
                entry, text = entries[i], json.dumps(entries[i], separators=(",", ":"))
                encoded[i] = (entry, text)
            out.append(text)
        return out

    def stored_log(self) -> str:
        """The row's log as stored now: the times, and how many entries are stored as rows of their
        own (``game_fact``, see ``Records``): ``{"kept": n, "started", "ended", "last", "abandoned"}``."""
        return _COMPACT.encode({"kept": len(self.entries), "started": self.started, "ended": self.ended,
                                "last": self.last, "abandoned": self.abandoned})

    @classmethod
    def from_log(cls, text: str, entries: Callable[[int], list[str] | None] | None = None) -> GameFacts:
        """The facts a row's log holds: its entries in it (``log_json``, older journals), or, for a
        ``stored_log``, the ``kept`` entries ``entries`` reads (a list of their JSON; None when they
        are not all there). Raises ValueError (or TypeError, KeyError) for a log that does not hold up."""
        data = json.loads(text)
        if "entries" in data:
            found = data["entries"]
        else:
            kept = data["kept"]
            texts = entries(kept) if entries is not None and isinstance(kept, int) and kept >= 0 else None
            if texts is None:
                raise ValueError(f"the log's {kept!r} entries are not all stored")
            found = [json.loads(t) for t in texts]
        if not isinstance(found, list) or not all(isinstance(e, list) and len(e) == 3 for e in found):
            raise ValueError("entries are not [kind, n, data] lists")
        return cls(entries=found, started=data.get("started"), ended=data.get("ended"), last=data.get("last"),
                   abandoned=data.get("abandoned"))


@dataclass
class Tally:
    """What a game's live entries add up to, entry by entry: every player's counts (by id, seated
    or not: the summary picks the seats), the monsters fought, who helped whom, the biggest fight
    and the first start. ``GameFacts._tallied`` keeps one and folds in each entry added, so a
    summary costs the same at action 50 as at action 5,000."""

    entries: list[list[Any]]            # the GameFacts list it was folded from
    count: int = 0                      # how many of those entries are in it
    last: list[Any] | None = None       # the last of them (the list was not cut and grown again)
    start: list[Any] | None = None
    players: dict[str, dict[str, int]] = field(default_factory=dict)
    monsters: dict[str, dict[str, int]] = field(default_factory=dict)
    helps: dict[tuple[str, str], int] = field(default_factory=dict)      # (helper, helped) ids, in first-seen order
    biggest: dict[str, Any] | None = None

    def _player(self, pid: Any) -> dict[str, int] | None:
        if pid is None:
            return None
        return self.players.setdefault(str(pid), {})

    def fold(self, entry: list[Any]) -> None:
        """One live entry (no ``retract``: those take entries out, see ``GameFacts.live_entries``)."""
        kind, _n, d = entry
        if kind == "start":
            if self.start is None:
                self.start = entry
        elif kind == "fight":
            for card in d["monsters"]:
                m = self.monsters.setdefault(card, {"fought": 0, "won": 0, "killed": 0})
                m["fought"] += 1
                m["won"] += d["how"] in MONSTER_WINS
                m["killed"] += d["how"] == CombatEnd.KILLED
            if d["fighters"] and d["how"] == CombatEnd.KILLED:
                killer = self._player(d["fighters"][0])
                if killer is not None:
                    killer["kills"] = killer.get("kills", 0) + len(d["monsters"])
            top = self.biggest
            if top is None or (d["monsters_strength"], d["players"]) > (top["monsters_strength"], top["players"]):
                self.biggest = d
        elif kind == "run":
            p = self._player(d["player"])
            if p is not None:
                p["runs"] = p.get("runs", 0) + 1
                p["escaped"] = p.get("escaped", 0) + bool(d["escaped"])
        elif kind == "death":
            p = self._player(d["player"])
            if p is not None:
                p["deaths"] = p.get("deaths", 0) + 1
        elif kind == "help":
            p = self._player(d["helper"])
            if p is not None:
                p["helped"] = p.get("helped", 0) + 1
                key = (d["helper"], d["player"])
                self.helps[key] = self.helps.get(key, 0) + 1
        elif kind == "level":
            p = self._player(d["player"])
            if p is not None and isinstance(d["to"], int):
                p["highest_level"] = max(p.get("highest_level", 1), d["to"])


# What ``history`` reads of a game, and what ``stats`` reads of each player in it: stored apart,
# so that listing hundreds of games parses only what it shows.
BRIEF = ("id", "status", "started", "ended", "players", "winners", "turns", "actions", "minutes")
TALLY = ("name", "won", "kills", "deaths", "runs", "escaped", "highest_level", "helped")


def brief_and_tally(summary: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """What ``history`` lists of a game and what ``stats`` adds up of it, from its summary."""
    brief = {key: summary[key] for key in BRIEF}
    tally = {"per_player": [{key: p[key] for key in TALLY} for p in summary["per_player"]],
             "monsters": summary["monsters"]}
    return brief, tally


def league_facts(summary: dict[str, Any]) -> str:
    """A game's facts as the league gets them (issue 25): its ``history --json`` row and the tallies
    behind ``stats``, as JSON text."""
    brief, tally = brief_and_tally(summary)
    return _json({"game": summary["id"], "history": history_rows([brief])[0], "tally": tally})


def held_prefix(stored: list[list[Any]], entries: list[list[Any]]) -> int:
    """How many leading entries of ``entries`` are the very ones (the same objects) ``stored`` holds.
    Entries are only appended and cut from the end (an undo, a refused action), and every entry
    appended is a new list: when the last stored one is still where it was, all before it are too,
    which is one look instead of one per entry; otherwise they are compared one by one."""
    n = len(stored)
    if n <= len(entries) and (n == 0 or stored[n - 1] is entries[n - 1]):
        return n
    same = 0
    while same < n and same < len(entries) and stored[same] is entries[same]:
        same += 1
    return same


# ``json.dumps(data, separators=(",", ":"))`` (and with ``ensure_ascii=False``), without making an
# encoder for every call: a summary is encoded on every action that changes the facts
_COMPACT = json.JSONEncoder(separators=(",", ":"))
_COMPACT_TEXT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def _json(data: Any) -> str:
    return _COMPACT_TEXT.encode(data)


def _totals(state: GameState, combat: Any, catalog: Catalog) -> tuple[int, int]:
    try:
        return combat_totals(state, combat, catalog)
    except (KeyError, ValueError):          # a fighter who has left: the strengths are not known
        return 0, 0


def fold_commands(catalog: Catalog, seed: int, ruleset: Any, commands: Iterable[c.Command], *,
                  started: float | None = None) -> tuple[GameFacts, GameState, int]:
    """The facts of a game rebuilt from its commands (for a row missing or behind the journal).

    Wall times are not in the journal: the game's creation time stands in for its start, and the
    table clock's differences between actions for the rest.
    """
    facts = GameFacts()
    state = new_game(seed, ruleset)
    first_at: float | None = None
    n = 0
    for step in replay_steps(catalog, state, commands):
        if isinstance(step.result, Rejected):
            break
        n = step.n
        if first_at is None:
            first_at = step.command.at
        wall = (started or 0.0) + max(0.0, step.command.at - first_at)
        facts.add(n, step.before, step.result.events, step.result.state, catalog, wall)
        state = step.result.state
    return facts, state, n


def iso(t: float | None) -> str | None:
    """A wall time as local ISO 8601 with its offset, to the second."""
    if t is None:
        return None
    return datetime.fromtimestamp(t).astimezone().isoformat(timespec="seconds")



@dataclass(frozen=True)
class Folded:
    """An action folded into the facts before it is stored: how to take it back, the statements of
    the row and its log's entries, the row's shape and the entries stored once they are written
    (None: the row is written after the action instead)."""

    mark: tuple[Any, ...]
    statements: list[Statement] | None
    shape: tuple[Any, ...] | None
    stored: list[list[Any]] | None = None


class Records:
    """The facts of the game being played, kept current in ``store`` by the table's hooks."""

    def __init__(self, store: FactsStore, catalog: Catalog, *, wall: Callable[[], float] | None = None) -> None:
        self.store = store
        self.path = store.path
        self.read_only = store.read_only    # a journal opened only to look: its connection, nothing written
        self.catalog = catalog
        self.wall = wall or time.time
        self.facts = GameFacts()
        self.game = 0
        self.failed = False
        self._shape: tuple[Any, ...] | None = None      # what the stored row's facts were made from
        # the entries the game's ``game_fact`` rows hold (the very objects of ``facts.entries``), so a
        # write stores only those added since and takes out those dropped; None: not known, all written
        self._stored: list[list[Any]] | None = None

    # ------------------------------------------------------------ the controller's hooks

    def resume(self, game: GameRecord, commands: CommandLog, state: GameState) -> None:
        """The table resumed ``game`` at ``state`` after ``commands``: load its facts, or rebuild them."""
        self.game = game.id
        row = self.store.row(game.id)
        facts = None
        self._stored = None
        if row is not None and row[0] == len(commands):
            try:
                facts = GameFacts.from_log(row[1], lambda kept: self.store.entries(game.id, kept))
                if row[1].startswith('{"kept":'):          # a ``stored_log``: its entries are those rows
                    self._stored = list(facts.entries)
            except (ValueError, TypeError, KeyError) as exc:
                log.error("records: the facts of game %d are damaged (%s); rebuilding them", game.id, exc)
        if facts is None:
            facts = self._rebuild(game, commands, started=row[2] if row is not None else None)
            self._shape = ("rebuilt",)          # written with the next action
        self.facts = facts

    def _rebuild(self, game: GameRecord, commands: CommandLog, *, started: float | None) -> GameFacts:
        created = self.store.created(game.id)
        facts, _state, _n = fold_commands(self.catalog, game.seed, game.ruleset, commands,
                                          started=started or created or self.wall())
        return facts

    def begin(self, game: GameRecord) -> None:
        """A new game was created (empty, in setup)."""
        self.game = game.id
        self.facts = GameFacts()
        self._stored = None

    def accepted(self, n: int, before: GameState, events: Iterable[Event], after: GameState) -> None:
        try:
            self.facts.add(n, before, events, after, self.catalog, self.wall())
            self.write(after, n)
        except Exception:       # the facts must never cost the game an action
            log.exception("records: could not note action %d of game %d", n, self.game)

    def fold(self, n: int, before: GameState, events: Iterable[Event], after: GameState) -> Folded:
        """Action ``n`` folded in before it is stored: the row to store in the action's own
        transaction (so it never lags the journal after a kill), then :meth:`stored` or
        :meth:`refused`. Without a row (no table yet: its first write makes it) the row is
        written after the action, as ``accepted`` does."""
        mark = self.facts.mark()
        store = self.store
        if not (store.writable and store.ready and self.game):
            return Folded(mark, None, None)
        try:
            self.facts.add(n, before, events, after, self.catalog, self.wall())
            statements, shape, stored = self._row(after, n)
        except Exception:       # the facts must never cost the game an action
            log.exception("records: could not note action %d of game %d", n, self.game)
            self.facts.restore(mark)
            return Folded(mark, None, None)
        return Folded(mark, statements, shape, stored)

    def stored(self, folded: Folded, n: int, before: GameState, events: Iterable[Event], after: GameState) -> None:
        """The journal stored action ``n`` (with ``folded``'s row, when it had one)."""
        if folded.shape is None:
            self.accepted(n, before, events, after)
        else:
            self._written(folded.shape, folded.stored)

    def refused(self, folded: Folded) -> None:
        """The journal refused the action ``folded`` was made for: the facts are as before it."""
        self.facts.restore(folded.mark)

    def undone(self, n: int, state: GameState) -> None:
        try:
            self.facts.undo_to(n, state, self.wall())
            self.write(state, n)
        except Exception:
            log.exception("records: could not take back action %d of game %d", n + 1, self.game)

    def leaving(self, state: GameState, actions: int) -> None:
        """A new game replaces this one: if it was being played, it stays in the history as abandoned."""
        try:
            if self.facts.status(state) == UNFINISHED:
                self.facts.abandoned = self.wall()
            self.write(state, actions)
        except Exception:
            log.exception("records: could not close game %d", self.game)

    def summary(self, state: GameState, actions: int) -> dict[str, Any]:
        return self.facts.summary(self.game, state, actions)

    # ------------------------------------------------------------ the league's outbox (issue 25)

    def after_accepted(self, n: int, before: GameState, events: Iterable[Event], after: GameState) -> str:
        """The league's facts of this game as they will be once action ``n`` is accepted (nothing kept)."""
        facts = copy.deepcopy(self.facts)
        facts.add(n, before, events, after, self.catalog, self.wall())
        return league_facts(facts.summary(self.game, after, n))

    def after_undo(self, n: int, state: GameState) -> str:
        """The league's facts of this game as they will be once every action after ``n`` is taken back."""
        facts = copy.deepcopy(self.facts)
        facts.undo_to(n, state, self.wall())
        return league_facts(facts.summary(self.game, state, n))

    def after_leaving(self, state: GameState, actions: int) -> str | None:
        """The league's facts of this game abandoned by a new one; None when it was not being played."""
        if self.facts.status(state) != UNFINISHED:
            return None
        facts = copy.deepcopy(self.facts)
        facts.abandoned = self.wall()
        return league_facts(facts.summary(self.game, state, actions))

    # ------------------------------------------------------------ storage

    def write(self, state: GameState, actions: int) -> None:
        store = self.store
        if not store.writable or not self.game:
            return
        if not store.ready:
            if not store.prepare():
                return
            self.write(state, actions)
            self.backfill(exclude=self.game)      # older games without facts: once, now that we write
            return
        statements, shape, stored = self._row(state, actions)
        try:
            store.write(statements)
        except FactsUnwritable as exc:
            if not self.failed:
                log.error("records: cannot write the facts of game %d (%s); they are rebuilt later", self.game, exc)
            self.failed = True
            self._stored = None             # the rows may or may not hold what was tried: all of them next time
            return
        self._written(shape, stored)

    def _row(self, state: GameState, actions: int) -> tuple[list[Statement], tuple[Any, ...], list[list[Any]] | None]:
        """The statements that make the game's row say ``actions`` at ``state`` (most actions change no
        fact: only the count and the time of the last one; one that does stores the entries added
        since the last write, and takes out those dropped), what its facts were made from, and the
        entries stored once they are written."""
        facts = self.facts
        shape = (self.game, len(facts.entries), facts.status(state), state.turn, tuple(state.winners), facts.started,
                 facts.ended, facts.abandoned, tuple((p.id, p.name, p.level) for p in state.players))
        if shape == self._shape and not self.failed:
            return [touch_row(self.game, actions, facts.last)], shape, self._stored
        summary = facts.summary(self.game, state, actions)
        brief, tally = brief_and_tally(summary)
        stored, entries = self._stored, facts.entries
        same = held_prefix(stored, entries) if stored is not None else 0
        return [whole_row(self.game, status=summary["status"], started=summary["started"], ended=summary["ended"],
                          last=facts.last, actions=actions, brief=_json(brief), tally=_json(tally),
                          log_text=facts.stored_log()),
                *fact_rows(self.game, same, facts.entry_texts(same), cut=stored is None or len(stored) > same)], \
            shape, list(entries)

    def _written(self, shape: tuple[Any, ...], stored: list[list[Any]] | None) -> None:
        self._shape = shape
        self._stored = stored
        if self.failed:
            log.info("records: writing again")
        self.failed = False

    def backfill(self, *, exclude: int) -> int:
        """Rows for the journal's older games that have none (a journal kept before the facts were),
        or whose row is behind their commands: rebuilt once, by replaying each such game."""
        missing = self.store.games_behind(exclude=exclude)
        if not missing:
            return 0
        done = 0
        keep = (self.game, self.facts, self._stored)
        for gid, seed, ruleset, created, _status, old_log in missing:
            try:
                commands = self.store.good_commands(gid)
                facts, state, n = fold_commands(self.catalog, int(seed), Ruleset.from_dict(json.loads(ruleset)),
                                                commands, started=created)
            except Exception as exc:         # a game the catalog or rules no longer replay: left out
                log.error("records: cannot rebuild the facts of game %d: %s", gid, exc)
                continue
            if old_log:
                try:
                    abandoned = json.loads(old_log).get("abandoned")       # the times alone: no entries read
                    if abandoned is None or isinstance(abandoned, (int, float)):
                        facts.abandoned = abandoned
                except (ValueError, AttributeError):
                    pass
            if facts.status(state) == UNFINISHED:
                facts.abandoned = facts.last      # an older game nobody finished: a new one replaced it
            self.game, self.facts, self._stored = gid, facts, None      # its entries all written afresh
            self.write(state, n)
            done += 1
        self.game, self.facts, self._stored = keep
        if done:
            log.info("records: rebuilt the facts of %d older game(s)", done)
        return done

    def close(self) -> None:
        self.store.close()


# ------------------------------------------------------------------ what history and stats show

def history_rows(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One object per game, as ``history --json`` prints it."""
    return [{"id": s["id"], "started": iso(s["started"]), "ended": iso(s["ended"]), "status": s["status"],
             "abandoned": s["status"] == ABANDONED, "players": s["players"], "winners": s["winners"],
             "turns": s["turns"], "actions": s["actions"], "minutes": s["minutes"]} for s in games]
def stats(tallies: list[dict[str, Any]], catalog: Catalog | None = None) -> dict[str, Any]:
    """Per player name and per monster card, over every game, as ``stats --json`` prints it."""
    players: dict[str, dict[str, Any]] = {}
    monsters: dict[str, dict[str, Any]] = {}
    for s in tallies:
        for p in s["per_player"]:
            row = players.setdefault(p["name"], {"name": p["name"], "games": 0, "wins": 0, "kills": 0, "deaths": 0,
                                                 "runs": {"attempted": 0, "escaped": 0}, "highest_level": 0,
                                                 "helped": 0})
            row["games"] += 1
            row["wins"] += bool(p["won"])
            row["kills"] += p["kills"]
            row["deaths"] += p["deaths"]
            row["runs"]["attempted"] += p["runs"]
            row["runs"]["escaped"] += p["escaped"]
            row["highest_level"] = max(row["highest_level"], p["highest_level"])
            row["helped"] += p["helped"]
        for card, m in s["monsters"].items():
            name = catalog[card].name if catalog is not None and card in catalog else card
            row = monsters.setdefault(card, {"card": card, "name": name, "fought": 0, "won": 0, "killed": 0})
            for key in ("fought", "won", "killed"):
                row[key] += m[key]
    for row in players.values():       # the same two counts flat, as the CSV has them
        row["runs_attempted"], row["runs_escaped"] = row["runs"]["attempted"], row["runs"]["escaped"]
    ordered_players = sorted(players.values(), key=lambda r: (-r["wins"], -r["games"], -r["kills"], r["name"].lower()))
    ordered_monsters = sorted(monsters.values(), key=lambda r: (-r["fought"], -r["won"], r["card"]))
    return {"games": len(tallies), "players": ordered_players, "monsters": ordered_monsters}


