"""Every event the engine reports to the players has words on the message line."""

from __future__ import annotations

import typing
from pathlib import Path

from cards.loader import load_catalog
from engine.events import EVENT_TYPES, GameEvent, event_from_data
from engine.game import apply, new_game
from engine import commands as c
from table.session.describe import describe, describe_events

ROOT = Path(__file__).resolve().parents[2]
AUTOMATIC = {"CharityDue", "CombatEnded", "PlayerRevived", "TurnStarted", "WindowClosed", "WindowRestarted"}


def _made_up(name: str) -> GameEvent:
    """One event of kind ``name`` with plausible values in every field."""
    values = {"player": "player-1", "victim": "player-2", "to": "player-2", "from": "player-2", "first": "player-1",
              "players": ["player-1"], "winners": ["player-1"], "card": "boots-of-butt-kicking", "monster": "net-troll",
              "by": "elf", "source": "curse-lose-a-level", "old": "net-troll", "cards": ["helm-of-courage"], "seat": 1,
              "roll": 3, "levels": 1, "treasures": 2, "n": 2, "count": 1, "gold": 1200, "bonus": 3, "seconds": 2.0,
              "side": "monsters", "sex": "female", "ability": "berserk", "why": "no hands", "text": "lose your armor",
              "name": "Ann", "turn": 2, "total": 3, "kind": "any", "until": 1.0, "hand_limit": 5, "receivers": [],
              "deal": {"door": 4, "treasure": 4}, "lost": [], "loot_order": [], "replaced": [], "monsters": ["net-troll"],
              "face_up": False, "index": 0, "double": False, "wasted": 0, "how": "kill"}
    if name == "LevelGained":
        values.update({"from": 1, "to": 2})
    if name == "LevelLost":
        values.update({"from": 2, "to": 1})
    if name == "FightTransferred":
        values["from"] = ["player-1"]
    return event_from_data(name, values)


def test_the_union_holds_every_event_class_the_engine_defines() -> None:
    import engine.events as events
    from engine.results import Event

    defined = {n for n, v in vars(events).items() if isinstance(v, type) and issubclass(v, Event) and v is not Event}
    assert len(defined) > 60
    assert set(EVENT_TYPES) == defined == {cls.__name__ for cls in typing.get_args(GameEvent)}


def test_every_event_the_players_see_has_a_sentence_and_the_automatic_ones_none() -> None:
    catalog = load_catalog()
    state = new_game(1)
    for player in ("player-1", "player-2", "player-3"):
        result = apply(state, c.Join(player=player, at=0.0), catalog)
        assert result.ok
        state = result.state
    for name in EVENT_TYPES:
        event = _made_up(name)
        assert event.automatic == (name in AUTOMATIC), name
        text = describe(event, state, catalog)
        assert bool(text) == (name not in AUTOMATIC), name


def test_data_keeps_the_keys_the_untyped_events_had() -> None:
    event = _made_up("RunAwaySucceeded")
    assert event.name == "RunAwaySucceeded"
    assert event.data == {"player": "player-1", "monster": "net-troll", "roll": 3, "total": 3}
    assert event_from_data("RunAwayFailed", {**event.data, "automatic": True}).data["automatic"] is True
    assert _made_up("ItemTaken").data == {"player": "player-1", "from": "player-2", "card": "boots-of-butt-kicking",
                                          "by": "elf"}
    assert event_from_data("CombatEnded", {"how": "friendship-potion"}).data == {"how": "friendship-potion"}


def test_automatic_events_are_left_off_the_message_line() -> None:
    catalog = load_catalog()
    state = new_game(1)
    assert describe_events((_made_up("TurnStarted"), _made_up("WindowClosed")), state, catalog) == ""
