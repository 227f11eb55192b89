"""Case 3 after an update of engine/: snapshots of the old rules are ignored and the game replayed
in full; where the new rules stop replaying it, the journal is cut there (the whole file kept
aside), so new actions follow the last one the table shows and a restart finds them; ``export``
never writes fewer actions than ``state`` shows."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine.game
import table.session.game as session_module
from drivers.base import ManualClock
from engine import commands as c
from engine.results import RejectCode, Rejected
from table.control.assembly import build_table
from table.session.game import Saved
from tests.storage.test_fault_reads import stored_actions
from tests.table.storage_helpers import cli, close_table, config_file, config_for, play_game

ACTIONS = 120
STOPS = 30          # the first action the updated rules refuse


@pytest.fixture
def updated_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A game of ACTIONS actions played under the old rules; then the rules change: another
    fingerprint, and a replay that refuses action STOPS as it was stored."""
    state = tmp_path / "state"
    table = play_game(state, ACTIONS)
    refused = table.controller.session.history.commands[STOPS - 1]
    close_table(table)
    real_apply = engine.game.apply

    def new_rules(st, cmd, catalog):  # type: ignore[no-untyped-def]
        if cmd == refused:
            return Rejected(RejectCode.ILLEGAL_PLAY, "refused by the new rules")
        return real_apply(st, cmd, catalog)

    monkeypatch.setattr(engine.game, "apply", new_rules)            # what every replay goes through
    monkeypatch.setattr(session_module, "fingerprint", lambda catalog: "engine-after-the-update")
    return state


def test_an_engine_update_cuts_the_journal_where_the_game_stops_replaying(updated_engine: Path) -> None:
    state = updated_engine
    table = build_table(config_for(state), ManualClock())
    try:
        ctl = table.controller
        assert ctl.history.from_snapshot == 0 and ctl.history_len == STOPS - 1
        words = ctl.message.text if ctl.message is not None else ""
        assert f"restored to action {STOPS - 1} of {ACTIONS}, leaving out actions {STOPS}–{ACTIONS}" in words, words
        assert table.journal.damage is not None and table.journal.damage.kept is not None
        assert stored_actions(state / "journal.sqlite3") == STOPS - 1      # no row stored past what is shown
        new = c.SetSex(player="player-2", sex="female", at=ctl.session.now)     # one the new rules accept
        assert isinstance(ctl.session.submit(new), Saved)
        shown = ctl.history_len
    finally:
        close_table(table)
    again = build_table(config_for(state), ManualClock())
    try:
        assert again.controller.history_len == shown == STOPS     # the new action is where the table put it
    finally:
        close_table(again)


def test_export_never_writes_fewer_actions_than_state_shows(updated_engine: Path, tmp_path: Path) -> None:
    cfg = str(config_file(updated_engine, tmp_path / "cfg"))
    code, out, err = cli("state", "--config", cfg)
    assert code == 0 and f"restored to action {STOPS - 1} of {ACTIONS}" in err
    code, script, err = cli("export", "--config", cfg)
    assert code == 2 and script == "", (code, err)
    assert err.count("\n") == 1 and f"{STOPS - 1} of its {ACTIONS} actions" in err, err
