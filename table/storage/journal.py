"""The journal: every accepted command of every game, in SQLite, committed before it is shown.

A game is its seed, its ruleset and its commands; the state is their replay.
Every row carries a CRC32 of what it holds (the command row also of its game and
sequence number), so a damaged row is recognised, never replayed.

Two kinds of trouble are told apart:

* A **fault** is the disk refusing to work (full, read-only, an I/O error, no
  permission, locked by another program). Nothing is moved or repaired: the
  caller gets a :class:`JournalFault` whose message names the fault and the fix,
  and may simply try again later.
* **Damage** is a journal whose contents are wrong (bad bytes, a torn page, rows
  hidden by a damaged index, a command that no longer replays). A table that
  writes (``run``) first copies the damaged database with its ``-wal`` and
  ``-shm`` aside under a new name that cannot collide with any file, then builds
  a clean journal from every good action and puts it in place; rows are never
  deleted from the damaged file. A read-only opening (``state``) only reports it.

Snapshots of the game state are stored beside the commands (a format version, a
fingerprint of the rules code and the catalog, and a checksum), so a start replays
only the few commands after the newest good snapshot.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import shutil
import sqlite3
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from cards.files import fsync_directory
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

SNAPSHOT_VERSION = 1

# SQLite's primary result codes that mean "the disk or the system refuses", not "the file is wrong".
FAULT_CODES = {3: "PERM", 5: "BUSY", 6: "LOCKED", 7: "NOMEM", 8: "READONLY", 9: "INTERRUPT", 10: "IOERR",
               13: "FULL", 14: "CANTOPEN", 15: "PROTOCOL", 23: "AUTH"}
DAMAGE_IOERR = {522}            # SQLITE_IOERR_SHORT_READ: the file ends inside a page (torn)
FAULT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO,
                errno.ENOENT, errno.EBUSY, errno.ENOTDIR}


class JournalError(MunchkinError, OSError):
    """The journal could not store a change (disk full, read-only, removed); nothing was stored."""


class JournalFault(JournalError):
    """The disk refuses (full, read-only, I/O error, no permission, locked): nothing was moved or changed."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    seed: int
    ruleset: Ruleset


@dataclass
class Snapshot:
    seq: int
    body: bytes


@dataclass
class Damage:
    """What loading found wrong, for the screen and ``state``."""

    why: str
    good: int = 0           # actions of the latest game that are kept
    total: int = 0          # actions the damaged journal seemed to hold
    kept: Path | None = None

    def report(self) -> str:
        if self.kept is not None:
            return msg("the saved game was damaged ({why}): restored to action {good} of {total}; "
                       "the damaged copy is kept as {file}", why=self.why, good=self.good, total=self.total,
                       file=self.kept.name)
        return msg("the saved game was damaged ({why}): restored to action {good} of {total}", why=self.why,
                   good=self.good, total=self.total)


