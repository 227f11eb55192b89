"""Running away: who rolls against which monster, what they need, the results and the die."""

from __future__ import annotations


import pygame

from engine.run_away import ESCAPE_ON
from table.words.i18n import _, shown_name
from table.ui.screens.die import draw_die
from table.ui.screens.kit import ACTIVE, BAD, GOOD, PANEL, TEXT

from table.ui.frame import Frame
from table.ui.view import View


def draw_run_away(f: Frame, view: View, r: pygame.Rect) -> None:
    """Running away (left on the screen while it shows the same), then the die over it: while the
    die tumbles, a frame pushes the die's rectangle alone. Landscape, the panel is three panels
    that tile it, each kept while it shows the same (the title, what is rolled and how it went,
    the die's side); portrait, one."""
    state = view.state
    flight = state["run_away"]
    if f.portrait:
        monsters = [m["card"] for m in state["combat"]["monsters"]] if state["combat"] else []
        shown = [*monsters, *(cur["monster"] or "" for cur in flight["pending"][:1])]
        key = ("run-away", repr(flight), repr(monsters), repr([(p["id"], p["name"]) for p in state["players"]]),
               repr([view.names.get(c) for c in shown]), repr(view.run_needs), repr([view.monsters.get(c) for c in shown]))
        die = f.cached(key, r, lambda: _draw_run_away(f, view, r))
    else:
        die = _draw_run_away_parts(f, view, r)
    if state.get("last_roll") and (flight["results"] or f.die.animating()):
        draw_die(f, die, state["last_roll"])


def _draw_run_away_parts(f: Frame, view: View, r: pygame.Rect) -> pygame.Rect:
    """The landscape run-away panel as its three parts; returns where the die goes."""
    s = f.s
    f.panels["run-away"] = r
    inner = r.inflate(-int(20 * s), -int(16 * s))
    y = inner.y + f.painter.line_height(int(32 * s)) + int(4 * s)
    die_size = min(int(inner.h * 0.45), int(inner.w * 0.3))
    die = pygame.Rect(inner.right - die_size, y, die_size, die_size)
    split = die.x - int(6 * s)
    head = pygame.Rect(r.x, r.y, r.w, y - r.y)
    text = pygame.Rect(r.x, y, split - r.x, r.bottom - y)
    side = pygame.Rect(split, y, r.right - split, r.bottom - y)
    radius = f.painter.radius()
    f.cached(("run-away-head",), head, lambda: _draw_head(f, head, radius), covers=f.corner)
    lines = flight_lines(view)
    f.cached(("run-away-flight", repr(lines)), text, lambda: _draw_flight(f, lines, text, radius), covers=f.corner)
    f.cached(("run-away-side",), side, lambda: _draw_side(f, side, radius), covers=f.corner)
    return die


def _draw_side(f: Frame, side: pygame.Rect, radius: int) -> None:
    """The die's side of the panel, without the die (drawn over it)."""
    pygame.draw.rect(f.window, PANEL, side, border_bottom_right_radius=radius)


def _draw_head(f: Frame, head: pygame.Rect, radius: int) -> None:
    pygame.draw.rect(f.window, PANEL, head, border_top_left_radius=radius, border_top_right_radius=radius)
    s = f.s
    f.t(_("Running away"), 32, ACTIVE, pygame.Rect(head.x + int(10 * s), head.y + int(8 * s), head.w - 2 * int(10 * s),
                                                    head.h - int(8 * s)))


def flight_lines(view: View, *, bad_lines: int = 2) -> list[tuple[str, float, tuple[int, int, int], int]]:
    """What the run-away panel says under its title, line by line: (text, size, colour, lines it
    may wrap to: ``bad_lines`` for the bad stuff); a line with no text is the gap before the results."""
    state = view.state
    flight = state["run_away"]
    byid = {p["id"]: p for p in state["players"]}
    lines: list[tuple[str, float, tuple[int, int, int], int]] = []
    if flight["pending"]:
        cur = flight["pending"][0]
        who = shown_name(byid.get(cur["player"], {}).get("name", cur["player"]))
        lines.append((_("{who} rolls").format(who=who), 26, TEXT, 1))
        lines.append((_("against {monster}").format(monster=view.names.get(cur["monster"], cur["monster"] or "")), 20, TEXT, 1))
        lines.append((_("needs {n} or more").format(n=view.run_needs.get(cur["player"], ESCAPE_ON)), 30, ACTIVE, 1))
        info = view.monsters.get(cur["monster"] or "", {})
        if info.get("bad_stuff"):
            lines.append((_("Bad stuff: {text}").format(text=info["bad_stuff"]), 17, BAD, bad_lines))
    lines.append(("", 0, TEXT, 0))
    monsters = state["combat"]["monsters"] if state["combat"] else []
    for res in flight["results"]:
        who = shown_name(byid.get(res["player"], {}).get("name", res["player"]))
        idx = res["monster"]
        mname = view.names.get(monsters[idx]["card"], "") if isinstance(idx, int) and idx < len(monsters) else ""
        outcome = _("escaped") if res["escaped"] else _("caught")
        lines.append((_("{who} rolled {roll} vs {monster}: {outcome}").format(who=who, roll=res["roll"], monster=mname,
                                                                           outcome=outcome),
                      17, GOOD if res["escaped"] else BAD, 1))
    return lines


def _draw_flight(f: Frame, lines: list[tuple[str, float, tuple[int, int, int], int]], part: pygame.Rect,
                 radius: int) -> None:
    s = f.s
    pygame.draw.rect(f.window, PANEL, part, border_bottom_left_radius=radius)
    f.panels["run-away-flight"] = part
    _draw_lines(f, lines, pygame.Rect(part.x + int(10 * s), part.y, part.w - int(10 * s) - int(6 * s), part.h - int(8 * s)))


def _draw_lines(f: Frame, lines: list[tuple[str, float, tuple[int, int, int], int]], box: pygame.Rect,
                k: float = 1.0) -> int:
    """``flight_lines`` from the top of ``box``, type ``k`` times larger; returns the y under them."""
    s = f.s
    y = box.y
    for text, size, color, wraps in lines:
        if not text:
            y += int(6 * s)
        elif wraps > 1:
            y = f.painter.wrap(text, size * k * s, color, box, y=y, max_lines=wraps)
        else:
            f.t(text, size * k, color, box, y=y)
            y += f.painter.line_height(int(size * k * s))
    return y


def _draw_run_away(f: Frame, view: View, r: pygame.Rect) -> pygame.Rect:
    """The portrait run-away panel but the die: bigger type over the full width, the die large in
    the space left below; returns where the die goes."""
    s = f.s
    f.painter.panel(r)
    f.panels["run-away"] = r
    inner = r.inflate(-int(20 * s), -int(16 * s))
    k = 1.35
    f.t(_("Running away"), 32 * k, ACTIVE, inner)
    y = inner.y + f.painter.line_height(int(32 * k * s)) + int(4 * s)
    y = _draw_lines(f, flight_lines(view, bad_lines=4), pygame.Rect(inner.x, y, inner.w, inner.bottom - y), k)
    y += int(12 * s)
    die_size = max(0, min(inner.bottom - y, int(inner.w * 0.5)))
    die = pygame.Rect(inner.centerx - die_size // 2, y + (inner.bottom - y - die_size) // 2, die_size, die_size)
    f.panels["die"] = die
    return die
