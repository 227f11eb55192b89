"""Cases 1 and 3 at the table: a burst of failing reads anywhere in a start never wipes, cuts or
repairs a sound game; the table shows the fault (or the game) and has every action once reads work."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.base import ManualClock
from table.control.assembly import build_table
from table.session.game import RETRY_SECONDS
from table.storage.paths import JOURNAL_FILE
from table.storage.repair import kept_copies
from tests.storage.faulty import Faults
from tests.storage.test_fault_reads import lay_out, stored_actions
from tests.table.storage_helpers import as_json, close_table, config_for, listing, play_game

ACTIONS = 130


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], int, str]:
    state = tmp_path_factory.mktemp("saved")
    table = play_game(state, ACTIONS)
    session = table.controller.session
    seen = len(session.history), as_json(session.state, table.catalog)
    close_table(table)
    return listing(state), seen[0], seen[1]


@pytest.mark.parametrize("burst", [1, 7])
@pytest.mark.parametrize("block", range(5))
def test_failing_reads_anywhere_in_a_start_lose_nothing(saved: tuple[dict[str, bytes], int, str], tmp_path: Path,
                                                        faults: Faults, burst: int, block: int) -> None:
    files, actions, board = saved
    for first in range(1 + 8 * block, 9 + 8 * block):
        where = tmp_path / f"at-{first}"
        path = lay_out(files, where)
        faults.clear()
        faults.counts.clear()
        faults.fail("read", range(first, first + burst))
        clock = ManualClock()
        table = build_table(config_for(where), clock, seed_source=lambda: 1, retry_faults=True)
        session = table.controller.session
        try:
            for _ in range(3):                      # the loop's retry, once the reads work again
                if session.storage_fault is None:
                    break
                clock.advance(RETRY_SECONDS + 0.1)
                session.retry_due()
            assert session.storage_fault is None, (first, session.storage_fault)
            assert session.journal.damage is None, (first, session.journal.damage)
            assert (len(session.history), as_json(session.state, table.catalog)) == (actions, board), first
        finally:
            close_table(table)
        faults.active = False
        assert kept_copies(path) == [], first
        assert stored_actions(path) == actions
        faults.active = True
