"""The table: every player's panel at a glance, with the charity band and the sales basket."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from table.ui.i18n import _, shown_name
from table.ui.screens import menus
from table.ui.screens.kit import ACTIVE, BAD, DIM, GOOD, PANEL, PANEL_HI, TEXT, player_color

if TYPE_CHECKING:
    from table.ui.frame import Frame
    from table.ui.view import View


def draw_table(f: Frame, view: View, body: pygame.Rect) -> None:
    s, state = f.s, view.state
    players = state["players"]
    if state["phase"] == "charity":
        band_h = f.painter.line_height(int(22 * s)) + f.painter.line_height(int(20 * s)) + int(12 * s)
        band = pygame.Rect(body.x, body.y, body.w, band_h)
        draw_charity(f, view, band)
        body = pygame.Rect(body.x, band.bottom + int(6 * s), body.w, body.bottom - band.bottom - int(6 * s))
    if view.basket and view.menu is None:
        band_h = f.painter.line_height(int(20 * s)) + int(12 * s)
        band = pygame.Rect(body.x, body.bottom - band_h, body.w, band_h)
        draw_basket_band(f, view, band)
        body = pygame.Rect(body.x, body.y, body.w, band.y - body.y - int(6 * s))
    n = max(1, len(players))
    cols = (1 if n <= 3 else 2) if f.portrait else {1: 1, 2: 2, 3: 3, 4: 2}.get(n, 3)
    rows = -(-n // cols)
    gap = int(8 * s)
    pw = (body.w - gap * (cols - 1)) // cols
    ph = (body.h - gap * (rows - 1)) // rows
    for i, p in enumerate(players):
        r = pygame.Rect(body.x + (i % cols) * (pw + gap), body.y + (i // cols) * (ph + gap), pw, ph)
        draw_player(f, view, p, r)


def draw_player(f: Frame, view: View, p: dict[str, Any], r: pygame.Rect) -> None:
    """A player's panel: name, level, strength, race and class, and their cards (left on the screen while they stay)."""
    state = view.state
    cards = [*p["races"], *p["classes"], *p["equipped"], *p["carried"], *p["curses"]]
    shown = [p[k] for k in ("id", "name", "sex", "level", "combat_strength", "alive")]
    key = ("player", repr(shown), repr([p[k] for k in ("races", "classes", "equipped", "carried", "curses")]), state["active_player"] == p["id"], view.acting == p["id"],
           player_color(state, p["id"]), repr([(view.names.get(c), view.bonus.get(c)) for c in cards]),
           view.pads.get(p["id"]))
    f.cached(key, r, lambda: _draw_player(f, view, p, r))


