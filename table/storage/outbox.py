"""The league's outbox: a game's facts waiting for the broker, in the journal file.

A row is written by :func:`put` inside the very transaction that stores the action (or the undo, or
the new game) that produced it, so the facts and the action reach the disk together or not at all;
a newer row of the same game replaces an older one still waiting (the newest facts win, and nothing
is sent twice). :class:`Outbox` is the publisher's own connection: it lists what waits and deletes a
row only once the broker has acknowledged it (PUBACK), so a broker down for an hour, a power cut or
a restart lose nothing. Knows nothing of MQTT.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from table.storage.schema import OUTBOX_SCHEMA, outbox_crc

log = logging.getLogger(__name__)

# (game id, the facts as JSON text): what an action leaves for the league.
OutboxRow = tuple[int, str]


@dataclass(frozen=True)
class Waiting:
    """One row of the outbox: its id (acknowledged by it), the game and its facts."""

    id: int
    game: int
    body: str


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
    """The outbox of the journal at ``path`` on a connection of its own (the publisher's thread).

    Nothing here waits for the disk: a delete that a power cut loses only sends a row again, which
    its game id makes harmless. Every method is safe to call from any thread; errors are logged
    and answered with nothing done, never raised into the publisher.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def _conn(self) -> sqlite3.Connection | None:
        if self._db is None:
            if not self.path.exists():
                return None
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=1.0)
            db.execute("PRAGMA synchronous=NORMAL")
            self._db = db
        return self._db

    def waiting(self) -> list[Waiting]:
        """Every row still waiting, oldest first (rows whose checksum fails are left out and logged)."""
        with self._lock:
            try:
                db = self._conn()
                if db is None:
                    return []
                rows = db.execute("SELECT id, game, body, crc FROM league_outbox ORDER BY id").fetchall()
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

    def done(self, row: int) -> bool:
        """The broker acknowledged ``row``: it leaves the outbox. False when it could not be deleted."""
        with self._lock:
            try:
                db = self._conn()
                if db is None:
                    return False
                db.execute("DELETE FROM league_outbox WHERE id = ?", (row,))
                return True
            except sqlite3.Error as exc:
                log.error("league: cannot clear outbox row %d (%s); it is sent again later", row, exc)
                return False

    def count(self) -> int:
        return len(self.waiting())

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
            self._db = None

    def __repr__(self) -> str:
        return f"<Outbox {self.path}>"
