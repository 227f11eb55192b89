"""Case 7: a lock another program holds never freezes the screen: a write waits no longer than a
frame, the waiting for the lock is the loop's (every 2 s, without waiting), and the presses made
while the refused write was pending are dropped, not acted on after the players saw the refusal."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from drivers.base import ManualClock
from drivers.events import Press
from table.session.game import RETRY_SECONDS
from table.storage import writing
from table.storage.paths import JOURNAL_FILE
from tests.storage.faulty import REAL_CONNECT
from tests.storage.test_fault_syncs import restarted
from tests.table.storage_helpers import as_json, close_table, play_game

FRAME_MS = 17


def test_a_write_waits_no_longer_than_a_frame_for_a_lock(tmp_path: Path) -> None:
    table = play_game(tmp_path / "state", 5)
    try:
        db = table.controller.session.journal.db
        assert db is not None and db.execute("PRAGMA busy_timeout").fetchone()[0] <= FRAME_MS
    finally:
        close_table(table)


def test_presses_made_while_a_refused_write_was_pending_are_dropped(tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    clock = ManualClock()
    table = play_game(state_dir, 20, clock=clock)
    ctl, session = table.controller, table.controller.session
    journal = session.journal
    real_append = journal.append
    tried: list[int] = []

    def slow_append(*args, **kwargs):  # type: ignore[no-untyped-def]
        tried.append(1)
        clock.advance(writing.BUSY_SECONDS)          # the time SQLite waits for the lock
        return real_append(*args, **kwargs)

    journal.append = slow_append  # type: ignore[method-assign]
    other = REAL_CONNECT(state_dir / JOURNAL_FILE, isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")                 # another program holds the write lock
    before = len(session.history), as_json(session.state, table.catalog)
    pressed = clock.monotonic()
    ctl.handle(Press("run", pressed))
    assert tried and ctl.message is not None and ctl.message.kind == "refusal"
    assert "locked by another program" in ctl.message.text
    refusal = ctl.message
    ctl.handle(Press("run", pressed + writing.BUSY_SECONDS / 2))    # pressed again while it was pending
    assert len(tried) == 1 and ctl.message is refusal                # dropped: not even tried
    assert (len(session.history), as_json(session.state, table.catalog)) == before

    clock.advance(RETRY_SECONDS + 0.1)
    assert ctl.tick() is None or True                   # the lock is still held: looked at, nothing else
    assert session.storage_fault is not None
    other.execute("ROLLBACK")
    other.close()
    clock.advance(RETRY_SECONDS + 0.1)
    ctl.tick()                                          # the loop finds the lock let go, without a press
    assert session.storage_fault is None
    assert ctl.message is not None and "can be saved again" in ctl.message.text

    ctl.handle(Press("run", clock.monotonic()))          # a press after the refusal was seen: acted on
    assert len(tried) == 2 and len(session.history) == before[0] + 1
    shown = len(session.history), as_json(session.state, table.catalog)
    close_table(table)
    assert restarted(state_dir, table.catalog) == shown