def _draw_player(f: Frame, view: View, p: dict[str, Any], r: pygame.Rect) -> None:
    s, state = f.s, view.state
    active = state["active_player"] == p["id"]
    acting = view.acting == p["id"] and not active
    f.painter.panel(r, PANEL_HI if active else PANEL, border=ACTIVE if active else (GOOD if acting else None),
                       width=int(4 * s))
    f.panels[p["id"]] = r
    pygame.draw.rect(f.window, player_color(state, p["id"]), (r.x + int(4 * s), r.y + int(8 * s), int(6 * s), r.h - int(16 * s)),
                     border_radius=3)
    inner = pygame.Rect(r.x + int(16 * s), r.y + int(6 * s), r.w - int(24 * s), r.h - int(12 * s))
    alive = p["alive"]
    name_size = 24 if r.h > 150 * s else 20
    tag = _("acting") if acting else (_("DEAD") if not alive else "")
    name_box = inner
    if tag:
        tr = f.t(tag, 16, GOOD if acting else BAD, inner, y=inner.y + int(4 * s), align="right")
        name_box = pygame.Rect(inner.x, inner.y, max(0, tr.x - inner.x - int(6 * s)), inner.h)
    f.t(shown_name(p["name"]), name_size, TEXT if alive else DIM, name_box)
    y = inner.y + f.painter.line_height(int(name_size * s))
    level_size = min(80, max(28, (r.h / s) * (0.30 if r.h > 220 * s else 0.22)))
    level_box = pygame.Rect(inner.x, y, inner.w // 2, int(f.painter.line_height(int(level_size * s))))
    lr = f.t(str(p["level"]), level_size, ACTIVE if active else TEXT, level_box)
    f.level_rects[p["id"]] = level_box
    lab = pygame.Rect(lr.right + int(6 * s), y + int(level_box.h * 0.45), level_box.right - lr.right - int(6 * s), int(22 * s))
    f.t(_("level"), 16, DIM, lab)
    strength = p["combat_strength"]
    sb = pygame.Rect(inner.x + inner.w // 2, y + int(level_box.h * 0.15), inner.w - inner.w // 2,
                     int(f.painter.line_height(int(level_size * 0.7 * s))))
    sr = f.t(str(strength), level_size * 0.7, GOOD, sb)
    lab = pygame.Rect(sr.right + int(6 * s), sb.y + int(sb.h * 0.4), sb.right - sr.right - int(6 * s), int(22 * s))
    f.t(_("strength"), 16, DIM, lab)
    y = level_box.bottom
    who = " ".join(view.names.get(x, x) for x in [*p["races"], *p["classes"]]) or _("Human")
    gear = 17 if r.h > 220 * s else 15
    line_h = f.painter.line_height(int(gear * s))
    f.t(f"{_(p['sex'])} · {who}", gear, DIM, inner, y=y)
    y += line_h
    pad = view.pads.get(p["id"])
    if pad is not None:
        y += _draw_pad(f, pad, gear, inner, y)
    lines: list[tuple[str, tuple[int, int, int]]] = []
    for card in p["equipped"]:
        bonus = view.bonus.get(card)
        lines.append((view.names.get(card, card) + (f" {bonus:+d}" if bonus else ""), TEXT))
    for card in p["carried"]:
        lines.append((view.names.get(card, card) + " " + _("(carried)"), DIM))
    for card in p["curses"]:
        lines.append((view.names.get(card, card), BAD))
    room = max(0, (inner.bottom - y) // line_h)
    if len(lines) > room and room > 1:
        lines = lines[:room - 1] + [(_("+{n} more").format(n=len(lines) - room + 1), DIM)]
    for text, color in lines[:room]:
        f.t(text, gear, color, inner, y=y)
        y += line_h


def draw_charity(f: Frame, view: View, band: pygame.Rect) -> None:
    """The charity band: who keeps how many cards, and where the extra go. Each line is a panel of
    its own, kept while it says the same (the first comes back with the turn's player, the second
    changes with the levels)."""
    s, state = f.s, view.state
    active = next((p for p in state["players"] if p["id"] == state["active_player"]), None)
    limit = state["ruleset"]["hand_limit"] + (1 if active and "dwarf" in active["races"] else 0)
    others = [p for p in state["players"] if p["id"] != state["active_player"]]
    low = min((p["level"] for p in state["players"]), default=1)
    receivers = [shown_name(p["name"]) for p in others if p["level"] == low]
    if active and active["level"] == low and not receivers:
        to = _("you are lowest: discard the extra cards")
    else:
        lowest = min((p["level"] for p in others), default=low)
        receivers = [shown_name(p["name"]) for p in others if p["level"] == lowest]
        to = _("extra cards go to: {names}").format(names=", ".join(receivers))
    name = shown_name(active["name"]) if active else ""
    keeps = _("Charity: {name} keeps at most {n} cards").format(name=name, n=limit)
    f.panels["charity"] = band
    split = band.y + int(4 * s) + f.painter.line_height(int(22 * s))
    top = pygame.Rect(band.x, band.y, band.w, split - band.y)
    bottom = pygame.Rect(band.x, split, band.w, band.bottom - split)
    f.cached(("charity-keeps", keeps), top, lambda: _draw_charity_line(f, band, top, keeps, 22, ACTIVE, band.y + int(4 * s)))
    f.cached(("charity-to", to), bottom, lambda: _draw_charity_line(f, band, bottom, to, 20, TEXT, split))


def _draw_charity_line(f: Frame, band: pygame.Rect, part: pygame.Rect, text: str, size: int,
                       color: tuple[int, int, int], y: int) -> None:
    """One line of the charity band, in ``part`` of it: the band's own panel, clipped to the part."""
    s = f.s
    clip = f.window.get_clip()
    f.window.set_clip(part.clip(clip))
    try:
        f.painter.panel(band, PANEL_HI, border=ACTIVE, width=int(2 * s))
    finally:
        f.window.set_clip(clip)
    f.t(text, size, color, band.inflate(-int(20 * s), -int(8 * s)), y=y)


def draw_basket_band(f: Frame, view: View, band: pygame.Rect) -> None:
    """The sales basket in one line under the players, while no card menu is open."""
    key = ("basket-band", repr(view.basket), view.basket_gold, view.basket_levels)
    f.cached(key, band, lambda: _draw_basket_band(f, view, band))


def _draw_basket_band(f: Frame, view: View, band: pygame.Rect) -> None:
    s = f.s
    f.painter.panel(band, PANEL_HI, border=GOOD, width=int(2 * s))
    f.panels["basket"] = band
    inner = band.inflate(-int(20 * s), 0)
    total, buys, color = menus.basket_summary(f, view)
    y = band.y + (band.h - f.painter.line_height(int(20 * s))) // 2
    right = f.t(" · ".join([total, *buys]), 20, color, pygame.Rect(inner.x + inner.w // 2, band.y, inner.w - inner.w // 2, band.h),
                   y=y, align="right")
    names = ", ".join(item["name"] for item in view.basket)
    f.t(f"{_('Sales basket')}: {names}", 20, TEXT, pygame.Rect(inner.x, band.y, max(0, right.x - inner.x - int(12 * s)), band.h),
           y=y)


def _draw_pad(f: Frame, pad: tuple[int, bool | None, str], size: int, inner: pygame.Rect, y: int) -> int:
    """The seat's pad on its player's panel: online or offline, and what it last read; the height it took."""
    seat, online, last = pad
    state = {True: (_("seat {seat}: pad online"), DIM), False: (_("seat {seat}: PAD OFFLINE"), BAD),
             None: (_("seat {seat}: pad"), DIM)}[online]
    text = state[0].format(seat=seat) + (" · " + _("last tap: {tag}").format(tag=last) if last else "")
    f.t(text, size - 2, state[1], inner, y=y)
    return int(f.painter.line_height(int((size - 2) * f.s)))
