"""Case 9: a fault while a new journal's tables are made leaves no half-made file called damaged."""

from __future__ import annotations

from pathlib import Path

import pytest

from table.storage.faults import JournalError
from table.storage.journal import Journal
from table.storage.paths import JOURNAL_FILE
from table.storage.repair import kept_copies
from tests.storage.faulty import Faults


@pytest.mark.parametrize("kind,call", [("write", 1), ("write", 2), ("write", 4), ("sync", 1)])
def test_a_fault_while_the_tables_are_made_is_not_damage_next_time(tmp_path: Path, faults: Faults,
                                                                    kind: str, call: int) -> None:
    path = tmp_path / "state" / JOURNAL_FILE
    faults.fail(kind, [call])
    try:
        Journal(path).close()
    except JournalError:
        pass
    assert faults.fired
    faults.active = False
    journal = Journal(path)
    try:
        assert journal.damage is None
        assert kept_copies(path) == []
        journal.new_game(1, __import__("engine.rules", fromlist=["Ruleset"]).Ruleset())
    finally:
        journal.close()
