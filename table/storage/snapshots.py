"""Snapshots of the game state, stored beside the commands so a start replays only a few.

A snapshot row holds the state after action ``seq`` as the session encoded it, with a format
version, a fingerprint of the rules code and the catalog, the checksum of the action it follows
(``last_crc``) and a checksum of its own. One that fails any of these is ignored, never used.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from table.storage.schema import SNAPSHOT_COLUMNS, SNAPSHOT_VERSION, SnapshotRow, snapshot_crc, snapshot_ok

log = logging.getLogger(__name__)


@dataclass
class Snapshot:
    seq: int
    body: bytes


def put_snapshot(db: sqlite3.Connection, game: int, seq: int, fingerprint: str, last_crc: int, body: bytes,
                 version: int = SNAPSHOT_VERSION) -> None:
    """Store (or replace) the snapshot after action ``seq``, inside the caller's transaction."""
    db.execute(f"INSERT OR REPLACE INTO snapshot ({SNAPSHOT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
               (game, seq, version, fingerprint, last_crc, body,
                snapshot_crc(game, seq, version, fingerprint, last_crc, body)))


def snapshot_rows(db: sqlite3.Connection, game: int) -> list[SnapshotRow]:
    """The stored snapshot rows of ``game``, newest first, unchecked."""
    rows: list[SnapshotRow] = db.execute(f"SELECT {SNAPSHOT_COLUMNS} FROM snapshot WHERE game = ? ORDER BY seq DESC",
                                         (game,)).fetchall()
    return rows


def usable(rows: Iterable[SnapshotRow], game: int, fingerprint: str, commands: int,
           action_crcs: dict[int, int]) -> list[Snapshot]:
    """The rows that pass every check, newest first, at or below ``commands``: this format, these
    rules, their own checksum, and (where the action's row was read) the checksum of their action."""
    out = []
    for row in rows:
        _g, seq, version, fp, last_crc, body, _crc = row
        if not isinstance(body, bytes) or not isinstance(seq, int) or seq > commands or seq <= 0:
            continue
        if version != SNAPSHOT_VERSION or fp != fingerprint:
            continue
        if not snapshot_ok(row):
            log.warning("journal: snapshot at action %d of game %d fails its checksum; ignored", seq, game)
            continue
        if seq in action_crcs and action_crcs[seq] != last_crc:     # (older rows are checked when an undo reads them)
            continue
        out.append(Snapshot(seq, body))
    return out
