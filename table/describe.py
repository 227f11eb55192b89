"""Engine events in words, for the message line."""

from __future__ import annotations

from engine.cards import Catalog
from engine.results import Event
from engine.state import GameState


def _name(state: GameState, player_id: str) -> str:
    return state.player(player_id).name if state.has_player(player_id) else player_id


def describe(event: Event, state: GameState, catalog: Catalog) -> str:
    d = event.data
    who = _name(state, d["player"]) if "player" in d and isinstance(d["player"], str) else ""
    card = catalog[d["card"]].name if isinstance(d.get("card"), str) and d["card"] in catalog else ""
    match event.name:
        case "PlayerJoined":
            return f"{who} joined (seat {d['seat']})"
        case "FirstPlayerChosen":
            return f"the die chose {who} to start"
        case "GameStarted":
            return f"the game starts: {_name(state, d['first'])} kicks open the door"
        case "TurnEnded":
            return f"turn {state.turn}: {_name(state, state.active_player or '')} kicks open the door"
        case "CombatStarted":
            return f"{who} fights {card}"
        case "MonsterJoined":
            return f"{card} joins the fight"
        case "LevelGained" | "LevelLost":
            return f"{who}: level {d['from']} → {d['to']}"
        case "MonstersKilled":
            return f"{who} killed the monsters: +{d['levels']} level(s), draw {d['treasures']} treasure(s)"
        case "RunAwaySucceeded":
            return f"{who} rolled {d['roll']} and escaped {catalog[d['monster']].name}"
        case "RunAwayFailed":
            return f"{who} rolled {d['roll']}: caught by {catalog[d['monster']].name}"
        case "PlayerDied":
            return f"{who} died and loses all items"
        case "ItemEquipped":
            return f"{who} equips {card}"
        case "ItemCarried":
            return f"{who} carries {card} (no bonus: {d['why']})"
        case "GameWon":
            return "game over: " + " and ".join(_name(state, w) for w in d["winners"]) + " won!"
        case "WindowOpened":
            return f"the players win unless someone interferes within {d['seconds']:g} s"
        case "HelperJoined":
            return f"{who} helps"
        case "RunAwayDeclared":
            return "running away: press ROLL for each roll (5 or more escapes)"
        case "PlayersMustAct":
            return f"{who}: {d['text']}"
        case "CursePlayed":
            return f"{card} hits {_name(state, d['victim'])}"
        case "RoomLooted":
            return f"{who} loots the room: draw a Door card face down"
        case "DoorClosed":
            return f"{who} may look for trouble (tap a monster) or loot the room (NEXT)"
        case "OneShotPlayed":
            return f"{card}: {d['bonus']:+d} for the {d['side']}"
        case "MonsterEnhanced":
            return f"{card} on {catalog[d['monster']].name}"
    return ""


def describe_events(events: tuple[Event, ...], state: GameState, catalog: Catalog) -> str:
    texts = [describe(e, state, catalog) for e in events if not e.automatic]
    return "; ".join(t for t in texts if t)
