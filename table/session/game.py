"""The game as the journal has it: resume, start, submit, undo and the retry after a disk fault.

A ``GameSession`` takes no input and says no words. It returns outcomes: a command accepted and
stored (with its events), the engine's ``Rejected``, or ``NotSaved`` with the journal's reason; the
controller turns them into messages. Every accepted command is appended to the journal before the
state changes, so what the screen shows has always been stored.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drivers.base import Clock
from drivers.events import Press, Tap
from engine import commands as c
from engine.cards import Catalog
from engine.game import apply
from engine.messages import Msg, Seq, msg
from engine.events import GameEvent
from engine.results import Accepted, Rejected
from engine.rules import Ruleset
from engine.state import GameState, Phase
from drivers.said import Said
from table.session.history import SNAPSHOT_EVERY, Commands, History, encode_state, fingerprint
from table.session.facts import Records
from table.storage.facts import FactsStore
from table.storage.faults import JournalError, JournalFault, fault
from table.storage.journal import GameRecord, Journal
from table.storage.repair import kept_copies

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0         # how often a journal the disk refused is tried again


def reason_of(exc: BaseException) -> Any:
    """What an error says: the message it was raised with, else its text."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, (Msg, Said)) else str(exc)


@dataclass(frozen=True)
class Saved:
    """A command the engine accepted and the journal stored."""

    before: GameState
    events: tuple[GameEvent, ...]
    reopened: bool = False      # the journal had to be opened again first (after a disk fault)


@dataclass(frozen=True)
class NotSaved:
    """The journal refused: nothing changed. ``doctor``: the refusal is a damaged row worth a check."""

    why: Any
    doctor: bool = False


@dataclass(frozen=True)
class NothingToUndo:
    reopened: bool = False


@dataclass(frozen=True)
class Undone:
    last: c.Command
    reopened: bool = False


@dataclass(frozen=True)
class Started:
    reopened: bool = False


@dataclass(frozen=True)
class Damaged:
    """Resumed: the journal was damaged (``report`` says how); a looking-only table only shows it."""

    report: Any
    read_only: bool


@dataclass(frozen=True)
class EmptyButKept:
    """Resumed: the journal holds no actions, but an earlier game is kept aside as ``path``."""

    path: Path


Submitted = Saved | Rejected | NotSaved
ResumeNotice = Damaged | EmptyButKept


def _looking_db(journal: Journal) -> Any:
    """The connection the facts of a looking-only table read: the journal's own, else an empty one
    (the journal of a path that does not exist opens as an empty read-only store)."""
    if journal.db is not None:
        return journal.db
    with tempfile.TemporaryDirectory() as nowhere:
        return Journal(Path(nowhere) / "none", read_only=True).db


