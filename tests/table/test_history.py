"""Undo through snapshots gives exactly the state a full replay gives, at any length of game."""

from __future__ import annotations

import json
from pathlib import Path

from bench._games import long_script
from drivers.base import ManualClock
from drivers.sim import SimButtons, SimReader
from engine.game import replay
from engine.serialize import state_to_json
from table.config import Config, StorageConfig
from table.session.history import SNAPSHOT_EVERY
from table.sim.script import parse_script
from table.sim.harness import perform
from table.control.assembly import build_table


def as_json(state, catalog) -> str:
    return json.dumps(state_to_json(state, catalog), sort_keys=True)


def played(tmp_path: Path, actions: int):  # type: ignore[no-untyped-def]
    """A simulated table whose game has at least ``actions`` accepted actions."""
    clock = ManualClock()
    table = build_table(Config(storage=StorageConfig(state_dir=str(tmp_path))), clock, seed_source=lambda: 4)
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    for action in parse_script("\n".join(long_script(400)), table.catalog):
        perform(action, table, reader, buttons, clock)
        if table.controller.history_len >= actions:
            break
    return table


def test_undo_matches_a_full_replay_across_snapshots(tmp_path: Path) -> None:
    table = played(tmp_path, 3 * SNAPSHOT_EVERY + 7)
    ctl = table.controller
    assert len(set(ctl.history.snapshots) | set(ctl.history.stored)) >= 4
    assert set(ctl.history.snapshots) == {0, 3 * SNAPSHOT_EVERY}    # the older ones as their stored bytes
    for _ in range(2 * SNAPSHOT_EVERY):       # back across two snapshot boundaries
        ctl.undo()
        full = replay(table.catalog, ctl.game.ruleset, ctl.game.seed, ctl.history.commands)
        assert as_json(ctl.state, table.catalog) == as_json(full, table.catalog)
    assert table.journal.commands(ctl.game.id) == ctl.history.commands


def test_a_journal_that_stops_replaying_is_cut_where_it_stops(tmp_path: Path) -> None:
    from engine import commands as c
    from table.storage.journal import Journal

    journal = Journal(tmp_path / "journal.sqlite3")
    game = journal.new_game(1, __import__("engine").Ruleset())
    for cmd in (c.Join(player="player-1"), c.Join(player="player-2"), c.Join(player="player-2"),
                c.Join(player="player-3")):
        journal.append(game.id, cmd)       # the third was never acceptable: a damaged journal
    journal.close()
    table = build_table(Config(storage=StorageConfig(state_dir=str(tmp_path))), ManualClock())
    assert [p.id for p in table.controller.state.players] == ["player-1", "player-2"]
    assert "restored to action 2 of 4" in table.controller.message.text
    assert table.journal.count(game.id) == 2
    kept = table.journal.damage.kept
    assert kept is not None and kept.name in table.controller.message.text
    again = Journal(kept, read_only=True)             # the damaged copy still holds all four rows
    assert len(again.commands(game.id)) == 4


def test_undo_of_the_last_few_actions_replays_nothing(tmp_path: Path, monkeypatch) -> None:
    import table.session.history as history_module
    from table.session.history import RECENT

    table = played(tmp_path, SNAPSHOT_EVERY + RECENT + 20)
    ctl = table.controller
    applied = []
    real_steps = history_module.replay_steps            # the history's one way to replay

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        for step in real_steps(*args, **kwargs):
            applied.append(1)
            yield step

    monkeypatch.setattr(history_module, "replay_steps", counted)
    for _ in range(RECENT):
        ctl.undo()
        full = replay(table.catalog, ctl.game.ruleset, ctl.game.seed, ctl.history.commands)
        assert as_json(ctl.state, table.catalog) == as_json(full, table.catalog)
    assert applied == []           # each of those states was kept, none replayed
    ctl.undo()                     # one further back replays from the snapshot, once
    assert 0 < len(applied) < SNAPSHOT_EVERY + RECENT + 20
    full = replay(table.catalog, ctl.game.ruleset, ctl.game.seed, ctl.history.commands)
    assert as_json(ctl.state, table.catalog) == as_json(full, table.catalog)


def test_the_state_before_the_last_action_replays_from_the_nearest_snapshot_kept_as_bytes(tmp_path: Path,
                                                                                           monkeypatch) -> None:
    """Resumed right at a snapshot, what an undo will leave (the facts read it) is not among the
    last few states: it comes from the snapshot before, kept as the bytes stored in the journal,
    replaying the actions after it alone, and changes nothing."""
    import table.session.history as history_module

    table = played(tmp_path, 2 * SNAPSHOT_EVERY)
    while table.controller.history_len > 2 * SNAPSHOT_EVERY:
        table.controller.undo()
    table.journal.close()
    again = build_table(Config(storage=StorageConfig(state_dir=str(tmp_path))), ManualClock(), seed_source=lambda: 4)
    history = again.controller.history
    assert len(history) == 2 * SNAPSHOT_EVERY
    assert set(history.snapshots) == {0, 2 * SNAPSHOT_EVERY} and SNAPSHOT_EVERY in history.stored
    applied = []
    real_steps = history_module.replay_steps

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        for step in real_steps(*args, **kwargs):
            applied.append(1)
            yield step

    monkeypatch.setattr(history_module, "replay_steps", counted)
    live = dict(history.snapshots)
    before = history.before_last()
    assert history.snapshots == live and len(history) == 2 * SNAPSHOT_EVERY
    assert len(applied) == SNAPSHOT_EVERY - 1          # from the snapshot at SNAPSHOT_EVERY, not from the start
    full = replay(again.catalog, again.controller.game.ruleset, again.controller.game.seed,
                  list(history.commands[:2 * SNAPSHOT_EVERY - 1]))
    assert as_json(before, again.catalog) == as_json(full, again.catalog)
    again.journal.close()


def test_a_snapshot_an_undo_decoded_goes_back_to_its_bytes_at_the_next_snapshot(tmp_path: Path) -> None:
    """Undo back past the newest snapshot and the last few states decodes the snapshot before and
    keeps it live while it is the newest; once play reaches the next snapshot again it is kept as
    its stored bytes again, so only the first and the newest snapshot stay live."""
    from table.session.history import RECENT

    table = played(tmp_path, 2 * SNAPSHOT_EVERY)
    ctl = table.controller
    history = ctl.history
    back = 2 * SNAPSHOT_EVERY - RECENT - 5
    again = list(history.commands[back:2 * SNAPSHOT_EVERY])
    while len(history) > back:
        ctl.undo()
    assert set(history.snapshots) == {0, SNAPSHOT_EVERY} and SNAPSHOT_EVERY in history.stored
    for cmd in again:                                   # the same actions played again
        ctl.session.submit(cmd)
    assert len(history) == 2 * SNAPSHOT_EVERY
    assert set(history.snapshots) == {0, 2 * SNAPSHOT_EVERY}
    full = replay(table.catalog, ctl.game.ruleset, ctl.game.seed, history.commands)
    assert as_json(ctl.state, table.catalog) == as_json(full, table.catalog)
