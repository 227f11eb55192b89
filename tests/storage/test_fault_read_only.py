"""Case 5: a table started on a read-only disk shows the fault at once and recovers by itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.base import ManualClock
from table.control.assembly import build_table
from table.session.game import RETRY_SECONDS, NotSaved, Saved
from tests.storage.test_fault_syncs import a_legal_command
from tests.table.storage_helpers import READ_ONLY_KINDS, ReadOnlyDir, close_table, config_for, listing, play_game


@pytest.fixture(params=READ_ONLY_KINDS)
def ro_dir(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    d = ReadOnlyDir(tmp_path / "ro", request.param)
    yield d
    d.close()


@pytest.mark.parametrize("left", ["closed", "killed"])
def test_a_table_started_read_only_shows_the_fault_and_clears_it_when_writable(ro_dir: ReadOnlyDir, left: str) -> None:
    """``killed``: the last table left its -wal and -shm, with which SQLite opens a read-only disk
    read-only without a word; only a write probe at opening tells."""
    first = play_game(ro_dir.dir, 12)
    as_killed = listing(ro_dir.dir)          # the files as a kill -9 would leave them
    close_table(first)
    if left == "killed":
        for name, data in as_killed.items():
            (ro_dir.dir / name).write_bytes(data)
    ro_dir.lock()
    clock = ManualClock()
    table = build_table(config_for(ro_dir.dir), clock, seed_source=lambda: 1, retry_faults=True)
    session = table.controller.session
    try:
        session.begin()
        assert session.storage_fault, "the read-only disk is not shown at start"
        assert "cannot be written" in str(session.storage_fault)
        assert len(session.history) >= 12                   # the game is shown as far as it can be read
        assert isinstance(session.submit(a_legal_command(table)), NotSaved)
        ro_dir.unlock()
        clock.advance(RETRY_SECONDS + 0.1)
        assert session.retry_due() is True                  # by itself, on the loop's tick
        assert session.storage_fault is None
        assert isinstance(session.submit(a_legal_command(table)), Saved)
    finally:
        close_table(table)
