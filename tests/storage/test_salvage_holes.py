"""Case 3: a repair salvages every row whose checksum holds, not only those before the first bad
one: the rows after a hole replay onto the state before it as far as the engine accepts them, and
the start says which actions were left out; the damaged copy is kept byte for byte."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from drivers.base import ManualClock
from engine import commands as c
from engine.cards import Catalog
from engine.game import new_game, replay_steps
from engine.results import Rejected
from table.control.assembly import build_table
from table.storage.journal import Journal
from table.storage.paths import JOURNAL_FILE
from tests.storage.test_fault_reads import lay_out, stored_actions
from tests.table.storage_helpers import as_json, cli, close_table, config_file, config_for, listing, play_game

ACTIONS = 120
HOLE = 30           # a SetSex nothing after it depends on: the game replays without it


def _replayed(catalog: Catalog, seed: int, ruleset: object, commands: list[c.Command]) -> int:
    n = 0
    for step in replay_steps(catalog, new_game(seed, ruleset), commands):  # type: ignore[arg-type]
        if isinstance(step.result, Rejected):
            break
        n += 1
    return n


@pytest.fixture(scope="module")
def with_a_droppable_action(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], list[c.Command], str]:
    """A journal of ACTIONS + 1 actions whose action HOLE (a SetSex) the game can do without; the
    board of the game without it."""
    played = tmp_path_factory.mktemp("played")
    table = play_game(played, ACTIONS)
    catalog = table.catalog
    record = table.controller.session.game
    commands = list(table.controller.session.history.commands)[:ACTIONS]
    close_table(table)
    extra = c.SetSex(player="player-2", sex="female", at=commands[HOLE - 2].at)
    full = commands[:HOLE - 1] + [extra] + commands[HOLE - 1:]
    assert _replayed(catalog, record.seed, record.ruleset, full) == ACTIONS + 1
    assert _replayed(catalog, record.seed, record.ruleset, commands) == ACTIONS
    state = tmp_path_factory.mktemp("built")
    journal = Journal(state / JOURNAL_FILE)
    game = journal.new_game(record.seed, record.ruleset)
    for cmd in full:
        journal.append(game.id, cmd)
    journal.close()
    without = build_table(config_for(played), ManualClock())      # the same game without action HOLE
    board = as_json(without.controller.state, without.catalog)
    close_table(without)
    return listing(state), full, board


def _damage_rows(path: Path, *seqs: int) -> bytes:
    db = sqlite3.connect(path)
    for seq in seqs:
        db.execute("UPDATE command SET crc = crc + 1 WHERE seq = ?", (seq,))
    db.commit()
    db.close()
    return path.read_bytes()


def test_rows_after_a_damaged_one_replay_around_it(with_a_droppable_action: tuple[dict[str, bytes], list[c.Command], str],
                                                   tmp_path: Path) -> None:
    files, full, board = with_a_droppable_action
    path = lay_out(files, tmp_path / "state")
    damaged = _damage_rows(path, HOLE)
    table = build_table(config_for(path.parent), ManualClock())
    try:
        ctl = table.controller
        assert ctl.history_len == ACTIONS                   # every action but the damaged one
        assert as_json(ctl.state, table.catalog) == board
        words = ctl.message.text if ctl.message is not None else ""
        assert f"restored {ACTIONS} of {ACTIONS + 1} actions; 1 unreadable (action {HOLE});" in words, words
        kept = table.journal.damage.kept if table.journal.damage else None
        assert kept is not None and kept.read_bytes() == damaged and kept.name in words
    finally:
        close_table(table)
    assert stored_actions(path) == ACTIONS
    again = build_table(config_for(path.parent), ManualClock())     # the repaired journal opens clean
    try:
        assert again.journal.damage is None and as_json(again.controller.state, again.catalog) == board
    finally:
        close_table(again)


def test_replay_around_a_hole_stops_where_the_engine_refuses_and_says_so(
        with_a_droppable_action: tuple[dict[str, bytes], list[c.Command], str], tmp_path: Path) -> None:
    files, full, _board = with_a_droppable_action
    path = lay_out(files, tmp_path / "state")
    late = 81               # a row whose loss the game cannot replay past (a turn's own step)
    _damage_rows(path, HOLE, late)
    table = build_table(config_for(path.parent), ManualClock())
    try:
        ctl = table.controller
        commands = full[:HOLE - 1] + full[HOLE:late - 1] + full[late:]
        catalog, game = table.catalog, ctl.session.game
        accepted = _replayed(catalog, game.seed, game.ruleset, commands)
        assert accepted == late - 2 < len(commands)         # the engine refuses the action after the second hole
        assert ctl.history_len == accepted
        words = ctl.message.text if ctl.message is not None else ""
        assert (f"restored {accepted} of {ACTIONS + 1} actions; 2 unreadable (actions {HOLE}, {late}); "
                f"{ACTIONS + 1 - late} after them no longer replay (actions {late + 1}–{ACTIONS + 1});") in words, words
    finally:
        close_table(table)
    assert stored_actions(path) == accepted


def test_state_shows_the_game_replayed_around_a_hole_and_touches_nothing(
        with_a_droppable_action: tuple[dict[str, bytes], list[c.Command], str], tmp_path: Path) -> None:
    files, _full, board = with_a_droppable_action
    path = lay_out(files, tmp_path / "state")
    _damage_rows(path, HOLE)
    before = listing(path.parent)
    code, out, err = cli("state", "--config", str(config_file(path.parent, tmp_path / "cfg")))
    assert code == 0 and f"1 unreadable (action {HOLE})" in err, err
    assert listing(path.parent) == before
    code, script, err = cli("export", "--config", str(config_file(path.parent, tmp_path / "cfg")))
    assert code == 0 and f"{ACTIONS} actions" in script.splitlines()[0], err
