"""Reading a journal: every good row by every path that still works, or a healthy start quickly.

Two ways in. A writing table reads its own live connection. A command that only looks (``state``,
``export``, ``doctor``, ``restore``, ``history``) opens the file without changing anything beside
it: as an immutable file when no ``-wal`` holds anything, beside a running table as SQLite's
readers do, or, when a kill left a ``-wal`` that nobody owns, from a private copy of both files.

Every row read is checked with the checksums of :mod:`table.storage.schema`; a row that fails is
left out and named in ``Content.problems``, never replayed. Nothing here raises for damage: a
``sqlite3.DatabaseError`` comes out only when it is a fault (:func:`table.storage.faults.is_fault`).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.messages import msg, nmsg
from engine.rules import Ruleset
from table.storage.faults import is_fault
from table.storage.paths import JOURNAL_FILE, table_running
from table.storage.schema import (SNAPSHOT_COLUMNS, SnapshotRow, game_crc, gap_crc, outbox_crc, row_ok, snapshot_crc,
                                  snapshot_ok)

SCHEMA_NOT_TEXT = msg("the database structure is damaged (its schema holds bytes that are not text)")

GameRow = tuple[int, int, str, float]           # id, seed, ruleset json, created
CommandRow = tuple[int, str, int]               # seq, body, crc
OutboxRow = tuple[int, str, float]              # game, facts (json), queued: a row waiting for the league's broker
Span = tuple[int, int]                          # first, last action number


@dataclass
class Content:
    """Everything readable in a journal: games, the good prefix of each game's commands, snapshots."""

    games: list[GameRow] = field(default_factory=list)
    commands: dict[int, list[CommandRow]] = field(default_factory=dict)    # game -> [(seq, body, crc)]
    totals: dict[int, int] = field(default_factory=dict)                   # game -> rows seen
    snapshots: dict[int, list[SnapshotRow]] = field(default_factory=dict)  # game -> rows, newest first
    problems: list[str] = field(default_factory=list)
    head: dict[int, int] = field(default_factory=dict)      # game -> leading rows not read yet (fast start)
    complete: bool = True                                   # every game's rows were read (a repair needs that)
    # A game with a hole (a row that fails its check, or is gone, before good ones): its good rows
    # are numbered on in ``commands`` as the replay takes them, the engine judging those after the
    # hole; ``origins`` holds each one's number in the file, ``holes`` the numbers left out.
    origins: dict[int, list[int]] = field(default_factory=dict)
    holes: dict[int, list[Span]] = field(default_factory=dict)
    outbox: list[OutboxRow] = field(default_factory=list)   # the league's rows whose check holds, oldest first
    # Where a game's replay goes on from a snapshot past actions that could not be read (numbered
    # as the replay takes them): undo stops there (the actions before it do not fold into it).
    gaps: dict[int, list[int]] = field(default_factory=dict)

    def latest_counts(self) -> tuple[int, int]:
        """(good actions, actions it seemed to hold) of the latest game: what a damage report says."""
        latest = self.games[-1][0] if self.games else None
        good = len(self.commands.get(latest, [])) if latest is not None else 0
        total = max(self.totals.get(latest, 0) if latest is not None else 0, good)
        return good, total

    def latest_holes(self) -> tuple[list[Span], list[int]]:
        """(the numbers left out, the file's number of each row kept) of the latest game: empty
        lists when nothing was left out but a tail."""
        latest = self.games[-1][0] if self.games else None
        if latest is None:
            return [], []
        return self.holes.get(latest, []), self.origins.get(latest, [])


# ------------------------------------------------------------------ opening without changing anything

def connect_beside(path: Path) -> sqlite3.Connection | None:
    """A read-only connection to the journal at ``path`` that leaves every file there as it is, or
    None when only a private copy can do that (a ``-wal`` left by a kill, with no table running)."""
    wal, shm = Path(str(path) + "-wal"), Path(str(path) + "-shm")
    if not wal.exists() or wal.stat().st_size == 0:
        # nothing in a -wal: the file alone is the journal; immutable creates no -wal/-shm beside it
        return sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True, isolation_level=None)
    if table_running(path.parent) and shm.exists() and os.access(shm, os.R_OK):
        # a running table writes it: read beside it, as SQLite's readers do
        return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    return None


