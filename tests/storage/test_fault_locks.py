"""Case 7 and the EROFS wording of case 9: a lock another program holds is a short refusal that
names it, and the table carries on once it is let go."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from table.session.game import NotSaved, Saved
from table.storage.faults import describe_fault
from table.storage.paths import JOURNAL_FILE
from tests.storage.faulty import REAL_CONNECT
from tests.storage.test_fault_syncs import a_legal_command, restarted
from tests.table.storage_helpers import ReadOnlyDir, as_json, can_mount, close_table, play_game


def test_a_lock_held_by_another_program_is_refused_at_once_and_let_go(tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    table = play_game(state_dir, 20)
    session = table.controller.session
    # the main thread waits a tenth of a second, not SQLite's default 5 s, for a lock
    assert session.journal.db is not None
    assert session.journal.db.execute("PRAGMA busy_timeout").fetchone()[0] <= 100
    other = REAL_CONNECT(state_dir / JOURNAL_FILE, isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    before = len(session.history), as_json(session.state, table.catalog)
    result = session.submit(a_legal_command(table))
    assert isinstance(result, NotSaved) and "locked by another program" in str(result.why)
    assert (len(session.history), as_json(session.state, table.catalog)) == before
    other.execute("ROLLBACK")
    other.close()
    assert isinstance(session.submit(a_legal_command(table)), Saved)
    shown = len(session.history), as_json(session.state, table.catalog)
    close_table(table)
    assert restarted(state_dir, table.catalog) == shown


@pytest.mark.skipif(not can_mount(), reason="needs root and mount")
def test_an_io_error_on_a_read_only_disk_is_named_read_only(tmp_path: Path) -> None:
    d = ReadOnlyDir(tmp_path / "ro", "mount")
    try:
        d.lock()                                    # a real read-only remount
        exc = sqlite3.OperationalError("disk I/O error")
        exc.sqlite_errorcode = 10 | (3 << 8)         # SQLITE_IOERR_WRITE: what EROFS comes back as from a write
        words = describe_fault(exc, d.dir / JOURNAL_FILE)
        assert "read-only" in words and "input/output" not in words
    finally:
        d.close()
