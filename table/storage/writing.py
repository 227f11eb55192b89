"""Writing the journal: each change in one immediate transaction, committed and synced before it returns.

The functions take the live connection and raise ``sqlite3.Error`` as SQLite does, after rolling
back; :class:`table.storage.journal.Journal` turns that into a fault or an error to show.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from table.storage.faults import is_fault
from table.storage.schema import JOURNAL_SCHEMA, JOURNAL_TABLES, game_crc, row_crc
from table.storage.outbox import OutboxRow, put as put_outbox
from table.storage.snapshots import put_snapshot

log = logging.getLogger(__name__)

# A statement and its values, run inside a transaction of the journal's (the facts row of an action
# and its log's entries).
Statement = tuple[str, tuple[object, ...]]


# How long a write waits for a lock another program holds. The table writes on its main thread:
# SQLite's default (5 s) froze the screen on every press. It waits no longer than a frame now, enough
# for a lock held only for a moment; a lock held on is refused at once, saying who holds it, and the
# waiting is the loop's: every 2 s it looks (``lock_free``) until the lock is let go.
BUSY_SECONDS = 0.015


def connect(path: Path | str) -> sqlite3.Connection:
    """A connection to the journal file at ``path`` for the table's own writes."""
    return sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=BUSY_SECONDS)


def sync_file(path: Path) -> None:
    """fdatasync ``path`` (a journal's WAL, from another thread than its connection's), as SQLite
    syncs its WAL on Linux: its data and its size, not its times; nothing when it is gone (the last
    connection closed it, checkpointed and synced)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return
    try:
        os.fdatasync(fd)
    finally:
        os.close(fd)


def setup(db: sqlite3.Connection) -> None:
    """A connection that writes: WAL, every commit synced, the journal's tables there."""
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    if {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")} >= JOURNAL_TABLES:
        return
    create_tables(db)


def setup_fresh(db: sqlite3.Connection) -> None:
    """A new journal file: WAL, synced commits and every table made in one transaction, so a fault
    while it is made leaves no half-made schema (a file without the tables is made again)."""
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    create_tables(db)


def no_tables(db: sqlite3.Connection) -> bool:
    """A file of at most one page that SQLite reads with no table at all: a journal whose tables were
    never made (not damage). A bigger file with no tables is left to the checks: it held something."""
    try:
        if int(db.execute("PRAGMA page_count").fetchone()[0]) > 1:
            return False
        return int(db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]) == 0
    except (sqlite3.DatabaseError, UnicodeDecodeError):     # (SQLite quoting a damaged schema's bytes)
        return False            # unreadable: the checks at opening decide what it is


def create_tables(db: sqlite3.Connection) -> None:
    """The journal's tables (those missing), all in one transaction."""
    with transaction(db):
        for statement in JOURNAL_SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)


def probe(db: sqlite3.Connection) -> None:
    """A write that changes nothing: on a read-only disk (or file) SQLite opens the journal
    read-only without a word, and only a write says so (``SQLITE_READONLY``). Raises then."""
    try:
        db.execute("BEGIN IMMEDIATE")
        db.execute("UPDATE game_check SET crc = crc WHERE 0")
    finally:
        rollback(db)


