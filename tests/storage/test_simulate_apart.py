"""Case 2: ``simulate`` never writes a table's journal: a fresh directory unless ``--config`` names
one, and then only under the table lock."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

import table.config
from table.storage.paths import JOURNAL_FILE, hold_table_lock
from tests.table.storage_helpers import cli, close_table, config_file, listing, play_game

# in a fresh directory a game is set up; in a saved game the joins are refused, but the undos are not
SCRIPT = "tap player-1\ntap player-2\ntap player-3\npress next\npress next\npress undo\npress undo\n"


@pytest.fixture
def box(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An installed box: a saved game in its state directory, named by the system config."""
    state = tmp_path / "box-state"
    close_table(play_game(state, 20))
    system = config_file(state, tmp_path / "etc")
    monkeypatch.setattr(table.config, "SYSTEM_CONFIG", system)
    return state


def simulate_stdin(monkeypatch: pytest.MonkeyPatch, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(SCRIPT))
    return cli("simulate", "-", *argv)


def test_simulate_without_config_leaves_the_box_game_alone(box: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = listing(box)
    code, out, err = simulate_stdin(monkeypatch)
    assert code == 0, err
    assert '"phase"' in out
    assert listing(box) == before                   # not a byte written, not a file added


def test_simulate_beside_a_running_table_is_refused_even_when_named(box: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    named = config_file(box, tmp_path / "named")
    lock = hold_table_lock(box)                     # the table is playing
    try:
        before = listing(box)
        code, out, err = simulate_stdin(monkeypatch, "--config", str(named))
        assert code == 2
        assert "already in use" in err and len(err.strip().splitlines()) == 1
        assert out == ""
        assert {k: v for k, v in listing(box).items() if k != "table.lock"} == \
               {k: v for k, v in before.items() if k != "table.lock"}
    finally:
        assert lock is not None
        lock.close()


def test_simulate_with_a_named_config_uses_its_directory_under_the_lock(box: Path, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    named = config_file(box, tmp_path / "named")
    before = listing(box)
    code, _out, err = simulate_stdin(monkeypatch, "--config", str(named))
    assert code == 0, err
    assert listing(box) != before                   # asked for by name: it is that table's game
    lock = hold_table_lock(box)                             # and the lock was let go
    assert lock is not None
    lock.close()
