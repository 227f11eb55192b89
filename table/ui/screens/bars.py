"""The bands every table screen shares: the top bar (phases, turn, reader), the message line,
the soft keys and the simulator's strip of buttons, typed entry and suggestions."""

from __future__ import annotations

from functools import partial
from typing import Any

import pygame

from drivers.events import BUTTONS
from table.words.i18n import _, language, text as translate_label
from table.ui.picker import as_uid
from table.ui.keys import FKEYS
from table.ui.screens.kit import (ACTIVE, BAD, BANNER_PROMPTS, BG, BUTTON_COLORS, DIM, GOOD, KEY, KEY_OFF, LINE_PROMPTS, PANEL,
                                REFUSAL, TEXT, _phases)

from table.ui.frame import Frame
from table.ui.view import View


def draw_top(f: Frame, view: View, bar: pygame.Rect) -> None:
    """The phases (each chip left on the screen while it stays), the turn and the reader's state."""
    s, state = f.s, view.state
    x = int(8 * s)
    chip_h = int(28 * s)
    phase = state["phase"]
    if f.portrait:
        row = bar.h // 2
        y = (row - chip_h) // 2 + int(2 * s)
        strip = pygame.Rect(x, y, bar.w - 2 * x, chip_h)
        status = pygame.Rect(x, row, bar.w - x - int(10 * s), row)
    else:
        y = (bar.h - chip_h) // 2
        status_w = int(bar.w * 0.3)
        strip = pygame.Rect(x, y, bar.w - status_w - x, chip_h)
        status = pygame.Rect(bar.w - status_w, 0, status_w - int(10 * s), bar.h)
    draw_phases(f, phase, strip)
    _draw_top_status(f, view, status)


# The phase chips' type per 480 lines, largest first: the strip takes the largest at which every chip
# fits whole (with arrows between them, else with a gap), so no language loses a phase at 800x480.
PHASE_SIZES = (20, 18, 16, 15, 14)


_LAYOUTS: dict[tuple[Any, ...], tuple[int, bool, list[tuple[str, bool]]]] = {}
LAYOUTS_KEPT = 64


def phase_layout(f: Frame, phase: str, width: int, height: int) -> tuple[int, bool, list[tuple[str, bool]]]:
    """``laid_out_phases``, kept by what decides it (the phase, the strip's size, the painter and
    its font, the language): the same every frame until the phase changes."""
    key = (phase, width, height, f.s, f.painter, f.painter.font_choice, language())
    laid = _LAYOUTS.get(key)
    if laid is None:
        if len(_LAYOUTS) >= LAYOUTS_KEPT:
            _LAYOUTS.clear()
        laid = _LAYOUTS[key] = laid_out_phases(f, phase, width, height)
    return laid[0], laid[1], list(laid[2])


def laid_out_phases(f: Frame, phase: str, width: int, height: int) -> tuple[int, bool, list[tuple[str, bool]]]:
    """The chips' size, whether arrows go between them, and the chips ``(label, lit)`` to draw in
    ``width`` by ``height`` pixels: every chip, whole, at the largest size of PHASE_SIZES where
    they fit (a line of the language's font no taller than ``height``; the
    combat chip measured as the longer of "Combat" and "Run away", so the strip stays put when a
    fight turns into running); where none does, the lit chip and as many neighbours as fit at the
    smallest size. Never a cut word."""
    s = f.s
    run_away = _("Run away")
    chips = [(run_away if phase == "run-away" and phase in phases else label, phase in phases)
             for phases, label in _phases()]
    widest = [max(label, run_away, key=len) if "run-away" in phases else label for (phases, label) in _phases()]
    sizes = [size for size in PHASE_SIZES if f.painter.line_height(int(size * s)) <= height] or [PHASE_SIZES[-1]]
    for size in sizes:
        widths = [_chip_width(f, label, size) for label in widest]
        for arrows in (True, False):
            if sum(widths) + (len(widths) - 1) * _between(s, arrows) <= width:
                return size, arrows, chips
    size = sizes[-1]
    lit = next((i for i, (_label, on) in enumerate(chips) if on), 0)
    first = last = lit
    used = _chip_width(f, chips[lit][0], size)
    while True:                 # widen around the lit chip, the later phases first
        grown = False
        for i in (last + 1, first - 1):
            if 0 <= i < len(chips) and used + _between(s, False) + _chip_width(f, chips[i][0], size) <= width:
                used += _between(s, False) + _chip_width(f, chips[i][0], size)
                first, last, grown = min(first, i), max(last, i), True
        if not grown:
            return size, False, chips[first:last + 1]


def _chip_width(f: Frame, label: str, size: int) -> int:
    return f.painter.width(label, int(size * f.s)) + int(size * 0.8 * f.s)


def _between(s: float, arrows: bool) -> int:
    """The room between two chips: an arrow, or a narrow gap."""
    return int(24 * s) if arrows else int(6 * s)


