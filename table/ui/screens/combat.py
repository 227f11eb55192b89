"""The combat: both sides' strengths and the verdict, beside (or, in portrait, under) the players' strip."""

from __future__ import annotations

from typing import Any

import pygame

from table.words.i18n import _, ngettext, shown_name
from table.ui.screens import players, run_away
from table.ui.screens.kit import ACTIVE, BAD, DIM, GOOD, KEY_OFF, PANEL, TEXT

from table.ui.frame import Frame
from table.ui.view import View


def draw_combat_screen(f: Frame, view: View, body: pygame.Rect) -> None:
    """The players' strip (the table's own, left as it is) and the fight, or the flight, beside it."""
    state = view.state
    strip, area = players.split(f, body, len(state["players"]))
    players.draw_players(f, view, strip)
    if state["phase"] == "run-away" and state.get("run_away"):
        run_away.draw_run_away(f, view, area)
    else:
        draw_combat(f, view, area)


def verdict(combat: dict[str, Any]) -> str:
    ps, ms = combat["players_strength"], combat["monsters_strength"]
    margin = abs(ps - ms)
    if combat["players_winning"]:
        return _("PLAYERS WIN by {n}").format(n=margin) if margin else _("PLAYERS WIN (tie)")
    return _("MONSTERS WIN by {n}").format(n=margin) if margin else _("MONSTERS WIN (tie)")


def draw_interference_bar(f: Frame, view: View, bar: pygame.Rect, size: float = 17) -> None:
    label = _("interfere now! {t:.1f} s").format(t=view.window_left)
    lab_h = f.painter.line_height(int(size * f.s))
    f.t(label, size, ACTIVE, pygame.Rect(bar.x, bar.y, bar.w, lab_h))
    track = pygame.Rect(bar.x, bar.y + lab_h + int(2 * f.s), bar.w, bar.h - lab_h - int(2 * f.s))
    pygame.draw.rect(f.window, KEY_OFF, track, border_radius=4)
    frac = max(0.0, min(1.0, (view.window_left or 0.0) / view.window_total))
    pygame.draw.rect(f.window, ACTIVE, (track.x, track.y, int(track.w * frac), track.h), border_radius=4)


def combat_rows(f: Frame, view: View) -> list[tuple[str, str, float, tuple[int, int, int], int, int]]:
    """The portrait combat's breakdown, one row each: (text, value at the right, size, colour,
    indent steps, lines it may wrap to). A row with no text is a rule between the two sides."""
    state, combat = view.state, view.state["combat"]
    byid = {p["id"]: p for p in state["players"]}
    rows: list[tuple[str, str, float, tuple[int, int, int], int, int]] = []
    for pid in combat["fighters"]:
        p = byid.get(pid)
        if p is None:
            continue
        role = f" ({_('helper')})" if pid == combat.get("helper") else ""
        rows.append((shown_name(p["name"]) + role, str(p["combat_strength"]), 26, TEXT, 0, 1))
        for kind, name, n in view.breakdown.get(pid, [("level", "", p["level"])]):
            label = {"level": _("level"), "other": _("curses and fight bonuses")}.get(kind, name)
            rows.append((label, str(n) if kind == "level" else f"{n:+d}", 22, DIM if kind == "level" else TEXT, 1, 1))
    for shot in combat.get("one_shots", []):
        if shot["side"] in ("players", "player"):
            rows.append((view.names.get(shot["card"], shot["card"]), f"{shot['bonus']:+d}", 22, TEXT, 0, 1))
    rows.append(("", "", 10, DIM, 0, 1))
    for m in combat["monsters"]:
        info = view.monsters.get(m["card"], {})
        rows.append((view.names.get(m["card"], m["card"]), str(m["strength"]), 26, TEXT, 0, 1))
        if info:
            rows.append((_("level"), str(info["level"]), 22, DIM, 1, 1))
            for name, bonus in info.get("enhancers", []):
                rows.append((name, f"{bonus:+d}", 22, TEXT, 1, 1))
            if info.get("rest") and not m.get("slain"):
                rows.append((_("other modifiers"), f"{info['rest']:+d}", 22, TEXT, 1, 1))
            rows.append((_("treasures {t} · +{l} level").format(t=info["treasures"], l=info["levels"]), "", 22, ACTIVE, 1, 1))
            if info.get("bad_stuff"):
                rows.append((_("Bad stuff: {text}").format(text=info["bad_stuff"]), "", 22, BAD, 1, 4))
        else:
            for e in m["enhancers"]:
                rows.append(("+ " + view.names.get(e, e), "", 22, DIM, 1, 1))
    for shot in combat.get("one_shots", []):
        if shot["side"] not in ("players", "player"):
            rows.append((view.names.get(shot["card"], shot["card"]), f"{shot['bonus']:+d}", 22, TEXT, 0, 1))
    return rows


