"""Running away: who rolls against which monster, what they need, the results and the die."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from engine.run_away import ESCAPE_ON
from table.ui.i18n import _, shown_name
from table.ui.screens.die import draw_die
from table.ui.screens.kit import ACTIVE, BAD, GOOD, TEXT

if TYPE_CHECKING:
    from table.ui.frame import Frame
    from table.ui.view import View


def draw_run_away(f: Frame, view: View, r: pygame.Rect) -> None:
    """Running away (left on the screen while it shows the same), then the die over it: while the
    die tumbles, a frame pushes the die's rectangle alone."""
    state = view.state
    flight = state["run_away"]
    monsters = [m["card"] for m in state["combat"]["monsters"]] if state["combat"] else []
    shown = [*monsters, *(cur["monster"] or "" for cur in flight["pending"][:1])]
    key = ("run-away", repr(flight), repr(monsters), repr([(p["id"], p["name"]) for p in state["players"]]),
           repr([view.names.get(c) for c in shown]), repr(view.run_needs), repr([view.monsters.get(c) for c in shown]))
    die = f.cached(key, r, lambda: _draw_run_away(f, view, r))
    if state.get("last_roll") and (flight["results"] or f.die.animating()):
        draw_die(f, die, state["last_roll"])


def _draw_run_away(f: Frame, view: View, r: pygame.Rect) -> pygame.Rect:
    """The run-away panel but the die; returns where the die goes."""
    s, state = f.s, view.state
    flight = state["run_away"]
    f.painter.panel(r)
    f.panels["run-away"] = r
    inner = r.inflate(-int(20 * s), -int(16 * s))
    # portrait: bigger type over the full width, the die large in the space left below
    k = 1.35 if f.portrait else 1.0
    f.t(_("Running away"), 32 * k, ACTIVE, inner)
    y = inner.y + f.painter.line_height(int(32 * k * s)) + int(4 * s)
    if f.portrait:
        text_box = pygame.Rect(inner.x, y, inner.w, inner.bottom - y)
        die = pygame.Rect(inner.x, inner.bottom, inner.w, 0)     # placed once the text is drawn
    else:
        die_size = min(int(inner.h * 0.45), int(inner.w * 0.3))
        die = pygame.Rect(inner.right - die_size, y, die_size, die_size)
        text_box = pygame.Rect(inner.x, y, die.x - inner.x - int(12 * s), inner.bottom - y)
    byid = {p["id"]: p for p in state["players"]}
    if flight["pending"]:
        cur = flight["pending"][0]
        who = shown_name(byid.get(cur["player"], {}).get("name", cur["player"]))
        f.t(_("{who} rolls").format(who=who), 26 * k, TEXT, text_box, y=y)
        y += f.painter.line_height(int(26 * k * s))
        f.t(_("against {monster}").format(monster=view.names.get(cur["monster"], cur["monster"] or "")), 20 * k, TEXT,
               text_box, y=y)
        y += f.painter.line_height(int(20 * k * s))
        need = view.run_needs.get(cur["player"], ESCAPE_ON)
        f.t(_("needs {n} or more").format(n=need), 30 * k, ACTIVE, text_box, y=y)
        y += f.painter.line_height(int(30 * k * s))
        info = view.monsters.get(cur["monster"] or "", {})
        if info.get("bad_stuff"):
            y = f.painter.wrap(_("Bad stuff: {text}").format(text=info["bad_stuff"]), 17 * k * s, BAD, text_box, y=y,
                                  max_lines=4 if f.portrait else 2)
    y += int(6 * s)
    lh = f.painter.line_height(int(17 * k * s))
    monsters = state["combat"]["monsters"] if state["combat"] else []
    for res in flight["results"]:
        who = shown_name(byid.get(res["player"], {}).get("name", res["player"]))
        idx = res["monster"]
        mname = view.names.get(monsters[idx]["card"], "") if isinstance(idx, int) and idx < len(monsters) else ""
        outcome = _("escaped") if res["escaped"] else _("caught")
        f.t(_("{who} rolled {roll} vs {monster}: {outcome}").format(who=who, roll=res["roll"], monster=mname, outcome=outcome),
               17 * k, GOOD if res["escaped"] else BAD, text_box, y=y)
        y += lh
    if f.portrait:
        y += int(12 * s)
        die_size = max(0, min(inner.bottom - y, int(inner.w * 0.5)))
        die = pygame.Rect(inner.centerx - die_size // 2, y + (inner.bottom - y - die_size) // 2, die_size, die_size)
        f.panels["die"] = die
    return die
