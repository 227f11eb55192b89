"""Resume: stored snapshots give the state a full replay gives; a reboot inside the interference window
never leaves the fight stuck; one writer of the tag file."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bench._games import ITEMS, MONSTERS, long_script
from drivers.base import ManualClock
from drivers.events import Press, Tap
from drivers.sim import SimButtons, SimReader
from engine.game import replay
from table.session.history import SNAPSHOT_EVERY
from table.sim.script import parse_script
from table.sim.harness import perform
from table.control.assembly import build_table
from table.storage.paths import hold_table_lock

from tests.table.storage_helpers import close_table, as_json, cli, config_file, config_for, play_game


def random_game(directory: Path, seed: int, length: int):  # type: ignore[no-untyped-def]
    """A game of random taps and presses mixed into a plausible one."""
    rng = random.Random(seed)
    lines = long_script(length, seed=seed)
    mixed = []
    for line in lines:
        mixed.append(line)
        if rng.random() < 0.25:
            mixed.append(rng.choice([f"tap {rng.choice(ITEMS + MONSTERS)}", "press undo", "press help",
                                     "press next", "press roll", "press run", f"tap player-{rng.randint(1, 6)}",
                                     f"wait {rng.choice([0.5, 3])}"]))
    clock = ManualClock()
    table = build_table(config_for(directory), clock, seed_source=lambda: seed)
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    for action in parse_script("\n".join(mixed), table.catalog):
        perform(action, table, reader, buttons, clock)
    return table


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), length=st.integers(60, 260))
def test_state_from_a_stored_snapshot_equals_the_full_replay(tmp_path_factory, seed: int, length: int) -> None:  # type: ignore[no-untyped-def]
    directory = tmp_path_factory.mktemp("snap")
    table = random_game(directory, seed, length)
    ctl = table.controller
    commands = list(ctl.history.commands)
    close_table(table)
    again = build_table(config_for(directory), ManualClock())
    resumed = again.controller
    assert resumed.history.commands == commands
    if len(commands) >= SNAPSHOT_EVERY:
        assert resumed.history.from_snapshot >= SNAPSHOT_EVERY      # it did start from a stored snapshot
    full = replay(again.catalog, resumed.game.ruleset, resumed.game.seed, commands)
    assert as_json(resumed.state, again.catalog) == as_json(full, again.catalog)
    # and undo back across the snapshot it started from still matches a full replay
    for _ in range(min(len(commands), SNAPSHOT_EVERY + 3)):
        resumed.undo()
    full = replay(again.catalog, resumed.game.ruleset, resumed.game.seed, resumed.history.commands)
    assert as_json(resumed.state, again.catalog) == as_json(full, again.catalog)
    close_table(again)


def test_a_bad_snapshot_is_ignored_and_the_one_before_is_used(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    table = play_game(directory, 3 * SNAPSHOT_EVERY + 10)
    expected = as_json(table.controller.state, table.catalog)
    close_table(table)
    db = sqlite3.connect(directory / "journal.sqlite3")
    newest = db.execute("SELECT MAX(seq) FROM snapshot").fetchone()[0]
    db.execute("UPDATE snapshot SET body = substr(body, 1, 40) || X'00' || substr(body, 42) WHERE seq = ?", (newest,))
    db.commit()
    db.close()
    again = build_table(config_for(directory), ManualClock())
    assert again.controller.history.from_snapshot == newest - SNAPSHOT_EVERY
    assert as_json(again.controller.state, again.catalog) == expected
    close_table(again)


def test_snapshots_of_other_rules_code_are_not_used(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import table.session.game as session_module

    directory = tmp_path / "state"
    table = play_game(directory, SNAPSHOT_EVERY + 5)
    expected = as_json(table.controller.state, table.catalog)
    close_table(table)
    monkeypatch.setattr(session_module, "fingerprint", lambda catalog: "another-version")
    again = build_table(config_for(directory), ManualClock())
    assert again.controller.history.from_snapshot == 0
    assert as_json(again.controller.state, again.catalog) == expected
    close_table(again)


def won_fight(directory: Path, clock: ManualClock):  # type: ignore[no-untyped-def]
    table = build_table(config_for(directory), clock, seed_source=lambda: 3)
    ctl = table.controller
    for card in ("player-1", "player-2", "player-3"):
        ctl.handle(Tap("", 0.0, card=card))
    ctl.handle(Press("next", 0.0))
    ctl.handle(Tap("", 0.0, card="boots-of-butt-kicking"))
    ctl.handle(Tap("", 0.0, card="lame-goblin"))
    ctl.handle(Press("next", 0.0))                   # Fight!: the interference window opens
    assert ctl.state.combat is not None and ctl.state.combat.window_until is not None
    return table


def test_a_reboot_inside_the_interference_window_restarts_it_in_full(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    table = won_fight(directory, ManualClock(start=86_400.0))       # a day of uptime
    window = table.controller.state.ruleset.interference_seconds
    close_table(table)                                            # the power goes
    clock = ManualClock(start=12.0)                                  # the Pi boots again: 12 s of uptime
    again = build_table(config_for(directory), clock)
    ctl = again.controller
    remaining = ctl.deadline() - ctl.now
    assert 0 < remaining <= window + 1e-6                            # never days ahead
    clock.advance(remaining)
    ctl.tick()
    assert ctl.state.combat is None and ctl.state.player("player-1").level == 2
    close_table(again)


def test_a_restart_long_after_the_window_resolves_the_fight(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    table = won_fight(directory, ManualClock(start=50.0))
    close_table(table)
    clock = ManualClock(start=10_000.0)                              # much later, same boot
    again = build_table(config_for(directory), clock)
    ctl = again.controller
    ctl.tick()
    assert ctl.state.combat is None and ctl.state.player("player-1").level == 2
    close_table(again)


def test_tags_import_while_the_table_runs_is_refused_naming_it(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    directory.mkdir()
    cfg = config_file(directory, tmp_path)
    csv = tmp_path / "tags.csv"
    csv.write_text("uid,card\n04A1B2C3D4E5F6,player-1\n", encoding="utf-8")
    lock = hold_table_lock(directory)                # a running table holds the state directory
    try:
        table = build_table(config_for(directory), ManualClock())
        table.registry.bind("04AAAAAAAAAAAA", "player-2")      # the table enrolls a tag
        code, out, err = cli("tags", "import", str(csv), "--config", str(cfg))
        assert code == 2 and "in use by pid" in err and len(err.strip().splitlines()) == 1
        text = (directory / "tags.csv").read_text(encoding="utf-8")
        assert "04AAAAAAAAAAAA" in text and "04A1B2C3D4E5F6" not in text
        close_table(table)
    finally:
        lock.close()
    code, out, err = cli("tags", "import", str(csv), "--config", str(cfg))
    assert code == 0, err
    text = (directory / "tags.csv").read_text(encoding="utf-8")
    assert "04AAAAAAAAAAAA" in text and "04A1B2C3D4E5F6" in text     # neither writer lost the other's row
    assert not [p for p in directory.iterdir() if p.name.startswith(".tags-")]   # no temporary file left


def test_undo_past_the_starting_snapshot_uses_the_stored_one_before(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    table = play_game(directory, 3 * SNAPSHOT_EVERY + 5)
    close_table(table)
    again = build_table(config_for(directory), ManualClock())
    ctl = again.controller
    assert ctl.history.from_snapshot == 3 * SNAPSHOT_EVERY
    assert len(ctl.history.commands) == 3 * SNAPSHOT_EVERY + 5 and ctl.history.commands._head > 0   # not read yet
    ctl.prompt = None                                    # (the resumed game's notice)
    for _ in range(6):
        ctl.undo()                                       # now one below the snapshot it started from
    assert 2 * SNAPSHOT_EVERY in ctl.history.snapshots  # taken from the journal, not a replay from the start
    full = replay(again.catalog, ctl.game.ruleset, ctl.game.seed, ctl.history.commands)
    assert as_json(ctl.state, again.catalog) == as_json(full, again.catalog)
    close_table(again)
