"""Case 9's wording: a read that keeps failing under an undo (the actions before the snapshot the
start began from are read then) is said as the disk failing its reads, not as SQLite words it
("database disk image is malformed": the saved game is not known to be damaged)."""

from __future__ import annotations

from pathlib import Path

from drivers.base import ManualClock
from table.control.assembly import build_table
from table.session.game import NotSaved, Undone
from table.session.history import SNAPSHOT_EVERY
from tests.storage.faulty import Faults
from tests.table.storage_helpers import close_table, config_for, play_game


def test_an_undo_whose_reads_keep_failing_says_the_disk_fails_not_that_the_game_is_damaged(
        tmp_path: Path, faults: Faults) -> None:
    state = tmp_path / "state"
    close_table(play_game(state, SNAPSHOT_EVERY + 3))
    table = build_table(config_for(state), ManualClock())
    session = table.controller.session
    try:
        assert session.history.from_snapshot == SNAPSHOT_EVERY      # the early actions are not read yet
        for _ in range(3):
            assert isinstance(session.undo(), Undone)
        faults.next_calls("read", n=1000)                          # every read from now on fails
        result = session.undo()
        assert isinstance(result, NotSaved)
        words = str(result.why)
        assert "keeps failing" in words and "malformed" not in words and "damaged" not in words, words
        assert len(session.history) == SNAPSHOT_EVERY
    finally:
        faults.active = False
        close_table(table)
