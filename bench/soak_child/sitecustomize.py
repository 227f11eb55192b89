"""Loaded by the ``munchkin-table run --sim`` child that bench/soak_faults.py kills with a real SIGKILL.

Two things, from the environment the soak sets, before the table starts:

* ``MUNCHKIN_SOAK_FAULTS``: the fault plan ("write:3,9;sync:5;read:12"; ``integrity`` makes read faults
  on integrity_check return damage lines), made inside SQLite's calls by tests/storage/faulty.py;
* ``MUNCHKIN_SOAK_OLD_JOURNAL``: bench/soak_journal.py's baseline, the journal neither watched nor
  locked (only ``table.lock``), as before issue 44;
* ``MUNCHKIN_SOAK_ACK``: a file descriptor on which the child says, after every action the journal
  stored and the screen then shows, ``game actions board-digest`` — what the restart must find —
  and ``refused`` after every one the journal refused (``undecided`` when the write failed and the
  file could not be looked at afterwards: the table reopens it on its backoff and shows what it holds).

Nothing here changes what the table does; it only fails the calls a failing disk would fail, and tells.
"""

from __future__ import annotations

import hashlib
import os


def _install() -> None:
    plan = os.environ.get("MUNCHKIN_SOAK_FAULTS")
    ack = os.environ.get("MUNCHKIN_SOAK_ACK")
    if plan is None or ack is None:
        return
    import sqlite3

    from tests.storage import faulty

    faults = faulty.Faults(integrity="integrity" in plan)
    for part in filter(None, plan.replace("integrity", "").split(";")):
        kind, _, calls = part.partition(":")
        faults.fail(kind, (int(n) for n in calls.split(",") if n))
    faulty.FAULTS = faults
    sqlite3.connect = faulty.faulty_connect         # type: ignore[assignment]

    from table.session import game as session_module
    from tests.table.storage_helpers import as_json

    fd = int(ack)

    def told(method):  # type: ignore[no-untyped-def]
        def wrapper(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            result = method(self, *args, **kwargs)
            if isinstance(result, (session_module.Saved, session_module.Undone, session_module.Started)):
                board = hashlib.sha1(as_json(self.state, self.catalog).encode()).hexdigest()
                os.write(fd, f"{self.game.id} {len(self.history)} {board}\n".encode())
            elif isinstance(result, session_module.NotSaved):       # undecided: the file could not be looked at
                os.write(fd, b"undecided\n" if self.journal.db is None else b"refused\n")
            return result
        return wrapper

    for name in ("_store", "undo", "start"):
        setattr(session_module.GameSession, name, told(getattr(session_module.GameSession, name)))
    if os.environ.get("MUNCHKIN_SOAK_OLD_JOURNAL"):    # bench/soak_journal.py's baseline: no watch, no file lock
        from table.storage import journal as journal_module

        journal_module.JournalFile.in_place = lambda self: True     # type: ignore[method-assign]
        journal_module.hold_file_lock = lambda path: None           # type: ignore[assignment]
        from table.storage import paths as paths_module

        paths_module._lock_directory = lambda state_dir: None       # type: ignore[assignment]
        journal_module.marker.hold_link = lambda path: None         # type: ignore[assignment]


_install()
