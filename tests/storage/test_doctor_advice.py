"""Case 8: the doctor's advice for an old damaged row that the table's quick start never reads
does not send the user round in a loop ("start the table", which changes nothing)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from table.storage.doctor import check_journal
from table.storage.paths import JOURNAL_FILE
from tests.table.storage_helpers import close_table, play_game


def test_an_old_damaged_row_behind_a_snapshot_is_not_sent_to_start_the_table(tmp_path: Path) -> None:
    state = tmp_path / "state"
    close_table(play_game(state, 130))              # snapshots at 50 and 100
    db = sqlite3.connect(state / JOURNAL_FILE)
    db.execute("UPDATE command SET body = body || ' ' WHERE seq = 30")
    db.commit()
    db.close()
    ok, found, fix = check_journal(state / JOURNAL_FILE)
    assert not ok and "damaged" in found
    assert "start the table" not in fix and "UNDO" in fix


def test_a_damaged_last_row_is_still_sent_to_start_the_table(tmp_path: Path) -> None:
    state = tmp_path / "state"
    close_table(play_game(state, 60))
    db = sqlite3.connect(state / JOURNAL_FILE)
    top = db.execute("SELECT MAX(seq) FROM command").fetchone()[0]
    db.execute("UPDATE command SET body = body || ' ' WHERE seq = ?", (top,))
    db.commit()
    db.close()
    ok, _found, fix = check_journal(state / JOURNAL_FILE)
    assert not ok and "start the table" in fix
