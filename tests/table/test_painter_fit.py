"""Fitting text to its box: the size and cut the painter picks when it measures only the steps that
could fit are those it picks when it measures every step (the shrink steps of 0.9, then the ellipsis)."""

from __future__ import annotations

import random
from pathlib import Path

import pygame
import pytest

from bench._games import long_script
from drivers.base import ManualClock
from drivers.sim import SimButtons, SimReader
from table.config import parse_config
from table.control.assembly import build_table
from table.sim.harness import perform
from table.sim.script import parse_script
from table.ui.fonts import find_font
from table.ui.screens.kit import Painter
from table.ui.view import build_view


def fit_measuring_every_step(p: Painter, text: str, size: int, width: int, shrink: float) -> tuple[str, int]:
    """The fit as it is defined: each step measured, the first that fits taken (then the painter's own cut)."""
    smallest = max(8, int(size * shrink))
    sz = size
    while sz > smallest and p.width(text, sz) > width:
        sz = max(smallest, int(sz * 0.9))
    if p.width(text, sz) <= width:
        return text, sz
    return p.cut(text, sz, width), sz                   # the ellipsis is the same either way


def game_messages(tmp: Path, language: str, lines: int = 260) -> list[str]:
    """The message lines of a scripted 6-player game, as the screen shows them in ``language``."""
    clock = ManualClock()
    table = build_table(parse_config({"display": {"language": language, "sound": False}}), clock, state_dir=tmp,
                        seed_source=lambda: 1)
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    out = []
    try:
        for action in parse_script("\n".join(long_script(lines, geared=True)), table.catalog, source="test"):
            perform(action, table, reader, buttons, clock)
            out.append(build_view(table.controller, language=language).message)
    finally:
        table.journal.close()
    return sorted({m for m in out if m})


@pytest.mark.parametrize("language", ["en", "zh"])
def test_fitting_picks_the_size_and_cut_that_measuring_every_step_picks(tmp_path: Path, catalog, language: str) -> None:
    pygame.freetype.init()
    texts = game_messages(tmp_path, language) + sorted(set(catalog.names_in(language).values()))
    assert len(texts) > 150
    rng = random.Random(5)
    cases = 0
    for scale in (1.0, 1.25, 2.25):
        p = Painter(pygame.Surface((int(800 * scale), int(480 * scale))), find_font(language, ""))
        reference = Painter(pygame.Surface((10, 10)), find_font(language, ""))
        for text in texts:
            for base in (15, 20, 22):
                size = max(8, int(base * scale))
                natural = reference.width(text, size)
                for width in {max(1, int(natural * f)) for f in (0.45, 0.55, 0.62, 0.7, 0.8, 0.9, 0.97, 1.0)} | \
                        {rng.randint(1, natural + 10)}:
                    for shrink in (0.6, 0.7):
                        assert p.fit(text, size, width, shrink=shrink) == \
                            fit_measuring_every_step(reference, text, size, width, shrink), (text, size, width, shrink)
                        cases += 1
    assert cases > 5000


def test_a_long_message_that_only_fits_small_is_measured_at_fewer_sizes(catalog) -> None:
    """The game's longest messages at 1080p fit only at the last steps: the steps the width at the
    full size already rules out are not measured (each new text at a size lays out its glyphs)."""
    pygame.freetype.init()
    p = Painter(pygame.Surface((1920, 1080)), find_font("en", ""))
    text = "Player 4 rolled 2: caught by Net Troll; Player 4: highest-level player(s) each take 1 item from you"
    size, width = int(22 * 2.25), 1860
    measured: list[int] = []
    measure = p.measure
    p.measure = lambda t, sz: (measured.append(sz), measure(t, sz))[1]          # type: ignore[method-assign]
    fitted, sz = p.fit(text, size, width, shrink=0.6)
    assert (fitted, sz) == fit_measuring_every_step(Painter(pygame.Surface((1, 1)), find_font("en", "")), text, size, width, 0.6)
    steps = [size]
    while steps[-1] > max(8, int(size * 0.6)):
        steps.append(max(8, int(size * 0.6), int(steps[-1] * 0.9)))
    assert sz < steps[2] and len(set(measured)) < steps.index(sz) + 1, (measured, steps)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_texts_advances_never_pass_its_measured_width(tmp_path: Path, catalog, language: str) -> None:
    """The bound the fitting skips steps by: the sum of the glyphs' advances is at most the measured width."""
    pygame.freetype.init()
    texts = game_messages(tmp_path, language) + sorted(set(catalog.names_in(language).values()))
    p = Painter(pygame.Surface((10, 10)), find_font(language, ""))
    for size in range(8, 50, 5):
        for text in texts:
            assert p.advance(text, size) <= p.width(text, size), (text, size)


def test_a_message_too_long_for_the_first_steps_is_measured_only_where_its_advances_allow(catalog) -> None:
    """At 800x480 the deal's longest message fits at the last step: the steps its glyphs' advances
    already rule out are not laid out (four sizes measured before, two now)."""
    pygame.freetype.init()
    p = Painter(pygame.Surface((800, 480)), find_font("en", ""))
    text = "Player 2 carries Cheese Grater of Peace (no bonus: Cheese Grater of Peace is for cleric only)"
    measured: list[int] = []
    measure = p.measure
    p.measure = lambda t, sz: (measured.append(sz), measure(t, sz))[1]          # type: ignore[method-assign]
    fitted = p.fit(text, 22, 776, shrink=0.6)
    assert fitted == fit_measuring_every_step(Painter(pygame.Surface((1, 1)), find_font("en", "")), text, 22, 776, 0.6)
    assert sorted(set(measured)) == sorted({22, fitted[1]}), measured
