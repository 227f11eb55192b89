"""The league board (``run --league-board``, issue 25): the standings across every table of the league,
and each table's state, on a wall screen. Drawn whole from the league's data on a window's surface
through the screens' ``Painter``, in the table's language."""

from __future__ import annotations

from typing import Any

import pygame

from table.words.i18n import _, ngettext, shown_name
from table.ui.screens.kit import ACTIVE, BAD, BG, DIM, GOOD, PANEL, TEXT, Painter

ROWS = 12           # the standings' rows at 480 lines (more on a taller screen)


def draw_league_board(painter: Painter, data: dict[str, Any], name: str, *, s: float = 1.0,
                      problem: str = "") -> None:
    """The whole board on ``painter``'s surface: title, standings (left), tables (right)."""
    surface = painter.surface
    w, h = surface.get_size()
    surface.fill(BG)
    pad = int(12 * s)
    title = _("League {name}").format(name=name)
    painter.text(title, 30 * s, ACTIVE, pygame.Rect(pad, pad, w * 2 // 3, int(40 * s)))
    board, tables = data["standings"], data["tables"]
    if board is not None:
        games = ngettext("{n} game", "{n} games", board["games"]).format(n=board["games"])
        count = ngettext("{n} table", "{n} tables", len(tables)).format(n=len(tables))
        painter.text(f"{count} · {games}", 18 * s, DIM, pygame.Rect(w // 2, pad + int(8 * s), w // 2 - pad, int(30 * s)),
                     align="right")
    top = pad + int(48 * s)
    left = pygame.Rect(pad, top, int(w * 0.58) - pad, h - top - pad)
    right = pygame.Rect(left.right + pad, top, w - left.right - 2 * pad, h - top - pad)
    painter.panel(left, PANEL)
    painter.panel(right, PANEL)
    if board is None:
        painter.text(problem or _("waiting for the league broker"), 20 * s, DIM, left.inflate(-2 * pad, -2 * pad))
        return
    _standings(painter, board, left.inflate(-2 * pad, -2 * pad), s)
    _tables(painter, tables, right.inflate(-2 * pad, -2 * pad), s)
    if problem:
        painter.text(problem, 14 * s, BAD, pygame.Rect(pad, h - int(22 * s), w - 2 * pad, int(20 * s)))


# The standings' columns: (left edge, right edge) as parts of the panel's width; the player first.
COLUMNS = ((0.0, 0.40), (0.40, 0.55), (0.55, 0.67), (0.67, 0.79), (0.82, 1.0))


def _standings(painter: Painter, board: dict[str, Any], box: pygame.Rect, s: float) -> None:
    line = int(30 * s)
    cells = [pygame.Rect(box.x + int(a * box.w), 0, int((b - a) * box.w), line) for a, b in COLUMNS]
    heads = [_("player"), _("games"), _("wins"), _("kills"), _("best level")]
    y = box.y
    for n, (head, cell) in enumerate(zip(heads, cells)):
        painter.text(head, 14 * s, DIM, cell.move(0, y), align="left" if n == 0 else "right")
    y += int(24 * s)
    if not board["players"]:
        painter.text(_("no games yet"), 20 * s, DIM, pygame.Rect(box.x, y, box.w, line))
        return
    rows = max(1, (box.bottom - y) // line)
    for rank, p in enumerate(board["players"][:rows], start=1):
        color = ACTIVE if rank == 1 else TEXT
        painter.text(f"{rank}. {shown_name(p['name'])}", 20 * s, color, cells[0].move(0, y))
        for value, cell in zip((p["games"], p["wins"], p["kills"], p["highest_level"]), cells[1:]):
            painter.text(str(value), 20 * s, color, cell.move(0, y), align="right")
        y += line


def _tables(painter: Painter, tables: list[dict[str, Any]], box: pygame.Rect, s: float) -> None:
    line = int(44 * s)
    painter.text(_("Tables"), 14 * s, DIM, pygame.Rect(box.x, box.y, box.w, int(22 * s)))
    y = box.y + int(24 * s)
    for t in tables[: max(1, (box.bottom - y) // line)]:
        dot = GOOD if t["online"] else BAD
        pygame.draw.circle(painter.surface, dot, (box.x + int(6 * s), y + int(11 * s)), max(3, int(5 * s)))
        painter.text(t["table"], 18 * s, TEXT, pygame.Rect(box.x + int(16 * s), y, box.w // 2, int(24 * s)))
        turn = _("turn {n}").format(n=t["turn"]) if t["turn"] is not None else ""
        painter.text(" · ".join(x for x in (_(str(t["phase"]).replace("-", " ")) if t["phase"] else "", turn) if x), 14 * s, DIM,
                     pygame.Rect(box.x + box.w // 2, y + int(3 * s), box.w // 2, int(20 * s)), align="right")
        said = []
        if t["leaders"]:
            said.append(_("{names} (level {level})").format(names=", ".join(shown_name(n) for n in t["leaders"]),
                                                            level=t["level"]))
        if t.get("seats"):          # who sits at which pad, on a box with a pad at every seat
            said.append(" ".join(_("seat {n}").format(n=seat["seat"]) + ": " + shown_name(seat["name"])
                                 for seat in t["seats"]))
        if said:
            painter.text(" · ".join(said), 14 * s, DIM, pygame.Rect(box.x + int(16 * s), y + int(22 * s),
                                                                      box.w - int(16 * s), int(20 * s)))
        y += line
