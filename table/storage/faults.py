"""Faults: the disk or the system refusing, told apart from a damaged file, and said in one line.

A **fault** is the disk refusing to work (full, read-only, an I/O error, no permission, locked by
another program). Nothing is moved or repaired: the caller gets a :class:`JournalFault` whose
message names the fault and the fix, and may simply try again later. Anything else SQLite raises
about the file's contents is **damage** (see :mod:`table.storage.repair`).
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

from engine.errors import MunchkinError
from engine.messages import msg

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
            primary in ("CANTOPEN", "IOERR") and where.is_dir() and not _writable(where)):
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


def read_fault(path: Path) -> JournalFault:
    """Reads of a sound journal failing (SQLite may word them as corruption): a fault, never damage."""
    return JournalFault(msg("reading the journal in {where} keeps failing (the disk or SD card returns errors): "
                            "nothing was repaired or changed; the game is kept and is read again in a moment",
                            where=str(path.parent)))


def write_error(exc: sqlite3.Error, path: Path) -> JournalError:
    """What a failed write of the journal at ``path`` is said as: a fault (try again) or an error."""
    if is_fault(exc):
        return JournalFault(msg("the game could not be saved: {why}", why=describe_fault(exc, path)))
    return JournalError(msg("the game could not be saved ({error}), check the disk at {path}", error=str(exc),
                            path=str(path.parent)))


def database_trouble(exc: BaseException) -> str | None:
    """The one line for an error SQLite raised that nothing else caught (a command's last resort),
    or None when ``exc`` is not SQLite's."""
    if isinstance(exc, sqlite3.Error):
        return f"the game journal cannot be used: {exc}"
    return None
