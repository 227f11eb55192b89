"""Case 4: a failed sync is a failed action: what the screen refused (or kept) is what a restart finds."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.legal import legal_commands
from table.session.game import NotSaved, Saved, Undone
from table.storage.paths import JOURNAL_FILE
from tests.storage.faulty import Faults
from tests.storage.test_fault_reads import stored_actions
from tests.table.storage_helpers import as_json, close_table, play_game


def a_legal_command(table):  # type: ignore[no-untyped-def]
    session = table.controller.session
    state = session.state
    commands = legal_commands(state, table.catalog, state.active_player or "player-1", session.now)
    assert commands, "the game offers nothing to do"
    return commands[0]


def restarted(state_dir: Path, catalog):  # type: ignore[no-untyped-def]
    """(actions, board) a restart of the table finds (started, nothing pressed)."""
    from drivers.base import ManualClock
    from table.control.assembly import build_table
    from tests.table.storage_helpers import config_for

    table = build_table(config_for(state_dir), ManualClock(), seed_source=lambda: 1)
    try:
        session = table.controller.session
        return len(session.history), as_json(session.state, catalog)
    finally:
        close_table(table)


@pytest.mark.parametrize("kind", ["sync", "write"])
def test_a_refused_action_stays_refused_after_a_restart(tmp_path: Path, faults: Faults, kind: str) -> None:
    state_dir = tmp_path / "state"
    table = play_game(state_dir, 27)
    session = table.controller.session
    before = len(session.history)
    faults.next_calls(kind)
    result = session.submit(a_legal_command(table))
    assert faults.fired
    faults.active = False
    shown, board = len(session.history), as_json(session.state, table.catalog)
    close_table(table)
    if isinstance(result, NotSaved):
        assert shown == before
    else:
        assert isinstance(result, Saved) and shown == before + 1      # kept after all, and said so by showing it
    assert restarted(state_dir, table.catalog) == (shown, board)
    assert stored_actions(state_dir / JOURNAL_FILE) == shown


@pytest.mark.parametrize("kind", ["sync", "write"])
def test_a_refused_undo_stays_refused_after_a_restart(tmp_path: Path, faults: Faults, kind: str) -> None:
    state_dir = tmp_path / "state"
    table = play_game(state_dir, 27)
    session = table.controller.session
    before = len(session.history)
    faults.next_calls(kind)
    result = session.undo()
    assert faults.fired
    faults.active = False
    shown, board = len(session.history), as_json(session.state, table.catalog)
    close_table(table)
    if isinstance(result, NotSaved):
        assert shown == before
    else:
        assert isinstance(result, Undone) and shown == before - 1
    assert restarted(state_dir, table.catalog) == (shown, board)


def test_the_table_carries_on_after_a_failed_sync(tmp_path: Path, faults: Faults) -> None:
    state_dir = tmp_path / "state"
    table = play_game(state_dir, 27)
    session = table.controller.session
    faults.next_calls("sync")
    session.submit(a_legal_command(table))
    faults.active = False
    result = session.submit(a_legal_command(table))
    if isinstance(result, NotSaved):            # the journal is opened again on the next press at the latest
        result = session.submit(a_legal_command(table))
    assert isinstance(result, Saved), result
    shown = len(session.history), as_json(session.state, table.catalog)
    close_table(table)
    assert restarted(state_dir, table.catalog) == shown


def test_an_action_after_a_failed_sync_that_could_not_be_looked_at_is_judged_on_what_is_stored(
        tmp_path: Path, faults: Faults) -> None:
    """The sync fails after the frame was written and the look afterwards fails too: the journal is
    opened again before the next action, and that action is judged against the game the file holds
    (with the action kept after all), not against the screen's older state."""
    from drivers.base import ManualClock
    from table.control.assembly import build_table
    from tests.table.storage_helpers import config_for

    state_dir = tmp_path / "state"
    close_table(play_game(state_dir, 27))
    table = build_table(config_for(state_dir), ManualClock(), seed_source=lambda: 1, retry_faults=True)
    session = table.controller.session
    faults.next_calls("sync")
    faults.next_calls("read", n=1, skip=2)       # the top, the insert's own read, then the look afterwards
    first = session.submit(a_legal_command(table))
    assert isinstance(first, NotSaved) and session.journal.db is None
    faults.active = False
    session.submit(a_legal_command(table))
    shown = len(session.history), as_json(session.state, table.catalog)
    close_table(table)
    assert restarted(state_dir, table.catalog) == shown
    assert stored_actions(state_dir / JOURNAL_FILE) == shown[0]


@pytest.mark.parametrize("kind", ["sync", "write"])
def test_a_new_game_refused_or_kept_is_what_a_restart_finds(tmp_path: Path, faults: Faults, kind: str) -> None:
    state_dir = tmp_path / "state"
    table = play_game(state_dir, 27)
    session = table.controller.session
    faults.next_calls(kind)
    result = session.start()
    assert faults.fired
    faults.active = False
    shown = session.game.id, len(session.history)
    close_table(table)
    from drivers.base import ManualClock
    from table.control.assembly import build_table
    from tests.table.storage_helpers import config_for

    again = build_table(config_for(state_dir), ManualClock(), seed_source=lambda: 1)
    try:
        found = again.controller.session.game.id, len(again.controller.session.history)
    finally:
        close_table(again)
    assert found == shown, result