class GameSession:
    """One table's game as stored: the journal, the undo history, the state and the game's facts."""

    def __init__(self, catalog: Catalog, journal: Journal, clock: Clock, *, ruleset: Ruleset,
                 seed_source: Callable[[], int], wall: Callable[[], float] | None = None,
                 open_journal: Callable[[], Journal] | None = None, storage_fault: Any = None) -> None:
        self.catalog = catalog
        self.journal = journal
        self.clock = clock
        self.ruleset = ruleset
        self.seed_source = seed_source
        self.wall = wall
        self.open_journal = open_journal
        self.storage_fault: Any = storage_fault
        # The league (issue 25): a game's facts go to the outbox with the action that ends it (or
        # abandons it, or undoes its end); ``on_outbox`` is told after each such commit.
        self.league_outbox = False
        self.on_outbox: Callable[[], None] | None = None
        self.retry_at = 0.0
        self.pending_from = self.refused_at = 0.0    # inputs made in [pending_from, refused_at) are stale
        self.given = 0
        self.clock_offset = 0.0
        self.records: Records | None = None
        self.reopen_notice: ResumeNotice | None = None     # what the journal said when it was opened again
        self.rewritten: Any = None      # what to say of a journal written anew on a commit (the loop says it)
        self.game = GameRecord(0, 0, ruleset)
        self.history = History(catalog, 0, ruleset)
        self.state: GameState = self.history.state

    def begin(self) -> ResumeNotice | None:
        """Resume at start; a journal the disk refused is tried again in a few seconds."""
        notice = self.resume()
        if self.storage_fault:
            self.retry_at = self.now + RETRY_SECONDS
        return notice

    # ------------------------------------------------------------ time and the disk

    @property
    def now(self) -> float:
        """The table clock: it goes on from the journal's last action, whatever the machine's uptime."""
        return self.clock.monotonic() + self.clock_offset

    @property
    def unclean_start(self) -> bool:
        """Whether the table before this one stopped without closing the journal (a kill, a power cut)."""
        return self.journal.unclean

    @property
    def unwritable(self) -> bool:
        return self.journal.read_only or self.journal.db is None

    @property
    def retrying(self) -> bool:
        """Whether the session waits to open the journal again (``retry_at``)."""
        return self.unwritable and self.open_journal is not None

    def facts(self) -> Records:
        assert self.records is not None, "resume() opens the game's facts"
        return self.records

    def _open_records(self) -> None:
        """The per-game facts, kept in the journal file as it is now (after any repair)."""
        journal = self.journal
        if self.records is not None:
            self.records.close()    # (a connection shared with the journal stays open)
        # looking only: share the read-only journal's connection, write nothing
        store = FactsStore.beside(journal.path, journal.db, read_only=journal.read_only)
        self.records = Records(store, self.catalog, wall=self.wall)

    # ------------------------------------------------------------ resume

    def resume(self) -> ResumeNotice | None:
        """Load the latest game (a new one when there is none), repairing what does not replay."""
        journal = self.journal
        if journal.db is None:          # the disk refused at start: show the game read-only, retry later
            self.game = GameRecord(0, 0, self.ruleset)
            self.history = History(self.catalog, 0, self.ruleset)
            self.state = self.history.state
            self._open_records()
            return None
        record = journal.latest_game()
        if record is None:
            record = GameRecord(0, 0, self.ruleset) if journal.read_only else journal.new_game(self.seed_source(), self.ruleset)
        self.game = record
        commands, stored, total, kept = self._load(record)
        self.state = self.history.state
        repaired = journal.damage is not None and journal.damage.kept is not None and not journal.read_only
        if kept < self.given or (kept < total and not repaired):   # (a repair put every good row in place)
            why = msg("action {n} no longer replays", n=kept + 1) if kept < self.given else msg("an action cannot be read")
            log.error("journal does not replay whole: keeping the first %d of %d actions", kept, total)
            try:
                journal.cut(record.id, kept, journal.damage.why if journal.damage else why, read=self.given)
            except JournalFault as exc:     # a read failed meanwhile: nothing is cut; read again later
                self.storage_fault = reason_of(exc)
                self.retry_at = self.now + RETRY_SECONDS
                log.error("%s", exc)
                self._open_records()        # the game's facts are read again with the journal
                return None
        journal.forget_cache()
        notice: ResumeNotice | None = None
        if journal.vanished is not None:        # the game the marker knew was not there: said, with true numbers
            report = journal.vanished if journal.damage is None else Seq([journal.vanished, journal.damage.report()],
                                                                           "sentences")
            notice = Damaged(report, journal.read_only)
        elif journal.damage is not None:
            notice = Damaged(journal.damage.report(), journal.read_only)
        elif not commands:
            copies = kept_copies(journal.path)
            if copies:
                notice = EmptyButKept(copies[-1])
        last_at = max((cmd.at for cmd in self.history.commands[-1:]), default=0.0)
        self.clock_offset = max(0.0, last_at - self.clock.monotonic())
        if not journal.read_only and journal.db is not None:
            newest = max(self.history.snapshots)
            if newest > 0 and newest not in stored:
                journal.store_snapshot(record.id, newest, fingerprint(self.catalog),
                                       encode_state(self.history.snapshots[newest]))
        self._open_records()
        # Records.resume only takes the length and iterates: the lazy Commands list serves, unread
        try:
            self.facts().resume(record, self.history.commands, self.state)
        except JournalError as exc:         # the early actions would not read (the disk): read again later
            log.error("%s", exc)
            self.storage_fault = reason_of(exc)
            self.retry_at = self.now + RETRY_SECONDS
            if not journal.read_only:
                journal.close()             # unwritable until the retry opens it again
        return notice

    def _load(self, record: GameRecord) -> tuple[Commands, dict[int, Any], int, int]:
        """Replay ``record`` from its snapshots: (commands, stored snapshots, rows, actions kept)."""
        journal = self.journal
        head, tail, total = journal.tail_commands(record.id)
        self.given = head + len(tail)       # the rows the replay is given (a cut checks it against the file)
        commands = Commands(tail, head, lambda: journal.head_commands(record.id, head))
        stored = {s.seq: s.body for s in journal.snapshots(record.id, fingerprint(self.catalog), len(commands))}
        self.history = History(self.catalog, record.seed, record.ruleset)
        self.history.gaps = frozenset(journal.gaps(record.id))
        try:
            kept = self.history.load(commands, stored)
        except JournalError as exc:        # an early action is damaged and no snapshot covers it
            log.error("%s", exc)
            journal.read_everything()
            head, tail, total = journal.tail_commands(record.id)      # now every row, checked
            self.given = head + len(tail)
            commands = Commands(tail)
            stored = {s.seq: s.body for s in journal.snapshots(record.id, fingerprint(self.catalog), len(commands))}
            self.history = History(self.catalog, record.seed, record.ruleset)
            self.history.gaps = frozenset(journal.gaps(record.id))
            kept = self.history.load(commands, stored)
        return commands, stored, total, kept

    def reopen(self) -> bool:
        """After a storage fault: open the journal for writing again and resume; True once it works."""
        if self.open_journal is None:
            return False
        try:
            journal = self.open_journal()
        except JournalError as exc:
            self.storage_fault = reason_of(exc)
            return False
        old, self.journal = self.journal, journal
        journal.sync_later = old.sync_later
        old.close()
        self.storage_fault = None
        self.reopen_notice = self.resume()
        return True

    def sync_failed(self, exc: OSError) -> Any:
        """The sync of the commits a frame was about to show failed (the journal's ``sync_job``): the
        game is what the file holds when looked at afresh, what a restart finds. None when that is
        the game as it stands; else the game goes back to what is stored, and what to say is returned."""
        log.error("journal %s: the sync before the frame failed (%s)", self.journal.path, exc)
        history = self.history
        last = history.commands[-1] if len(history) else None
        if self.journal.holds_after_failed_sync(self.game.id, len(history), last, exc):
            log.warning("journal %s: the actions are in the file after the failed sync: kept", self.journal.path)
            return None
        why = reason_of(fault(exc, self.journal.path))
        if self.journal.db is not None:
            self.resume()               # the game as the file holds it
        elif not self.reopen():         # the file could not even be looked at: tried again on the backoff
            self.storage_fault = self.storage_fault or why
            self.retry_at = self.now + RETRY_SECONDS
        return msg("not done: {why}", why=why)

    def retry_due(self) -> bool | None:
        """Called on every tick: None when no retry is due, else whether the journal opened again
        (or, after a write refused for another program's lock, whether that lock is let go)."""
        if self.now < self.retry_at:
            return None
        if self.retrying:
            self.retry_at = self.now + RETRY_SECONDS
            return self.reopen()
        if self.storage_fault is None or not self.journal.locked:
            return None
        self.retry_at = self.now + RETRY_SECONDS
        if not self.journal.lock_let_go():
            return False
        self.storage_fault, self.reopen_notice = None, None
        return True

    def watch_journal(self) -> Any:
        """Whether the journal's file is still in place (one ``stat``: on every commit and on the run
        loop's tick); when it was deleted or replaced, the whole game is written anew from the open
        file and what to say is returned (None: nothing happened)."""
        journal = self.journal
        if journal.read_only or journal.db is None or journal.in_place():
            return None
        try:
            said: Any = journal.write_anew()
        except JournalError as exc:
            log.error("%s", exc)
            self.storage_fault = reason_of(exc)
            self.retry_at = self.now + RETRY_SECONDS
            return msg("the game cannot be saved: {why}", why=self.storage_fault)
        if self.records is not None:
            self.records.store.reconnect()
        return said

    def stale(self, event: object) -> bool:
        """Whether ``event`` is a tap or press made (by the drivers' clock) while a write was pending
        that was then refused: the players saw the refusal after it, so it is dropped, not acted on late."""
        if not isinstance(event, (Tap, Press)) or not self.pending_from <= event.at < self.refused_at:
            return False
        log.info("dropped %r: made while a write was pending that was then refused", event)
        return True

    def _stale_since(self, started: float) -> None:
        """A write begun at ``started`` was refused just now: what was input meanwhile is stale."""
        self.pending_from, self.refused_at = started, self.clock.monotonic()

    def _refused(self, started: float, why: Any) -> NotSaved:
        """A write begun at ``started`` (the drivers' clock) was refused: the inputs made while it was
        pending are stale (:meth:`stale`), and the journal is tried again on the backoff."""
        self._stale_since(started)
        self.storage_fault = why
        self.retry_at = self.now + RETRY_SECONDS
        return NotSaved(why)

    def _writable(self) -> tuple[bool, bool]:
        """(writable now, reopened to be so); a journal no longer at its name is written anew first,
        so that no change goes into a file nobody will find."""
        if not self.unwritable:
            self.rewritten = self.watch_journal() or self.rewritten
        if not self.unwritable:
            return True, False
        return (True, True) if self.reopen() else (False, False)

    # ------------------------------------------------------------ start, submit, undo

    def start(self) -> Started | NotSaved:
        """A new game; an unfinished one stays listed as abandoned."""
        ok, reopened = self._writable()
        if not ok:
            return NotSaved(self.storage_fault)
        started = self.clock.monotonic()
        outbox = self._leaving_outbox()
        try:
            game = self.journal.new_game(self.seed_source(), self.ruleset, outbox)
        except JournalError as exc:
            self._stale_since(started)
            return NotSaved(reason_of(exc))
        self._told(outbox)
        self.facts().leaving(self.state, len(self.history))
        self.game = game
        self.facts().begin(game)
        self.history = History(self.catalog, game.seed, game.ruleset)
        self.state = self.history.state
        return Started(reopened)

    def submit(self, cmd: c.Command) -> Submitted:
        """apply → journal append → history push → facts; the state changes only once it is stored."""
        result = apply(self.state, cmd, self.catalog)
        if isinstance(result, Rejected):
            return result
        ok, reopened = self._writable()
        if not ok:
            return NotSaved(self.storage_fault)
        if reopened:                # the game was read again: judge the command against what it holds now
            result = apply(self.state, cmd, self.catalog)
            if isinstance(result, Rejected):
                return result
        return self._store(cmd, result, reopened)

    def _store(self, cmd: c.Command, result: Accepted, reopened: bool) -> Saved | NotSaved:
        seq = len(self.history) + 1
        snapshot = None
        if seq % SNAPSHOT_EVERY == 0:
            snapshot = (seq, fingerprint(self.catalog), encode_state(result.state))
        started = self.clock.monotonic()
        outbox = self._accepted_outbox(seq, result)       # before the fold: it folds a copy of the facts
        folded = self.facts().fold(seq, self.state, result.events, result.state)    # its row goes with it
        try:
            self.journal.append(self.game.id, cmd, snapshot, folded.statements, outbox)  # durable before anything shows it
        except JournalError as exc:
            self.facts().refused(folded)
            return self._refused(started, reason_of(exc))
        self._told(outbox)
        if self.storage_fault is not None:
            self.storage_fault = None
            log.info("the journal can be written again")
        self.history.push(cmd, result.state, snapshot[2] if snapshot is not None else None)
        before, self.state = self.state, result.state
        self.facts().stored(folded, len(self.history), before, result.events, self.state)
        return Saved(before, result.events, reopened)

    def undo(self) -> Undone | NothingToUndo | NotSaved:
        """Take back the last action (and a reopened window together with what came before it)."""
        ok, reopened = self._writable()
        if not ok:
            return NotSaved(self.storage_fault)
        while True:
            try:
                if len(self.history):
                    self.history.prepare_pop()
            except JournalError as exc:
                return NotSaved(reason_of(exc), doctor=True)
            started = self.clock.monotonic()
            try:
                outbox = self._undo_outbox()
                popped = self.journal.pop(self.game.id, outbox)
            except JournalError as exc:
                self._stale_since(started)
                return NotSaved(reason_of(exc))
            if not popped:
                return NothingToUndo(reopened)
            self._told(outbox)
            last = self.history.commands[-1]
            self.state = self.history.pop()
            self.facts().undone(len(self.history), self.state)
            # a reopened window belongs to the UNDO that made it: the next UNDO takes back what came before
            if not isinstance(last, c.ReopenWindow) or not self.history.commands:
                return Undone(last, reopened)

    # ------------------------------------------------------------ the league's outbox (issue 25)

    def _accepted_outbox(self, seq: int, result: Accepted) -> list[tuple[int, str]]:
        """The game ends with this action (or it changes a game that has ended): its facts."""
        if not self.league_outbox or Phase.GAME_OVER not in (self.state.phase, result.state.phase):
            return []
        try:
            return [(self.game.id, self.facts().after_accepted(seq, self.state, result.events, result.state))]
        except Exception:       # the league must never cost the game an action
            log.exception("league: the facts of game %d are not queued", self.game.id)
            return []

    def _undo_outbox(self) -> list[tuple[int, str]]:
        """The undo takes back the end of the game: its facts again, no longer finished."""
        if not self.league_outbox or self.state.phase is not Phase.GAME_OVER or not len(self.history):
            return []
        try:
            return [(self.game.id, self.facts().after_undo(len(self.history) - 1, self.history.before_last()))]
        except JournalError:
            raise               # the older actions would not read: the undo is refused (NotSaved)
        except Exception:       # the league must never cost the game an undo
            log.exception("league: the facts of game %d are not queued", self.game.id)
            return []

    def _leaving_outbox(self) -> list[tuple[int, str]]:
        if not self.league_outbox or not self.game.id:
            return []
        try:
            body = self.facts().after_leaving(self.state, len(self.history))
        except Exception:       # the league must never cost the game its new game
            log.exception("league: the facts of game %d are not queued", self.game.id)
            return []
        return [] if body is None else [(self.game.id, body)]

    def _told(self, outbox: list[tuple[int, str]]) -> None:
        if outbox and self.on_outbox is not None:
            self.on_outbox()

    def as_stored(self) -> GameState:
        """Back to the state the journal has (after a fault of ours while handling an input)."""
        self.state = self.history.state
        return self.state
