"""The "what can I do now?" panel: a long press of HELP opens it over the body, any press closes it.

Each row is one thing the acting player can do now (the state JSON's ``can``): a press of a button,
in the button's colour and with its name, or a tap of a card, with a card's outline; and what it
does, in the table's language. Every row is written whole: the type gets smaller, and a row wraps
onto a second line, until the list fits the panel (at 800x480 too, in every language)."""

from __future__ import annotations

import pygame

from table.ui.frame import Frame
from table.ui.screens.kit import ACTIVE, BUTTON_COLORS, DIM, PANEL_HI, TEXT
from table.ui.view import View
from table.words.i18n import _, shown_name

SIZES = (22, 20, 18, 17, 16, 15, 14, 13, 12, 11, 10)     # per 480 lines, tried largest first
TITLE = 26
GAP = 5             # between rows, per 480 lines


def _layout(f: Frame, rows: list[tuple[str, str]], area: pygame.Rect, columns: int,
            mark: int) -> tuple[list[list[str]], int]:
    """Each row's text broken into lines, in ``columns`` columns of ``area``, at the largest size at which
    every column's rows fit its height with their marks; (lines per row, size in pixels)."""
    painter, s = f.painter, f.s
    width = area.w // columns - mark - int(16 * s)
    per_column = -(-len(rows) // columns)
    lines: list[list[str]] = []
    size = 8
    for points in SIZES:
        size = max(8, int(points * s))
        lines = [painter.wrap_lines(what, size, width, max_lines=3) for _how, what in rows]
        heights = [max(1, len(row)) * painter.line_height(size) + int(GAP * s) for row in lines]
        tallest = max((sum(heights[i:i + per_column]) for i in range(0, len(heights), per_column)), default=0)
        if tallest <= area.h and all(painter.width(line, size) <= width for row in lines for line in row):
            break
    return lines, size


def draw_explain(f: Frame, view: View, body: pygame.Rect) -> None:
    """The panel over the body, for whoever is acting."""
    s, rows = f.s, view.explain or []
    box = pygame.Rect(body.x + int(body.w * 0.04), body.y + int(body.h * 0.03), int(body.w * 0.92), int(body.h * 0.94))
    f.painter.panel(box, PANEL_HI, border=ACTIVE, width=int(3 * s))
    f.overlay(box)
    f.panels["explain"] = box
    inner = box.inflate(-int(28 * s), -int(16 * s))
    who = next((p["name"] for p in view.state["players"] if p["id"] == view.acting), "")
    title = _("What can {name} do now?").format(name=shown_name(who)) if who else _("What can be done now?")
    f.t(title, TITLE, ACTIVE, inner)
    y = inner.y + f.painter.line_height(int(TITLE * s)) + int(6 * s)
    mark = int(28 * s)
    rows = [(how, f"{_(how[6:].upper())}: {what}" if how[6:] in BUTTON_COLORS and how.startswith("press ") else what)
            for how, what in rows]
    area = pygame.Rect(inner.x, y, inner.w, inner.bottom - y - f.painter.line_height(int(14 * s)))
    columns = max((1, 2), key=lambda n: _layout(f, rows, area, n, mark)[1])     # two when the type is larger so
    lines, size = _layout(f, rows, area, columns, mark)
    lh = f.painter.line_height(size)
    per_column = -(-len(rows) // columns)
    width = area.w // columns
    for n, ((how, _what), row_lines) in enumerate(zip(rows, lines)):
        if n % per_column == 0:
            x, y = area.x + (n // per_column) * width, area.y
        row_h = max(1, len(row_lines)) * lh
        _mark(f, how, pygame.Rect(x, y, mark, min(row_h, lh)))
        text_x = x + mark + int(10 * s)
        for k, line in enumerate(row_lines):
            f.painter.text(line, size, TEXT, pygame.Rect(text_x, y + k * lh, x + width - text_x, lh))
        y += row_h + int(GAP * s)
    f.t(_("any button closes this"), 14, DIM, pygame.Rect(inner.x, inner.bottom - f.painter.line_height(int(14 * s)),
                                                           inner.w, f.painter.line_height(int(14 * s))), align="right")


def _mark(f: Frame, how: str, cell: pygame.Rect) -> None:
    """A button's disc in its colour with its name, or a card's outline for a tap."""
    verb, _sep, what = how.partition(" ")
    r = cell.h // 2
    centre = (cell.x + cell.w // 2, cell.y + r)
    if verb == "press" and what in BUTTON_COLORS:
        pygame.draw.circle(f.window, BUTTON_COLORS[what], centre, max(4, r - 1))
        return
    card = pygame.Rect(0, 0, max(6, int(cell.h * 0.72)), max(8, cell.h))
    card.center = centre
    pygame.draw.rect(f.window, DIM, card, border_radius=max(1, int(3 * f.s)))           # a card, face down
    pygame.draw.rect(f.window, TEXT, card, width=max(1, int(1.5 * f.s)), border_radius=max(1, int(3 * f.s)))
