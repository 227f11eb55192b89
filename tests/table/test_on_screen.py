"""The frame's panel cache as objects of their own: ``OnScreen`` (what is on the glass, panel by panel)
and ``PutBack`` (a kept scene going back onto its area)."""

from __future__ import annotations

import pygame

from table.ui.frame import BLANK, OnScreen, PutBack, Scene, Shown, Solids
from table.ui.screens.kit import BG


def shown(name: str) -> Shown:
    return Shown(("en", name), None, [], [])


def test_a_panel_no_frame_visits_is_gone_and_one_visited_stays() -> None:
    screen = OnScreen()
    a, b = ("player", (0, 0, 10, 10)), ("player", (20, 0, 10, 10))
    screen.start(keep=True)
    assert screen.visit(a) is None and screen.visit(b) is None
    screen.shown[a], screen.shown[b] = shown("a"), shown("b")
    screen.end([])
    screen.start(keep=True)
    assert screen.visit(a) is not None      # kept; b is not visited this frame
    screen.end([])
    assert set(screen.shown) == {a}


def test_an_overlay_damages_the_panels_under_it_and_a_full_frame_forgets_the_damage() -> None:
    screen = OnScreen()
    under, aside = ("card", (0, 0, 50, 50)), ("card", (100, 0, 50, 50))
    screen.start(keep=True)
    for slot in (under, aside):
        screen.visit(slot)
        screen.shown[slot] = shown(str(slot))
    screen.end([pygame.Rect(40, 40, 30, 30)])
    assert screen.damaged == {under: [pygame.Rect(40, 40, 10, 10)]}
    assert not screen.intact(under, screen.shown[under]) and screen.intact(aside, screen.shown[aside])
    assert screen.damage_near(pygame.Rect(0, 0, 45, 45)) and not screen.damage_near(pygame.Rect(100, 0, 5, 5))
    screen.start(keep=False)
    assert screen.damaged == {}


def test_an_area_laid_out_afresh_loses_its_panels() -> None:
    screen = OnScreen()
    inside, outside = ("a", (10, 10, 5, 5)), ("b", (200, 10, 5, 5))
    screen.shown = {inside: shown("in"), outside: shown("out")}
    assert screen.inside(pygame.Rect(0, 0, 100, 100)) == {inside: screen.shown[inside]}
    screen.blank(pygame.Rect(0, 0, 100, 100))
    assert set(screen.shown) == {outside}


def test_a_scene_goes_back_panel_by_panel_and_settles_the_rest() -> None:
    window = pygame.Surface((100, 100))
    window.fill((9, 9, 9))
    pixels = pygame.Surface((100, 100))
    pixels.fill((200, 0, 0))
    panel = ("p", (0, 0, 20, 20))
    putting = PutBack(Scene(pixels, {panel: shown("p")}), pygame.Rect(0, 0, 100, 100))
    putting.keep(panel, pygame.Rect(0, 0, 20, 20), window)
    assert window.get_at((5, 5))[:3] == (200, 0, 0) and window.get_at((50, 50))[:3] == (9, 9, 9)
    putting.cover(("q", (60, 60, 20, 20)), pygame.Rect(60, 60, 20, 20))   # drawn afresh there: left alone
    putting.settle(window, Solids(window))
    assert window.get_at((50, 50))[:3] == (200, 0, 0) and window.get_at((70, 70))[:3] == (9, 9, 9)
    blanked = PutBack(BLANK, pygame.Rect(0, 0, 100, 100))
    blanked.settle(window, Solids(window))
    assert window.get_at((70, 70))[:3] == BG
