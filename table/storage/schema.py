"""The two schemas of the journal file and the one set of checksums its rows carry.

The journal's tables (``game``, ``command``, ``game_check``, ``snapshot``) and the per-game facts
(``game_record``, one row a game, and ``game_fact``, the entries of its facts' log, one row each)
live in the same SQLite file; both are created here. Every row of the journal
carries a CRC32 of what it holds: the command row also of its game and sequence number, the game
row of its id and seed, the snapshot of everything that identifies it. The checks are written
once, here: a reader calls :func:`row_ok`, a writer :func:`row_crc`.
"""

from __future__ import annotations

import zlib

JOURNAL_SCHEMA = """
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
CREATE TABLE IF NOT EXISTS game_check (
    game INTEGER PRIMARY KEY,
    crc INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshot (
    game INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    version INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    last_crc INTEGER NOT NULL,
    body BLOB NOT NULL,
    crc INTEGER NOT NULL,
    PRIMARY KEY (game, seq)
);
"""
JOURNAL_TABLES = frozenset({"game", "command", "game_check", "snapshot"})

FACTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS game_record (
    game INTEGER PRIMARY KEY,
    status TEXT NOT NULL,
    started REAL,
    ended REAL,
    last REAL,
    actions INTEGER NOT NULL,
    brief TEXT NOT NULL,
    tally TEXT NOT NULL,
    log TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS game_fact (
    game INTEGER NOT NULL,
    n INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (game, n)
);
"""

SNAPSHOT_VERSION = 1

# A row of the snapshot table as it is read: game, seq, version, fingerprint, last_crc, body, crc.
# Read from a damaged file any of them may hold the wrong type, hence ``object``.
SnapshotRow = tuple[object, object, object, object, object, object, object]
SNAPSHOT_COLUMNS = "game, seq, version, fingerprint, last_crc, body, crc"


def text_crc(body: str) -> int:
    """The checksum rows of older journals carry: of the text alone."""
    return zlib.crc32(body.encode("utf-8"))


def row_crc(game: int, seq: int, body: str) -> int:
    """The checksum a command row is written with: of its game, its sequence number and its text."""
    return zlib.crc32(f"{game}.{seq}.".encode() + body.encode("utf-8"))


def row_ok(game: int, seq: int, body: str, crc: object) -> bool:
    """An action row whose checksum matches (rows of older journals cover the text alone)."""
    return crc == row_crc(game, seq, body) or crc == text_crc(body)


def game_crc(game: int, seed: int, ruleset: str) -> int:
    return zlib.crc32(f"{game}.{seed}.".encode() + ruleset.encode("utf-8"))


def snapshot_crc(game: int, seq: int, version: int, fingerprint: str, last_crc: int, body: bytes) -> int:
    return zlib.crc32(f"{game}.{seq}.{version}.{fingerprint}.{last_crc}.".encode() + body)


def snapshot_ok(row: SnapshotRow) -> bool:
    """A snapshot row whose fields have their types and whose checksum matches."""
    game, seq, version, fingerprint, last_crc, body, crc = row
    return (isinstance(body, bytes) and isinstance(seq, int) and isinstance(game, int)
            and isinstance(version, int) and isinstance(fingerprint, str) and isinstance(last_crc, int)
            and crc == snapshot_crc(game, seq, version, fingerprint, last_crc, body))


# The league's outbox (issue 25): facts waiting for the broker's PUBACK, written in the transaction
# of the action that produced them. Not a journal table (a repair copies only those): made on the
# first write, inside that write's transaction.
OUTBOX_SCHEMA = """
CREATE TABLE IF NOT EXISTS league_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game INTEGER NOT NULL,
    body TEXT NOT NULL,
    queued REAL NOT NULL,
    crc INTEGER NOT NULL
)
"""


# Where a repaired game's replay goes on from a snapshot past actions that could not be read (issue
# 44): the table's undo stops there, since the actions before it no longer fold into the state
# after it. Not a journal table (an older journal has none): made by a repair that bridges a gap.
GAP_SCHEMA = """
CREATE TABLE IF NOT EXISTS game_gap (
    game INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    crc INTEGER NOT NULL,
    PRIMARY KEY (game, seq)
)
"""


def gap_crc(game: int, seq: int) -> int:
    return zlib.crc32(f"gap.{game}.{seq}".encode())


def outbox_crc(game: int, body: str) -> int:
    return zlib.crc32(f"outbox.{game}.".encode() + body.encode("utf-8"))


# What the league's broker acknowledged (issue 44): per game, the facts it took last. A box that finds
# its broker without them (a broker that lost its store) sends them again. Made, like the outbox, on
# the first write.
LEAGUE_SENT_SCHEMA = """
CREATE TABLE IF NOT EXISTS league_sent (
    game INTEGER PRIMARY KEY,
    body TEXT NOT NULL,
    acknowledged REAL NOT NULL,
    crc INTEGER NOT NULL
)
"""


def sent_crc(game: int, body: str) -> int:
    return zlib.crc32(f"sent.{game}.".encode() + body.encode("utf-8"))