def draw_phases(f: Frame, phase: str, strip: pygame.Rect) -> None:
    """The turn's phases as chips, the current one lit (``phase_layout``: every chip whole, in every
    language). Each chip, with the arrow after it, is a panel of its own (the strip's rest another),
    so a new phase redraws the chips whose light moved, not the strip; the chips after one whose
    label changes ("Run away") move with it."""
    s = f.s
    x, y, chip_h = strip.x, strip.y, strip.h
    size, arrows, chips = phase_layout(f, phase, strip.w, chip_h)
    for i, (label, on) in enumerate(chips):
        chip = pygame.Rect(x, y, _chip_width(f, label, size), chip_h)
        if chip.right > strip.right and not on:
            break
        arrow = pygame.Rect(chip.right + int(4 * s), y, int(18 * s), chip_h) if arrows and i < len(chips) - 1 else None
        if arrow is not None and arrow.right > strip.right:
            arrow = None
        end = arrow.right + int(2 * s) if arrow is not None else chip.right + _between(s, False)
        tile = pygame.Rect(x, y, min(end, strip.right) - x, chip_h)
        f.cached(("phase", label, on, arrow is not None, size), tile, partial(_draw_chip, f, label, on, chip, arrow, size))
        x = tile.right
    if x < strip.right:
        f.cached(("phase-rest",), pygame.Rect(x, y, strip.right - x, chip_h), lambda: None)


