"""The table: the players' strip and what each of them has at a glance, with the charity band and the sales basket."""

from __future__ import annotations

from typing import Any

import pygame

from table.words.i18n import _, shown_name
from table.ui.screens import menus, players
from table.ui.screens.kit import ACTIVE, BAD, DIM, GOOD, PANEL, PANEL_HI, TEXT, player_color

from table.ui.frame import Frame
from table.ui.view import View


def draw_table(f: Frame, view: View, body: pygame.Rect) -> None:
    """The players' strip (the fight's and charity's too) and, beside it, what each player has:
    landscape, each player's gear in line with their panel; with the charity band or the sales
    basket in the area (and portrait), one under the other, named."""
    s, state = f.s, view.state
    players_ = state["players"]
    strip, area = players.split(f, body, len(players_))
    places = players.draw_players(f, view, strip)
    gap = int(6 * s)
    if state["phase"] == "charity":
        band_h = f.painter.line_height(int(22 * s)) + f.painter.line_height(int(20 * s)) + int(12 * s)
        band = pygame.Rect(area.x, area.y, area.w, band_h)
        draw_charity(f, view, band)
        area = pygame.Rect(area.x, band.bottom + gap, area.w, area.bottom - band.bottom - gap)
    if view.basket and view.menu is None:
        band_h = f.painter.line_height(int(20 * s)) + int(12 * s)
        band = pygame.Rect(area.x, area.bottom - band_h, area.w, band_h)
        draw_basket_band(f, view, band)
        area = pygame.Rect(area.x, area.y, area.w, band.y - area.y - gap)
    if not f.portrait and area.h == body.h:
        for p, r in zip(players_, places):
            draw_gear(f, view, p, pygame.Rect(area.x, r.y, area.w, r.h), named=False)
        return
    n = max(1, len(players_))
    ph = (area.h - gap * (n - 1)) // n
    for i, p in enumerate(players_):
        draw_gear(f, view, p, pygame.Rect(area.x, area.y + i * (ph + gap), area.w, ph), named=True)


def draw_gear(f: Frame, view: View, p: dict[str, Any], r: pygame.Rect, *, named: bool) -> None:
    """What a player has: sex, race and class, their seat's pad, their cards (left on the screen
    while they stay); their name on it when it is not in line with their panel in the strip."""
    state = view.state
    cards = [*p["races"], *p["classes"], *p["equipped"], *p["carried"], *p["curses"]]
    active = state["active_player"] == p["id"]          # "acting" is shown for another player only
    key = ("gear", p["id"], p["name"] if named else None, p["sex"], p["alive"],
           repr([p[k] for k in ("races", "classes", "equipped", "carried", "curses")]), active,
           view.acting == p["id"] and not active, player_color(state, p["id"]), repr([(view.names.get(c), view.bonus.get(c)) for c in cards]),
           view.pads.get(p["id"]))
    f.cached(key, r, lambda: _draw_gear(f, view, p, r, named), covers=f.corner)


def _draw_gear(f: Frame, view: View, p: dict[str, Any], r: pygame.Rect, named: bool) -> None:
    s, state = f.s, view.state
    active = state["active_player"] == p["id"]
    acting = view.acting == p["id"] and not active
    f.painter.panel(r, PANEL_HI if active else PANEL)
    f.panels[f"gear-{p['id']}"] = r
    pygame.draw.rect(f.window, player_color(state, p["id"]), (r.x + int(3 * s), r.y + int(4 * s), int(5 * s), r.h - int(8 * s)),
                     border_radius=3)
    inner = pygame.Rect(r.x + int(14 * s), r.y + int(4 * s), r.w - int(22 * s), r.h - int(8 * s))
    gear = 17 if r.h > 110 * s else 15
    line_h = f.painter.line_height(int(gear * s))
    y = inner.y
    tag = _("acting") if acting else (_("DEAD") if not p["alive"] else "")
    heading = f.painter.line_height(int((gear + 2) * s))
    inline = named and inner.h < heading + line_h          # one line only: the name is its first cell
    if named and not inline:
        f.t(shown_name(p["name"]), gear + 2, TEXT if p["alive"] else DIM, inner, y=y)
        y += heading
    pad = view.pads.get(p["id"])
    if pad is not None:
        y += _draw_pad(f, pad, gear, inner, y)
    who = " ".join(view.names.get(x, x) for x in [*p["races"], *p["classes"]]) or _("Human")
    cells: list[tuple[str, tuple[int, int, int]]] = [(f"{_(p['sex'])} · {who}", DIM)]
    if tag:                                                 # first, where it is always seen
        cells.insert(0, (tag, GOOD if acting else BAD))
    if inline:
        cells.insert(0, (shown_name(p["name"]), TEXT if p["alive"] else DIM))
    for card in p["equipped"]:
        bonus = view.bonus.get(card)
        cells.append((view.names.get(card, card) + (f" {bonus:+d}" if bonus else ""), TEXT))
    for card in p["carried"]:
        cells.append((view.names.get(card, card) + " " + _("(carried)"), DIM))
    for card in p["curses"]:
        cells.append((view.names.get(card, card), BAD))
    lines = max(0, (inner.bottom - y) // line_h)
    cols = max(1, int(inner.w // ((170 if lines == 1 else 240) * s)))    # narrower cells on a single line
    col_w = inner.w // cols
    room = lines * cols
    if len(cells) > room and room > 1:
        cells = cells[:room - 1] + [(_("+{n} more").format(n=len(cells) - room + 1), DIM)]
    for i, (text, color) in enumerate(cells[:room]):
        box = pygame.Rect(inner.x + (i % cols) * col_w, inner.y, col_w - int(8 * s), inner.h)
        f.t(text, gear, color, box, y=y + (i // cols) * line_h)


def draw_charity(f: Frame, view: View, band: pygame.Rect) -> None:
    """The charity band: who keeps how many cards, and where the extra go, as the engine has them
    (``state["charity"]``: the lowest-level living players, or no one when the giver is lowest or
    tied for it and discards them). Each line is a panel of
    its own, kept while it says the same (the first comes back with the turn's player, the second
    changes with the levels)."""
    s, state = f.s, view.state
    active = next((p for p in state["players"] if p["id"] == state["active_player"]), None)
    charity = state.get("charity") or {}       # the engine's: the giver's hand limit, who gets the extra
    limit = charity.get("hand_limit", state["ruleset"]["hand_limit"])
    names = {p["id"]: shown_name(p["name"]) for p in state["players"]}
    receivers = [names.get(player, player) for player in charity.get("receivers", [])]
    if receivers:
        to = _("extra cards go to: {names}").format(names=", ".join(receivers))
    else:                                       # lowest or tied for it (the engine names no one): discarded
        to = _("you are lowest: discard the extra cards")
    name = shown_name(active["name"]) if active else ""
    keeps = _("Charity: {name} keeps at most {n} cards").format(name=name, n=limit)
    f.panels["charity"] = band
    split = band.y + int(4 * s) + f.painter.line_height(int(22 * s))
    top = pygame.Rect(band.x, band.y, band.w, split - band.y)
    bottom = pygame.Rect(band.x, split, band.w, band.bottom - split)
    f.cached(("charity-keeps", keeps), top, lambda: _draw_charity_line(f, band, top, keeps, 22, ACTIVE, band.y + int(4 * s)),
             covers=f.corner)
    f.cached(("charity-to", to), bottom, lambda: _draw_charity_line(f, band, bottom, to, 20, TEXT, split), covers=f.corner)


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