def private_copy(path: Path) -> tuple[sqlite3.Connection, tempfile.TemporaryDirectory[str]]:
    """A copy of the journal (and its -wal) in a private temporary directory, for reading; the
    directory goes when the caller cleans it up."""
    tmp = tempfile.TemporaryDirectory(prefix="munchkin-journal-")
    copy = Path(tmp.name) / JOURNAL_FILE
    shutil.copyfile(path, copy)
    wal = Path(str(path) + "-wal")
    if wal.exists():
        shutil.copyfile(wal, Path(str(copy) + "-wal"))
    return sqlite3.connect(copy, isolation_level=None), tmp


def open_read_only(path: Path) -> sqlite3.Connection | None:
    """The journal file opened for reading only (history and stats); None when there is none yet."""
    if not path.exists():
        return None
    if not Path(f"{path}-wal").exists():
        # Nobody has the journal open (a table that has it open keeps its -wal file): read the file
        # as it is, without the -wal and -shm files a WAL reader would otherwise leave behind.
        return sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, isolation_level=None)
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None, timeout=5)
    db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone()
    return db


# ------------------------------------------------------------------ the checks at opening

def check(db: sqlite3.Connection, *, fast: bool) -> tuple[Content, list[str]]:
    """Read everything (or, when ``fast`` and healthy, the quick start), looking for damage:
    the content and what is wrong with it, the structure's problems first."""
    problems: list[str] = []
    try:
        result = [r[0] for r in db.execute("PRAGMA integrity_check(20)").fetchall()]
        if result != ["ok"]:
            problems.append(msg("the database structure is damaged"))
    except sqlite3.DatabaseError as exc:
        if is_fault(exc):
            raise
        problems.append(msg("the database structure is damaged ({error})", error=str(exc)))
    except UnicodeDecodeError:      # SQLite's own message quotes a damaged schema, bytes that are not text
        problems.append(SCHEMA_NOT_TEXT)
    if not problems and fast:
        quick = read_fast(db)
        if quick is not None:
            return quick, []
    try:
        content = read_content(db)
    except (ValueError, TypeError, OverflowError) as exc:     # a field of a type no row may have: damage
        content = Content()
        content.problems.append(msg("a row that cannot be read ({error})", error=type(exc).__name__))
    return content, problems + content.problems


def read_content(db: sqlite3.Connection) -> Content:
    """Read every good row, by every path that still works; never raises DatabaseError for damage."""
    factory = db.text_factory
    db.text_factory = bytes         # text that does not decode is a damaged row, not an exception
    lenient = _lenient(db, True)    # a file cut short still reads up to its end (SQLite's own escape hatch)
    try:
        return _read_rows(db)
    finally:
        db.text_factory = factory
        if lenient:
            _lenient(db, False)


def _lenient(db: sqlite3.Connection, on: bool) -> bool:
    """``PRAGMA writable_schema`` on (or off again) for reading only: SQLite then reads a file shorter
    than its header says (a truncated journal) up to where it ends instead of calling the whole file
    malformed. Nothing is written through it. Whether it was set."""
    try:
        db.execute(f"PRAGMA writable_schema={'ON' if on else 'OFF'}")
        return True
    except sqlite3.DatabaseError:
        return False


def _snapshot_row(row: tuple[object, ...]) -> SnapshotRow:
    """A snapshot row as read with bytes for text: the fingerprint decoded, the rest as stored."""
    g, seq, version, fp, last_crc, body, crc = row
    if isinstance(fp, bytes):
        fp = fp.decode("utf-8", "replace")
    return g, seq, version, fp, last_crc, body, crc


def read_fast(db: sqlite3.Connection) -> Content | None:
    """The start of a healthy journal, in time that does not grow with the game: the games, the
    snapshots, and only the latest game's rows from its newest sound snapshot on. Every row read is
    checked; the row count is checked against the table itself (rows an index might hide) and
    against the sequence. None when anything looks wrong: then everything is read (``read_content``)."""
    factory = db.text_factory
    db.text_factory = bytes
    try:
        content = Content(complete=False)
        _read_games(db, content)
        if content.problems:
            return None
        if not content.games:
            return content
        gid = content.games[-1][0]
        snaps = [_snapshot_row(row) for row in db.execute(
            f"SELECT {SNAPSHOT_COLUMNS} FROM snapshot WHERE game = ? ORDER BY seq DESC", (gid,))]
        content.snapshots[gid] = snaps
        count, top = db.execute("SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM command WHERE game = ?", (gid,)).fetchone()
        table_count = db.execute("SELECT COUNT(*) FROM command NOT INDEXED WHERE game = ?", (gid,)).fetchone()[0]
        if count != table_count or top != count:
            return None
        start = 0
        for snap in snaps:
            seq = snap[1]
            if isinstance(seq, int) and 0 < seq <= top and snapshot_ok(snap):
                start = seq
                break
        rows = _rows_from(db, gid, max(start, 1), top)
        if rows is None:
            return None
        content.head[gid] = max(start - 1, 0)       # rows before the snapshot's own row
        content.commands[gid] = rows
        content.totals[gid] = top
        _read_gaps(db, content)
        return content
    except sqlite3.DatabaseError as exc:
        if is_fault(exc):
            raise
        return None
    finally:
        db.text_factory = factory


