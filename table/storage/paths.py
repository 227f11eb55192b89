"""The files of a state directory, and the lock that gives it to one process at a time.

``hold_table_lock`` takes the directory; ``table_running`` only looks whether somebody holds it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from engine.errors import MunchkinError

JOURNAL_FILE = "journal.sqlite3"
TAGS_FILE = "tags.csv"
LOCK_FILE = "table.lock"


class TableBusy(MunchkinError, OSError):
    """Another table or enrollment is already running on this state directory."""


def hold_table_lock(state_dir: Path) -> IO[str] | None:
    """Take the state directory for this process (the table or the enroll wizard, not both).

    Returns the open lock file; the lock lasts as long as it stays open (the process).
    """
    import fcntl

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
        holder = handle.read().strip() or "another process"
        handle.close()
        raise TableBusy(f"the table in {state_dir} is already in use by {holder}; stop it first "
                        f"(sudo systemctl stop munchkin-table, or close the other window)") from None
    if handle.writable():
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
    return handle


def table_running(directory: Path) -> bool:
    """True while a table (or the enroll wizard) holds the state directory's lock. Only looks."""
    import fcntl

    try:
        fd = os.open(directory / LOCK_FILE, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)            # (closing drops a shared lock we may have taken)
    return False