def _draw_chip(f: Frame, label: str, on: bool, chip: pygame.Rect, arrow: pygame.Rect | None, size: int = 20) -> None:
    s = f.s
    if on:
        f.painter.panel(chip, ACTIVE)
    y = chip.y + max(0, (chip.h - f.painter.line_height(int(size * s))) // 2)
    f.t(label, size, BG if on else DIM, chip, x=chip.x + int(size * 0.4 * s), y=y)
    if arrow is not None:
        f.t("→", size, DIM, arrow, y=y)


def _draw_top_status(f: Frame, view: View, status: pygame.Rect) -> None:
    """The turn and the reader's state (left on the screen while they stay)."""
    phase = view.state["phase"]
    if phase == "setup":
        right = _("Setup")
    elif phase == "game-over":
        right = _("Game over")
    else:
        right = _("Turn {n}").format(n=view.state["turn"])
    reader = {True: (_("reader ok"), GOOD), False: (_("READER OFFLINE"), BAD), None: ("", DIM)}[view.reader_online]
    f.cached(("status", right, reader), status, lambda: _draw_status(f, right, reader, status), bare=True)


def _draw_status(f: Frame, right: str, reader: tuple[str, tuple[int, int, int]], status: pygame.Rect) -> None:
    s = f.s
    if reader[0]:
        r = f.t(reader[0], 18, reader[1], status, y=status.y + (status.h - f.painter.line_height(int(18 * s))) // 2,
                   align="right")
        status = pygame.Rect(status.x, status.y, max(0, r.x - status.x - int(12 * s)), status.h)
    f.t(right, 22, TEXT, status, y=status.y + (status.h - f.painter.line_height(int(22 * s))) // 2, align="right")


def draw_message(f: Frame, view: View, r: pygame.Rect) -> None:
    """The message line: the last result or refusal, a prompt, or what is being typed (left on the
    screen while it says the same)."""
    text, color = view.message, TEXT
    refusal = False
    if view.entry:
        text, color = _("tap: {entry}_").format(entry=view.entry), ACTIVE
    elif view.prompt and view.prompt_kind in (*BANNER_PROMPTS, *LINE_PROMPTS):
        text, color = view.prompt, ACTIVE
    elif view.message_kind == "refusal":
        refusal = True
    f.cached(("message", text, color, refusal), r, lambda: _draw_message(f, text, color, refusal, r), bare=not refusal)
    f.panels["message"] = r


def _draw_message(f: Frame, text: str, color: tuple[int, int, int], refusal: bool, r: pygame.Rect) -> None:
    s = f.s
    if refusal:
        f.painter.panel(r, REFUSAL)
        if f.painter.has_glyph("✗", int(22 * s)):
            text = "✗ " + text
    inner = r.inflate(-int(12 * s), 0)
    if text and f.portrait and f.painter.width(text, int(22 * s)) > inner.w:
        f.painter.wrap(text, 20 * s, color, inner, y=r.y + (r.h - 2 * f.painter.line_height(int(20 * s))) // 2,
                          max_lines=2)
    elif text:
        f.t(text, 22, color, inner, y=r.y + (r.h - f.painter.line_height(int(22 * s))) // 2, shrink=0.6)


def draw_soft_keys(f: Frame, soft_keys: dict[str, str], bar: pygame.Rect) -> None:
    """The five soft keys, each with what it does now (``soft_keys``: button -> its English label;
    each key is left on the screen while its label stays)."""
    s = f.s
    kw = bar.w // len(BUTTONS)
    for i, button in enumerate(BUTTONS):
        r = pygame.Rect(bar.x + i * kw + int(4 * s), bar.y + int(2 * s), kw - int(8 * s), bar.h - int(6 * s))
        label = soft_keys.get(button, "")
        f.cached(("soft-key", button, label), r, lambda: _draw_soft_key(f, button, label, r), covers=f.corner)


def _draw_soft_key(f: Frame, button: str, label: str, r: pygame.Rect) -> None:
    s = f.s
    f.painter.panel(r, KEY if label else KEY_OFF)
    pygame.draw.rect(f.window, BUTTON_COLORS[button], (r.x, r.y, r.w, int(5 * s)),
                     border_top_left_radius=int(8 * s), border_top_right_radius=int(8 * s))
    f.panels[f"key-{button}"] = r
    f.hits.append((r, ("button", button)))
    inner = r.inflate(-int(12 * s), -int(8 * s))
    f.t(_(button.upper()), 15, DIM, inner, y=inner.y + int(3 * s))
    f.t(translate_label(label) if label else "—", 22, TEXT if label else DIM, inner,
           y=inner.bottom - f.painter.line_height(int(22 * s)), shrink=0.6)


def draw_strip(f: Frame, view: View, strip: pygame.Rect) -> None:
    """The simulator's strip: clickable buttons, the typed entry and its suggestions (left on the screen while they stay)."""
    key = ("strip", view.entry, repr(view.suggestions), view.pick, view.pad_seat)
    f.cached(key, strip, lambda: _draw_strip(f, view, strip))


def _draw_seat_selector(f: Frame, view: View, entry: pygame.Rect) -> pygame.Rect:
    """The picker's pad: the shared one or a seat's (F6 or a click moves it on), at the right of the
    suggestions' lane; the lane's room left of it."""
    s = f.s
    label = _("F6 shared pad") if view.pad_seat is None else _("F6 seat {seat}").format(seat=view.pad_seat)
    width = f.painter.width(label, int(15 * s)) + int(16 * s)
    chip = pygame.Rect(entry.right - width, entry.y, width, entry.h)
    pygame.draw.rect(f.window, KEY if view.pad_seat is None else ACTIVE, chip, border_radius=int(4 * s))
    f.hits.append((chip, ("seat", "")))
    f.t(label, 15, TEXT if view.pad_seat is None else BG, chip, y=chip.y + (chip.h - f.painter.line_height(int(15 * s))) // 2,
        align="center")
    return pygame.Rect(entry.x, entry.y, max(0, chip.x - entry.x - int(6 * s)), entry.h)


def _draw_strip(f: Frame, view: View, strip: pygame.Rect) -> None:
    s = f.s
    pygame.draw.rect(f.window, (8, 8, 10), strip)
    pygame.draw.line(f.window, DIM, strip.topleft, strip.topright, 1)
    row = int(strip.h / 2)
    bw = int(strip.w * 0.5) // 5
    for i, button in enumerate(BUTTONS):
        r = pygame.Rect(strip.x + int(6 * s) + i * bw, strip.y + int(6 * s), bw - int(6 * s), row - int(10 * s))
        pygame.draw.rect(f.window, BUTTON_COLORS[button], r, border_radius=int(6 * s))
        f.hits.append((r, ("button", button)))
        f.t(f"{FKEYS[button]} {_(button.upper())}", 15, BG, r, y=r.y + (r.h - f.painter.line_height(int(15 * s))) // 2,
               align="center")
    entry = pygame.Rect(strip.x + int(strip.w * 0.5) + int(8 * s), strip.y + int(6 * s), int(strip.w * 0.5) - int(14 * s),
                        row - int(10 * s))
    pygame.draw.rect(f.window, PANEL, entry, border_radius=int(4 * s))
    uid = as_uid(view.entry)
    if uid:
        hint = _("tap a tag UID: {uid}").format(uid=uid) + "_"
    else:
        hint = _("type a card, id or player, Enter taps") if not view.entry else view.entry + "_"
    f.t(hint, 16, TEXT if view.entry else DIM, entry.inflate(-int(12 * s), 0),
           y=entry.y + (entry.h - f.painter.line_height(int(16 * s))) // 2)
    x = strip.x + int(6 * s)
    y = strip.y + row
    lane = _draw_seat_selector(f, view, pygame.Rect(x, y, strip.w - int(12 * s), row - int(6 * s)))
    for i, (cid, label) in enumerate(view.suggestions):
        tw = f.painter.width(label, int(16 * s)) + int(16 * s)
        r = pygame.Rect(x, y, tw, lane.h)
        if r.right > lane.right:
            break
        pygame.draw.rect(f.window, ACTIVE if i == view.pick else KEY, r, border_radius=int(4 * s))
        f.hits.append((r, ("card", cid)))
        f.t(label, 16, BG if i == view.pick else TEXT, r, x=r.x + int(8 * s),
               y=r.y + (r.h - f.painter.line_height(int(16 * s))) // 2)
        x = r.right + int(6 * s)
