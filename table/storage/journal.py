"""The journal: every accepted command of every game, in SQLite, committed before it is shown.

A game is its seed, its ruleset and its commands; the state is their replay. Every row carries a
checksum (:mod:`table.storage.schema`), so a damaged row is recognised, never replayed.

:class:`Journal` opens the file and answers for it; the work is done by the modules around it:
telling a fault from damage (:mod:`~table.storage.faults`), reading (:mod:`~table.storage.reading`),
writing (:mod:`~table.storage.writing`), snapshots (:mod:`~table.storage.snapshots`) and keeping a
damaged file aside while a clean one takes its place (:mod:`~table.storage.repair`). A writing
journal repairs damage; a read-only one (``state``) only reports it and changes nothing.

Snapshots of the game state are stored beside the commands (a format version, a fingerprint of
the rules code and the catalog, and a checksum), so a start replays only the few commands after
the newest good snapshot.
"""

from __future__ import annotations

import json
import logging
import shutil
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from engine.commands import Command, command_from_dict, command_to_dict
from engine.messages import Msg, msg, nmsg
from engine.rules import Ruleset
from table.storage import evidence, marker, reading, repair, writing
from table.storage.faults import JournalError, JournalFault, fault, is_fault, read_fault, write_error
from table.storage.outbox import OutboxRow
from table.storage.paths import TableBusy, file_lock_users, hold_file_lock, let_go_file_lock
from table.storage.reading import Content, Span, said_spans
from table.storage.schema import JOURNAL_SCHEMA, row_ok
from table.storage.snapshots import Snapshot, snapshot_rows, usable

log = logging.getLogger(__name__)

@dataclass(frozen=True)
class GameRecord:
    id: int
    seed: int
    ruleset: Ruleset


@dataclass
class Damage:
    """What loading found wrong, for the screen and ``state``."""

    why: str
    good: int = 0           # actions of the latest game that are kept
    total: int = 0          # actions the damaged journal seemed to hold
    kept: Path | None = None
    dropped: list[Span] = field(default_factory=list)   # the file's action numbers left out
    origins: list[int] = field(default_factory=list)    # the file's number of each action kept (a hole bridged)
    unreadable: list[Span] = field(default_factory=list)   # the file's action numbers that did not read

    def at_most(self, good: int, rows: int | None = None) -> Damage:
        """The same damage, keeping no more than ``good`` of the ``rows`` actions the replay was given
        (default: those it keeps now); those after it join the dropped ones, by their number in the file."""
        rows = self.good if rows is None else rows
        if good < rows:
            cut = [(n, n) for n in self.origins[good:rows]] if self.origins else [(good + 1, rows)]
            self.dropped = merged(self.left_out(), cut)
        self.good = min(self.good, good)
        return self

    def left_out(self) -> list[Span]:
        """The file's action numbers not restored: the holes and what did not replay, else the tail."""
        if self.dropped:
            return self.dropped
        return [(self.good + 1, self.total)] if self.good < self.total else []

    def report(self) -> Msg:
        dropped = self.left_out()
        left_out = sum(b - a + 1 for a, b in dropped)
        if self.origins:                # rows read past holes: the true numbers, unread and unreplayed apart
            return self._bridged(dropped)
        if self.kept is not None and dropped:
            return nmsg("the saved game was damaged ({why}): restored to action {good} of {total}, leaving out "
                        "action {dropped}; the damaged copy is kept as {file}",
                        "the saved game was damaged ({why}): restored to action {good} of {total}, leaving out "
                        "actions {dropped}; the damaged copy is kept as {file}", "n", n=left_out, why=self.why,
                        good=self.good, total=self.total, dropped=said_spans(dropped), file=self.kept.name)
        if self.kept is not None:
            return msg("the saved game was damaged ({why}): restored to action {good} of {total}; "
                       "the damaged copy is kept as {file}", why=self.why, good=self.good, total=self.total,
                       file=self.kept.name)
        if dropped:
            return nmsg("the saved game was damaged ({why}): restored to action {good} of {total}, leaving out "
                        "action {dropped}",
                        "the saved game was damaged ({why}): restored to action {good} of {total}, leaving out "
                        "actions {dropped}", "n", n=left_out, why=self.why, good=self.good, total=self.total,
                        dropped=said_spans(dropped))
        return msg("the saved game was damaged ({why}): restored to action {good} of {total}", why=self.why,
                   good=self.good, total=self.total)


    def _bridged(self, dropped: list[Span]) -> Msg:
        """The report of a game read past holes: restored of total, the unreadable actions, those
        after them the engine no longer accepted, and the kept copy."""
        holes = self.unreadable or dropped
        unread = sum(b - a + 1 for a, b in holes)
        said = nmsg("the saved game was damaged ({why}): restored {good} of {total} actions; {n} unreadable "
                    "(action {spans})",
                    "the saved game was damaged ({why}): restored {good} of {total} actions; {n} unreadable "
                    "(actions {spans})", "n", n=unread, why=self.why, good=self.good, total=self.total,
                    spans=said_spans(holes))
        rest = _minus(dropped, holes)
        if rest:
            said = nmsg("{said}; {n} after them no longer replays (action {spans})",
                        "{said}; {n} after them no longer replay (actions {spans})", "n", said=said,
                        n=sum(b - a + 1 for a, b in rest), spans=said_spans(rest))
        if self.kept is not None:
            said = msg("{said}; the damaged copy is kept as {file}", said=said, file=self.kept.name)
        return said