@dataclass
class _Content:
    """Everything readable in a journal: games, the good prefix of each game's commands, snapshots."""

    games: list[tuple[int, int, str, float]] = field(default_factory=list)     # id, seed, ruleset json, created
    commands: dict[int, list[tuple[int, str, int]]] = field(default_factory=dict)  # game -> [(seq, body, crc)]
    totals: dict[int, int] = field(default_factory=dict)                        # game -> rows seen
    snapshots: dict[int, list[tuple]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    head: dict[int, int] = field(default_factory=dict)      # game -> leading rows not read yet (fast start)
    complete: bool = True                                   # every game's rows were read (a repair needs that)


def _crc(body: str) -> int:
    return zlib.crc32(body.encode("utf-8"))


def _row_crc(game: int, seq: int, body: str) -> int:
    return zlib.crc32(f"{game}.{seq}.".encode() + body.encode("utf-8"))


def row_ok(game: int, seq: int, body: str, crc: int) -> bool:
    """An action row whose checksum matches (rows of older journals cover the text alone)."""
    return crc == _row_crc(game, seq, body) or crc == _crc(body)


def _game_crc(game: int, seed: int, ruleset: str) -> int:
    return zlib.crc32(f"{game}.{seed}.".encode() + ruleset.encode("utf-8"))


def _snapshot_crc(game: int, seq: int, version: int, fingerprint: str, last_crc: int, body: bytes) -> int:
    return zlib.crc32(f"{game}.{seq}.{version}.{fingerprint}.{last_crc}.".encode() + body)


def is_fault(exc: BaseException) -> bool:
    """True when ``exc`` is the disk or the system refusing, not a damaged file."""
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is None:            # raised by Python's module itself (text that does not decode): the file
            return False
        if code in DAMAGE_IOERR:
            return False
        return (code & 0xFF) in FAULT_CODES
    if isinstance(exc, OSError):
        return exc.errno in FAULT_ERRNOS or exc.errno is None
    return False


def _no_room(where: Path) -> bool:
    """A write error where the disk is (nearly) full or a file-size limit is set: SQLite says I/O error then."""
    import resource

    try:
        st = os.statvfs(where)
        if st.f_bavail * st.f_frsize < 512 * 1024:
            return True
    except OSError:
        pass
    soft = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    return soft != resource.RLIM_INFINITY


def _writable(where: Path) -> bool:
    try:
        if os.statvfs(where).f_flag & os.ST_RDONLY:
            return False
    except OSError:
        return False
    return os.access(where, os.W_OK)


def describe_fault(exc: BaseException, path: Path) -> str:
    """One line naming the fault and what to do about it."""
    where = path.parent
    code = getattr(exc, "sqlite_errorcode", None)
    primary = FAULT_CODES.get(code & 0xFF) if isinstance(code, int) else None
    err = exc.errno if isinstance(exc, OSError) and not isinstance(exc, sqlite3.Error) else None
    if primary == "FULL" or err in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG) or (primary == "IOERR" and _no_room(where)):
        return msg("the disk holding {where} is full (or a file-size limit is reached): free some space there; "
                   "the game is kept and carries on once it can be saved", where=str(where))
    if primary in ("READONLY", "PERM", "AUTH") or err in (errno.EROFS, errno.EACCES, errno.EPERM) or (
            primary == "CANTOPEN" and where.is_dir() and not _writable(where)):
        return msg("{where} cannot be written (a read-only disk or no permission): make it writable for this user "
                   "(remount it read-write, or: sudo chown -R $USER {where}); the game is kept", where=str(where))
    if primary == "CANTOPEN" or err in (errno.ENOENT, errno.ENOTDIR):
        return msg("cannot open the journal in {where} (missing, read-only or no permission): check that the "
                   "directory exists and this user may write it; the game is kept", where=str(where))
    if primary in ("BUSY", "LOCKED") or err == errno.EBUSY:
        return msg("the journal {path} is locked by another program: close it, then try again", path=str(path))
    if primary == "IOERR" or err == errno.EIO:
        return msg("the disk holding {where} reports an input/output error: check the SD card or disk "
                   "(dmesg), then try again; the game is kept", where=str(where))
    return msg("the journal in {where} cannot be used ({error}): check the disk; the game is kept", where=str(where),
               error=str(exc))


def fault(exc: BaseException, path: Path) -> JournalFault:
    return JournalFault(describe_fault(exc, path))


def kept_copies(path: Path) -> list[Path]:
    """Copies of ``path`` kept aside after damage or a restore, oldest first."""
    stem = path.name.split(".")[0]
    found = [p for p in path.parent.glob(f"{stem}.*.sqlite3") if p.is_file() and p != path]
    return sorted(found, key=lambda p: (p.stat().st_mtime, p.name))


def _table_running(directory: Path) -> bool:
    """True while a table (or the enroll wizard) holds the state directory's lock."""
    import fcntl

    try:
        fd = os.open(directory / "table.lock", os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)            # (closing drops a shared lock we may have taken)
    return False


