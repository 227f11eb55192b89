"""The remembered games on the box: standings and past games (from the setup), the name a token is
choosing, and the facts of the game beside the level chart at game over."""

from __future__ import annotations

from typing import Any

import pygame

from table.words.i18n import _, ngettext, shown_name
from table.ui.screens.kit import ACTIVE, BAD, DIM, GOOD, KEY, PANEL_HI, TEXT

from table.ui.frame import Frame
from table.ui.view import View


def _turns(turns: int, minutes: int) -> str:
    return ngettext("{n} turn, {m} min", "{n} turns, {m} min", turns).format(n=turns, m=minutes)


def _when(started: str | None) -> str:
    return (started or "")[:16].replace("T", " ")


def draw_records(f: Frame, view: View, body: pygame.Rect) -> None:
    """The standings or the past games, one page of rows (records_menu.PAGE) at a time."""
    data = view.records
    assert data is not None
    s = f.s
    f.painter.panel(body)
    f.panels["records"] = body
    inner = body.inflate(-int(24 * s), -int(16 * s))
    title = _("Standings") if data["kind"] == "standings" else _("Past games")
    f.t(title, 30, ACTIVE, inner)
    page = _("page {n} of {total}").format(n=data["page"], total=data["pages"])
    f.t(page, 20, DIM, inner, y=inner.y + int(8 * s), align="right")
    top = inner.y + f.painter.line_height(int(30 * s)) + int(10 * s)
    table = pygame.Rect(inner.x, top, inner.w, inner.bottom - top)
    if not data["rows"]:
        f.t(_("no games yet"), 26, DIM, table, y=table.y + int(20 * s), align="center")
        return
    if data["kind"] == "standings":
        _standings(f, data, table)
    else:
        _games(f, view, data, table)


