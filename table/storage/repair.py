"""Repair and salvage: damaged files kept aside byte for byte, and a clean journal built in their place.

**Damage** is a journal whose contents are wrong (bad bytes, a torn page, rows hidden by a damaged
index, a command that no longer replays). A table that writes first copies the damaged database
with its ``-wal`` and ``-shm`` aside under a new name that cannot collide with any file, then
builds a clean journal from every good action (``<journal>.salvage``) and renames it into place;
rows are never deleted from the damaged file. A power cut between the two steps is finished at the
next opening (:func:`finish_interrupted_repair`).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

from cards.files import fsync_directory
from table.storage.reading import Content, private_copy
from table.storage.schema import (FACTS_SCHEMA, GAP_SCHEMA, JOURNAL_SCHEMA, OUTBOX_SCHEMA, game_crc, gap_crc, outbox_crc,
                                  row_crc, snapshot_ok)
from table.storage.snapshots import put_snapshot

log = logging.getLogger(__name__)


def kept_copies(path: Path) -> list[Path]:
    """Copies of ``path`` kept aside after damage or a restore, oldest first."""
    stem = path.name.split(".")[0]
    found = [p for p in path.parent.glob(f"{stem}.*.sqlite3") if p.is_file() and p != path]
    return sorted(found, key=lambda p: (p.stat().st_mtime, p.name))


def _claim_aside_name(path: Path, label: str) -> tuple[Path, int]:
    """A name beside ``path`` that no file has (nor its -wal/-shm), created exclusively: (name, fd)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    stem = path.name.split(".")[0]
    n = 0
    while True:
        suffix = f"-{n}" if n else ""
        aside = path.with_name(f"{stem}.{label}-{stamp}{suffix}.sqlite3")
        extras = [Path(str(aside) + e) for e in ("-wal", "-shm")]
        if not aside.exists() and not any(e.exists() for e in extras):
            try:
                return aside, os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                pass
        n += 1


def keep_aside(path: Path, label: str = "damaged") -> Path:
    """Copy ``path`` with its ``-wal`` and ``-shm`` byte for byte to a name no file has; returns the copy.

    Never renames or overwrites anything. Raises OSError (a fault) when the copy cannot be made.
    """
    aside, fd = _claim_aside_name(path, label)
    try:
        with os.fdopen(fd, "wb") as out:
            if path.exists():
                with open(path, "rb") as src:
                    shutil.copyfileobj(src, out)
            out.flush()
            os.fsync(out.fileno())
        for extra in ("-wal", "-shm"):
            src_path = Path(str(path) + extra)
            if src_path.exists():
                dst = Path(str(aside) + extra)
                fd2 = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
                with os.fdopen(fd2, "wb") as out, open(src_path, "rb") as src:
                    shutil.copyfileobj(src, out)
                    out.flush()
                    os.fsync(out.fileno())
        fsync_directory(path.parent)
    except BaseException:
        for leftover in (aside, Path(str(aside) + "-wal"), Path(str(aside) + "-shm")):
            leftover.unlink(missing_ok=True)
        raise
    log.warning("journal %s kept aside as %s", path, aside)
    return aside


def salvage_path(path: Path) -> Path:
    return path.with_name(path.name + ".salvage")


def finish_interrupted_repair(path: Path) -> Path | None:
    """A repair cut short by a power cut: put its finished salvage in place (returning the damaged
    copy kept aside before it, to be named), or drop an unfinished one (None)."""
    salvage = salvage_path(path)
    if not salvage.exists():
        return None
    if not path.exists() and not Path(str(path) + "-wal").exists():
        os.rename(salvage, path)       # the damaged original is already kept aside
        fsync_directory(path.parent)
        log.warning("journal: finished the repair a power cut interrupted")
        damaged = [p for p in kept_copies(path) if ".damaged-" in p.name]
        return damaged[-1] if damaged else None
    salvage.unlink()                    # made from the journal still in place; it is made again
    return None


def write_salvage(salvage: Path, content: Content) -> None:
    """A clean journal at ``salvage`` holding ``content``'s good rows, synced; raises sqlite3.Error or
    OSError (the half-made file is then removed)."""
    try:
        salvage.unlink(missing_ok=True)
        new = sqlite3.connect(salvage, isolation_level=None)
        new.execute("PRAGMA journal_mode=DELETE")
        new.executescript(JOURNAL_SCHEMA)
        new.execute("BEGIN")
        for gid, seed, ruleset, created in content.games:
            new.execute("INSERT INTO game (id, seed, ruleset, created) VALUES (?, ?, ?, ?)", (gid, seed, ruleset, created))
            new.execute("INSERT INTO game_check (game, crc) VALUES (?, ?)", (gid, game_crc(gid, seed, ruleset)))
            _copy_game(new, content, gid)
        _copy_outbox(new, content)
        new.execute("COMMIT")
        new.close()
        with open(salvage, "rb+") as fh:
            os.fsync(fh.fileno())
    except (sqlite3.Error, OSError):
        salvage.unlink(missing_ok=True)
        raise


