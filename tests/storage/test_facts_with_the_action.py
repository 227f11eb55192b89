"""Case 9: the per-game facts row is written in the action's own transaction: the file as a kill -9
leaves it right after an action's commit has the row saying that action, so the next start reads
the row and replays nothing to rebuild it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from drivers.base import ManualClock
from table.control.assembly import build_table
from table.session.facts import Records
from table.storage import writing
from table.storage.facts import FactsStore
from table.storage.paths import JOURNAL_FILE
from tests.storage.test_fault_syncs import a_legal_command
from tests.table.storage_helpers import close_table, config_for, play_game


def test_the_facts_row_never_lags_the_journal_after_a_kill(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live, killed = tmp_path / "live", tmp_path / "killed"
    table = play_game(live, 30)
    real_insert = writing.insert_command

    def insert_then_kill(*args, **kwargs):  # type: ignore[no-untyped-def]
        seq = real_insert(*args, **kwargs)          # committed and synced: what a kill -9 now leaves
        killed.mkdir()
        for name in (JOURNAL_FILE, JOURNAL_FILE + "-wal"):
            if (live / name).exists():
                shutil.copyfile(live / name, killed / name)
        return seq

    monkeypatch.setattr(writing, "insert_command", insert_then_kill)
    table.controller.session.submit(a_legal_command(table))
    actions = table.controller.history_len
    monkeypatch.setattr(writing, "insert_command", real_insert)
    close_table(table)

    rebuilt: list[int] = []
    real_rebuild = Records._rebuild

    def counted(self, game, commands, *, started):  # type: ignore[no-untyped-def]
        rebuilt.append(game.id)
        return real_rebuild(self, game, commands, started=started)

    monkeypatch.setattr(Records, "_rebuild", counted)
    again = build_table(config_for(killed), ManualClock())
    try:
        assert again.controller.history_len == actions
        store = FactsStore(killed / JOURNAL_FILE)
        try:
            assert store.row(again.controller.session.game.id)[0] == actions   # type: ignore[index]
        finally:
            store.close()
        assert rebuilt == [], "the start replayed the game to rebuild a facts row that lagged"
    finally:
        close_table(again)
