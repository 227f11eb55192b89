"""The league's topics: ``munchkin/<league>/tables/<table>/state|online`` and
``munchkin/<league>/games/<table>/<game-id>``."""

from __future__ import annotations

import json
from dataclasses import dataclass

ROOT = "munchkin"


def league_root(league: str) -> str:
    return f"{ROOT}/{league}"


def state_topic(league: str, table: str) -> str:
    return f"{ROOT}/{league}/tables/{table}/state"


def online_topic(league: str, table: str) -> str:
    return f"{ROOT}/{league}/tables/{table}/online"


def doctor_topic(league: str, table: str) -> str:
    """Where doctor's test publish goes: the table's own, not retained, read by nobody."""
    return f"{ROOT}/{league}/tables/{table}/doctor"


def game_topic(league: str, table: str, game: int) -> str:
    return f"{ROOT}/{league}/games/{table}/{game}"


def game_message(league: str, table: str, body: str) -> bytes:
    """A game's message: its facts (an outbox row's JSON object), with the league and the table first."""
    head = json.dumps({"league": league, "table": table}, ensure_ascii=False)
    return (head[:-1] + "," + body[1:]).encode("utf-8")


def own_games(league: str, table: str) -> str:
    """The filter of one table's games (the box's look at what the broker holds of them)."""
    return f"{ROOT}/{league}/games/{table}/+"


def check_topic(league: str, table: str) -> str:
    """A topic of the table's own that nobody writes: the end of its look at the broker's games."""
    return f"{ROOT}/{league}/tables/{table}/check"


def subscriptions(league: str) -> list[str]:
    """What a reader of the league subscribes to."""
    return [f"{ROOT}/{league}/tables/+/state", f"{ROOT}/{league}/tables/+/online", f"{ROOT}/{league}/games/+/+"]


@dataclass(frozen=True)
class Topic:
    """A league topic taken apart: ``kind`` is "state", "online" or "game" (then ``game`` is its id)."""

    kind: str
    table: str
    game: int | None = None


def parse_topic(league: str, topic: str) -> Topic | None:
    """The parts of one of ``league``'s topics; None for anything else."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or parts[1] != league:
        return None
    if parts[2] == "tables" and parts[4] in ("state", "online"):
        return Topic(parts[4], parts[3])
    if parts[2] == "games" and parts[4].isdigit():
        return Topic("game", parts[3], int(parts[4]))
    return None