def keep_aside(path: Path, label: str = "damaged") -> Path:
    """Copy ``path`` with its ``-wal`` and ``-shm`` byte for byte to a name no file has; returns the copy.

    Never renames or overwrites anything. Raises OSError (a fault) when the copy cannot be made.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    stem = path.name.split(".")[0]
    n = 0
    while True:
        suffix = f"-{n}" if n else ""
        aside = path.with_name(f"{stem}.{label}-{stamp}{suffix}.sqlite3")
        extras = [Path(str(aside) + e) for e in ("-wal", "-shm")]
        if not aside.exists() and not any(e.exists() for e in extras):
            try:
                fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                n += 1
                continue
            break
        n += 1
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


def _read_content(db: sqlite3.Connection) -> _Content:
    """Read every good row, by every path that still works; never raises DatabaseError for damage."""
    factory = db.text_factory
    db.text_factory = bytes         # text that does not decode is a damaged row, not an exception
    try:
        return _read_rows(db)
    finally:
        db.text_factory = factory


def _read_fast(db: sqlite3.Connection) -> _Content | None:
    """The start of a healthy journal, in time that does not grow with the game: the games, the
    snapshots, and only the latest game's rows from its newest sound snapshot on. Every row read is
    checked; the row count is checked against the table itself (rows an index might hide) and
    against the sequence. None when anything looks wrong: then everything is read (``_read_content``)."""
    factory = db.text_factory
    db.text_factory = bytes
    try:
        content = _Content(complete=False)
        _read_games(db, content)
        if content.problems:
            return None
        if not content.games:
            return content
        gid = content.games[-1][0]
        snaps = []
        for row in db.execute("SELECT game, seq, version, fingerprint, last_crc, body, crc FROM snapshot "
                              "WHERE game = ? ORDER BY seq DESC", (gid,)):
            row = tuple(v.decode("utf-8", "replace") if isinstance(v, bytes) and i == 3 else v
                        for i, v in enumerate(row))
            snaps.append(row)
        content.snapshots[gid] = snaps
        count, top = db.execute("SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM command WHERE game = ?", (gid,)).fetchone()
        table_count = db.execute("SELECT COUNT(*) FROM command NOT INDEXED WHERE game = ?", (gid,)).fetchone()[0]
        if count != table_count or top != count:
            return None
        start = 0
        for g, seq, version, fp, last_crc, body, crc in snaps:
            if (isinstance(body, bytes) and isinstance(seq, int) and 0 < seq <= top and isinstance(fp, str)
                    and crc == _snapshot_crc(g, seq, version, fp, last_crc, body)):
                start = seq
                break
        rows = []
        expected = max(start, 1)
        for seq, raw, crc in db.execute("SELECT seq, CAST(body AS BLOB), crc FROM command "
                                        "WHERE game = ? AND seq >= ? ORDER BY seq", (gid, expected)):
            if seq != expected:
                return None
            try:
                body = bytes(raw).decode("utf-8")
            except (UnicodeDecodeError, TypeError):
                return None
            if crc != _row_crc(gid, seq, body) and crc != _crc(body):
                return None
            rows.append((seq, body, int(crc)))
            expected += 1
        if expected != top + 1:
            return None
        content.head[gid] = max(start - 1, 0)       # rows before the snapshot's own row
        content.commands[gid] = rows
        content.totals[gid] = top
        return content
    except sqlite3.DatabaseError as exc:
        if is_fault(exc):
            raise
        return None
    finally:
        db.text_factory = factory


def _read_games(db: sqlite3.Connection, content: _Content) -> None:
    games: dict[int, tuple[int, int, str, float]] = {}
    checks: dict[int, int] = {}
    try:
        for row in db.execute("SELECT game, crc FROM game_check"):
            checks[int(row[0])] = int(row[1])
    except sqlite3.DatabaseError as exc:
        if is_fault(exc) and "no such table" not in str(exc):
            raise
        if "no such table" not in str(exc):
            content.problems.append(f"game checks unreadable ({exc})")
    try:
        for gid, seed, ruleset, created in db.execute("SELECT id, seed, CAST(ruleset AS BLOB), created FROM game"):
            try:
                text = bytes(ruleset).decode("utf-8")
                if not isinstance(gid, int) or not isinstance(seed, int):
                    raise ValueError("not a number")
                if gid in checks and checks[gid] != _game_crc(gid, seed, text):
                    raise ValueError("checksum mismatch")
                Ruleset.from_dict(json.loads(text))
            except Exception as exc:  # noqa: BLE001 - anything wrong in a row is damage
                content.problems.append(f"game {gid} unreadable ({exc})")
                continue
            games[gid] = (gid, seed, text, float(created) if isinstance(created, (int, float)) else 0.0)
    except sqlite3.DatabaseError as exc:
        if is_fault(exc):
            raise
        content.problems.append(f"games unreadable ({exc})")
    content.games = [games[k] for k in sorted(games)]


def _read_rows(db: sqlite3.Connection) -> _Content:
    content = _Content()
    _read_games(db, content)
    games = {g[0]: g for g in content.games}
    rows: dict[tuple[int, int], tuple[str, int]] = {}
    seen: dict[int, set[int]] = {}
    queries = ("SELECT game, seq, CAST(body AS BLOB), crc FROM command NOT INDEXED",
               "SELECT game, seq, CAST(body AS BLOB), crc FROM command ORDER BY game, seq")
    for query in queries:
        try:
            for game, seq, raw, crc in db.execute(query):
                if not isinstance(game, int) or not isinstance(seq, int):
                    content.problems.append("a row with a damaged key")
                    continue
                seen.setdefault(game, set()).add(seq)
                if (game, seq) in rows:
                    continue
                try:
                    body = bytes(raw).decode("utf-8")
                except (UnicodeDecodeError, TypeError):
                    content.problems.append(f"action {seq} of game {game}: bytes that are not text")
                    continue
                if crc != _row_crc(game, seq, body) and crc != _crc(body):
                    content.problems.append(f"action {seq} of game {game}: checksum mismatch")
                    continue
                rows[(game, seq)] = (body, int(crc))
        except sqlite3.DatabaseError as exc:
            if is_fault(exc):
                raise
            content.problems.append(f"rows unreadable ({exc})")
    for (game, seq), (body, crc) in sorted(rows.items()):
        content.commands.setdefault(game, []).append((seq, body, crc))
    for game in set(seen) | set(games):
        good = content.commands.get(game, [])
        prefix = []
        for n, (seq, body, crc) in enumerate(good, 1):
            if seq != n:
                break
            prefix.append((seq, body, crc))
        content.commands[game] = prefix
        total = max([*seen.get(game, set()), len(prefix)])
        content.totals[game] = total
        if len(prefix) < total:
            content.problems.append(f"game {game} stops at action {len(prefix)} of {total}")
    try:
        for row in db.execute("SELECT game, seq, version, fingerprint, last_crc, body, crc FROM snapshot "
                              "ORDER BY game, seq DESC"):
            row = tuple(v.decode("utf-8", "replace") if isinstance(v, bytes) and i == 3 else v
                        for i, v in enumerate(row))
            content.snapshots.setdefault(row[0], []).append(row)
    except sqlite3.DatabaseError as exc:
        if is_fault(exc) and "no such table" not in str(exc):
            raise
    return content


class Journal:
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
        self._tmp: tempfile.TemporaryDirectory | None = None  # type: ignore[type-arg]
        self.db: sqlite3.Connection | None = None  # type: ignore[assignment]
        self._content: _Content | None = None
        if read_only:
            self._open_read_only()
        else:
            self._open_for_writing()

    @classmethod
    def unavailable(cls, path: Path) -> Journal:
        """A journal that could not even be read: no game to show until the disk lets us in."""
        self = cls.__new__(cls)
        self.path, self.read_only, self.damage, self.dropped, self.fast = path, True, None, 0, True
        self._tmp, self.db, self._content = None, None, None
        return self

    # ------------------------------------------------------------ opening

    @property
    def moved_aside(self) -> Path | None:
        return self.damage.kept if self.damage is not None else None

    def _open_read_only(self) -> None:
        path = self.path
        if not path.exists():
            self.db = sqlite3.connect(":memory:", isolation_level=None)
            self.db.executescript(SCHEMA)
            self._content = _Content()
            return
        wal, shm = Path(str(path) + "-wal"), Path(str(path) + "-shm")
        try:
            if not wal.exists() or wal.stat().st_size == 0:
                # nothing in a -wal: the file alone is the journal; immutable creates no -wal/-shm beside it
                db = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True, isolation_level=None)
            elif _table_running(path.parent) and shm.exists() and os.access(shm, os.R_OK):
                # a running table writes it: read beside it, as SQLite's readers do
                db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
            else:
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
            if is_fault(exc):
                if self._tmp is None and wal.exists():
                    try:
                        self.db = self._private_copy()
                        self._check(self.db)
                        return
                    except sqlite3.DatabaseError as again:
                        if is_fault(again):
                            raise fault(again, path) from again
                        self._damaged_unreadable(again)
                        return
                    except OSError as again:
                        raise fault(again, path) from again
                raise fault(exc, path) from exc
            self._damaged_unreadable(exc)
        except OSError as exc:
            raise fault(exc, path) from exc

    def _private_copy(self) -> sqlite3.Connection:
        """A copy of the journal (and its -wal) in a private temporary directory, for reading."""
        self._tmp = tempfile.TemporaryDirectory(prefix="munchkin-journal-")
        copy = Path(self._tmp.name) / "journal.sqlite3"
        shutil.copyfile(self.path, copy)
        wal = Path(str(self.path) + "-wal")
        if wal.exists():
            shutil.copyfile(wal, Path(str(copy) + "-wal"))
        return sqlite3.connect(copy, isolation_level=None)

    def _damaged_unreadable(self, exc: BaseException) -> None:
        log.error("journal %s cannot be read (%s)", self.path, exc)
        self.damage = Damage(f"unreadable: {exc}", 0, 0)
        self._content = _Content()
        if self.db is not None:
            self.db.close()
        self.db = sqlite3.connect(":memory:", isolation_level=None)
        self.db.executescript(SCHEMA)

    def _check(self, db: sqlite3.Connection) -> None:
        """Read everything, look for damage; fills ``_content`` and ``damage``."""
        problems: list[str] = []
        try:
            result = [r[0] for r in db.execute("PRAGMA integrity_check(20)").fetchall()]
            if result != ["ok"]:
                problems.append("the database structure is damaged")
        except sqlite3.DatabaseError as exc:
            if is_fault(exc):
                raise
            problems.append(f"the database structure is damaged ({exc})")
        if not problems and self.fast:
            fast = _read_fast(db)
            if fast is not None:
                self._content = fast
                return
        content = _read_content(db)
        self._content = content
        problems += content.problems
        if problems:
            latest = content.games[-1][0] if content.games else None
            good = len(content.commands.get(latest, [])) if latest is not None else 0
            total = max([content.totals.get(latest, 0) if latest is not None else 0, good])
            self.damage = Damage(problems[0], good, total)
            self.dropped = total - good

    def _open_for_writing(self) -> None:
        path = self.path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._finish_interrupted_repair()
            fresh = not path.exists() or path.stat().st_size == 0
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except sqlite3.DatabaseError as exc:
            raise fault(exc, path) from exc
        except OSError as exc:
            raise fault(exc, path) from exc
        self.db = db
        try:
            if fresh:
                self._setup(db)
                self._content = _Content()
                return
            self._check(db)
        except sqlite3.DatabaseError as exc:
            if is_fault(exc):
                db.close()
                self.db = None
                raise fault(exc, path) from exc
            self._content = None
            self.damage = Damage(f"unreadable: {exc}", 0, 0)
        if self.damage is not None:
            self._repair()
            return
        try:
            self._setup(db)
        except sqlite3.DatabaseError as exc:
            db.close()
            self.db = None
            if is_fault(exc):
                raise fault(exc, path) from exc
            raise

    @staticmethod
    def _setup(db: sqlite3.Connection) -> None:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        if {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")} >= \
                {"game", "command", "game_check", "snapshot"}:
            return
        db.executescript(SCHEMA)

    def _salvage_path(self) -> Path:
        return self.path.with_name(self.path.name + ".salvage")

    def _finish_interrupted_repair(self) -> None:
        """A repair cut short by a power cut: put its finished salvage in place, or drop an unfinished one."""
        salvage = self._salvage_path()
        if not salvage.exists():
            return
        if not self.path.exists() and not Path(str(self.path) + "-wal").exists():
            os.rename(salvage, self.path)       # the damaged original is already kept aside
            fsync_directory(self.path.parent)
            log.warning("journal: finished the repair a power cut interrupted")
        else:
            salvage.unlink()                    # made from the journal still in place; it is made again

    def _repair(self) -> None:
        """Keep the damaged journal aside (byte for byte), then put a clean one with every good action in its place."""
        assert self.damage is not None
        content = self._content or _Content()
        self.damage.kept = self._replace_with(content, "damaged")
        log.error("journal %s: %s", self.path, self.damage.report())

    def _replace_with(self, content: _Content, label: str) -> Path:
        path = self.path
        try:
            kept = keep_aside(path, label)
        except OSError as exc:
            if self.db is not None:
                self.db.close()
                self.db = None
            raise fault(exc, path) from exc
        salvage = self._salvage_path()
        try:
            salvage.unlink(missing_ok=True)
            new = sqlite3.connect(salvage, isolation_level=None)
            new.execute("PRAGMA journal_mode=DELETE")
            new.executescript(SCHEMA)
            new.execute("BEGIN")
            for gid, seed, ruleset, created in content.games:
                new.execute("INSERT INTO game (id, seed, ruleset, created) VALUES (?, ?, ?, ?)", (gid, seed, ruleset, created))
                new.execute("INSERT INTO game_check (game, crc) VALUES (?, ?)", (gid, _game_crc(gid, seed, ruleset)))
                crcs, original = {}, {}
                for seq, body, crc_value in content.commands.get(gid, []):
                    crcs[seq], original[seq] = _row_crc(gid, seq, body), crc_value
                    new.execute("INSERT INTO command (game, seq, body, crc) VALUES (?, ?, ?, ?)",
                                (gid, seq, body, crcs[seq]))
                for g, seq, version, fp, last_crc, body, crc in content.snapshots.get(gid, []):
                    # snapshots that still check out come along (under the new crc of their last action)
                    if (isinstance(body, bytes) and isinstance(seq, int) and seq in crcs and isinstance(fp, str)
                            and original[seq] == last_crc
                            and crc == _snapshot_crc(g, seq, version, fp, last_crc, body)):
                        new.execute("INSERT OR REPLACE INTO snapshot (game, seq, version, fingerprint, last_crc, body, crc) "
                                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                                    (gid, seq, version, fp, crcs[seq], body,
                                     _snapshot_crc(gid, seq, version, fp, crcs[seq], body)))
            new.execute("COMMIT")
            new.close()
            with open(salvage, "rb+") as fh:
                os.fsync(fh.fileno())
        except (sqlite3.Error, OSError) as exc:
            salvage.unlink(missing_ok=True)
            if self.db is not None:
                self.db.close()
                self.db = None
            raise fault(exc, path) from exc
        if self.db is not None:
            self.db.close()
            self.db = None
        for extra in ("-wal", "-shm", ""):
            Path(str(path) + extra).unlink(missing_ok=True)   # the damaged files: a byte-exact copy is kept
        os.rename(salvage, path)
        fsync_directory(path.parent)
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._setup(self.db)
        self._content = content
        return kept

    # ------------------------------------------------------------ reading

    def _conn(self) -> sqlite3.Connection:
        if self.db is None:
            raise JournalFault(f"the journal {self.path} is not open")
        return self.db

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
            rows = []
            for seq, raw, crc in self._conn().execute("SELECT seq, CAST(body AS BLOB), crc FROM command "
                                                      "WHERE game = ? ORDER BY seq", (game,)):
                body = bytes(raw).decode("utf-8", "replace")
                if seq != len(rows) + 1 or not row_ok(game, seq, body, crc):
                    self._note_damage(game, len(rows), len(rows) + 1, f"action {seq} of game {game} is damaged")
                    break
                rows.append((seq, body, crc))
        out: list[Command] = []
        for _seq, body, _crc_value in rows:
            try:
                out.append(command_from_dict(json.loads(body)))
            except (ValueError, TypeError, KeyError) as exc:
                self._note_damage(game, len(out), len(rows), f"an action that cannot be read ({exc})")
                break
        return out

    def tail_commands(self, game: int) -> tuple[int, list[Command], int]:
        """(h, the game's commands after its first h, how many it has): at start only the actions
        after the newest snapshot are read and decoded; ``head_commands`` reads the first h."""
        content = self._content
        if content is None or game not in content.commands:
            rows = self.commands(game)
            return 0, rows, max(len(rows), self.damage.total if self.damage else 0)
        head = content.head.get(game, 0)
        rows = [r for r in content.commands[game] if r[0] > head]
        out: list[Command] = []
        for _seq, body, _crc_value in rows:
            try:
                out.append(command_from_dict(json.loads(body)))
            except (ValueError, TypeError, KeyError) as exc:
                self._note_damage(game, head + len(out), head + len(rows), f"an action that cannot be read ({exc})")
                break
        return head, out, head + len(rows)

    def head_commands(self, game: int, upto: int) -> list[Command]:
        """The first ``upto`` commands of ``game``, checked; raises JournalError when one is damaged."""
        out: list[Command] = []
        db = self._conn()
        factory = db.text_factory
        db.text_factory = bytes
        try:
            rows = db.execute("SELECT seq, CAST(body AS BLOB), crc FROM command WHERE game = ? AND seq <= ? "
                              "ORDER BY seq", (game, upto)).fetchall()
        except sqlite3.Error as exc:
            raise (fault(exc, self.path) if is_fault(exc) else JournalError(f"the saved game is damaged ({exc})")) from exc
        finally:
            db.text_factory = factory
        for n, (seq, raw, crc) in enumerate(rows, 1):
            try:
                body = bytes(raw).decode("utf-8")
                if seq != n or (crc != _row_crc(game, seq, body) and crc != _crc(body)):
                    raise ValueError("checksum mismatch")
                out.append(command_from_dict(json.loads(body)))
            except (ValueError, TypeError, KeyError) as exc:
                raise JournalError(f"the saved game is damaged at action {n} ({exc})") from exc
        if len(out) != upto:
            raise JournalError(f"the saved game is damaged: {upto - len(out)} early action(s) are missing")
        return out

    def _note_damage(self, game: int, good: int, total: int, why: str) -> None:
        if self.damage is None:
            self.damage = Damage(why, good, total)
        else:
            self.damage.good = min(self.damage.good, good)

    def count(self, game: int) -> int:
        return int(self._conn().execute("SELECT COUNT(*) FROM command WHERE game = ?", (game,)).fetchone()[0])

    def snapshots(self, game: int, fingerprint: str, commands: int) -> list[Snapshot]:
        """The stored snapshots of ``game`` that pass every check, newest first, at or below ``commands``."""
        if self._content is not None:
            rows = self._content.snapshots.get(game, [])
        else:
            rows = self._conn().execute("SELECT game, seq, version, fingerprint, last_crc, body, crc FROM snapshot "
                                        "WHERE game = ? ORDER BY seq DESC", (game,)).fetchall()
        crcs = {seq: crc for seq, _b, crc in (self._content.commands.get(game, []) if self._content else [])}
        out = []
        for g, seq, version, fp, last_crc, body, crc in rows:
            if not isinstance(body, bytes) or not isinstance(seq, int) or seq > commands or seq <= 0:
                continue
            if version != SNAPSHOT_VERSION or fp != fingerprint:
                continue
            if crc != _snapshot_crc(g, seq, version, fp, last_crc, body):
                log.warning("journal: snapshot at action %d of game %d fails its checksum; ignored", seq, game)
                continue
            if seq in crcs and crcs[seq] != last_crc:      # (older rows are checked when an undo reads them)
                continue
            out.append(Snapshot(seq, body))
        return out

    def read_everything(self) -> None:
        """Read and check every row of every game (after the quick start found an early row damaged)."""
        content = _read_content(self._conn())
        self._content = content
        if content.problems:
            latest = content.games[-1][0] if content.games else None
            good = len(content.commands.get(latest, [])) if latest is not None else 0
            total = max(content.totals.get(latest, 0) if latest is not None else 0, good)
            self.damage = Damage(content.problems[0], good, total)

    def forget_cache(self) -> None:
        """After the first load the database itself is read (it changes as the game goes on)."""
        self._content = None

    # ------------------------------------------------------------ writing

    def new_game(self, seed: int, ruleset: Ruleset) -> GameRecord:
        text = json.dumps(ruleset.to_dict())
        db = self._conn()
        try:
            db.execute("BEGIN IMMEDIATE")
            cur = db.execute("INSERT INTO game (seed, ruleset, created) VALUES (?, ?, ?)", (seed, text, time.time()))
            gid = int(cur.lastrowid or 0)
            db.execute("INSERT OR REPLACE INTO game_check (game, crc) VALUES (?, ?)", (gid, _game_crc(gid, seed, text)))
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            raise self._write_error(exc) from exc
        self.forget_cache()
        return GameRecord(gid, seed, ruleset)

    def append(self, game: int, cmd: Command, snapshot: tuple[int, str, bytes] | None = None) -> None:
        """Store ``cmd`` durably (committed and synced) as the next command of ``game``.

        ``snapshot`` (seq, fingerprint, pickled state) is stored in the same transaction.
        """
        body = json.dumps(command_to_dict(cmd), separators=(",", ":"))
        db = self._conn()
        try:
            db.execute("BEGIN IMMEDIATE")
            seq = int(db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM command WHERE game = ?", (game,)).fetchone()[0])
            crc = _row_crc(game, seq, body)
            db.execute("INSERT INTO command (game, seq, body, crc) VALUES (?, ?, ?, ?)", (game, seq, body, crc))
            if snapshot is not None and snapshot[0] == seq:
                self._put_snapshot(db, game, seq, snapshot[1], crc, snapshot[2])
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            raise self._write_error(exc) from exc
        self.forget_cache()

    def store_snapshot(self, game: int, seq: int, fingerprint: str, body: bytes) -> bool:
        """Store a snapshot taken after action ``seq`` (on resume); False when it could not be stored."""
        db = self._conn()
        try:
            row = db.execute("SELECT crc FROM command WHERE game = ? AND seq = ?", (game, seq)).fetchone()
            if row is None:
                return False
            db.execute("BEGIN IMMEDIATE")
            self._put_snapshot(db, game, seq, fingerprint, int(row[0]), body)
            db.execute("COMMIT")
            return True
        except sqlite3.Error as exc:
            self._rollback()
            log.warning("journal: snapshot not stored (%s)", exc)
            return False

    @staticmethod
    def _put_snapshot(db: sqlite3.Connection, game: int, seq: int, fp: str, last_crc: int, body: bytes) -> None:
        db.execute("INSERT OR REPLACE INTO snapshot (game, seq, version, fingerprint, last_crc, body, crc) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (game, seq, SNAPSHOT_VERSION, fp, last_crc, body,
                    _snapshot_crc(game, seq, SNAPSHOT_VERSION, fp, last_crc, body)))

    def _rollback(self) -> None:
        try:
            if self.db is not None and self.db.in_transaction:
                self.db.execute("ROLLBACK")
        except sqlite3.Error:
            pass

    def _write_error(self, exc: sqlite3.Error) -> JournalError:
        log.error("journal %s: cannot write: %s", self.path, exc)
        if is_fault(exc):
            return JournalFault(msg("the game could not be saved: {why}", why=describe_fault(exc, self.path)))
        return JournalError(msg("the game could not be saved ({error}), check the disk at {path}", error=str(exc),
                                path=str(self.path.parent)))

    def pop(self, game: int) -> bool:
        """Drop the last command of ``game`` (and any snapshot after it); False when there is none."""
        db = self._conn()
        try:
            db.execute("BEGIN IMMEDIATE")
            cur = db.execute("DELETE FROM command WHERE game = ? AND seq = (SELECT MAX(seq) FROM command WHERE game = ?)",
                             (game, game))
            db.execute("DELETE FROM snapshot WHERE game = ? AND seq > (SELECT COALESCE(MAX(seq), 0) FROM command "
                       "WHERE game = ?)", (game, game))
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            raise self._write_error(exc) from exc
        self.forget_cache()
        return cur.rowcount > 0

    def cut(self, game: int, keep: int, why: str) -> Damage:
        """The journal does not replay past action ``keep``: keep the whole file aside and go on with a
        clean journal of the first ``keep`` actions (never deleting rows from the damaged one)."""
        content = self._content
        if content is None or not content.complete:
            content = _read_content(self._conn())
        total = max(len(content.commands.get(game, [])), content.totals.get(game, 0))
        content.commands[game] = content.commands.get(game, [])[:keep]
        damage = Damage(why, keep, max(total, (self.damage.total if self.damage else 0)))
        if self.read_only:
            self.damage = damage
            return damage
        kept = self._replace_with(content, "damaged")
        prior = self.damage.kept if self.damage is not None else None
        damage.kept = prior or kept        # the copy as it was found is the one worth naming
        if prior is not None:
            damage.why = self.damage.why   # type: ignore[union-attr]
        self.damage = damage
        return damage

    def replace_from(self, source: Journal) -> Path:
        """Make ``source``'s good content the journal; the current journal is kept aside first."""
        content = source._content or _Content()
        return self._replace_with(content, "replaced")

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __repr__(self) -> str:
        return f"<Journal {self.path}{' read-only' if self.read_only else ''}>"


def check_journal(path: Path) -> tuple[bool, str, str]:
    """For ``doctor``: (ok, what was found, the fix). Only reads."""
    if not path.exists():
        copies = kept_copies(path) if path.parent.is_dir() else []
        if copies:
            return False, f"no journal at {path}, but a game is kept as {copies[-1].name}", \
                f"munchkin-table restore {copies[-1]}"
        return True, f"no game yet at {path}", ""
    try:
        journal = Journal(path, read_only=True, fast=False)
    except JournalError as exc:
        return False, str(exc), "fix the disk as said above; the journal is not touched until then"
    try:
        if journal.damage is not None:
            return False, f"{path.name} is damaged: {journal.damage.why} (good up to action {journal.damage.good} " \
                          f"of {journal.damage.total})", \
                "start the table (munchkin-table run): it keeps the damaged copy and resumes at the last good action"
        game = journal.latest_game()
        actions = len(journal.commands(game.id)) if game else 0
        copies = kept_copies(path)
        if actions == 0 and copies:
            return False, f"{path.name} holds no actions, but a game is kept as {copies[-1].name}", \
                f"munchkin-table restore {copies[-1]}"
        return True, f"{path} holds {len(journal.games())} game(s); the latest at action {actions}", ""
    finally:
        journal.close()
