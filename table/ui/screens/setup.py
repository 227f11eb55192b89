"""The setup screen: the seats as players join, and how to start."""

from __future__ import annotations


import pygame

from table.words.i18n import _, shown_name
from table.ui.screens.join import draw_join, join_room
from table.ui.screens.kit import ACTIVE, DIM, GOOD, PANEL, PLAYER_COLORS, TEXT

from table.ui.frame import Frame
from table.ui.view import View


def draw_setup(f: Frame, view: View, body: pygame.Rect) -> None:
    """The seats and how to start: two panels, each kept on the screen while what it shows stays
    (a join redraws them, not the bars round them)."""
    s, state = f.s, view.state
    gap = int(8 * s)
    if f.portrait:
        left = pygame.Rect(body.x, body.y, body.w, int(body.h * 0.55) - gap)
        right = pygame.Rect(body.x, left.bottom + gap, body.w, body.bottom - left.bottom - gap)
    else:
        left = pygame.Rect(body.x, body.y, int(body.w * 0.55) - gap, body.h)
        right = pygame.Rect(left.right + gap, body.y, body.right - left.right - gap, body.h)
    rules, first = state["ruleset"], view.first_player
    seats = tuple((p["id"], p["name"]) for p in state["players"])
    f.cached(("setup-seats", view.web_url, rules["max_players"], seats, first), left,
             lambda: _draw_seats(f, view, left), covers=f.corner)
    starter = shown_name(state["players"][0]["name"]) if state["players"] and not first else ""
    if first:
        starter = next((shown_name(p["name"]) for p in state["players"] if p["id"] == first), first)
    f.cached(("setup-help", rules["min_players"], rules["max_players"], len(seats), starter), right,
             lambda: _draw_help(f, view, right, starter), covers=f.corner)


def _draw_seats(f: Frame, view: View, left: pygame.Rect) -> None:
    s, state = f.s, view.state
    gap = int(8 * s)
    f.painter.panel(left)
    f.panels["seats"] = left
    inner = left.inflate(-int(24 * s), -int(20 * s))
    f.t(_("Seats"), 24, DIM, inner)
    if view.web_url:        # the phones' join code at the seats' right
        top = inner.y + int(34 * s)
        room_w = join_room(f, view, int(inner.w * 0.4), inner.bottom - top)
        if room_w:
            draw_join(f, view, pygame.Rect(inner.right - room_w, top, room_w, inner.bottom - top))
            inner = pygame.Rect(inner.x, inner.y, inner.w - room_w - gap, inner.h)
    rules = state["ruleset"]
    rows = rules["max_players"]
    row_h = (inner.h - int(34 * s)) // max(rows, 1)
    first = view.first_player
    for i in range(rows):
        r = pygame.Rect(inner.x, inner.y + int(34 * s) + i * row_h, inner.w, row_h - int(4 * s))
        if i < len(state["players"]):
            p = state["players"][i]
            pygame.draw.rect(f.window, PLAYER_COLORS[i % 6], (r.x, r.y, int(8 * s), r.h), border_radius=3)
            line = pygame.Rect(r.x + int(16 * s), r.y, r.w - int(16 * s), r.h)
            label = f"{i + 1}. {shown_name(p['name'])}"
            name_r = f.t(label, 26, TEXT, line, y=r.y + (r.h - f.painter.line_height(int(26 * s))) // 2)
            if p["id"] == first:
                tag = pygame.Rect(name_r.right + int(12 * s), r.y, line.right - name_r.right - int(12 * s), r.h)
                f.t(_("starts"), 20, ACTIVE, tag, y=r.y + (r.h - f.painter.line_height(int(20 * s))) // 2)
        else:
            f.t(f"{i + 1}. " + _("(empty seat)"), 22, DIM, r, x=r.x + int(16 * s),
                   y=r.y + (r.h - f.painter.line_height(int(22 * s))) // 2)


def _draw_help(f: Frame, view: View, right: pygame.Rect, starter: str) -> None:
    s, state = f.s, view.state
    rules = state["ruleset"]
    f.painter.panel(right, PANEL)
    f.panels["setup-help"] = right
    inner = right.inflate(-int(24 * s), -int(20 * s))
    n = len(state["players"])
    y = inner.y
    f.t(_("New game"), 34, ACTIVE, inner, y=y)
    y += int(46 * s)
    lines = [_("Tap your player token to join ({lo}–{hi} players)").format(lo=rules["min_players"], hi=rules["max_players"]),
             _("ROLL: the die picks who starts"),
             _("NEXT: start the game")]
    for words in lines:
        y = f.painter.wrap(words, 22 * s, TEXT, inner, y=y, max_lines=2) + int(8 * s)
    joined = _("{n} joined").format(n=n)
    if n < rules["min_players"]:
        joined += " · " + _("{k} more needed").format(k=rules["min_players"] - n)
    f.t(joined, 26, GOOD if n >= rules["min_players"] else DIM, inner, y=inner.bottom - int(70 * s))
    if starter:
        f.t(_("First player: {name}").format(name=starter), 24, TEXT, inner, y=inner.bottom - int(36 * s))
