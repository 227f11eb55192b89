"""The damage notice: what the start (or a refused undo) says about a damaged saved game, over the
top of the body, every word of it. The message line has room for one line of it at most; this
notice wraps it and makes its type smaller until the whole of it fits the band, at any screen size
and in every language (Chinese wraps anywhere, a file name is never cut)."""

from __future__ import annotations


import pygame

from table.ui.screens.kit import REFUSAL, TEXT, Painter

from table.ui.frame import Frame
from table.ui.view import View

SIZES = (24, 22, 20, 18, 17, 16, 15, 14, 13, 12, 11, 10)     # per 480 lines, tried largest first
MOST = 0.7                                                  # of the body the notice may cover


def notice_lines(painter: Painter, text: str, width: int, height: int, s: float) -> tuple[list[str], int]:
    """``text`` broken into lines that each fit ``width`` whole, at the largest size whose lines
    fit ``height`` too (the smallest size when none does); (lines, size in pixels)."""
    lines: list[str] = []
    size = 8
    for points in SIZES:
        size = max(8, int(points * s))
        lines = painter.wrap_lines(text, size, width, max_lines=10_000)
        if (all(painter.width(line, size) <= width for line in lines)
                and len(lines) * painter.line_height(size) <= height):
            break
    return lines, size


def draw_damage_notice(f: Frame, view: View, body: pygame.Rect) -> None:
    """The notice in a band across the top of the body, as tall as its lines need."""
    s = f.s
    pad = int(12 * s)
    inner_w = body.w - 2 * pad - int(8 * s)
    lines, size = notice_lines(f.painter, view.damage_notice, inner_w, int(body.h * MOST) - 2 * pad, s)
    step = f.painter.line_height(size)
    band = pygame.Rect(body.x + int(4 * s), body.y + int(4 * s), body.w - int(8 * s), len(lines) * step + 2 * pad)
    band.h = min(band.h, body.h - int(8 * s))
    f.painter.panel(band, REFUSAL, border=TEXT, width=max(1, int(2 * s)))
    f.overlay(band)
    f.panels["damage-notice"] = band
    inner = f.panels["damage-notice-text"] = band.inflate(-2 * pad, -2 * pad)
    y = inner.y
    for line in lines:
        if y + step > inner.bottom:
            break
        f.painter.text(line, size, TEXT, inner, y=y, shrink=1.0)
        y += step
