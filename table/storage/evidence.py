"""Evidence before a verdict: a failing read is not damage, a failed write may have been stored.

SQLite words some failing reads as corruption ("database disk image is malformed", integrity-check
lines), and a write whose sync failed may still sit in the WAL, which the next opening recovers.
So nothing is called damage until reads through fresh connections agree (:func:`settle_reads`),
and after a failed write the file is looked at afresh (:func:`after_failed_write`), so that what
the screen shows is what a restart finds.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from table.storage import writing
from table.storage.faults import fault, read_fault

log = logging.getLogger(__name__)

# Damage is called damage only when this many reads through fresh connections, a growing pause
# apart, find the same; a read that finds nothing wrong is believed at once.
AGREEING_READS = 3
SETTLE_READS = 8
SETTLE_PAUSE = 0.05         # seconds, times the attempt: 1.4 s in all before a fault is declared

Outcome = TypeVar("Outcome")


def settle_reads(first: sqlite3.Connection, reconnect: Callable[[], sqlite3.Connection],
                 one_check: Callable[[sqlite3.Connection], Outcome | None], path: Path,
                 raised: Callable[[Outcome], bool] = lambda o: False) -> None:
    """Read and check the journal until the evidence settles: ``one_check`` returns None for a
    sound read (believed at once) or what it found; damage stands once ``AGREEING_READS`` reads, a
    pause apart, find exactly the same and every byte of the file reads back; an outcome that rests
    on SQLite raising (``raised``: "malformed" and the like, which a failing read also gives) needs
    every one of the ``SETTLE_READS`` reads to agree. Otherwise raises
    :class:`~table.storage.faults.JournalFault`: nothing may be repaired, replaced or cut."""
    seen: list[Outcome] = []
    for attempt in range(SETTLE_READS):
        db = first
        if attempt:
            # the first connection stays open meanwhile: closing the last one would fold a
            # -wal into the file before a damaged copy could be kept byte for byte
            time.sleep(SETTLE_PAUSE * attempt)
            try:
                db = reconnect()
            except (sqlite3.DatabaseError, OSError) as exc:
                raise fault(exc, path) from exc
        try:
            outcome = one_check(db)
        finally:
            if db is not first:
                db.close()
        if outcome is None:
            return
        seen.append(outcome)
        needed = SETTLE_READS if raised(outcome) else AGREEING_READS
        if len(seen) >= needed and all(o == outcome for o in seen[-needed:]):
            if reads_whole(path):
                return
            break
        log.warning("journal %s: a read found damage; reading again before calling it damage", path)
    raise read_fault(path)


def reads_whole(path: Path) -> bool:
    """Every byte of the journal and its -wal reads back (a failing disk is not damage)."""
    try:
        for name in (path, Path(str(path) + "-wal")):
            if name.exists():
                with open(name, "rb") as fh:
                    while fh.read(1 << 20):
                        pass
    except OSError as exc:
        log.warning("journal %s: the file does not read back (%s)", path, exc)
        return False
    return True


def may_be_stored(exc: sqlite3.Error) -> bool:
    """Whether a failed write may have left its transaction in the WAL: an I/O error (a failed
    sync above all) may; SQLite refusing up front (read-only, full, busy, locked) may not."""
    code = getattr(exc, "sqlite_errorcode", None)
    return not isinstance(code, int) or (code & 0xFF) == 10


def after_failed_write(path: Path, game: int,
                       exc: sqlite3.Error | OSError) -> tuple[sqlite3.Connection | None, tuple[int, str | None] | None]:
    """After a failed write (its connection already closed): a fresh connection and the game's
    last stored (seq, body), what a restart finds; (None, None) when the file cannot be read. A
    full checkpoint then tries to make what is there durable."""
    log.error("journal %s: a write failed (%s); looking at what the file holds", path, exc)
    try:
        db = writing.connect(path)
    except sqlite3.Error:
        return None, None
    try:
        writing.setup(db)
        last = writing.last_row(db, game)
    except sqlite3.Error as again:
        log.error("journal %s: cannot be looked at after the failed write (%s)", path, again)
        db.close()
        return None, None
    try:
        busy = db.execute("PRAGMA wal_checkpoint(FULL)").fetchone()
        if busy is None or busy[0] != 0:
            log.warning("journal %s: the checkpoint after a failed write did not finish", path)
    except sqlite3.Error as again:
        log.warning("journal %s: no checkpoint after the failed write (%s)", path, again)
    return db, last


def newer_game(db: sqlite3.Connection | None, before: int | None) -> int | None:
    """The id of a game newer than ``before`` that the file holds (a new game whose failed sync
    SQLite kept after all), or None. Raises sqlite3.Error when the file does not say (a read fails)."""
    if db is None or before is None:
        return None
    newest = writing.last_game(db)
    return newest if newest > before else None
