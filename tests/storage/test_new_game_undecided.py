"""Case 4 for a new game: its sync failed and the file, read back, would not say whether it kept
the game. The soak found the table then called it refused while a restart found the new game; now
the journal is closed (nothing claimed) and opened again on the 2 s backoff, showing what it holds."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from drivers.base import ManualClock
from table.control.assembly import build_table
from table.session.game import RETRY_SECONDS, NotSaved
from table.storage import writing
from tests.storage.faulty import Faults
from tests.storage.test_fault_syncs import restarted
from tests.table.storage_helpers import as_json, close_table, config_for, play_game


def test_a_new_game_whose_sync_failed_and_that_cannot_be_read_back_is_not_called_refused(
        tmp_path: Path, faults: Faults, monkeypatch: pytest.MonkeyPatch) -> None:
    state_dir = tmp_path / "state"
    close_table(play_game(state_dir, 12))
    clock = ManualClock()
    table = build_table(config_for(state_dir), clock, seed_source=lambda: 1, retry_faults=True)
    session = table.controller.session
    real_last_game = writing.last_game
    calls: list[int] = []

    def last_game(db: sqlite3.Connection) -> int:
        calls.append(1)
        if len(calls) == 2:             # read back after the failed sync: the disk fails that read
            raise sqlite3.DatabaseError("database disk image is malformed")
        return real_last_game(db)

    monkeypatch.setattr(writing, "last_game", last_game)
    faults.next_calls("sync")           # the new game's commit reaches the WAL, its sync fails
    result = session.start()
    assert isinstance(result, NotSaved) and len(calls) == 2
    assert session.journal.db is None, "the table claimed an outcome the file would not tell"
    faults.active = False
    clock.advance(RETRY_SECONDS + 0.1)
    assert session.retry_due() is True          # opened again: it shows what the file holds
    shown = len(session.history), as_json(session.state, table.catalog)
    game = session.game.id
    close_table(table)
    assert restarted(state_dir, table.catalog) == shown
    again = build_table(config_for(state_dir), ManualClock())
    try:
        assert again.controller.session.game.id == game
    finally:
        close_table(again)
