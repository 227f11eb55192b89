"""The controller's revision: what the screen shows is declared (``Shown``), and only setting one of
those makes a new revision, so the run loop draws a frame for it and for nothing else."""

from __future__ import annotations

from pathlib import Path

from drivers.base import ManualClock
from table.config import Config, StorageConfig
from table.control.assembly import build_table
from table.control.controller import Controller
from table.control.prompts import Shown


def test_setting_a_shown_attribute_is_a_revision_and_nothing_else_is(tmp_path: Path) -> None:
    table = build_table(Config(storage=StorageConfig(state_dir=str(tmp_path))), ManualClock(), seed_source=lambda: 1)
    ctl = table.controller
    shown = sorted(name for name, value in vars(Controller).items() if isinstance(value, Shown))
    assert {"message", "prompt", "basket", "explaining", "pads", "seats"} <= set(shown)
    for name in shown:
        before = ctl.revision
        setattr(ctl, name, getattr(ctl, name))
        assert ctl.revision == before + 1, name
    before = ctl.revision
    ctl.forced_die = 4                  # the next roll, not on the screen
    ctl.token_seconds = 3.0
    assert ctl.revision == before
    ctl.records.close()
    table.journal.close()
