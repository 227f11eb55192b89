"""During play an unknown tag offers to join a card: tap an enrolled copy of the same card."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.base import ManualClock
from drivers.sim import SimButtons, SimReader
from table.config import Config
from table.control.assembly import build_table

NEW = "04A1B2C3D4E5F6"


@pytest.fixture
def table(tmp_path: Path):
    clock = ManualClock()
    t = build_table(Config(), clock, state_dir=tmp_path / "state", seed_source=lambda: 1)
    t.registry.bind("04000001", "player-1")
    t.registry.bind("04000010", "thief")
    reader, buttons = SimReader(t.events, clock=clock), SimButtons(t.events, clock=clock)
    yield t, reader, buttons, clock
    t.journal.close()


def run(t):
    return [o for o in (t.controller.handle(e) for e in t.events.drain()) if o is not None]


def test_unknown_tag_then_known_copy_binds_it(table) -> None:
    t, reader, _, _ = table
    reader.scan(NEW)
    [outcome] = run(t)
    assert not outcome.accepted
    assert t.controller.prompt.kind == "enroll"
    assert f"unknown tag {NEW}: tap an enrolled copy of the same card" in t.controller.prompt.text
    reader.scan("04000010")                       # an enrolled Thief
    [outcome] = run(t)
    assert outcome.accepted and t.controller.prompt is None
    assert t.registry.lookup(NEW) == "thief"
    assert "Thief now has 2 tags for 3 copies" in outcome.message.text
    assert t.controller.state.phase.value == "setup"          # nothing was played


def test_the_new_tag_plays_like_its_card_afterwards(table) -> None:
    t, reader, _, _ = table
    reader.scan("04000099")
    reader.scan("04000001")                       # player token 1: a spare token sticker
    run(t)
    assert t.registry.lookup("04000099") == "player-1"
    reader.scan("04000099")
    [outcome] = run(t)
    assert outcome.accepted and [p.id for p in t.controller.state.players] == ["player-1"]


def test_undo_cancels_and_binds_nothing(table) -> None:
    t, reader, buttons, _ = table
    reader.scan(NEW)
    buttons.press("undo")
    run(t)
    assert t.controller.prompt is None and t.registry.lookup(NEW) is None
    assert t.controller.message.text == "cancelled"


def test_a_button_drops_the_prompt_and_acts(table) -> None:
    t, reader, buttons, _ = table
    reader.scan("04000001")
    run(t)
    reader.scan(NEW)
    buttons.press("roll")                         # setup: ROLL picks a first player... with one player it is refused
    outcomes = run(t)
    assert t.controller.prompt is None and t.registry.lookup(NEW) is None
    assert "unknown tag" not in outcomes[-1].message.text


def test_second_unknown_tag_replaces_the_first(table) -> None:
    t, reader, _, _ = table
    reader.scan(NEW)
    reader.scan("04BBBBBB")
    reader.scan("04000010")
    run(t)
    assert t.registry.lookup("04BBBBBB") == "thief" and t.registry.lookup(NEW) is None


def test_prompt_lapses(table) -> None:
    t, reader, _, clock = table
    reader.scan(NEW)
    run(t)
    assert t.controller.deadline() == pytest.approx(20.0)
    clock.advance(21)
    t.controller.tick()
    assert t.controller.prompt is None
    reader.scan("04000001")                       # now a plain tap again: player 1 joins
    [outcome] = run(t)
    assert outcome.accepted and t.registry.lookup(NEW) is None


def test_simulate_script_can_bind_a_tag(tmp_path: Path, capsys) -> None:
    from table.cli import main

    script = tmp_path / "s.txt"
    script.write_text(f"tap uid:{NEW}\ntap player-1\ntap uid:{NEW}\ntap player-2\ntap player-3\npress next\n")
    assert main(["simulate", str(script)]) == 0
    captured = capsys.readouterr()
    assert "rejected: 1: unknown tag" in captured.err
    assert '"player-1"' in captured.out
