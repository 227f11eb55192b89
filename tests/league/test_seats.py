"""Who sits where, on the wall board: a box with a pad at every seat says each player's seat in its
state message, and the league's tables (the board, ``league tables --json``) show it."""

from __future__ import annotations

from pathlib import Path

from table.config import Config
from table.league.model import League, TableSeen
from table.league.publisher import league_key, league_message
from table.league.standings import table_rows
from table.sim.harness import SimTable

SEATED = "tap@1 player-1\ntap@3 player-2\ntap@2 player-3\npress next\n"


def test_the_state_message_says_each_players_seat_and_the_tables_list_them_in_seat_order(tmp_path: Path) -> None:
    with SimTable(Config(), tmp_path, seed=3) as sim:
        for action in sim.parse(SEATED):
            sim.perform(action)
        ctl = sim.controller
        message = league_message(league_key(ctl.state, ctl.seats))
        plain = league_message(league_key(ctl.state))
    assert [(p["id"], p["seat"]) for p in message["players"]] == [("player-1", 1), ("player-2", 3), ("player-3", 2)]
    assert all("seat" not in p for p in plain["players"])          # a box without seat pads says nothing of seats
    league = League("friday", tables={"table-a": TableSeen(True, message), "table-b": TableSeen(True, plain)})
    rows = {row["table"]: row for row in table_rows(league)}
    assert [s["seat"] for s in rows["table-a"]["seats"]] == [1, 2, 3]
    assert rows["table-b"]["seats"] == []


def test_the_wall_board_shows_who_sits_at_which_pad(tmp_path: Path) -> None:
    from table.config import parse_config
    from table.ui.league_board import draw_league_board
    from table.web.league import league_data
    from table.ui.screen import headless_display

    state = {"phase": "combat", "turn": 2, "active_player": "player-1", "winners": [],
             "players": [{"id": "player-1", "name": "Ann", "level": 3, "seat": 2},
                         {"id": "player-2", "name": "Bob", "level": 1, "seat": 1}]}
    league = League("friday", tables={"table-a": TableSeen(True, state)})
    display = headless_display(parse_config({}))
    try:
        draw_league_board(display.painter, league_data(league), "friday", s=display.s)
        shown = " ".join(d.text for d in display.painter.drawn)
    finally:
        display.close()
    assert "seat 1: Bob seat 2: Ann" in shown
