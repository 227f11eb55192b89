"""The rehearsal before the first tap (table/app/rehearsal.py): a scratch game's frames drawn on
the display and never shown, the table's own game untouched, and the frame after it the game's own."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

import table.app.run as app_run
from drivers.base import ManualClock
from drivers.events import ReaderStatus, Release, Tap
from table.app import rehearsal
from table.config import parse_config
from table.control.assembly import build_table
from table.ui.display import Display
from table.ui.screen import ScreenPlan
from table.ui.view import build_view
from tests.table.loop_helpers import run_until_it_loops
from tests.table.storage_helpers import as_json, close_table, play_game


@pytest.fixture
def sdl_dummy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


def test_the_scratch_game_plays_each_kind_of_tap(tmp_path: Path) -> None:
    table = build_table(parse_config({"storage": {"state_dir": str(tmp_path)}}), ManualClock(), seed_source=lambda: 1)
    try:
        taps = rehearsal.rehearsal_taps(table.catalog)
        kinds = [table.catalog[t.card].kind.value for t in taps if getattr(t, "card", None) in table.catalog]
        assert {"race", "class", "item", "monster"} <= set(kinds)
        assert [getattr(t, "button", None) for t in taps].count("next") == 2     # NEXT pressed and let go
    finally:
        close_table(table)


def test_a_rehearsal_draws_its_frames_shows_none_and_leaves_the_game_as_it_was(
        tmp_path: Path, sdl_dummy: None, monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / "state"
    table = play_game(state, 12)
    config = parse_config({"storage": {"state_dir": str(state)}, "display": {"width": 800, "height": 480}})
    display = ScreenPlan(config).open(sim_strip=False)
    try:
        ctl = table.controller
        display.render(build_view(ctl))
        shown = pygame.Surface(display.window.get_size(), 0, display.window)
        shown.blit(display.window, (0, 0))
        before = (len(ctl.session.history), as_json(ctl.session.state, table.catalog), ctl.revision)
        pushes: list[object] = []
        real_push = Display.push
        monkeypatch.setattr(Display, "push", lambda self, dirty: pushes.append(dirty) or real_push(self, dirty))
        scratch = tmp_path / "runtime"
        scratch.mkdir()
        monkeypatch.setenv("RUNTIME_DIRECTORY", str(scratch))
        drawn = rehearsal.rehearse(config, display, table.catalog, "en", lambda: False)
        assert drawn >= 10 and pushes == []                                   # drawn, never shown
        assert display.frame.screen.shown, "the rehearsal drew nothing"
        assert list(scratch.iterdir()) == []                                   # its journal gone with it
        assert (len(ctl.session.history), as_json(ctl.session.state, table.catalog), ctl.revision) == before
        display.render(build_view(ctl))
        assert pushes == [None]                                                # the game's frame again, whole
        again = pygame.Surface(display.window.get_size(), 0, display.window)
        again.blit(display.window, (0, 0))
        assert pygame.image.tobytes(again, "RGB") == pygame.image.tobytes(shown, "RGB")
    finally:
        display.close()
        close_table(table)


def test_a_rehearsal_stops_at_once_when_a_tap_or_press_waits(tmp_path: Path, sdl_dummy: None) -> None:
    config = parse_config({"storage": {"state_dir": str(tmp_path / "s")}, "display": {"width": 800, "height": 480}})
    table = build_table(config, ManualClock(), seed_source=lambda: 1)
    display = ScreenPlan(config).open(sim_strip=False)
    try:
        events = table.events
        events.put(ReaderStatus("pad", True, "", 0.0))
        events.put(Release("next", 0.0))
        assert not events.has_input()                  # a reader's status, a release: no one waits
        assert rehearsal.rehearse(config, display, table.catalog, "en", events.has_input) >= 10
        events.put(Tap("04A1B2C3", 1.0))
        assert events.has_input()
        assert rehearsal.rehearse(config, display, table.catalog, "en", events.has_input) == 0
        assert len(events.drain()) == 3                # nothing taken from the queue
    finally:
        display.close()
        close_table(table)


def test_the_running_table_rehearses_before_its_first_tap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rehearsed: list[int] = []
    real = app_run.rehearse
    monkeypatch.setattr(app_run, "rehearse", lambda *a, **k: rehearsed.append(real(*a, **k)) or rehearsed[-1])
    run_until_it_loops(parse_config({"storage": {"state_dir": str(tmp_path)}}), monkeypatch)
    assert len(rehearsed) == 1 and rehearsed[0] >= 10
