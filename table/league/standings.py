"""The standings across the league: ``stats``'s own fold over every table's published tallies, and
one row per table (online, phase, turn, leader)."""

from __future__ import annotations

from typing import Any

from engine.cards import Catalog
from table.league.model import League
from table.session.facts import stats
from table.storage.facts import ABANDONED, FINISHED

COUNTED = (FINISHED, ABANDONED)     # a game counts once it has ended; an undone win is back in play


def counted_games(league: League) -> list[dict[str, Any]]:
    """The games that count, by table and game id (each once, whatever was sent twice)."""
    return [league.games[key] for key in sorted(league.games) if league.games[key]["history"]["status"] in COUNTED]


def standings(league: League, catalog: Catalog | None = None) -> dict[str, Any]:
    """What ``stats --json`` says of one box, over every table and game of the league."""
    games = counted_games(league)
    data = stats([g["tally"] for g in games], catalog)
    data["league"] = league.name
    data["tables"] = len({table for table, _game in league.games} | set(league.tables))
    return data


def table_rows(league: League) -> list[dict[str, Any]]:
    """One row per table: online, phase, turn, the leader(s) and their level, who sits at which seat's pad
    (on a box with a pad at every seat), games counted."""
    counted: dict[str, int] = {}
    for (table, _game), g in league.games.items():
        counted[table] = counted.get(table, 0) + (g["history"]["status"] in COUNTED)
    rows = []
    for name in sorted(set(league.tables) | set(counted)):
        seen = league.tables.get(name)
        state = seen.state if seen is not None else None
        players = state.get("players", []) if isinstance(state, dict) else []
        levels = [p.get("level", 0) for p in players if isinstance(p, dict) and isinstance(p.get("level"), int)]
        top = max(levels, default=None)
        leaders = [p.get("name", p.get("id", "")) for p in players
                   if isinstance(p, dict) and top is not None and p.get("level") == top] if top is not None else []
        rows.append({"table": name, "online": seen.online if seen is not None else None,
                     "phase": state.get("phase") if isinstance(state, dict) else None,
                     "turn": state.get("turn") if isinstance(state, dict) else None,
                     "players": len(players), "leaders": leaders, "level": top,
                     "winners": [p.get("name") for p in players if isinstance(p, dict)
                                 and p.get("id") in (state or {}).get("winners", [])],
                     "seats": sorted(({"seat": p["seat"], "name": p.get("name", p.get("id", ""))} for p in players
                                      if isinstance(p, dict) and isinstance(p.get("seat"), int)), key=lambda x: x["seat"]),
                     "games": counted.get(name, 0)})
    return rows