def _rows_from(db: sqlite3.Connection, game: int, first: int, top: int) -> list[CommandRow] | None:
    """Rows ``first`` .. ``top`` of ``game``, every one checked; None at the first that is not sound."""
    rows: list[CommandRow] = []
    expected = first
    for seq, raw, crc in db.execute("SELECT seq, CAST(body AS BLOB), crc FROM command "
                                    "WHERE game = ? AND seq >= ? ORDER BY seq", (game, first)):
        if seq != expected:
            return None
        try:
            body = bytes(raw).decode("utf-8")
        except (UnicodeDecodeError, TypeError):
            return None
        if not row_ok(game, seq, body, crc):
            return None
        rows.append((seq, body, int(crc)))
        expected += 1
    return rows if expected == top + 1 else None


def _read_games(db: sqlite3.Connection, content: Content) -> None:
    games: dict[int, GameRow] = {}
    checks: dict[int, int] = {}
    try:
        for row in db.execute("SELECT game, crc FROM game_check"):
            if isinstance(row[0], int) and isinstance(row[1], int):
                checks[row[0]] = row[1]
            else:               # a check row with a damaged field: its game is read without it
                content.problems.append(msg("a game check row is damaged"))
    except sqlite3.DatabaseError as exc:
        if is_fault(exc) and "no such table" not in str(exc):
            raise
        if "no such table" not in str(exc):
            content.problems.append(msg("game checks unreadable ({error})", error=str(exc)))
    try:
        for gid, seed, ruleset, created in db.execute("SELECT id, seed, CAST(ruleset AS BLOB), created FROM game"):
            try:
                text = bytes(ruleset).decode("utf-8")
                if not isinstance(gid, int) or not isinstance(seed, int):
                    raise ValueError("not a number")
                if gid in checks and checks[gid] != game_crc(gid, seed, text):
                    raise ValueError("checksum mismatch")
                Ruleset.from_dict(json.loads(text))
            except Exception as exc:  # noqa: BLE001 - anything wrong in a row is damage
                content.problems.append(msg("game {game} unreadable ({error})", game=str(gid), error=str(exc)))
                continue
            games[gid] = (gid, seed, text, float(created) if isinstance(created, (int, float)) else 0.0)
    except sqlite3.DatabaseError as exc:
        if is_fault(exc):
            raise
        content.problems.append(msg("games unreadable ({error})", error=str(exc)))
    content.games = [games[k] for k in sorted(games)]


# How far past the highest rowid known a walk goes on trying rowids that read nothing (a damaged or
# missing page hides the rows under it; those of the pages after it still read).
WALK_MISSES = 2000


def walk(db: sqlite3.Connection, select: str, top: int, failed: list[str]) -> Iterator[tuple[Any, ...]]:
    """Every row of ``select`` (whose first column is the rowid) that SQLite can still read, range
    by range in rowid order: a read that fails on a damaged page goes on at the next rowid, until
    ``WALK_MISSES`` rowids past the highest known (``top``, or read) have read nothing. What SQLite
    said of the first failure goes in ``failed``; a fault (the disk) raises."""
    after = 0
    while after <= top + WALK_MISSES:
        try:
            for row in db.execute(f"{select} WHERE rowid > ? ORDER BY rowid", (after,)):
                after = int(row[0])
                top = max(top, after)
                yield row
            return
        except sqlite3.DatabaseError as exc:
            if is_fault(exc):
                raise
            if not failed:
                failed.append(str(exc))
            after += 1
        except (ValueError, TypeError, OverflowError) as exc:      # a rowid that is not a number: damage
            if not failed:
                failed.append(type(exc).__name__)
            after += 1