def _minus(spans: list[Span], out: list[Span]) -> list[Span]:
    """The numbers of ``spans`` that are not in ``out``, as spans."""
    gone = {n for a, b in out for n in range(a, b + 1)}
    return merged([], [(n, n) for a, b in spans for n in range(a, b + 1) if n not in gone])


def merged(spans: list[Span], more: list[Span]) -> list[Span]:
    """Two lists of spans of action numbers as one, in order, touching spans joined."""
    out: list[Span] = []
    for a, b in sorted(spans + more):
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(b, out[-1][1]))
        else:
            out.append((a, b))
    return out


def _damage_of(content: Content, why: str | None = None) -> Damage:
    """What ``content`` (read whole) says is wrong with the latest game: its first problem, the
    actions kept of those it seemed to hold, the numbers left out."""
    good, total = content.latest_counts()
    holes, origins = content.latest_holes()
    return Damage(why or content.problems[0], good, total, dropped=list(holes), origins=list(origins),
                  unreadable=list(holes))


def _decode(rows: list[tuple[int, str, int]]) -> tuple[list[Command], str | None]:
    """The commands of checked rows, up to the first that does not decode (and why it does not)."""
    out: list[Command] = []
    for _seq, body, _crc in rows:
        try:
            out.append(command_from_dict(json.loads(body)))
        except (ValueError, TypeError, KeyError) as exc:
            return out, f"an action that cannot be read ({exc})"
    return out, None


def finished_repair(kept: Path, content: Content | None) -> Damage:
    """What the start says after it finished a repair a power cut interrupted: the actions the
    clean journal holds, of those the kept damaged copy seemed to hold."""
    good, total = content.latest_counts() if content is not None else (0, 0)
    dropped: list[Span] = []
    try:
        copy = Journal(kept, read_only=True, fast=False)
        try:
            record = copy.latest_game()
            seemed = len(copy.commands(record.id)) if record is not None else 0
            total = max(total, seemed, copy.damage.total if copy.damage else 0)
            if copy.damage is not None and copy.damage.good == good:    # what the repair left out, by number
                dropped = copy.damage.left_out()
        finally:
            copy.close()
    except JournalError:
        pass                # the copy cannot be read now: the counts of the clean journal stand
    return Damage(msg("a repair that a power cut interrupted was finished"), good, total, kept, dropped=dropped)


def _raised(outcome: tuple[tuple[str, ...], Content | None]) -> bool:
    """Whether what a read found rests on SQLite raising (its words in brackets), not on checksums."""
    problems, content = outcome
    return content is None or any("unreadable" in p or "damaged (" in p for p in problems)


def head_commands(db: sqlite3.Connection, path: Path, game: int, upto: int) -> list[Command]:
    """The first ``upto`` commands of ``game`` read through ``db``, every one checked; raises
    JournalError when one is damaged or missing, JournalFault when the disk refuses."""
    out: list[Command] = []
    factory = db.text_factory
    db.text_factory = bytes
    try:
        rows = db.execute("SELECT seq, CAST(body AS BLOB), crc FROM command WHERE game = ? AND seq <= ? "
                          "ORDER BY seq", (game, upto)).fetchall()
    except sqlite3.Error as exc:
        raise (fault(exc, path) if is_fault(exc) else JournalError(msg("the saved game is damaged ({error})", error=str(exc)))) from exc
    finally:
        db.text_factory = factory
    for n, (seq, raw, crc) in enumerate(rows, 1):
        try:
            body = bytes(raw).decode("utf-8")
            if seq != n or not row_ok(game, seq, body, crc):
                raise ValueError("checksum mismatch")
            out.append(command_from_dict(json.loads(body)))
        except (ValueError, TypeError, KeyError) as exc:
            raise JournalError(msg("the saved game is damaged at action {n} ({error})", n=n, error=str(exc))) from exc
    if len(out) != upto:
        raise JournalError(nmsg("the saved game is damaged: {n} early action is missing",
                                "the saved game is damaged: {n} early actions are missing", "n", n=upto - len(out)))
    return out


def _good_prefix(db: sqlite3.Connection, game: int) -> tuple[list[tuple[int, str, int]], int | None]:
    """The game's rows up to the first that is out of order or fails its check (and that row's seq)."""
    rows: list[tuple[int, str, int]] = []
    for seq, raw, crc in db.execute("SELECT seq, CAST(body AS BLOB), crc FROM command WHERE game = ? ORDER BY seq",
                                    (game,)):
        body = bytes(raw).decode("utf-8", "replace")
        if seq != len(rows) + 1 or not row_ok(game, seq, body, crc):
            return rows, seq
        rows.append((seq, body, crc))
    return rows, None


