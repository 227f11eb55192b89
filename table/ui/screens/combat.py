"""The combat: the players beside (or, in portrait, above) both sides' strengths and the verdict."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from table.ui.i18n import _, ngettext, shown_name
from table.ui.screens import run_away
from table.ui.screens.kit import ACTIVE, BAD, DIM, GOOD, KEY_OFF, PANEL, PANEL_HI, TEXT, player_color

if TYPE_CHECKING:
    from table.ui.frame import Frame
    from table.ui.view import View


def draw_combat_screen(f: Frame, view: View, body: pygame.Rect) -> None:
    s, state = f.s, view.state
    gap = int(8 * s)
    players = state["players"]
    n = max(1, len(players))
    if f.portrait:
        cols = 2 if n == 4 else min(n, 3)
        rows = -(-n // cols)
        row_h = int(72 * s)
        top = pygame.Rect(body.x, body.y, body.w, rows * row_h + (rows - 1) * gap)
        right = pygame.Rect(body.x, top.bottom + gap, body.w, body.bottom - top.bottom - gap)
        pw = (top.w - gap * (cols - 1)) // cols
        for i, p in enumerate(players):
            draw_mini_player(f, view, p, pygame.Rect(top.x + (i % cols) * (pw + gap), top.y + (i // cols) * (row_h + gap),
                                                       pw, row_h))
    else:
        left = pygame.Rect(body.x, body.y, int(body.w * 0.30), body.h)
        right = pygame.Rect(left.right + gap, body.y, body.right - left.right - gap, body.h)
        ph = (left.h - gap * (n - 1)) // n
        for i, p in enumerate(players):
            draw_mini_player(f, view, p, pygame.Rect(left.x, left.y + i * (ph + gap), left.w, ph))
    if state["phase"] == "run-away" and state.get("run_away"):
        run_away.draw_run_away(f, view, right)
    else:
        draw_combat(f, view, right)


def draw_mini_player(f: Frame, view: View, p: dict[str, Any], r: pygame.Rect) -> None:
    """A player in one line beside the combat: name, strength and level (left on the screen while they stay)."""
    state = view.state
    key = ("mini-player", repr([p[k] for k in ("id", "name", "level", "combat_strength", "alive")]),
           state["active_player"] == p["id"], p["id"] in (state["combat"] or {}).get("fighters", []),
           player_color(state, p["id"]))
    f.cached(key, r, lambda: _draw_mini_player(f, view, p, r))


def _draw_mini_player(f: Frame, view: View, p: dict[str, Any], r: pygame.Rect) -> None:
    s, state = f.s, view.state
    active = state["active_player"] == p["id"]
    fighting = p["id"] in (state["combat"] or {}).get("fighters", [])
    f.painter.panel(r, PANEL_HI if fighting else PANEL, border=ACTIVE if active else None, width=int(3 * s))
    f.panels[p["id"]] = r
    pygame.draw.rect(f.window, player_color(state, p["id"]), (r.x + int(3 * s), r.y + int(4 * s), int(5 * s), r.h - int(8 * s)))
    inner = pygame.Rect(r.x + int(12 * s), r.y + int(2 * s), r.w - int(18 * s), r.h - int(4 * s))
    level_size = min(44, max(16, (r.h / s) * 0.62))
    lh = f.painter.line_height(int(level_size * s))
    level_box = pygame.Rect(inner.right - int(inner.w * 0.3), inner.y + max(0, (inner.h - lh) // 2), int(inner.w * 0.3), lh)
    f.t(str(p["level"]), level_size, ACTIVE if active else TEXT, level_box, align="right")
    f.level_rects[p["id"]] = level_box
    text_box = pygame.Rect(inner.x, inner.y, level_box.x - inner.x - int(4 * s), inner.h)
    name_size = min(20, max(12, (r.h / s) * 0.34))
    nh = f.painter.line_height(int(name_size * s))
    two = inner.h >= nh * 2
    y = inner.y + (inner.h - (nh * 2 if two else nh)) // 2
    f.t(shown_name(p["name"]), name_size, TEXT if p["alive"] else DIM, text_box, y=y)
    if two:
        f.t(_("strength {n}").format(n=p["combat_strength"]), name_size * 0.8, GOOD, text_box, y=y + nh)


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
    """The combat panel, left on the screen while it shows the same; the interference bar, which moves, is drawn over it each frame."""
    state = view.state
    combat = state["combat"]
    cards = [m["card"] for m in combat["monsters"]] + [e for m in combat["monsters"] for e in m["enhancers"]] \
        + [shot["card"] for shot in combat.get("one_shots", [])]
    key = ("combat", repr(combat), repr([(p["id"], p["name"], p["level"], p["combat_strength"]) for p in state["players"]]),
           repr([view.names.get(c) for c in cards]), repr(view.monsters), repr(view.breakdown), state.get("treasures_to_draw"),
           view.window_left is not None, view.window_total > 0)
    bar = f.cached(key, r, lambda: _with_backing(f, _draw_combat(f, view, r)))
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


def _draw_combat(f: Frame, view: View, r: pygame.Rect) -> tuple[pygame.Rect, int] | None:
    """The combat panel but the interference bar; returns where that bar goes (and its type size)."""
    s, state = f.s, view.state
    combat = state["combat"]
    f.painter.panel(r)
    f.panels["combat"] = r
    inner = r.inflate(-int(20 * s), -int(16 * s))
    if f.portrait:
        return draw_combat_portrait(f, view, r, inner)
    ps, ms = combat["players_strength"], combat["monsters_strength"]
    winning = combat["players_winning"]
    f.t(verdict(combat), 32, GOOD if winning else BAD, inner)
    y = inner.y + f.painter.line_height(int(32 * s)) + int(4 * s)
    bar_h = f.painter.line_height(int(17 * s)) + int(16 * s) if view.window_left is not None else 0
    cols = pygame.Rect(inner.x, y, inner.w, inner.bottom - y - bar_h)
    half = (cols.w - int(12 * s)) // 2
    pl = pygame.Rect(cols.x, cols.y, half, cols.h)
    mo = pygame.Rect(cols.x + half + int(12 * s), cols.y, cols.w - half - int(12 * s), cols.h)
    pygame.draw.line(f.window, DIM, (mo.x - int(6 * s), mo.y), (mo.x - int(6 * s), mo.bottom), 1)
    # players' side
    big = 46
    f.t(_("Players"), 18, DIM, pl)
    f.t(str(ps), big, GOOD if winning else TEXT, pl, y=pl.y + int(18 * s))
    y = pl.y + int(18 * s) + f.painter.line_height(int(big * s))
    small = 17
    lh = f.painter.line_height(int(small * s))
    byid = {p["id"]: p for p in state["players"]}
    for pid in combat["fighters"]:
        p = byid.get(pid)
        if p is None:
            continue
        gear = p["combat_strength"] - p["level"]
        role = _("helper") if pid == combat.get("helper") else ""
        f.t(shown_name(p["name"]) + (f" ({role})" if role else ""), small, TEXT, pl, y=y)
        y += lh
        f.t(_("level {l} + gear {g} = {t}").format(l=p["level"], g=gear, t=p["combat_strength"]), small * 0.9, DIM, pl, y=y)
        y += lh
    for shot in combat.get("one_shots", []):
        if shot["side"] in ("players", "player"):
            f.t(f"{view.names.get(shot['card'], shot['card'])} {shot['bonus']:+d}", small, TEXT, pl, y=y)
            y += lh
    # monsters' side
    f.t(_("Monsters"), 18, DIM, mo)
    f.t(str(ms), big, BAD if not winning else TEXT, mo, y=mo.y + int(18 * s))
    y = mo.y + int(18 * s) + f.painter.line_height(int(big * s))
    for m in combat["monsters"]:
        info = view.monsters.get(m["card"], {})
        f.t(f"{view.names.get(m['card'], m['card'])}  {m['strength']}", small * 1.1, TEXT, mo, y=y)
        y += f.painter.line_height(int(small * 1.1 * s))
        for e in m["enhancers"]:
            f.t("+ " + view.names.get(e, e), small * 0.9, DIM, mo, y=y)
            y += lh
        if info:
            f.t(_("treasures {t} · +{l} level").format(t=info["treasures"], l=info["levels"]), small * 0.9, ACTIVE, mo, y=y)
            y += lh
            if info.get("bad_stuff"):
                y = f.painter.wrap(_("Bad stuff: {text}").format(text=info["bad_stuff"]), small * 0.9 * s, BAD,
                                      mo, y=y, max_lines=3)
    for shot in combat.get("one_shots", []):
        if shot["side"] not in ("players", "player"):
            f.t(f"{view.names.get(shot['card'], shot['card'])} {shot['bonus']:+d}", small, TEXT, mo, y=y)
            y += lh
    if view.window_left is not None and view.window_total > 0:
        return pygame.Rect(inner.x, inner.bottom - bar_h, inner.w, bar_h), 17
    if state.get("treasures_to_draw"):
        f.t(ngettext("draw {n} treasure", "draw {n} treasures", state["treasures_to_draw"]).format(n=state["treasures_to_draw"]), 20, ACTIVE, inner, y=inner.bottom - int(24 * s))
    return None