def _walk_index(db: sqlite3.Connection, failed: list[str]) -> Iterator[tuple[int, int, int]]:
    """(game, seq, rowid) of every entry the command table's index still lists, past damaged pages:
    the actions that were there, readable or not (the count a damage report states)."""
    game, seq = 0, 0
    misses = 0
    while misses < WALK_MISSES:
        try:
            for g, q, rowid in db.execute("SELECT game, seq, rowid FROM command INDEXED BY sqlite_autoindex_command_1 "
                                          "WHERE (game, seq) > (?, ?) ORDER BY game, seq", (game, seq)):
                if isinstance(g, int) and isinstance(q, int) and isinstance(rowid, int):
                    game, seq, misses = g, q, 0
                    yield g, q, rowid
            return
        except sqlite3.DatabaseError as exc:
            if is_fault(exc):
                raise
            if "no such index" in str(exc):
                return
            if not failed:
                failed.append(str(exc))
            seq, misses = seq + 1, misses + 1


def _read_commands(db: sqlite3.Connection, content: Content) -> dict[int, set[int]]:
    """Every sound command row: by the table's rowids (walked past damaged pages, row by row) and
    through its index (either may hide rows); returns the sequence numbers seen per game, sound or
    not (the index lists those whose rows no longer read)."""
    rows: dict[tuple[int, int], tuple[str, int]] = {}
    seen: dict[int, set[int]] = {}
    failed: list[str] = []
    top = 0
    for game, seq, rowid in _walk_index(db, failed):
        seen.setdefault(game, set()).add(seq)
        top = max(top, rowid)
    table = ((game, seq, raw, crc) for _rowid, game, seq, raw, crc in
             walk(db, "SELECT rowid, game, seq, CAST(body AS BLOB), crc FROM command", top, failed))
    _take_rows(content, table, rows, seen)
    try:
        _take_rows(content, db.execute("SELECT game, seq, CAST(body AS BLOB), crc FROM command ORDER BY game, seq"),
                   rows, seen)
    except sqlite3.DatabaseError as exc:
        if is_fault(exc):
            raise
        failed.append(str(exc))
    if failed:
        content.problems.append(msg("rows unreadable ({error})", error=failed[0]))
        _recorded_counts(db, seen)
    for (game, seq), (body, crc) in sorted(rows.items()):
        content.commands.setdefault(game, []).append((seq, body, crc))
    return seen


def _recorded_counts(db: sqlite3.Connection, seen: dict[int, set[int]]) -> None:
    """When SQLite could not read every row: the actions each game's facts row counted (written in
    the transaction of each action), so the rows no page lists any more are counted as lost too."""
    try:
        for game, actions in db.execute("SELECT game, actions FROM game_record"):
            if isinstance(game, int) and isinstance(actions, int) and 0 < actions < 10_000_000:
                seen.setdefault(game, set()).add(actions)
    except sqlite3.DatabaseError as exc:
        if is_fault(exc) and "no such table" not in str(exc):
            raise


def _take_rows(content: Content, found: Iterable[tuple[Any, ...]], rows: dict[tuple[int, int], tuple[str, int]],
               seen: dict[int, set[int]]) -> None:
    """The sound rows of ``found`` (game, seq, body as bytes, crc) into ``rows``; the others named."""
    for game, seq, raw, crc in found:
        if not isinstance(game, int) or not isinstance(seq, int):
            content.problems.append(msg("a row with a damaged key"))
            continue
        seen.setdefault(game, set()).add(seq)
        if (game, seq) in rows:
            continue
        try:
            body = bytes(raw).decode("utf-8")
        except (UnicodeDecodeError, TypeError):
            content.problems.append(msg("action {n} of game {game}: bytes that are not text", n=seq, game=game))
            continue
        if not row_ok(game, seq, body, crc):
            content.problems.append(msg("action {n} of game {game}: checksum mismatch", n=seq, game=game))
            continue
        rows[(game, seq)] = (body, int(crc))


def _read_rows(db: sqlite3.Connection) -> Content:
    content = Content()
    _read_games(db, content)
    games = {g[0]: g for g in content.games}
    seen = _read_commands(db, content)
    for game in set(seen) | set(games):
        _around_holes(content, game, max([*seen.get(game, set()), 0]))
    failed: list[str] = []
    try:
        for row in walk(db, f"SELECT rowid, {SNAPSHOT_COLUMNS} FROM snapshot", 0, failed):   # past damaged pages
            snap = _snapshot_row(row[1:])
            if isinstance(snap[0], int):
                content.snapshots.setdefault(snap[0], []).append(snap)
    except sqlite3.DatabaseError as exc:
        if is_fault(exc) and "no such table" not in str(exc):
            raise
    for snaps in content.snapshots.values():
        snaps.sort(key=lambda s: s[1] if isinstance(s[1], int) else -1, reverse=True)     # newest first
    _read_outbox(db, content)
    _read_gaps(db, content)
    for game in content.origins:        # rows after a hole, numbered on: the snapshots too
        _bridge(content, game)
    return content


