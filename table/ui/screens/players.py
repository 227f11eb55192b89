"""The players' strip that the table, the fight and charity share: one panel per player (name,
level, strength) in the same place and at the same size whatever the phase, beside (landscape)
or above (portrait) the phase's own area. A phase change lays out and pushes that area alone; a
player's panel is drawn again only when what it shows changed."""

from __future__ import annotations

from typing import Any

import pygame

from table.words.i18n import _, shown_name
from table.ui.screens.kit import ACTIVE, DIM, GOOD, PANEL, PANEL_HI, TEXT, player_color

from table.ui.frame import Frame
from table.ui.view import View

STRIP_W = 0.30                  # of the body's width, landscape
ROW_H = 72                      # a row of the strip, portrait (per 480 lines)


def split(f: Frame, body: pygame.Rect, n: int) -> tuple[pygame.Rect, pygame.Rect]:
    """The body cut in two: the players' strip and the phase's area (the same for every phase)."""
    gap = int(8 * f.s)
    if f.portrait:
        rows = -(-max(1, n) // columns(f, n))
        row_h = int(ROW_H * f.s)
        strip = pygame.Rect(body.x, body.y, body.w, rows * row_h + (rows - 1) * gap)
        return strip, pygame.Rect(body.x, strip.bottom + gap, body.w, body.bottom - strip.bottom - gap)
    strip = pygame.Rect(body.x, body.y, int(body.w * STRIP_W), body.h)
    return strip, pygame.Rect(strip.right + gap, body.y, body.right - strip.right - gap, body.h)


def columns(f: Frame, n: int) -> int:
    """How many players side by side in the strip: one column landscape, up to three portrait."""
    if not f.portrait:
        return 1
    return 2 if n == 4 else max(1, min(n, 3))


def rows(f: Frame, strip: pygame.Rect, n: int) -> list[pygame.Rect]:
    """Each player's place in the strip, in seat order."""
    gap = int(8 * f.s)
    n = max(1, n)
    cols = columns(f, n)
    count = -(-n // cols)
    pw = (strip.w - gap * (cols - 1)) // cols
    ph = (strip.h - gap * (count - 1)) // count
    return [pygame.Rect(strip.x + (i % cols) * (pw + gap), strip.y + (i // cols) * (ph + gap), pw, ph) for i in range(n)]


def draw_players(f: Frame, view: View, strip: pygame.Rect) -> list[pygame.Rect]:
    """Every player's panel in the strip; their places, in seat order."""
    players = view.state["players"]
    places = rows(f, strip, len(players))
    for p, r in zip(players, places):
        draw_mini_player(f, view, p, r)
    return places


def draw_mini_player(f: Frame, view: View, p: dict[str, Any], r: pygame.Rect) -> None:
    """A player in the strip: name, strength and level (left on the screen while they stay; what
    it shows does not depend on the phase, so a phase change leaves it)."""
    state = view.state
    active = state["active_player"] == p["id"]          # the acting border is drawn for another player only
    key = ("mini-player", repr([p[k] for k in ("id", "name", "level", "combat_strength", "alive")]),
           active, view.acting == p["id"] and not active, player_color(state, p["id"]))
    f.cached(key, r, lambda: _draw_mini_player(f, view, p, r), covers=f.corner)


def _draw_mini_player(f: Frame, view: View, p: dict[str, Any], r: pygame.Rect) -> None:
    s, state = f.s, view.state
    active = state["active_player"] == p["id"]
    acting = view.acting == p["id"] and not active
    f.painter.panel(r, PANEL_HI if active else PANEL, border=ACTIVE if active else (GOOD if acting else None),
                    width=int(3 * s))
    f.panels[p["id"]] = r
    pygame.draw.rect(f.window, player_color(state, p["id"]), (r.x + int(3 * s), r.y + int(4 * s), int(5 * s), r.h - int(8 * s)))
    inner = pygame.Rect(r.x + int(12 * s), r.y + int(2 * s), r.w - int(18 * s), r.h - int(4 * s))
    level_size = min(44, max(16, (r.h / s) * 0.62))
    lh = f.painter.line_height(int(level_size * s))
    level_box = pygame.Rect(inner.right - int(inner.w * 0.3), inner.y + max(0, (inner.h - lh) // 2), int(inner.w * 0.3), lh)
    f.t(str(p["level"]), level_size, ACTIVE if active else TEXT, level_box, align="right")
    f.level_rects[p["id"]] = level_box
    text_box = pygame.Rect(inner.x, inner.y, level_box.x - inner.x - int(4 * s), inner.h)
    name_size = min(20, max(12, (r.h / s) * 0.34))
    nh = f.painter.line_height(int(name_size * s))
    two = inner.h >= nh * 2
    y = inner.y + (inner.h - (nh * 2 if two else nh)) // 2
    f.t(shown_name(p["name"]), name_size, TEXT if p["alive"] else DIM, text_box, y=y)
    if two:
        f.t(_("strength {n}").format(n=p["combat_strength"]), name_size * 0.8, GOOD, text_box, y=y + nh)


__all__ = ["columns", "draw_mini_player", "draw_players", "rows", "split"]