def draw_combat_portrait(f: Frame, view: View, r: pygame.Rect, inner: pygame.Rect) -> tuple[pygame.Rect, int] | None:
    """The combat read across the table: the verdict and both totals large, then each fighter's
    level and items, and each monster's level, enhancers, treasures and bad stuff, full width."""
    s, state = f.s, view.state
    combat = state["combat"]
    winning = combat["players_winning"]
    f.t(verdict(combat), 44, GOOD if winning else BAD, inner, shrink=0.6)
    y = inner.y + f.painter.line_height(int(44 * s))
    half = (inner.w - int(16 * s)) // 2
    big = 96
    for i, (label, total, color) in enumerate(((_("Players"), combat["players_strength"], GOOD if winning else TEXT),
                                               (_("Monsters"), combat["monsters_strength"], TEXT if winning else BAD))):
        col = pygame.Rect(inner.x + i * (half + int(16 * s)), y, half, inner.bottom - y)
        f.t(label, 24, DIM, col)
        f.t(str(total), big, color, col, y=y + f.painter.line_height(int(24 * s)) - int(10 * s))
    y += f.painter.line_height(int(24 * s)) + f.painter.line_height(int(big * s)) - int(10 * s)
    bar_h = f.painter.line_height(int(22 * s)) + int(20 * s) if view.window_left is not None else 0
    if not bar_h and state.get("treasures_to_draw"):
        bar_h = f.painter.line_height(int(24 * s))
    area = pygame.Rect(inner.x, y, inner.w, inner.bottom - y - bar_h - (int(8 * s) if bar_h else 0))
    rows = combat_rows(f, view)
    indent = int(20 * s)
    gap = int(6 * s)

    def height(k: float) -> int:
        total = 0
        for text, _value, size, _color, steps, lines in rows:
            lh = f.painter.line_height(int(size * k * s))
            if not text:
                total += lh
            elif lines > 1:
                total += lh * len(f.painter.wrap_lines(text, size * k * s, area.w - steps * indent, lines))
            else:
                total += lh + (gap if steps == 0 else 0)
        return total

    k = next((k / 100 for k in range(100, 55, -4) if height(k / 100) <= area.h), 0.55)
    y = area.y
    for text, value, size, color, steps, lines in rows:
        sz = size * k
        lh = f.painter.line_height(int(sz * s))
        if not text:
            pygame.draw.line(f.window, DIM, (area.x, y + lh // 2), (area.right, y + lh // 2), 1)
            y += lh
            continue
        if steps == 0 and y > area.y:
            y += gap
        if y + lh > area.bottom:
            break
        row = pygame.Rect(area.x + steps * indent, y, area.w - steps * indent, area.bottom - y)
        if lines > 1:
            y = f.painter.wrap(text, sz * s, color, row, y=y, max_lines=lines)
            continue
        left = row
        if value:
            vr = f.t(value, sz, GOOD if value.startswith("+") and color is TEXT else color, row, y=y, align="right")
            left = pygame.Rect(row.x, y, max(0, vr.x - row.x - int(10 * s)), row.h)
        f.t(text, sz, color, left, y=y)
        y += lh
    if view.window_left is not None and view.window_total > 0:
        return pygame.Rect(inner.x, inner.bottom - bar_h, inner.w, bar_h), 22
    if state.get("treasures_to_draw"):
        f.t(ngettext("draw {n} treasure", "draw {n} treasures", state["treasures_to_draw"]).format(n=state["treasures_to_draw"]), 24, ACTIVE, inner, y=inner.bottom - bar_h)
    return None


def draw_combat(f: Frame, view: View, r: pygame.Rect) -> None:
    """The combat panel; the interference bar, which moves, is drawn over it each frame.

    Landscape, it is four panels that tile it, each left on the screen while it shows the same and
    kept in the store: the verdict, the players' side (their total and each fighter's strength),
    the monsters' side, and the foot (the interference bar's place, or the treasures to draw). An
    item played in the fight redraws the verdict and the players' side, not the monsters' bad stuff.
    Portrait, it is one panel."""
    state = view.state
    combat = state["combat"]
    f.panels["combat"] = r
    if f.portrait:
        cards = [m["card"] for m in combat["monsters"]] + [e for m in combat["monsters"] for e in m["enhancers"]] \
            + [shot["card"] for shot in combat.get("one_shots", [])]
        key = ("combat", repr(combat), repr([(p["id"], p["name"], p["level"], p["combat_strength"]) for p in state["players"]]),
               repr([view.names.get(c) for c in cards]), repr(view.monsters), repr(view.breakdown),
               state.get("treasures_to_draw"), view.window_left is not None, view.window_total > 0)
        bar = f.cached(key, r, lambda: _with_backing(f, _draw_combat_portrait_panel(f, view, r)))
    else:
        bar = _draw_combat_parts(f, view, r)
    if bar is not None:
        rect, size, backing = bar
        f.window.blit(backing, rect)            # the panel as it was under the moving bar
        draw_interference_bar(f, view, rect, size)
        f.mark(rect)


def _with_backing(f: Frame, bar: tuple[pygame.Rect, int] | None) -> tuple[pygame.Rect, int, pygame.Surface] | None:
    """Where the interference bar goes, with a copy of the panel under it, to draw the bar on afresh."""
    if bar is None:
        return None
    rect = bar[0].clip(f.window.get_rect())
    return rect, bar[1], f.window.subsurface(rect).copy()


def _draw_combat_portrait_panel(f: Frame, view: View, r: pygame.Rect) -> tuple[pygame.Rect, int] | None:
    """The portrait combat panel but the interference bar; returns where that bar goes (and its type size)."""
    f.painter.panel(r)
    return draw_combat_portrait(f, view, r, r.inflate(-int(20 * f.s), -int(16 * f.s)))


def combat_parts(f: Frame, view: View, r: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect, pygame.Rect]:
    """The landscape combat panel's four parts, top to bottom and left to right: the verdict, the
    players' side, the monsters' side, the foot."""
    s, state = f.s, view.state
    inner = r.inflate(-int(20 * s), -int(16 * s))
    top = inner.y + f.painter.line_height(int(32 * s)) + int(4 * s)
    if view.window_left is not None:
        bar_h = f.painter.line_height(int(17 * s)) + int(16 * s)
    else:
        bar_h = f.painter.line_height(int(20 * s)) if state.get("treasures_to_draw") else 0
    bottom = min(inner.bottom - bar_h, r.bottom - 2 * f.painter.radius() - 1)    # the foot holds its rounded corners
    half = (inner.w - int(12 * s)) // 2
    divider = inner.x + half + int(6 * s)
    return (pygame.Rect(r.x, r.y, r.w, top - r.y), pygame.Rect(r.x, top, divider - r.x, bottom - top),
            pygame.Rect(divider, top, r.right - divider, bottom - top), pygame.Rect(r.x, bottom, r.w, r.bottom - bottom))


def _draw_combat_parts(f: Frame, view: View, r: pygame.Rect) -> tuple[pygame.Rect, int, pygame.Surface] | None:
    """The four parts of the landscape combat panel, each cached on what it shows; returns the
    interference bar's place (with the foot under it), when a window runs."""
    state = view.state
    combat = state["combat"]
    head, left, right, foot = combat_parts(f, view, r)
    winning = combat["players_winning"]
    says = verdict(combat)
    f.cached(("combat-verdict", says, winning), head, lambda: _draw_verdict(f, says, winning, head), covers=f.corner)
    byid = {p["id"]: p for p in state["players"]}
    fighters = [(shown_name(byid[pid]["name"]), pid == combat.get("helper"), byid[pid]["level"], byid[pid]["combat_strength"])
                for pid in combat["fighters"] if pid in byid]
    shots = [(shot["side"] in ("players", "player"), view.names.get(shot["card"], shot["card"]), shot["bonus"])
             for shot in combat.get("one_shots", [])]
    players = ("combat-players", combat["players_strength"], winning, repr(fighters), repr([x for x in shots if x[0]]))
    f.cached(players, left, lambda: _draw_players_side(f, combat["players_strength"], winning, fighters, shots, left),
             covers=0)
    monsters = [(view.names.get(m["card"], m["card"]), m["strength"], [view.names.get(e, e) for e in m["enhancers"]],
                 view.monsters.get(m["card"], {})) for m in combat["monsters"]]
    side = ("combat-monsters", combat["monsters_strength"], winning, repr(monsters), repr([x for x in shots if not x[0]]))
    f.cached(side, right, lambda: _draw_monsters_side(f, combat["monsters_strength"], winning, monsters, shots, right),
             covers=0)
    window = view.window_left is not None and view.window_total > 0
    treasures = state.get("treasures_to_draw") or 0
    result: tuple[pygame.Rect, int, pygame.Surface] | None = f.cached(
        ("combat-foot", window, treasures), foot, lambda: _with_backing(f, _draw_foot(f, window, treasures, foot)),
        covers=f.corner)
    return result


def _draw_verdict(f: Frame, says: str, winning: bool, head: pygame.Rect) -> None:
    s = f.s
    radius = f.painter.radius()
    pygame.draw.rect(f.window, PANEL, head, border_top_left_radius=radius, border_top_right_radius=radius)
    f.panels["combat-verdict"] = head
    inner = pygame.Rect(head.x + int(10 * s), head.y + int(8 * s), head.w - 2 * int(10 * s), head.h - int(8 * s))
    f.t(says, 32, GOOD if winning else BAD, inner)


def _draw_players_side(f: Frame, total: int, winning: bool, fighters: list[tuple[str, bool, int, int]],
                       shots: list[tuple[bool, str, int]], part: pygame.Rect) -> None:
    """The players' total, each fighter's level and gear, the one-shots on their side."""
    s = f.s
    f.solids.fill(PANEL, part)
    f.panels["combat-players"] = part
    pl = pygame.Rect(part.x + int(10 * s), part.y, part.w - int(10 * s) - int(6 * s), part.h)
    big = 46
    f.t(_("Players"), 18, DIM, pl)
    f.t(str(total), big, GOOD if winning else TEXT, pl, y=pl.y + int(18 * s))
    y = pl.y + int(18 * s) + f.painter.line_height(int(big * s))
    small = 17
    lh = f.painter.line_height(int(small * s))
    for name, helper, level, strength in fighters:
        role = _("helper") if helper else ""
        f.t(name + (f" ({role})" if role else ""), small, TEXT, pl, y=y)
        y += lh
        f.t(_("level {l} + gear {g} = {t}").format(l=level, g=strength - level, t=strength), small * 0.9, DIM, pl, y=y)
        y += lh
    for ours, card, bonus in shots:
        if ours:
            f.t(f"{card} {bonus:+d}", small, TEXT, pl, y=y)
            y += lh


def _draw_monsters_side(f: Frame, total: int, winning: bool,
                        monsters: list[tuple[str, int, list[str], dict[str, Any]]],
                        shots: list[tuple[bool, str, int]], part: pygame.Rect) -> None:
    """The monsters' total, each monster with its enhancers, treasures and bad stuff, their one-shots."""
    s = f.s
    f.solids.fill(PANEL, part)
    f.panels["combat-monsters"] = part
    pygame.draw.line(f.window, DIM, (part.x, part.y), (part.x, part.bottom - 1), 1)
    mo = pygame.Rect(part.x + int(6 * s), part.y, part.w - int(6 * s) - int(10 * s), part.h)
    big = 46
    f.t(_("Monsters"), 18, DIM, mo)
    f.t(str(total), big, BAD if not winning else TEXT, mo, y=mo.y + int(18 * s))
    y = mo.y + int(18 * s) + f.painter.line_height(int(big * s))
    small = 17
    lh = f.painter.line_height(int(small * s))
    for name, strength, enhancers, info in monsters:
        f.t(f"{name}  {strength}", small * 1.1, TEXT, mo, y=y)
        y += f.painter.line_height(int(small * 1.1 * s))
        for e in enhancers:
            f.t("+ " + e, small * 0.9, DIM, mo, y=y)
            y += lh
        if info:
            f.t(_("treasures {t} · +{l} level").format(t=info["treasures"], l=info["levels"]), small * 0.9, ACTIVE, mo, y=y)
            y += lh
            if info.get("bad_stuff"):
                y = f.painter.wrap(_("Bad stuff: {text}").format(text=info["bad_stuff"]), small * 0.9 * s, BAD,
                                   mo, y=y, max_lines=3)
    for ours, card, bonus in shots:
        if not ours:
            f.t(f"{card} {bonus:+d}", small, TEXT, mo, y=y)
            y += lh


def _draw_foot(f: Frame, window: bool, treasures: int, foot: pygame.Rect) -> tuple[pygame.Rect, int] | None:
    """The foot of the combat panel: the treasures to draw, or the interference bar's place (returned)."""
    s = f.s
    radius = f.painter.radius()
    pygame.draw.rect(f.window, PANEL, foot, border_bottom_left_radius=radius, border_bottom_right_radius=radius)
    inner = pygame.Rect(foot.x + int(10 * s), foot.y, foot.w - 2 * int(10 * s), foot.h - int(8 * s))
    if window:
        return inner, 17
    if treasures:
        f.t(ngettext("draw {n} treasure", "draw {n} treasures", treasures).format(n=treasures), 20, ACTIVE, inner,
            y=inner.bottom - f.painter.line_height(int(20 * s)))
    return None
