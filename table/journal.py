"""The journal: every accepted command of every game, in SQLite, committed before it is shown.

A game is its seed, its ruleset and its commands; the state is their replay.
Each row carries a CRC of its body, so a damaged row at the end (a torn write)
is detected and dropped on load. A database that SQLite itself cannot read is
moved aside and the table starts clean.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from engine.commands import Command, command_from_dict, command_to_dict
from engine.errors import MunchkinError
from engine.messages import msg
from engine.rules import Ruleset

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS game (
    id INTEGER PRIMARY KEY,
    seed INTEGER NOT NULL,
    ruleset TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS command (
    game INTEGER NOT NULL REFERENCES game(id),
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    crc INTEGER NOT NULL,
    PRIMARY KEY (game, seq)
);
"""


class JournalError(MunchkinError, OSError):
    """The journal could not store a change (disk full, read-only, removed); nothing was stored."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    seed: int
    ruleset: Ruleset


def _crc(body: str) -> int:
    return zlib.crc32(body.encode("utf-8"))


class Journal:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = self._open()
        self.dropped = 0

    def _open(self) -> sqlite3.Connection:
        try:
            db = self._connect()
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("quick_check failed")
            return db
        except sqlite3.DatabaseError as exc:
            aside = self.path.with_name(f"{self.path.stem}.corrupt-{int(time.time())}{self.path.suffix}")
            log.error("journal %s is damaged (%s); kept aside as %s, starting clean", self.path, exc, aside)
            self.path.rename(aside)
            for extra in ("-wal", "-shm"):
                Path(str(self.path) + extra).unlink(missing_ok=True)
            self.moved_aside = aside
            return self._connect()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(SCHEMA)
        return db

    moved_aside: Path | None = None

    def new_game(self, seed: int, ruleset: Ruleset) -> GameRecord:
        cur = self._write("INSERT INTO game (seed, ruleset, created) VALUES (?, ?, ?)",
                          (seed, json.dumps(ruleset.to_dict()), time.time()))
        return GameRecord(int(cur.lastrowid or 0), seed, ruleset)

    def latest_game(self) -> GameRecord | None:
        row = self.db.execute("SELECT id, seed, ruleset FROM game ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return None
        return GameRecord(row[0], row[1], Ruleset.from_dict(json.loads(row[2])))

    def append(self, game: int, cmd: Command) -> None:
        """Store ``cmd`` durably (committed and synced) as the next command of ``game``."""
        body = json.dumps(command_to_dict(cmd), separators=(",", ":"))
        self._write("INSERT INTO command (game, seq, body, crc) "
                    "VALUES (?, COALESCE((SELECT MAX(seq) FROM command WHERE game = ?), 0) + 1, ?, ?)",
                    (game, game, body, _crc(body)))

    def _write(self, sql: str, args: tuple[object, ...]) -> sqlite3.Cursor:
        try:
            return self.db.execute(sql, args)
        except sqlite3.Error as exc:
            log.error("journal %s: cannot write: %s", self.path, exc)
            raise JournalError(msg("the game could not be saved ({error}), check the disk at {path}", error=str(exc),
                                   path=str(self.path.parent))) from exc

    def pop(self, game: int) -> bool:
        """Drop the last command of ``game``; False when there is none."""
        cur = self._write(
            "DELETE FROM command WHERE game = ? AND seq = (SELECT MAX(seq) FROM command WHERE game = ?)",
            (game, game))
        return cur.rowcount > 0

    def count(self, game: int) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM command WHERE game = ?", (game,)).fetchone()[0])

    def commands(self, game: int) -> list[Command]:
        """The game's commands in order. A damaged row ends the list: it and all after it are dropped."""
        rows = self.db.execute("SELECT seq, body, crc FROM command WHERE game = ? ORDER BY seq", (game,)).fetchall()
        out: list[Command] = []
        for seq, body, crc in rows:
            try:
                if _crc(body) != crc:
                    raise ValueError("checksum mismatch")
                out.append(command_from_dict(json.loads(body)))
            except (ValueError, TypeError) as exc:
                log.error("journal: command %d of game %d is damaged (%s); dropping it and %d after it",
                          seq, game, exc, len(rows) - len(out) - 1)
                self.db.execute("DELETE FROM command WHERE game = ? AND seq >= ?", (game, seq))
                self.dropped += len(rows) - len(out)
                break
        return out

    def truncate(self, game: int, keep: int) -> None:
        """Keep only the first ``keep`` commands of ``game`` (after a replay refused the rest)."""
        self.db.execute("DELETE FROM command WHERE game = ? AND seq > (SELECT COALESCE(MIN(seq), 1) - 1 + ? FROM command WHERE game = ?)",
                        (game, keep, game))

    def close(self) -> None:
        self.db.close()

    def __repr__(self) -> str:
        return f"<Journal {self.path}>"