def read_head(db: sqlite3.Connection, fresh: Callable[[], sqlite3.Connection] | None, path: Path, game: int,
              upto: int) -> list[Command]:
    """:func:`head_commands`, read again (through ``fresh`` connections when given) a pause apart
    before rows that do not read are called damaged: a failing read may look like damage."""
    for attempt in range(evidence.SETTLE_READS):
        conn = db if attempt == 0 or fresh is None else fresh()
        try:
            return head_commands(conn, path, game, upto)
        except JournalFault:
            raise
        except JournalError as exc:
            if attempt == evidence.SETTLE_READS - 1:
                if isinstance(exc.__cause__, sqlite3.Error):    # SQLite's words for a failing read, every time
                    raise read_fault(path) from exc
                raise
            log.warning("journal %s: early actions did not read; reading them again", path)
            time.sleep(evidence.SETTLE_PAUSE * (attempt + 1))
        finally:
            if conn is not db:
                conn.close()
    raise AssertionError("unreachable")


class JournalFile:
    """The journal's file as this process holds it for writing: the connection, the OS lock on the
    file itself (one writer), its identity (to notice it deleted or replaced under a running table,
    and write it anew from the open file) and the marker beside it (to notice it vanished)."""

    path: Path
    read_only: bool
    db: sqlite3.Connection | None
    locked: bool
    _content: Content | None
    _lock: tuple[int, int] | None
    identity: tuple[int, int] | None
    damage: Damage | None
    _tmp: tempfile.TemporaryDirectory[str] | None
    vanished: Msg | None
    sync_later = False          # commits left unsynced for sync_job (the run loop's); else each is synced
    _later_db: sqlite3.Connection | None = None     # the connection switched to NORMAL for it
    _synced_changes = 0         # that connection's total_changes at the last sync

    def _drop_connection(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None

    def _opened(self) -> None:
        """A journal open for writing: its file's identity (to notice it deleted or replaced) and the
        marker saying which game it holds (to notice it vanished)."""
        st = os.stat(self.path)
        self.identity = (st.st_dev, st.st_ino)
        self._note(clean=False)
        marker.hold_link(self.path)

    def _note(self, *, clean: bool) -> None:
        """The marker beside the journal, for its latest game (nothing while it has none)."""
        if self.db is None:
            return
        try:
            row = self.db.execute("SELECT id, seed FROM game ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                return
            actions = writing.top(self.db, int(row[0]))
        except sqlite3.Error as exc:
            log.warning("journal %s: the marker is not noted (%s)", self.path, exc)
            return
        marker.note(self.path, int(row[0]), int(row[1]), actions, clean=clean)

    def _relock(self) -> None:
        """A new file took the journal's name (a repair, a rewrite): lock it, let the old one go."""
        old, self._lock = self._lock, hold_file_lock(self.path)
        let_go_file_lock(old)
        st = os.stat(self.path)
        self.identity = (st.st_dev, st.st_ino)
        marker.hold_link(self.path)

    def _conn(self) -> sqlite3.Connection:
        db = self.db
        if db is None:
            raise JournalFault(f"the journal {self.path} is not open")
        if self.sync_later and self._later_db is not db and not db.in_transaction:
            db.execute("PRAGMA synchronous=NORMAL")      # the WAL is synced by sync_job instead
            self._later_db, self._synced_changes = db, db.total_changes
        return db

    # ------------------------------------------------------------ syncing beside the frame

    def sync_job(self) -> Callable[[], None] | None:
        """With ``sync_later``: the sync that makes the commits since the last one durable, for
        another thread to run while the frame that shows them is drawn (the frame waits for it
        before it is shown); None when nothing was written since. ``PRAGMA synchronous=NORMAL``
        leaves a commit in the WAL unsynced, and one fdatasync of the WAL (SQLite's own way of
        syncing it) makes it as durable as FULL does; a checkpoint syncs both files itself."""
        db = self.db
        if db is None or self._later_db is not db or db.total_changes == self._synced_changes:
            return None
        self._synced_changes = db.total_changes
        return partial(writing.sync_file, self.path.with_name(self.path.name + "-wal"))

    def holds_after_failed_sync(self, game: int, seq: int, last: Command | None, exc: OSError) -> bool:
        """After the sync of the WAL failed with ``exc``: whether the file, looked at afresh, holds the
        game up to its ``seq``-th action ``last`` (what a restart finds); a full checkpoint then
        tries to make it durable."""
        self._drop_connection()
        self.db, stored = evidence.after_failed_write(self.path, game, exc)
        body = json.dumps(command_to_dict(last), separators=(",", ":")) if last is not None else None
        return self.db is not None and stored == (seq, body)

    def gaps(self, game: int) -> list[int]:
        """Where the game's replay goes on from a snapshot past actions a repair could not read:
        undo stops there."""
        content = self._content
        if content is not None:
            return list(content.gaps.get(game, []))
        try:
            return [int(r[0]) for r in self._conn().execute(
                "SELECT seq FROM game_gap WHERE game = ? ORDER BY seq", (game,))]
        except sqlite3.DatabaseError as exc:
            if is_fault(exc) and "no such table" not in str(exc):
                raise fault(exc, self.path) from exc
            return []

    def count(self, game: int) -> int:
        return int(self._conn().execute("SELECT COUNT(*) FROM command WHERE game = ?", (game,)).fetchone()[0])

    def forget_cache(self) -> None:
        """After the first load the database itself is read (it changes as the game goes on)."""
        self._content = None

    def _write_error(self, exc: sqlite3.Error) -> JournalError:
        log.error("journal %s: cannot write: %s", self.path, exc)
        self.locked = writing.is_lock(exc)
        return write_error(exc, self.path)

    def lock_let_go(self) -> bool:
        """After a write refused for another program's lock: whether it is let go now (no wait)."""
        self.locked = self.locked and (self.db is None or not writing.lock_free(self.db))
        return not self.locked

    def in_place(self) -> bool:
        """Whether the file this journal writes is still the one at its name (not deleted, not
        replaced): one ``stat``, cheap enough for every commit and every idle tick."""
        if self.identity is None:
            return True
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return False
        except OSError:
            return True             # the disk refuses: a fault, said by the next write
        return (st.st_dev, st.st_ino) == self.identity

    def write_anew(self) -> Msg:
        """The journal's file was deleted or replaced under this table: the whole database, as this
        connection still has it open (every accepted action is in it), written anew at its name; a
        file that took its place is kept aside first, byte for byte. JournalFault when it cannot be."""
        path, db = self.path, self._conn()
        replaced = path.exists()
        salvage = repair.salvage_path(path)
        try:
            kept = repair.keep_aside(path, "replaced") if replaced else None
            salvage.unlink(missing_ok=True)
            copy = sqlite3.connect(salvage, isolation_level=None)
            try:
                db.backup(copy)
            finally:
                copy.close()
            with open(salvage, "rb+") as fh:
                os.fsync(fh.fileno())
        except (sqlite3.Error, OSError) as exc:
            salvage.unlink(missing_ok=True)
            raise fault(exc, path) from exc
        self._drop_connection()     # (SQLite neither checkpoints into nor drops the -wal of a file that moved)
        repair.put_in_place(salvage, path)
        self._relock()
        self.db = writing.connect(path)
        writing.setup(self.db)
        self.forget_cache()
        self._note(clean=False)
        if kept is not None:
            said = msg("the journal {file} was replaced while the table ran: the game was written anew from the "
                       "table's own copy, nothing lost; the file put in its place is kept as {kept}",
                       file=path.name, kept=kept.name)
        else:
            said = msg("the journal {file} was deleted while the table ran: the game was written anew from the "
                       "table's own copy, nothing lost", file=path.name)
        log.warning("journal %s: %s", path, said)
        return said

    def _rebuild_vanished(self, known: marker.Known, why: Msg) -> None:
        """The journal is missing or empty where the marker says a game was: keep what is left aside
        (before SQLite opens it: SQLite drops the ``-wal`` of an empty file), rebuild from what survives."""
        path = self.path
        kept = repair.keep_aside(path, "vanished") if marker.left_at(path) else None
        content, source = _surviving(path, known, kept)
        salvage = repair.salvage_path(path)
        repair.write_salvage(salvage, content)
        repair.put_in_place(salvage, path)
        self._lock = hold_file_lock(path)
        self.db = writing.connect(path)
        writing.setup(self.db)
        self._content = content
        restored = len(content.commands.get(known.game, []))
        self.vanished = marker.vanished_report(known, why, restored=restored, source=source, kept=kept)
        log.warning("journal %s: %s", path, self.vanished)

    def _replace_with(self, content: Content, label: str) -> Path:
        path = self.path
        try:
            kept = repair.keep_aside(path, label)
        except OSError as exc:
            self._drop_connection()
            raise fault(exc, path) from exc
        salvage = repair.salvage_path(path)
        try:
            repair.write_salvage(salvage, content)
        except (sqlite3.Error, OSError) as exc:
            self._drop_connection()
            raise fault(exc, path) from exc
        self._drop_connection()
        repair.put_in_place(salvage, path)
        self._relock()
        self.db = writing.connect(path)
        writing.setup(self.db)
        self._content = content
        return kept

    def close(self) -> None:
        if self.db is not None:
            if not self.read_only and self.in_place() and file_lock_users(self._lock) == 1:
                self._note(clean=True)      # the last journal of this table on the file: a clean stop
            self.db.close()
            self.db = None
        let_go_file_lock(self._lock)        # after the connection: closing its descriptor drops SQLite's locks
        self._lock = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None


class Journal(JournalFile):
    """The journal at ``path``.

    ``read_only`` opens it for looking only: nothing in the state directory is
    created, moved, repaired or truncated, and damage is reported in ``damage``.
    A writing journal repairs damage (keeping the damaged copy) and raises
    :class:`JournalFault` when the disk refuses.
    """

    def __init__(self, path: Path, *, read_only: bool = False, fast: bool = True) -> None:
        self.path = path
        self.read_only = read_only
        self.fast = fast            # False: read every row of every game at once (restore, checks)
        self.damage: Damage | None = None
        self.dropped = 0
        self.locked = False         # the last write was refused for a lock another program holds
        self._tmp: tempfile.TemporaryDirectory[str] | None = None     # a private copy being read
        self.db: sqlite3.Connection | None = None
        self._content: Content | None = None
        self.vanished: Msg | None = None    # the game the marker knew was not there (marker.gone)
        self.unclean = False        # the last table on this file stopped without closing it
        self._lock: tuple[int, int] | None = None       # the journal file's own lock, while writing
        self.identity: tuple[int, int] | None = None    # (device, inode) of the file being written
        if read_only:
            self._open_read_only()
        else:
            try:
                self._open_for_writing()
                self._opened()
            except BaseException:
                self._drop_connection()
                let_go_file_lock(self._lock)
                self._lock = None
                raise

    @classmethod
    def unavailable(cls, path: Path) -> Journal:
        """A journal that could not even be read: no game to show until the disk lets us in."""
        self = cls.__new__(cls)
        self.path, self.read_only, self.damage, self.dropped, self.fast, self.locked = path, True, None, 0, True, False
        self._tmp, self.db, self._content = None, None, None
        self.vanished, self.unclean, self._lock, self.identity = None, False, None, None
        return self

    # ------------------------------------------------------------ opening

    @property
    def moved_aside(self) -> Path | None:
        return self.damage.kept if self.damage is not None else None

    def _open_read_only(self) -> None:
        path = self.path
        known = marker.read_known(path)
        why = marker.gone(path, known)
        if known is not None and why is not None:        # only said: nothing here is touched
            self.vanished = marker.vanished_looking(known, why)
            log.warning("journal %s: %s", path, self.vanished)
            self._empty()
            return
        if not path.exists():
            self._empty()
            return
        try:
            db = reading.connect_beside(path)
            if db is None:
                db = self._private_copy()       # a -wal left by a kill: read a copy, touch nothing here
            self.db = db
            db.execute("BEGIN")         # one consistent view, even while a running table writes
            try:
                self._check(db)
            finally:
                try:
                    if db.in_transaction:
                        db.execute("COMMIT")
                except sqlite3.Error:
                    pass                # a read-only view: nothing to keep or lose
        except sqlite3.DatabaseError as exc:
            if not is_fault(exc):
                self._damaged_unreadable(exc)
            elif self._tmp is None and Path(str(path) + "-wal").exists():
                self._read_private_copy()
            else:
                raise fault(exc, path) from exc
        except OSError as exc:
            raise fault(exc, path) from exc

    def _read_private_copy(self) -> None:
        """Reading beside the files failed on a fault: read a private copy of them instead."""
        try:
            self.db = self._private_copy()
            self._check(self.db)
        except sqlite3.DatabaseError as again:
            if is_fault(again):
                raise fault(again, self.path) from again
            self._damaged_unreadable(again)
        except OSError as again:
            raise fault(again, self.path) from again

    def _private_copy(self) -> sqlite3.Connection:
        db, self._tmp = reading.private_copy(self.path)
        return db

    def _empty(self) -> None:
        """Nothing to read: an empty journal in memory."""
        self.db = sqlite3.connect(":memory:", isolation_level=None)
        self.db.executescript(JOURNAL_SCHEMA)
        self._content = Content()

    def _damaged_unreadable(self, exc: BaseException) -> None:
        log.error("journal %s cannot be read (%s)", self.path, exc)
        self.damage = Damage(msg("unreadable: {error}", error=str(exc)), 0, 0)
        if self.db is not None:
            self.db.close()
        self._empty()

    def _settled_check(self, reconnect: Callable[[], sqlite3.Connection]) -> None:
        """Read and check the journal until the evidence settles (:func:`evidence.settle_reads`);
        a fault (nothing repaired, the connection dropped) when it does not."""
        try:
            evidence.settle_reads(self._conn(), reconnect, self._one_check, self.path, raised=_raised)
        except JournalFault:
            self._drop_connection()
            self.damage, self._content = None, None
            raise

    def _one_check(self, db: sqlite3.Connection) -> tuple[tuple[str, ...], Content | None] | None:
        """One read of everything through ``db``: None when sound, else what it found (for comparing)."""
        self.damage, self.dropped = None, 0
        try:
            problems = self._check(db)
        except sqlite3.DatabaseError as exc:
            if is_fault(exc):
                self._drop_connection()
                raise fault(exc, self.path) from exc
            self._content = None
            self.damage = Damage(msg("unreadable: {error}", error=str(exc)), 0, 0)
            return (f"unreadable: {exc}",), None
        return (tuple(problems), self._content) if problems else None

    def _check(self, db: sqlite3.Connection) -> list[str]:
        """Read everything, look for damage; fills ``_content`` and ``damage``; what is wrong."""
        content, problems = _checked(self, db)
        self._content = content
        if problems:
            good, total = content.latest_counts()
            self.damage = _damage_of(content, problems[0])
            self.dropped = total - good
        return problems

    def _open_for_writing(self) -> None:
        path = self.path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            finished = repair.finish_interrupted_repair(path)
            known = marker.read_known(path)
            self.unclean = marker.unclean(known, path)
            why = marker.gone(path, known)
            if known is not None and why is not None:
                self._rebuild_vanished(known, why)
                return
            if not path.exists():
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o644))   # (no connection is open on it yet)
            self._lock = hold_file_lock(path)          # one writer: a second table refuses, naming the first
            fresh = path.stat().st_size == 0
            db = writing.connect(path)
        except TableBusy:
            raise
        except (sqlite3.DatabaseError, OSError) as exc:
            raise fault(exc, path) from exc
        self.db = db
        try:
            if fresh or writing.no_tables(db):     # (a fault while the tables were made leaves none)
                writing.setup_fresh(db)
                writing.probe(db)
                self._content = Content()
                return
        except sqlite3.DatabaseError as exc:
            self._drop_connection()
            raise (fault(exc, path) if is_fault(exc) else write_error(exc, path)) from exc
        self._settled_check(lambda: writing.connect(path))
        if self.damage is not None:
            self._repair()
            return
        try:
            writing.setup(self._conn())
            writing.probe(self._conn())
        except sqlite3.DatabaseError as exc:
            self._drop_connection()
            if is_fault(exc):
                raise fault(exc, path) from exc
            raise read_fault(path) from exc       # it was just read whole and sound
        if finished is not None:
            self.damage = finished_repair(finished, self._content)

    def _repair(self) -> None:
        """Keep the damaged journal aside (byte for byte), then put a clean one with every good action in its place."""
        assert self.damage is not None
        content = self._content or Content()
        self.damage.kept = self._replace_with(content, "damaged")
        log.error("journal %s: %s", self.path, self.damage.report())

    # ------------------------------------------------------------ reading

    def latest_game(self) -> GameRecord | None:
        if self._content is not None:
            games = self._content.games
            if not games:
                return None
            gid, seed, ruleset, _ = games[-1]
            return GameRecord(gid, seed, Ruleset.from_dict(json.loads(ruleset)))
        row = self._conn().execute("SELECT id, seed, ruleset FROM game ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return None
        return GameRecord(row[0], row[1], Ruleset.from_dict(json.loads(row[2])))

    def game(self, game: int) -> GameRecord | None:
        """The game numbered ``game``, or None when the journal has none by that number."""
        row = self._conn().execute("SELECT id, seed, ruleset FROM game WHERE id = ?", (game,)).fetchone()
        if row is None:
            return None
        return GameRecord(row[0], row[1], Ruleset.from_dict(json.loads(row[2])))

    def games(self) -> list[GameRecord]:
        content = self._content
        if content is None:
            return []
        return [GameRecord(g, s, Ruleset.from_dict(json.loads(r))) for g, s, r, _ in content.games]

    def commands(self, game: int) -> list[Command]:
        """The game's good commands in order (a damaged row ends them; the journal was repaired or reported)."""
        content = self._content
        if content is not None and content.head.get(game, 0) == 0 and (content.complete or game in content.commands):
            rows = content.commands.get(game, [])
        else:
            rows, bad = _good_prefix(self._conn(), game)
            if bad is not None:
                self._note_damage(game, len(rows), len(rows) + 1, f"action {bad} of game {game} is damaged")
        out, why = _decode(rows)
        if why is not None:
            self._note_damage(game, len(out), len(rows), why)
        return out

    def tail_commands(self, game: int) -> tuple[int, list[Command], int]:
        """(h, the game's commands after its first h, how many it has): at start only the actions
        after the newest snapshot are read and decoded; ``head_commands`` reads the first h."""
        content = self._content
        if content is None or game not in content.commands:
            rows = self.commands(game)
            return 0, rows, max(len(rows), self.damage.total if self.damage else 0)
        head = content.head.get(game, 0)
        tail = [r for r in content.commands[game] if r[0] > head]
        out, why = _decode(tail)
        if why is not None:
            self._note_damage(game, head + len(out), head + len(tail), why)
        return head, out, head + len(tail)

    def head_commands(self, game: int, upto: int) -> list[Command]:
        """The first ``upto`` commands of ``game``, checked; raises JournalError when one is damaged."""
        fresh = None if self.read_only else (lambda: writing.connect(self.path))
        return read_head(self._conn(), fresh, self.path, game, upto)

    def _note_damage(self, game: int, good: int, total: int, why: str) -> None:
        self.damage = Damage(why, good, total) if self.damage is None else self.damage.at_most(good, total)

    def snapshots(self, game: int, fingerprint: str, commands: int) -> list[Snapshot]:
        """The stored snapshots of ``game`` that pass every check, newest first, at or below ``commands``."""
        content = self._content
        rows = content.snapshots.get(game, []) if content is not None else snapshot_rows(self._conn(), game)
        crcs = {seq: crc for seq, _b, crc in (content.commands.get(game, []) if content is not None else [])}
        return usable(rows, game, fingerprint, commands, crcs)

    def read_everything(self) -> None:
        """Read and check every row of every game (after the quick start found an early row damaged)."""
        self._content = content = reading.read_content(self._conn())
        if content.problems:
            self.damage = _damage_of(content)

    # ------------------------------------------------------------ writing

    def new_game(self, seed: int, ruleset: Ruleset, outbox: Sequence[OutboxRow] = ()) -> GameRecord:
        before = None
        try:
            before = writing.last_game(self._conn())
            gid = writing.insert_game(self._conn(), seed, json.dumps(ruleset.to_dict()), outbox)
        except sqlite3.Error as exc:     # a game SQLite kept after all (a failed sync) is the game
            gid = _kept_new_game(self, before, exc)
        self.forget_cache()
        marker.note(self.path, gid, seed, 0, clean=False)
        return GameRecord(gid, seed, ruleset)

    def append(self, game: int, cmd: Command, snapshot: tuple[int, str, bytes] | None = None,
               facts: Sequence[writing.Statement] | None = None, outbox: Sequence[OutboxRow] = ()) -> None:
        """Store ``cmd`` durably (committed and synced) as the next command of ``game``.

        ``snapshot`` (seq, fingerprint, pickled state), the statements of the game's ``facts`` and the league's
        ``outbox`` rows are stored in
        the same transaction.
        """
        body = json.dumps(command_to_dict(cmd), separators=(",", ":"))
        tops: list[int] = []            # the last stored sequence number, read inside the transaction
        try:
            writing.insert_command(self._conn(), game, body, snapshot, facts, outbox, tops)
        except sqlite3.Error as exc:
            top = tops[0] if tops else None     # (none: it failed before it could have stored anything)
            if top is not None and evidence.may_be_stored(exc) and self._settle(game, exc) == (top + 1, body):
                log.warning("journal %s: the write failed (%s) but the action is stored and synced: kept", self.path, exc)
                self.forget_cache()
                return
            raise self._write_error(exc) from exc
        self.forget_cache()
        if tops == [0]:
            self._note(clean=False)     # the game holds an action now: the marker says so (once a game)

    def _settle(self, game: int, exc: sqlite3.Error) -> tuple[int, str | None] | None:
        """After a failed write: what the file holds, looked at afresh (:func:`evidence.after_failed_write`)."""
        self._drop_connection()
        self.db, last = evidence.after_failed_write(self.path, game, exc)
        return last

    def store_snapshot(self, game: int, seq: int, fingerprint: str, body: bytes) -> bool:
        """Store a snapshot taken after action ``seq`` (on resume); False when it could not be stored."""
        try:
            return writing.insert_snapshot(self._conn(), game, seq, fingerprint, body)
        except sqlite3.Error as exc:
            log.warning("journal: snapshot not stored (%s)", exc)
            return False

    def pop(self, game: int, outbox: Sequence[OutboxRow] = ()) -> bool:
        """Drop the last command of ``game`` (and any snapshot after it; the league's ``outbox`` rows
        queued in the same transaction); False when there is none."""
        top = None
        try:
            top = writing.top(self._conn(), game)
            popped = writing.delete_last(self._conn(), game, outbox)
        except sqlite3.Error as exc:
            settled = self._settle(game, exc) if evidence.may_be_stored(exc) else None
            if top is not None and settled is not None and settled[0] == top - 1:
                log.warning("journal %s: the undo failed (%s) but it is stored and synced: undone", self.path, exc)
                self.forget_cache()
                return True
            raise self._write_error(exc) from exc
        self.forget_cache()
        return popped

    def cut(self, game: int, keep: int, why: str, read: int | None = None) -> Damage:
        """The journal does not replay past action ``keep``: keep the whole file aside and go on with a
        clean journal of the first ``keep`` actions (never deleting rows from the damaged one).

        ``read``: the rows the replay was given. Every row is read again until reads agree; when
        they do not, or find more than ``read``, JournalFault (nothing cut, the connection dropped)."""
        content = self._content
        if not self.read_only:
            content = _settled_content(self, game, read)
        elif content is None or not content.complete:
            content = reading.read_content(self._conn())
        rows = len(content.commands.get(game, []))
        content.commands[game] = content.commands.get(game, [])[:keep]
        prior = self.damage
        damage = _cut_damage(prior, why, keep, rows, max(rows, content.totals.get(game, 0), prior.total if prior else 0))
        if self.read_only:
            self.damage = damage
            return damage
        kept = self._replace_with(content, "damaged")
        damage.kept = prior.kept if prior is not None and prior.kept is not None else kept
        if prior is not None and prior.kept is not None:
            damage.why = prior.why          # the copy as it was found is the one worth naming
        self.damage = damage
        return damage

    def replace_from(self, source: Journal) -> Path:
        """Make ``source``'s good content the journal; the current journal is kept aside first."""
        return self._replace_with(source._content or Content(), "replaced")

    def __repr__(self) -> str:
        return f"<Journal {self.path}{' read-only' if self.read_only else ''}>"


def _kept_new_game(journal: Journal, before: int | None, exc: sqlite3.Error) -> int:
    """After a new game's write failed: its id when the file kept it after all (a failed sync),
    else the error; a fault (the connection dropped, the journal opened again on the backoff)
    when the file cannot say which."""
    kept = journal._settle(0, exc) if before is not None and evidence.may_be_stored(exc) else None
    try:
        newer = evidence.newer_game(journal.db, before) if kept is not None else None
    except sqlite3.Error:
        journal._drop_connection()
        raise read_fault(journal.path) from exc
    if newer is None:
        raise journal._write_error(exc) from exc
    return newer


def _checked(journal: Journal, db: sqlite3.Connection) -> tuple[Content, list[str]]:
    """:func:`reading.check` of ``db``, and a schema damaged into bytes that are not text read mended."""
    content, problems = reading.check(db, fast=journal.fast)
    return _read_mended(journal, problems) if reading.SCHEMA_NOT_TEXT in problems else (content, problems)


def _read_mended(journal: Journal, problems: list[str]) -> tuple[Content, list[str]]:
    """Everything readable in ``journal`` whose schema is damaged into bytes that are not text, read
    from a copy with the schema written again (:func:`repair.mended_copy`); a looking-only journal
    goes on reading that copy. Nothing when it cannot be mended."""
    mended = repair.mended_copy(journal.path)
    if mended is None:
        return Content(), problems
    db, tmp = mended
    content, more = reading.check(db, fast=False)
    if journal.read_only:
        if journal.db is not None:
            journal.db.close()
        if journal._tmp is not None:
            journal._tmp.cleanup()
        journal.db, journal._tmp = db, tmp
    else:
        db.close()
        tmp.cleanup()
    return content, [problems[0], *more]


def _cut_damage(prior: Damage | None, why: str, keep: int, rows: int, total: int) -> Damage:
    """What a cut at ``keep`` of the ``rows`` the replay was given (of ``total``) says, after ``prior``."""
    base = prior if prior is not None else Damage(why, rows, total)
    return Damage(why, base.good, total, dropped=list(base.dropped), origins=list(base.origins),
                  unreadable=list(base.unreadable)).at_most(keep, rows)


def _settled_content(journal: Journal, game: int, read: int | None) -> Content:
    """Every row of ``journal``, read until reads through fresh connections agree (before a cut);
    JournalFault when they do not, or when they find more rows of ``game`` than ``read``."""
    fast, prior, journal.fast = journal.fast, journal.damage, False
    try:
        journal._settled_check(lambda: writing.connect(journal.path))
    finally:
        journal.fast = fast
    journal.damage, content = prior or journal.damage, journal._content or Content()
    if read is not None and len(content.commands.get(game, [])) > read:
        journal._drop_connection()
        raise read_fault(journal.path)         # the replay was given fewer rows than the file holds
    return content


def _linked(path: Path, kept: Path | None) -> tempfile.TemporaryDirectory[str] | None:
    """The journal's second name (``marker.hold_link``) with the ``-wal`` that was left beside the
    journal (now in the kept copy), copied into a private directory to be read; None without one."""
    link = marker.link_path(path)
    if not link.is_file() or link.stat().st_size == 0:
        return None
    tmp = tempfile.TemporaryDirectory(prefix="munchkin-linked-")
    try:
        shutil.copyfile(link, Path(tmp.name) / path.name)
        wal = Path(f"{kept}-wal") if kept is not None else None
        if wal is not None and wal.is_file():
            shutil.copyfile(wal, Path(tmp.name) / f"{path.name}-wal")
    except OSError:
        tmp.cleanup()
        return None
    return tmp


def _surviving(path: Path, known: marker.Known, kept: Path | None) -> tuple[Content, str | None]:
    """What survives of a vanished journal's game: its second name (with the ``-wal`` left beside
    it) or a kept copy, whichever holds the most of its actions (the same game number and seed),
    read whole and checked; else nothing. (What was just kept aside is an empty file: SQLite reads
    no page of it, so its ``-wal`` stays kept, and is read only beside the second name.)"""
    best: tuple[int, Content, str] | None = None
    linked = _linked(path, kept)
    sources = [(Path(linked.name) / path.name, marker.link_path(path).name)] if linked is not None else []
    sources += [(copy, copy.name) for copy in reversed(repair.kept_copies(path)) if copy != kept]
    try:
        for copy, name in sources:
            best = _better(best, copy, name, known)
    finally:
        if linked is not None:
            linked.cleanup()
    if best is None:
        return Content(), None
    return best[1], best[2]


def _better(best: tuple[int, Content, str] | None, copy: Path, name: str,
            known: marker.Known) -> tuple[int, Content, str] | None:
    """``best``, or the copy at ``copy`` when it holds more of the known game's actions."""
    try:
        older = Journal(copy, read_only=True, fast=False)
    except JournalError:
        return best
    try:
        content = older._content
        if content is None or not any(g[0] == known.game and g[1] == known.seed for g in content.games):
            return best
        actions = len(content.commands.get(known.game, []))
        return (actions, content, name) if best is None or actions > best[0] else best
    finally:
        older.close()