def _read_gaps(db: sqlite3.Connection, content: Content) -> None:
    """The gaps an earlier repair bridged (``game_gap``; an older journal has none), checked."""
    try:
        for game, seq, crc in db.execute("SELECT game, seq, crc FROM game_gap ORDER BY game, seq"):
            if isinstance(game, int) and isinstance(seq, int) and crc == gap_crc(game, seq):
                content.gaps.setdefault(game, []).append(seq)
    except sqlite3.DatabaseError as exc:
        if is_fault(exc) and "no such table" not in str(exc):
            raise


def _bridge(content: Content, game: int) -> None:
    """A game whose good rows are numbered on past holes: its snapshots numbered the same way (one
    whose own action did not read, or that fails a check, is dropped), and each snapshot that
    follows a hole made a gap, from which the replay goes on past the actions that did not read.
    The gaps of an earlier repair are numbered on the same way."""
    origins = content.origins[game]
    position = {seq: n for n, seq in enumerate(origins, 1)}
    crcs = {seq: crc for seq, (_n, _b, crc) in zip(origins, content.commands[game])}
    holes = content.holes.get(game, [])
    kept: list[SnapshotRow] = []
    gaps = {position[g] for g in content.gaps.get(game, []) if g in position}
    before = 0
    for snap in sorted(content.snapshots.get(game, []), key=lambda s: s[1] if isinstance(s[1], int) else -1):
        g, seq, version, fp, last_crc, body, _crc = snap
        if (not isinstance(seq, int) or seq not in position or crcs[seq] != last_crc or not snapshot_ok(snap)
                or not isinstance(g, int) or not isinstance(version, int) or not isinstance(fp, str)
                or not isinstance(last_crc, int) or not isinstance(body, bytes)):
            continue
        n = position[seq]
        kept.append((g, n, version, fp, last_crc, body, snapshot_crc(g, n, version, fp, last_crc, body)))
        if any(before < a <= seq for a, _b in holes):      # the first snapshot after a hole: a gap
            gaps.add(n)
        before = seq
    content.snapshots[game] = list(reversed(kept))
    content.gaps[game] = sorted(gaps)


def _read_outbox(db: sqlite3.Connection, content: Content) -> None:
    """The league's outbox rows whose check holds (issue 25): a repair carries them over. A row
    that fails its check, or an outbox that cannot be read, is left to the kept copy."""
    try:
        rows = db.execute("SELECT game, body, queued, crc FROM league_outbox ORDER BY id").fetchall()
    except sqlite3.DatabaseError as exc:
        if is_fault(exc) and "no such table" not in str(exc):
            raise
        return
    for game, body, queued, crc in rows:
        try:
            text = body.decode("utf-8") if isinstance(body, bytes) else body
        except UnicodeDecodeError:
            continue
        if (isinstance(game, int) and isinstance(text, str) and isinstance(queued, (int, float))
                and crc == outbox_crc(game, text)):
            content.outbox.append((game, text, float(queued)))


def _around_holes(content: Content, game: int, top: int) -> None:
    """The game's good rows as the replay takes them: every one whose check holds, those after a
    hole numbered on from it (``origins``), the numbers missing in ``holes`` (as spans), a problem."""
    good = [row for row in content.commands.get(game, []) if row[0] >= 1]
    total = max(top, len(good))
    content.totals[game] = total
    holes: list[Span] = []
    expected = 1
    for seq, _b, _c in good:
        if seq > expected:
            holes.append((expected, seq - 1))
        expected = seq + 1
    if total >= expected:
        holes.append((expected, total))
    content.commands[game] = good
    if not holes:
        return
    content.holes[game] = holes
    if good and good[-1][0] > holes[0][0]:
        content.origins[game] = [seq for seq, _b, _c in good]
        content.commands[game] = [(n, body, crc) for n, (_seq, body, crc) in enumerate(good, 1)]
    content.problems.append(nmsg("game {game}: action {dropped} of {total} cannot be read",
                                 "game {game}: actions {dropped} of {total} cannot be read", "n",
                                 n=sum(b - a + 1 for a, b in holes), game=game, dropped=said_spans(holes), total=total))


def said_spans(spans: list[Span]) -> str:
    """Spans of action numbers as a person reads them: ``30, 80–121`` (the first few of many)."""
    words = [str(a) if a == b else f"{a}–{b}" for a, b in spans[:6]]
    return ", ".join(words) + (", …" if len(spans) > 6 else "")
