"""The phase strip at 800x480 holds every phase's chip, whole, in every language the table speaks,
so the lit chip always shows (Spanish used to drop "Caridad": during charity nothing was lit)."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from table.config import LANGUAGES, parse_config
from table.ui.display import Display
from table.ui.screen import headless_display
from table.ui.screens.bars import draw_phases, draw_top
from table.ui.screens.kit import _phases
from table.ui.view import View
from table.words import i18n

PHASES = ("kick-open-the-door", "look-for-trouble", "combat", "run-away", "charity")


@pytest.fixture(params=LANGUAGES)
def display(request: pytest.FixtureRequest) -> Iterator[Display]:
    shown = headless_display(parse_config({"display": {"width": 800, "height": 480, "language": request.param}}))
    try:
        yield shown
    finally:
        shown.close()
        i18n.set_language("en")


def labels(phase: str) -> list[str]:
    return [i18n._("Run away") if phase == "run-away" and phase in phases else label for phases, label in _phases()]


def lit(phase: str) -> str:
    return next(i18n._("Run away") if phase == "run-away" else label for phases, label in _phases() if phase in phases)


@pytest.mark.parametrize("phase", PHASES)
def test_every_chip_is_drawn_whole_inside_the_strip_and_the_lit_one_shows(display: Display, phase: str) -> None:
    f = display.frame
    top = display.bands()[0]
    f.painter.drawn.clear()
    f.begin(reuse=False)
    draw_top(f, View(state={"phase": phase, "turn": 3}, names={}, reader_online=True), top)
    f.end()
    drawn = {d.text: d.rect for d in f.painter.drawn}
    status = min(drawn[i18n._("Turn {n}").format(n=3)].x, drawn[i18n._("reader ok")].x)
    for label in labels(phase):
        assert label in drawn, f"{display.language}: {label!r} is not drawn whole in {sorted(drawn)}"
        assert drawn[label].right <= status and top.contains(drawn[label])
    assert lit(phase) in drawn
    assert not any(text.endswith("…") for text in drawn)


def test_a_strip_too_narrow_for_every_chip_still_shows_the_lit_one_whole(display: Display) -> None:
    f = display.frame
    for phase in PHASES:
        f.painter.drawn.clear()
        f.begin(reuse=False)
        strip = pygame.Rect(4, 4, 150, 28)
        draw_phases(f, phase, strip)
        f.end()
        texts = [d.text for d in f.painter.drawn if d.text != "→"]
        assert lit(phase) in texts, (display.language, phase, texts)
        assert all(strip.contains(d.rect) for d in f.painter.drawn if d.rect.w)
        assert not any(text.endswith("…") for text in texts)


def test_the_strip_is_laid_out_once_per_phase_size_and_language(monkeypatch: pytest.MonkeyPatch) -> None:
    from table.ui.screens import bars

    shown = headless_display(parse_config({"display": {"width": 800, "height": 480}}))
    laid: list[str] = []
    real = bars.laid_out_phases
    monkeypatch.setattr(bars, "laid_out_phases", lambda f, phase, w, h: laid.append(phase) or real(f, phase, w, h))
    try:
        f = shown.frame
        first = bars.phase_layout(f, "combat", 500, 30)
        assert bars.phase_layout(f, "combat", 500, 30) == first and laid == ["combat"]     # kept
        bars.phase_layout(f, "charity", 500, 30)
        assert laid == ["combat", "charity"]                                              # another phase: anew
        i18n.set_language("de")
        german = bars.phase_layout(f, "combat", 500, 30)
        assert laid[-1] == "combat" and [label for label, _on in german[2]] == labels("combat")
    finally:
        shown.close()
        i18n.set_language("en")
