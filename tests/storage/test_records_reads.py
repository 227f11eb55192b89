"""The soak's real kills found it: a read the disk fails while the table opens its past-games page
raised out of the controller (a traceback in the log, "an internal error"); the page now shows
nothing for the moment, says why in the log, and reads again when it is opened again."""

from __future__ import annotations

from pathlib import Path

from table.storage.facts import FactsStore
from table.storage.paths import JOURNAL_FILE
from tests.storage.faulty import Faults
from tests.table.storage_helpers import close_table, play_game


def test_a_failing_read_of_the_past_games_shows_none_and_raises_nothing(tmp_path: Path, faults: Faults) -> None:
    close_table(play_game(tmp_path / "state", 12))
    store = FactsStore(tmp_path / "state" / JOURNAL_FILE)
    try:
        assert store.games() and store.tallies()
        for read in (store.games, store.tallies, store.known_names):
            faults.next_calls("read")
            assert read() == []
        assert store.games() and store.tallies()        # read again: there they are
    finally:
        store.close()
