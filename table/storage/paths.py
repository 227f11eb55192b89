"""The files of a state directory, and the locks that give it to one process at a time.

Three locks, each an OS lock (``flock``) that nothing in the directory can take away by being
deleted: ``table.lock`` (whose text names the holder), the state directory itself, and the
journal file (its inode, held by :class:`table.storage.journal.Journal` while it writes). Deleting
``table.lock`` or the journal under a running table leaves the other locks held, so a second
table still refuses, naming the first (its pid, and since when) from ``/proc`` when the lock
file that said so is gone.

``hold_table_lock`` takes the directory; ``table_running`` only looks whether somebody holds it;
``hold_file_lock`` takes one file's lock for this process (shared by every journal it opens on
that file).

The journal's lock is taken on a descriptor of its own and never dropped by closing it while
SQLite may have the file open: closing any descriptor of a file drops the process's POSIX locks
on it, SQLite's own among them (SQLite's "how to corrupt", section 2.2). It is let go with
``LOCK_UN`` and closed only when no journal of this process uses that file any more.
"""

from __future__ import annotations

import fcntl
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from engine.errors import MunchkinError

JOURNAL_FILE = "journal.sqlite3"
TAGS_FILE = "tags.csv"
LOCK_FILE = "table.lock"


class TableBusy(MunchkinError, OSError):
    """Another table or enrollment is already running on this state directory."""


def _busy(state_dir: Path, holder: str) -> TableBusy:
    return TableBusy(f"the table in {state_dir} is already in use by {holder}; stop it first "
                     f"(sudo systemctl stop munchkin-table, or close the other window)")


def _stamp(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seconds))


def _started(pid: int) -> float | None:
    """When process ``pid`` started (wall clock), from /proc; None when it cannot be told."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        ticks = int(stat.rsplit(")", 1)[1].split()[19])
        boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                    if line.startswith("btime "))
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return None


def lock_holder(path: Path) -> str | None:
    """Who holds an OS lock on ``path`` (a file or a directory), from /proc/locks: ``pid N since
    TIME``; None when nobody does or the system does not say."""
    try:
        st = os.stat(path)
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return None
    where = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    for line in lines:
        parts = line.split()
        if "->" in parts or len(parts) < 6 or parts[1] != "FLOCK" or parts[5] != where:
            continue
        try:
            pid = int(parts[4])
        except ValueError:
            continue
        if pid == os.getpid():
            continue
        since = _started(pid)
        return f"pid {pid}" + (f" since {_stamp(since)}" if since is not None else "")
    return None


class HeldLock:
    """The state directory held by this process: ``table.lock`` and the directory itself; both
    let go by :meth:`close` (or when the process ends)."""

    def __init__(self, handle: IO[str], directory_fd: int | None) -> None:
        self.handle = handle
        self.directory_fd = directory_fd

    def close(self) -> None:
        self.handle.close()
        if self.directory_fd is not None:
            os.close(self.directory_fd)
            self.directory_fd = None

    def __del__(self) -> None:         # let go with the last reference, as the lock file's handle is
        self.close()


def _lock_directory(state_dir: Path) -> int | None:
    """The state directory's own lock, taken; None where a directory cannot be locked. Raises
    TableBusy (naming the holder) when another process holds it."""
    try:
        fd = os.open(state_dir, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise _busy(state_dir, lock_holder(state_dir) or "another process") from None
    except OSError:
        os.close(fd)
        return None                 # a file system without flock on directories: table.lock alone
    return fd


def hold_table_lock(state_dir: Path) -> HeldLock | None:
    """Take the state directory for this process (the table or the enroll wizard, not both).

    Returns the held lock; it lasts as long as it stays open (the process). Raises TableBusy
    naming the holder when another process has the directory, even with ``table.lock`` deleted.
    """
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        handle = open(state_dir / LOCK_FILE, "a+", encoding="utf-8")
    except OSError:                 # made by another user (root, say), or a read-only disk: a read-only handle locks too
        try:
            handle = open(state_dir / LOCK_FILE, encoding="utf-8")
        except OSError:
            return None             # nothing can be written there at all; the journal says why
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or lock_holder(state_dir / LOCK_FILE) or "another process"
        handle.close()
        raise _busy(state_dir, holder) from None
    try:
        directory_fd = _lock_directory(state_dir)
    except TableBusy:
        handle.close()
        raise
    if handle.writable():
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()} since {_stamp(time.time())}")
        handle.flush()
    return HeldLock(handle, directory_fd)


def table_running(directory: Path) -> bool:
    """True while a table (or the enroll wizard) holds the state directory's lock (``table.lock``
    or the directory itself). Only looks."""
    for target in (directory / LOCK_FILE, directory):
        try:
            fd = os.open(target, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return True
        finally:
            os.close(fd)            # (closing drops a shared lock we may have taken)
    return False


@dataclass
class _FileLock:
    fd: int
    users: int = 1


@dataclass
class _FileLocks:
    """The files this process holds a lock on, by (device, inode): every journal on one file shares it."""

    held: dict[tuple[int, int], _FileLock] = field(default_factory=dict)


_FILES = _FileLocks()


def hold_file_lock(path: Path) -> tuple[int, int]:
    """Lock the file at ``path`` (which exists) for this process; its (device, inode), to let go
    with :func:`let_go_file_lock`. Raises TableBusy naming the holder when another process holds it."""
    st = os.stat(path)
    held = _FILES.held.get((st.st_dev, st.st_ino))
    if held is not None:            # (never a second descriptor: closing it would drop SQLite's locks)
        held.users += 1
        return (st.st_dev, st.st_ino)
    fd = os.open(path, os.O_RDONLY)
    st = os.fstat(fd)
    key = (st.st_dev, st.st_ino)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        holder = lock_holder(path) or "another process"
        raise _busy(path.parent, f"{holder} (it holds {path.name})") from None
    except OSError:
        pass                        # a file system without flock: the directory's locks stand alone
    _FILES.held[key] = _FileLock(fd)
    return key


def file_lock_users(key: tuple[int, int] | None) -> int:
    """How many journals of this process hold the file lock ``key``."""
    held = _FILES.held.get(key) if key is not None else None
    return held.users if held is not None else 0


def let_go_file_lock(key: tuple[int, int] | None) -> None:
    """One user fewer of a file lock; the last lets it go (``LOCK_UN``, then the descriptor closes:
    by then no journal of this process has the file open)."""
    held = _FILES.held.get(key) if key is not None else None
    if key is None or held is None:
        return
    held.users -= 1
    if held.users > 0:
        return
    del _FILES.held[key]
    try:
        fcntl.flock(held.fd, fcntl.LOCK_UN)
    finally:
        os.close(held.fd)
