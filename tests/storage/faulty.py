"""Fault injection without root: every ``sqlite3.connect`` of the process hands out a connection
that fails chosen calls the way a failing disk makes SQLite fail.

Calls are counted per kind: ``read`` (a ``SELECT`` or ``PRAGMA integrity_check``), ``write`` (an
``INSERT``, ``DELETE`` or ``UPDATE``) and ``sync`` (a ``COMMIT``). A read fault raises what SQLite
raises when a page read fails underneath it: ``SQLITE_CORRUPT`` "database disk image is malformed"
(or, as ``integrity``, returns integrity-check lines instead of "ok"). A write fault (also a
``CREATE``) raises
``SQLITE_IOERR_WRITE`` before anything is written. A sync fault is the worst one: the commit *is*
performed (the WAL frame is on the disk, a restart recovers it) and then ``SQLITE_IOERR_FSYNC`` is
raised, as when ``fdatasync`` fails after the frame was written.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

REAL_CONNECT = sqlite3.connect
CORRUPT, IOERR_WRITE, IOERR_FSYNC, READONLY = 11, 778, 1034, 8


def sqlite_error(code: int, text: str) -> sqlite3.DatabaseError:
    exc = sqlite3.OperationalError(text) if code != CORRUPT else sqlite3.DatabaseError(text)
    exc.sqlite_errorcode = code          # what the C module sets on its own exceptions
    return exc


def kind_of(sql: str) -> str | None:
    head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
    if head == "SELECT" or sql.lstrip().upper().startswith("PRAGMA INTEGRITY_CHECK"):
        return "read"
    if head in ("INSERT", "DELETE", "UPDATE", "REPLACE", "CREATE"):
        return "write"
    if head in ("COMMIT", "END"):
        return "sync"
    return None


@dataclass
class Faults:
    """Which calls fail: ``plan[kind]`` holds the 1-based numbers of the calls of that kind to fail."""

    plan: dict[str, set[int]] = field(default_factory=dict)
    integrity: bool = False          # read faults on integrity_check return damage lines instead of raising
    counts: dict[str, int] = field(default_factory=dict)
    fired: list[tuple[str, int, str]] = field(default_factory=list)
    active: bool = True

    def fail(self, kind: str, calls: Iterable[int]) -> Faults:
        self.plan.setdefault(kind, set()).update(calls)
        return self

    def next_calls(self, kind: str, n: int = 1, skip: int = 0) -> Faults:
        """The next ``n`` calls of ``kind`` after ``skip`` more fail."""
        start = self.counts.get(kind, 0) + skip + 1
        return self.fail(kind, range(start, start + n))

    def clear(self) -> None:
        self.plan.clear()

    def due(self, kind: str | None, sql: str) -> bool:
        if kind is None or not self.active:
            return False
        n = self.counts[kind] = self.counts.get(kind, 0) + 1
        if n in self.plan.get(kind, set()):
            self.fired.append((kind, n, sql.strip().split("\n")[0][:60]))
            return True
        return False


FAULTS: Faults | None = None


class FaultyConnection(sqlite3.Connection):
    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        kind = kind_of(sql)
        if FAULTS is not None and FAULTS.due(kind, sql):
            if kind == "read":
                if FAULTS.integrity and sql.lstrip().upper().startswith("PRAGMA INTEGRITY_CHECK"):
                    return super().execute("SELECT '*** in database main ***' UNION ALL "
                                           "SELECT 'Page 7: btree page read error'")
                raise sqlite_error(CORRUPT, "database disk image is malformed")
            if kind == "write":
                raise sqlite_error(IOERR_WRITE, "disk I/O error")
            result = super().execute(sql, *args)          # the frame reached the WAL ...
            raise sqlite_error(IOERR_FSYNC, "disk I/O error")   # ... and its sync failed
        return super().execute(sql, *args)


def faulty_connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
    kwargs.setdefault("factory", FaultyConnection)
    return REAL_CONNECT(*args, **kwargs)
