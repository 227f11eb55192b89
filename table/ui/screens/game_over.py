"""Game over: who won, and every player's level turn by turn."""

from __future__ import annotations


import pygame

from table.words.i18n import _, shown_name
from table.ui.screens.kit import ACTIVE, DIM, KEY, KEY_OFF, TEXT, player_color
from table.ui.screens.records import draw_game_facts

from table.ui.frame import Frame
from table.ui.view import View


def draw_game_over(f: Frame, view: View, body: pygame.Rect) -> None:
    """Who won and the level chart (drawn each frame: the whole body, too big to keep for one screen)."""
    s, state = f.s, view.state
    f.painter.panel(body)
    f.panels["game-over"] = body
    inner = body.inflate(-int(20 * s), -int(14 * s))
    byid = {p["id"]: p for p in state["players"]}
    names = " & ".join(shown_name(byid[w]["name"]) for w in state["winners"] if w in byid)
    head = _("{names} won!").format(names=names) if names else _("Game over")
    f.t(head, 38, ACTIVE, inner, align="center")
    chart = pygame.Rect(inner.x, inner.y + f.painter.line_height(int(38 * s)) + int(6 * s), inner.w,
                        inner.bottom - inner.y - f.painter.line_height(int(38 * s)) - int(6 * s))
    if view.game_facts is not None:     # the game's facts beside the chart (under it in portrait)

        gap = int(10 * s)
        if f.portrait:
            facts = pygame.Rect(chart.x, chart.y + int(chart.h * 0.55) + gap, chart.w, chart.h - int(chart.h * 0.55) - gap)
            chart.h = int(chart.h * 0.55)
        else:
            facts = pygame.Rect(chart.x + int(chart.w * 0.6) + gap, chart.y, chart.w - int(chart.w * 0.6) - gap, chart.h)
            chart.w = int(chart.w * 0.6)
        draw_game_facts(f, view, facts)
    draw_level_chart(f, view, chart)


def draw_level_chart(f: Frame, view: View, r: pygame.Rect) -> None:
    s, state = f.s, view.state
    f.panels["chart"] = r
    players = state["players"]
    lh = f.painter.line_height(int(20 * s)) + int(4 * s)
    if f.portrait:        # the legend under the chart, two columns, so the chart keeps the width
        lh += int(8 * s)
        legend_w, legend_h = 0, lh * -(-len(players) // 2) + int(12 * s)
    else:
        legend_w, legend_h = int(r.w * 0.26), 0
    plot = pygame.Rect(r.x + int(34 * s), r.y + int(6 * s), r.w - legend_w - int(44 * s), r.h - legend_h - int(36 * s))
    top_level = max([state["ruleset"]["winning_level"], *(max(p["level_history"] or [1]) for p in players)])
    turns = max([1, *(len(p["level_history"]) - 1 for p in players)])
    axis_box = pygame.Rect(r.x, r.y, plot.x - r.x - int(4 * s), r.h - legend_h)

    def pt(i: int, level: int) -> tuple[int, int]:
        return (plot.x + int(plot.w * i / turns), plot.bottom - int(plot.h * (level - 1) / max(1, top_level - 1)))

    for level in range(1, top_level + 1):
        y = pt(0, level)[1]
        pygame.draw.line(f.window, KEY_OFF if level % 5 else KEY, (plot.x, y), (plot.right, y), 1)
        if level in (1, 5, top_level) or top_level <= 10:
            lh = f.painter.line_height(int(14 * s))
            f.t(str(level), 14, DIM, axis_box, y=max(r.y, min(axis_box.bottom - lh, y - lh // 2)), align="right")
    xlab = pygame.Rect(plot.x, plot.bottom + int(6 * s), plot.w, r.bottom - plot.bottom - int(6 * s))
    f.t(_("turns"), 14, DIM, xlab, align="center")
    for i, p in enumerate(players):
        hist = p["level_history"] or [p["level"]]
        color = player_color(state, p["id"])
        points = [pt(k, lv) for k, lv in enumerate(hist)]
        # a small offset keeps equal lines apart
        off = int((i - len(players) / 2) * 2 * s)
        points = [(x, y + off) for x, y in points]
        if len(points) > 1:
            pygame.draw.lines(f.window, color, False, points, max(2, int(3 * s)))
        pygame.draw.circle(f.window, color, points[-1], max(3, int(5 * s)))
    if f.portrait:
        legend = pygame.Rect(plot.x, r.bottom - legend_h + int(8 * s), r.right - plot.x, legend_h - int(8 * s))
    else:
        legend = pygame.Rect(r.right - legend_w, r.y + int(6 * s), legend_w, r.h - int(6 * s))
    for i, p in enumerate(players):
        y = legend.y + i * lh
        if f.portrait:
            y = legend.y + (i // 2) * lh
            legend_col = pygame.Rect(legend.x + (i % 2) * (legend.w // 2), legend.y, legend.w // 2 - int(8 * s), legend.h)
        else:
            legend_col = legend
        color = player_color(state, p["id"])
        pygame.draw.rect(f.window, color, (legend_col.x, y + lh // 4, int(14 * s), int(14 * s)))
        winner = p["id"] in state["winners"]
        f.t(f"{shown_name(p['name'])}  {p['level']}", 20, ACTIVE if winner else TEXT, legend_col, x=legend_col.x + int(20 * s), y=y)
