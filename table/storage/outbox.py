"""The league's outbox: a game's facts waiting for the broker, in the journal file, and the record of
what the broker acknowledged.

A row is written by :func:`put` inside the very transaction that stores the action (or the undo, or
the new game) that produced it, so the facts and the action reach the disk together or not at all;
a newer row of the same game replaces an older one still waiting (the newest facts win, and nothing
is sent twice). :class:`Outbox` is the publisher's own connection: it lists what waits, and only once
the broker has acknowledged a row (PUBACK) moves it, in one transaction, from ``league_outbox`` to
``league_sent`` (per game, the facts the broker took last), so a broker down for an hour, a power cut
or a restart lose nothing, and a broker that lost its store can be given its games again
(:meth:`Outbox.resend`). :func:`never_sent` finds the ended games of the journal's records that were
never queued (played before ``[league]`` was set: ``league backfill``). Knows nothing of MQTT.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from engine.errors import MunchkinError
from table.storage.reading import open_read_only
from table.storage.schema import LEAGUE_SENT_SCHEMA, OUTBOX_SCHEMA, outbox_crc, sent_crc

log = logging.getLogger(__name__)

class OutboxTrouble(MunchkinError):
    """The journal's outbox or records could not be read or written (the message says which file and why)."""


# (game id, the facts as JSON text): what an action leaves for the league.
OutboxRow = tuple[int, str]


@dataclass(frozen=True)
class Waiting:
    """One row of the outbox: its id (acknowledged by it), the game and its facts."""

    id: int
    game: int
    body: str


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One write transaction (taken at once: a busy journal is waited for, then refused)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def put(db: sqlite3.Connection, rows: Sequence[OutboxRow]) -> None:
    """Inside the caller's transaction: ``rows`` queued, each replacing what its game still had waiting."""
    if not rows:
        return
    db.execute(OUTBOX_SCHEMA)
    now = time.time()
    for game, body in rows:
        db.execute("DELETE FROM league_outbox WHERE game = ?", (game,))
        db.execute("INSERT INTO league_outbox (game, body, queued, crc) VALUES (?, ?, ?, ?)",
                   (game, body, now, outbox_crc(game, body)))