def is_lock(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` is SQLite's "another connection holds the lock" (BUSY or LOCKED)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and (code & 0xFF) in (5, 6)


def lock_free(db: sqlite3.Connection) -> bool:
    """Whether the write lock can be had now (taken and let go at once, no wait); False while
    another program holds it or the disk refuses."""
    timeout = int(db.execute("PRAGMA busy_timeout").fetchone()[0])
    try:
        db.execute("PRAGMA busy_timeout = 0")
        probe(db)
        return True
    except sqlite3.Error:
        return False
    finally:
        db.execute(f"PRAGMA busy_timeout = {timeout}")


def rollback(db: sqlite3.Connection | None) -> None:
    try:
        if db is not None and db.in_transaction:
            db.execute("ROLLBACK")
    except sqlite3.Error:
        pass


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` … ``COMMIT``; rolled back when anything in it raises."""
    try:
        db.execute("BEGIN IMMEDIATE")
        yield db
        db.execute("COMMIT")
    except BaseException:
        rollback(db)
        raise


def top(db: sqlite3.Connection, game: int) -> int:
    """The sequence number of the game's last stored command (0: none)."""
    return int(db.execute("SELECT COALESCE(MAX(seq), 0) FROM command WHERE game = ?", (game,)).fetchone()[0])


def last_row(db: sqlite3.Connection, game: int) -> tuple[int, str | None]:
    """(seq, body) of the game's last stored command; (0, None) when it has none."""
    row = db.execute("SELECT seq, body FROM command WHERE game = ? ORDER BY seq DESC LIMIT 1", (game,)).fetchone()
    return (int(row[0]), str(row[1])) if row is not None else (0, None)


def last_game(db: sqlite3.Connection) -> int:
    """The id of the newest game (0: none)."""
    return int(db.execute("SELECT COALESCE(MAX(id), 0) FROM game").fetchone()[0])


def insert_game(db: sqlite3.Connection, seed: int, ruleset: str, outbox: Sequence[OutboxRow] = ()) -> int:
    """A new game row (with its check row, and ``outbox``: the league's rows the game it replaces left); its id."""
    with transaction(db):
        put_outbox(db, outbox)
        cur = db.execute("INSERT INTO game (seed, ruleset, created) VALUES (?, ?, ?)", (seed, ruleset, time.time()))
        gid = int(cur.lastrowid or 0)
        db.execute("INSERT OR REPLACE INTO game_check (game, crc) VALUES (?, ?)", (gid, game_crc(gid, seed, ruleset)))
    return gid


def insert_command(db: sqlite3.Connection, game: int, body: str,
                   snapshot: tuple[int, str, bytes] | None = None, facts: Sequence[Statement] | None = None,
                   outbox: Sequence[OutboxRow] = (), tops: list[int] | None = None) -> int:
    """``body`` as the next command of ``game`` (and ``snapshot`` (seq, fingerprint, state) when it
    is taken after this very command, the statements of the game's ``facts`` and the league's ``outbox`` rows), in
    one transaction; the command's sequence number. ``tops`` is told the game's last stored sequence
    number before it, as soon as it is read (a failure after that may have stored the command)."""
    with transaction(db):
        put_outbox(db, outbox)
        top = int(db.execute("SELECT COALESCE(MAX(seq), 0) FROM command WHERE game = ?", (game,)).fetchone()[0])
        if tops is not None:
            tops.append(top)
        seq = top + 1
        crc = row_crc(game, seq, body)
        db.execute("INSERT INTO command (game, seq, body, crc) VALUES (?, ?, ?, ?)", (game, seq, body, crc))
        if snapshot is not None and snapshot[0] == seq:
            put_snapshot(db, game, seq, snapshot[1], crc, snapshot[2])
        if facts is not None:
            facts_in(db, facts)
    return seq


def facts_in(db: sqlite3.Connection, facts: Sequence[Statement]) -> None:
    """The game's facts (its row and its log's entries) written inside the caller's transaction, so
    they never lag the journal after a kill; facts that cannot be written for what the file holds
    (not the disk) are left behind whole (the session rebuilds them), never costing the action."""
    db.execute("SAVEPOINT facts")
    try:
        for statement in facts:
            db.execute(*statement)
    except sqlite3.Error as exc:
        if is_fault(exc):
            raise                   # the disk refuses: the whole change is refused
        db.execute("ROLLBACK TO facts")
        log.warning("journal: the facts row is not written with the action (%s); it is rebuilt later", exc)
    db.execute("RELEASE facts")


def insert_snapshot(db: sqlite3.Connection, game: int, seq: int, fingerprint: str, body: bytes) -> bool:
    """A snapshot after the stored action ``seq``; False when there is no such action."""
    row = db.execute("SELECT crc FROM command WHERE game = ? AND seq = ?", (game, seq)).fetchone()
    if row is None:
        return False
    with transaction(db):
        put_snapshot(db, game, seq, fingerprint, int(row[0]), body)
    return True


def delete_last(db: sqlite3.Connection, game: int, outbox: Sequence[OutboxRow] = ()) -> bool:
    """Drop the last command of ``game`` and any snapshot after it (queueing the league's ``outbox``
    rows); False when there was none."""
    with transaction(db):
        put_outbox(db, outbox)
        cur = db.execute("DELETE FROM command WHERE game = ? AND seq = (SELECT MAX(seq) FROM command WHERE game = ?)",
                         (game, game))
        db.execute("DELETE FROM snapshot WHERE game = ? AND seq > (SELECT COALESCE(MAX(seq), 0) FROM command "
                   "WHERE game = ?)", (game, game))
    return cur.rowcount > 0
