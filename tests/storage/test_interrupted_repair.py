"""Case 9: a repair that a power cut interrupted, finished at the next start, says what it kept."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from table.storage.journal import Journal
from table.storage.paths import JOURNAL_FILE
from table.storage.repair import salvage_path
from tests.storage.test_fault_reads import stored_actions
from tests.table.storage_helpers import close_table, play_game


def test_a_finished_interrupted_repair_names_what_it_kept_and_the_copy(tmp_path: Path) -> None:
    state = tmp_path / "state"
    close_table(play_game(state, 40))
    path = state / JOURNAL_FILE
    # the repair had kept the damaged file aside and written its salvage (three rows short) when the power went
    kept = state / "journal.damaged-20261201-120000.sqlite3"
    shutil.copyfile(path, kept)
    salvage = salvage_path(path)
    shutil.copyfile(path, salvage)
    db = sqlite3.connect(salvage)
    top = db.execute("SELECT MAX(seq) FROM command").fetchone()[0]
    db.execute("DELETE FROM command WHERE seq > ?", (top - 3,))
    db.execute("DELETE FROM snapshot WHERE seq > ?", (top - 3,))
    db.commit()
    db.close()
    path.unlink()
    journal = Journal(path)
    try:
        assert journal.damage is not None and journal.damage.kept == kept
        words = journal.damage.report()
        assert f"restored to action {top - 3} of {top}, leaving out actions {top - 2}–{top};" in words
        assert kept.name in words
    finally:
        journal.close()
    assert stored_actions(path) == top - 3
    assert not salvage.exists()


def test_a_finished_interrupted_repair_names_the_action_it_left_out_around_a_hole(tmp_path: Path) -> None:
    state = tmp_path / "state"
    close_table(play_game(state, 40))
    path = state / JOURNAL_FILE
    db = sqlite3.connect(path)
    db.execute("UPDATE command SET crc = crc + 1 WHERE seq = 40")     # the damaged copy: its last action bad
    db.commit()
    db.close()
    kept = state / "journal.damaged-20261201-120000.sqlite3"
    shutil.copyfile(path, kept)
    salvage = salvage_path(path)
    shutil.copyfile(path, salvage)
    db = sqlite3.connect(salvage)                                      # the salvage: every good action
    db.execute("DELETE FROM command WHERE seq = 40")
    db.execute("DELETE FROM snapshot WHERE seq >= 40")
    db.commit()
    db.close()
    path.unlink()
    journal = Journal(path)
    try:
        assert journal.damage is not None
        assert "restored to action 39 of 40, leaving out action 40;" in journal.damage.report()
    finally:
        journal.close()