class Outbox:
    """The outbox of the journal at ``path``, for the publisher's thread and ``league backfill``.

    Each use opens a connection of its own and closes it: none is kept between uses, so a journal the
    table writes anew, or one put in its place, is the one read next, and no connection of ours keeps
    an old file's -wal alive. Nothing here waits for the disk: a delete that a power cut loses only
    sends a row again, which its game id makes harmless. Every method is safe to call from any thread;
    errors are logged and answered with nothing done, never raised into the publisher (but
    :meth:`queue`'s, which ``league backfill`` says).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    @contextmanager
    def _conn(self) -> Iterator[sqlite3.Connection | None]:
        """A connection for one use (None when there is no journal); serialised by the lock."""
        with self._lock:
            if not self.path.exists():
                yield None
                return
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=1.0)
            try:
                db.execute("PRAGMA synchronous=NORMAL")
                yield db
            finally:
                db.close()

    def waiting(self) -> list[Waiting]:
        """Every row still waiting, oldest first (rows whose checksum fails are left out and logged)."""
        try:
            with self._conn() as db:
                rows = [] if db is None else db.execute("SELECT id, game, body, crc FROM league_outbox ORDER BY id").fetchall()
        except sqlite3.Error as exc:
            if "no such table" not in str(exc):
                log.error("league: cannot read the outbox in %s: %s", self.path, exc)
            return []
        out = []
        for rid, game, body, crc in rows:
            if isinstance(body, str) and isinstance(game, int) and crc == outbox_crc(game, body):
                out.append(Waiting(int(rid), game, body))
            else:
                log.error("league: outbox row %s is damaged and is not sent", rid)
        return out

    def acknowledged(self, row: Waiting) -> bool:
        """The broker acknowledged ``row``: in one transaction it leaves the outbox and its game's facts
        are recorded as what the broker holds. False when that could not be written (then it is sent
        again later, which its game id makes harmless)."""
        try:
            with self._conn() as db:
                if db is None:
                    return False
                with _transaction(db):
                    db.execute(LEAGUE_SENT_SCHEMA)
                    db.execute("INSERT OR REPLACE INTO league_sent (game, body, acknowledged, crc) VALUES (?, ?, ?, ?)",
                               (row.game, row.body, time.time(), sent_crc(row.game, row.body)))
                    db.execute("DELETE FROM league_outbox WHERE id = ?", (row.id,))
            return True
        except sqlite3.Error as exc:
            log.error("league: cannot clear outbox row %d (%s); it is sent again later", row.id, exc)
            return False

    def sent(self) -> dict[int, str]:
        """Per game, the facts the broker acknowledged last (rows whose checksum fails are left out)."""
        try:
            with self._conn() as db:
                rows = [] if db is None else db.execute("SELECT game, body, crc FROM league_sent").fetchall()
        except sqlite3.Error as exc:
            if "no such table" not in str(exc):
                log.error("league: cannot read what the broker acknowledged in %s: %s", self.path, exc)
            return {}
        return {game: body for game, body, crc in rows
                if isinstance(game, int) and isinstance(body, str) and crc == sent_crc(game, body)}

    def resend(self, games: Iterable[int]) -> int:
        """``games``' acknowledged facts back into the outbox (those that have nothing waiting there): the
        broker lost them. How many were put back."""
        sent = self.sent()
        try:
            with self._conn() as db:
                if db is None:
                    return 0
                with _transaction(db):
                    db.execute(OUTBOX_SCHEMA)
                    waiting = {g for (g,) in db.execute("SELECT game FROM league_outbox")}
                    rows = [(g, sent[g]) for g in games if g in sent and g not in waiting]
                    put(db, rows)
            return len(rows)
        except sqlite3.Error as exc:
            log.error("league: cannot queue lost games again in %s: %s", self.path, exc)
            return 0

    def queue(self, rows: Sequence[OutboxRow]) -> None:
        """``rows`` into the outbox in one transaction (``league backfill``). Raises OutboxTrouble."""
        try:
            with self._conn() as db:
                if db is None:
                    raise OutboxTrouble(f"no journal at {self.path}")
                with _transaction(db):
                    put(db, rows)
        except sqlite3.Error as exc:
            raise OutboxTrouble(f"cannot write the league's outbox in {self.path}: {exc}") from None

    def close(self) -> None:
        """Nothing stays open between uses; callers that closed the outbox's connection still may."""

    def count(self) -> int:
        return len(self.waiting())


    def __repr__(self) -> str:
        return f"<Outbox {self.path}>"


# (game, status, brief JSON, tally JSON, actions): an ended game of the journal's records.
RecordRow = tuple[int, str, str, str, int]


def never_sent(db: sqlite3.Connection | None, statuses: Sequence[str]) -> list[RecordRow]:
    """The games of the journal's records with one of ``statuses`` (the ended ones) that the league
    never acknowledged and whose facts do not wait in the outbox, oldest first. Raises sqlite3.Error."""
    if db is None:
        return []
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "game_record" not in tables:
        return []
    known: set[int] = set()
    for table in ("league_sent", "league_outbox"):
        if table in tables:
            known |= {g for (g,) in db.execute(f"SELECT game FROM {table}")}     # (a name of ours, not input)
    marks = ", ".join("?" for _s in statuses)
    rows = db.execute(f"SELECT game, status, brief, tally, actions FROM game_record WHERE status IN ({marks}) "
                      "ORDER BY game", tuple(statuses)).fetchall()
    return [(int(g), str(status), str(brief), str(tally), int(actions)) for g, status, brief, tally, actions in rows
            if g not in known]


def read_never_sent(path: Path, statuses: Sequence[str]) -> list[RecordRow]:
    """:func:`never_sent` of the journal at ``path``, opened to read only (nothing written, not even a
    -wal file when no table has it open); none when there is no journal. Raises OutboxTrouble."""
    try:
        db = open_read_only(path)
        try:
            return never_sent(db, statuses)
        finally:
            if db is not None:
                db.close()
    except sqlite3.Error as exc:
        raise OutboxTrouble(f"cannot read the saved games in {path}: {exc}") from None