def _row_height(f: Frame, table: pygame.Rect, rows: int) -> int:
    return min(int(46 * f.s), table.h // max(rows, 1))


def _standings(f: Frame, data: dict[str, Any], table: pygame.Rect) -> None:
    s = f.s
    heads = [("", 0.05), (_("player"), 0.31), (_("games"), 0.1), (_("wins"), 0.1), (_("kills"), 0.1),
             (_("deaths"), 0.1), (_("best level"), 0.13), (_("helped"), 0.11)]
    xs, x = [], table.x
    for _head, share in heads:
        xs.append(pygame.Rect(x, table.y, int(table.w * share) - int(6 * s), table.h))
        x += int(table.w * share)
    rh = _row_height(f, table, len(data["rows"]) + 1)
    size = 22 if rh > 30 * s else 18
    for (head, _share), col in zip(heads, xs):
        f.t(head, size - 4, DIM, col, y=table.y, align="left" if head == _("player") else "right", shrink=0.5)
    for i, row in enumerate(data["rows"]):
        y = table.y + (i + 1) * rh
        if i % 2 == 0:
            pygame.draw.rect(f.window, PANEL_HI, (table.x, y - int(2 * s), table.w, rh), border_radius=4)
        values = [str(data["first"] + i), shown_name(row["name"]), str(row["games"]), str(row["wins"]), str(row["kills"]),
                  str(row["deaths"]), str(row["highest_level"]), str(row["helped"])]
        for j, (value, col) in enumerate(zip(values, xs)):
            color = ACTIVE if j == 3 and row["wins"] else (DIM if j == 0 else TEXT)
            f.t(value, size, color, col, y=y + (rh - f.painter.line_height(int(size * s))) // 2,
                align="left" if j == 1 else "right")


def _games(f: Frame, view: View, data: dict[str, Any], table: pygame.Rect) -> None:
    s = f.s
    rh = _row_height(f, table, len(data["rows"]))
    size = 21 if rh > 30 * s else 17
    for i, game in enumerate(data["rows"]):
        y = table.y + i * rh
        if i % 2 == 0:
            pygame.draw.rect(f.window, PANEL_HI, (table.x, y - int(2 * s), table.w, rh), border_radius=4)
        line_y = y + (rh - f.painter.line_height(int(size * s))) // 2
        cols = [pygame.Rect(table.x + int(table.w * a), y, int(table.w * w) - int(8 * s), rh)
                for a, w in ((0.0, 0.07), (0.07, 0.2), (0.27, 0.37), (0.64, 0.21), (0.85, 0.15))]
        f.t(f"#{game['id']}", size, DIM, cols[0], y=line_y)
        f.t(_when(game["started"]), size, TEXT, cols[1], y=line_y, shrink=0.6)
        f.t(_(", ").join(shown_name(p) for p in game["players"]), size, TEXT, cols[2], y=line_y, shrink=0.6)
        if game["status"] == "finished":
            outcome, color = _("won: {names}").format(names=_(" and ").join(shown_name(w) for w in game["winners"])), ACTIVE
        elif game["status"] == "abandoned":
            outcome, color = _("abandoned"), BAD
        else:
            outcome, color = _("unfinished"), GOOD
        f.t(outcome, size, color, cols[3], y=line_y, shrink=0.6)
        f.t(_turns(game["turns"], game["minutes"]), size - 3, DIM, cols[4], y=line_y,
            align="right", shrink=0.6)


def draw_name_choice(f: Frame, view: View, body: pygame.Rect) -> None:
    """The name a token is choosing, large, over the setup screen."""
    choice = view.name_choice
    assert choice is not None
    s = f.s
    w, h = int(body.w * (0.9 if f.portrait else 0.62)), int(176 * s)
    box = pygame.Rect(body.centerx - w // 2, body.y + int(body.h * 0.18), w, h)
    f.painter.panel(box, KEY, border=ACTIVE, width=int(3 * s))
    f.panels["name-choice"] = box
    inner = box.inflate(-int(28 * s), -int(18 * s))
    f.t(shown_name(choice["current"]), 22, DIM, inner)
    f.t(f"{choice['index']} / {choice['count']}", 22, DIM, inner, align="right")
    f.t(shown_name(choice["name"]), 52, ACTIVE, inner, y=inner.y + int(38 * s), align="center", shrink=0.5)
    hint = _("ROLL") + " / " + _("RUN") + " · " + _("NEXT") + " ✓ · " + _("UNDO") + " ✗"
    f.t(hint, 20, TEXT, inner, y=inner.bottom - f.painter.line_height(int(20 * s)), align="center", shrink=0.5)


def facts_lines(view: View) -> list[tuple[str, str, tuple[int, int, int]]]:
    """(heading, text, colour) lines of the game's facts, in the screen's language."""
    facts = view.game_facts
    assert facts is not None
    names = view.names
    players = facts["per_player"]

    def counted(key: str) -> str:
        shown = [f"{shown_name(p['name'])} {p[key]}" for p in sorted(players, key=lambda p: -p[key]) if p[key]]
        return " · ".join(shown) if shown else _("nobody")

    lines = [("", _turns(facts["turns"], facts["minutes"]), DIM),
             (_("Kills"), counted("kills"), TEXT),
             (_("Deaths"), counted("deaths"), TEXT)]
    fight = facts["biggest_fight"]
    if fight is not None:
        text = _("{players} vs {monsters}: {a} to {b}").format(
            players=" + ".join(shown_name(f) for f in fight["fighters"]), monsters=" + ".join(names.get(m, m) for m in fight["monsters"]),
            a=fight["players"], b=fight["monsters_strength"])
        won = fight["how"] == "kill"
        how = _("won") if won else _("lost")
        lines.append((_("Biggest fight"), f"{text} ({how})", GOOD if won else BAD))
    helps = [_("{who} helped {whom}").format(who=shown_name(a), whom=shown_name(b)) + (f" ×{n}" if n > 1 else "") for a, b, n in facts["helps"]]
    lines.append((_("Who helped whom"), " · ".join(helps[:4]) if helps else _("nobody"), TEXT))
    return lines


def draw_game_facts(f: Frame, view: View, r: pygame.Rect) -> None:
    """Kills, deaths, the biggest fight and who helped whom, beside the level chart."""
    s = f.s
    f.painter.panel(r, PANEL_HI)
    f.panels["game-facts"] = r
    inner = r.inflate(-int(18 * s), -int(14 * s))
    f.t(_("This game"), 24, ACTIVE, inner)
    y = inner.y + f.painter.line_height(int(24 * s)) + int(4 * s)
    size = 17 if inner.h < 340 * s else 19
    for heading, text, color in facts_lines(view):
        line = _("{heading}: {text}").format(heading=heading, text=text) if heading else text
        y = f.painter.wrap(line, size * s, color, inner, y=y, max_lines=3) + int(5 * s)