def _copy_game(new: sqlite3.Connection, content: Content, gid: int) -> None:
    """The game's good commands, rewritten with the current checksum, and the snapshots that still check out."""
    crcs: dict[int, int] = {}
    original: dict[int, int] = {}
    for seq, body, crc_value in content.commands.get(gid, []):
        crcs[seq], original[seq] = row_crc(gid, seq, body), crc_value
        new.execute("INSERT INTO command (game, seq, body, crc) VALUES (?, ?, ?, ?)", (gid, seq, body, crcs[seq]))
    for row in content.snapshots.get(gid, []):
        _g, at, version, fp, last_crc, state, _crc = row
        # snapshots that still check out come along (under the new crc of their last action)
        if (isinstance(at, int) and at in crcs and original[at] == last_crc and snapshot_ok(row)
                and isinstance(version, int) and isinstance(fp, str) and isinstance(state, bytes)):
            put_snapshot(new, gid, at, fp, crcs[at], state, version)
    gaps = [seq for seq in content.gaps.get(gid, []) if seq in crcs]
    if gaps:                            # where the replay goes on past actions that did not read
        new.execute(GAP_SCHEMA)
        new.executemany("INSERT INTO game_gap (game, seq, crc) VALUES (?, ?, ?)",
                        [(gid, seq, gap_crc(gid, seq)) for seq in gaps])


def _copy_outbox(new: sqlite3.Connection, content: Content) -> None:
    """The league's rows still waiting for the broker, for each game the repair kept whole (every
    row it held, no hole): its facts are still the game's. A game cut or replayed around a hole
    sends its facts again when it ends; its old row stays in the kept copy."""
    whole = {gid for gid, _s, _r, _c in content.games
             if gid not in content.holes and len(content.commands.get(gid, [])) == content.totals.get(gid, 0)}
    rows = [row for row in content.outbox if row[0] in whole]
    if rows:
        new.execute(OUTBOX_SCHEMA)
    for game, body, queued in rows:
        new.execute("INSERT INTO league_outbox (game, body, queued, crc) VALUES (?, ?, ?, ?)",
                    (game, body, queued, outbox_crc(game, body)))
    left = len(content.outbox) - len(rows)
    if left:
        log.warning("league: %d game(s)' facts waiting for the broker stay in the kept copy (their game was repaired)", left)


def put_in_place(salvage: Path, path: Path) -> None:
    """Replace the journal at ``path`` (already kept aside) and its -wal/-shm by the finished salvage."""
    for extra in ("-wal", "-shm", ""):
        Path(str(path) + extra).unlink(missing_ok=True)   # the damaged files: a byte-exact copy is kept
    os.rename(salvage, path)
    fsync_directory(path.parent)


def _known_schema() -> dict[bytes, tuple[bytes, bytes, bytes | None]]:
    """The schema this code makes, as SQLite stores it: name -> (type, table, sql), with the index
    SQLite makes itself for a table whose primary key is a constraint of its own."""
    known: dict[bytes, tuple[bytes, bytes, bytes | None]] = {}
    for statement in (JOURNAL_SCHEMA + FACTS_SCHEMA).split(";"):
        found = re.match(r"\s*CREATE TABLE IF NOT EXISTS (\w+)", statement)
        if found is None:
            continue
        name = found.group(1).encode()
        known[name] = (b"table", name, statement.strip().replace("IF NOT EXISTS ", "", 1).encode())
        if "PRIMARY KEY (" in statement:
            known[b"sqlite_autoindex_" + name + b"_1"] = (b"index", name, None)
    return known


def _closest(name: bytes, known: dict[bytes, tuple[bytes, bytes, bytes | None]]) -> bytes | None:
    """The known name ``name`` was, before bytes of it were overwritten: the one of its length with
    the most bytes in place (at least half); None when none is that close."""
    if name in known:
        return name
    scored = [(sum(a == b for a, b in zip(name, k)), k) for k in known if len(k) == len(name)]
    best = max(scored, default=(0, b""))
    return best[1] if best[0] * 2 >= len(name) else None


def mended_copy(path: Path) -> tuple[sqlite3.Connection, tempfile.TemporaryDirectory[str]] | None:
    """A private copy of the journal at ``path`` (with its -wal) whose schema, damaged into bytes
    that are not text (SQLite then reads nothing at all), is written again from the schema this code
    makes, entry by entry: the rows then read, each checked by its checksum as always. The file at
    ``path`` is not touched. None when the copy cannot be mended."""
    db, tmp = private_copy(path)
    copy = Path(tmp.name) / path.name
    try:
        db.text_factory = bytes
        db.execute("PRAGMA writable_schema=ON")
        known = _known_schema()
        for rowid, name in db.execute("SELECT rowid, CAST(name AS BLOB) FROM sqlite_master").fetchall():
            match = _closest(bytes(name or b""), known)
            if match is not None:
                kind, table, sql = known[match]
                db.execute("UPDATE sqlite_master SET type = ?, name = ?, tbl_name = ?, sql = ? WHERE rowid = ?",
                           (kind.decode(), match.decode(), table.decode(), sql.decode() if sql else None, rowid))
        db.close()
        db = sqlite3.connect(copy, isolation_level=None)
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()        # the schema reads again
        log.warning("journal %s: its schema is damaged; reading a copy with the schema written again", path)
        return db, tmp
    except (sqlite3.Error, UnicodeDecodeError, OSError) as exc:
        log.error("journal %s: the damaged schema cannot be mended in a copy (%s)", path, exc)
        db.close()
        tmp.cleanup()
        return None
