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
            if d.get("automatic"):
                return f"{who} escapes {catalog[d['monster']].name} without a roll"
            return f"{who} rolled {d['roll']} and escaped {catalog[d['monster']].name}"
        case "RunAwayFailed":
            if d.get("automatic"):
                return f"{who} cannot outrun {catalog[d['monster']].name}: caught"
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
        case "AbilityUsed":
            return f"{who} uses {d['ability']}" + (f" ({d['count']} discard(s))" if d.get("count") else "")
        case "AutoEscape":
            return f"{_card(catalog, d['by'])}: " + " and ".join(_name(state, p) for p in d["players"]) + " escape"
        case "BadStuffRolled":
            return f"{who} rolled {d['roll']} for the bad stuff of {_card(catalog, d['source'])}"
        case "CardDiscarded":
            return f"{who} discards {card}"
        case "CheatAttached":
            return f"{who} attaches Cheat! to {card}"
        case "ClassLost":
            return f"{who} loses {card or 'their class'}"
        case "RaceLost":
            return f"{who} loses their race"
        case "CurseBlocked":
            return f"{_name(state, d['victim'])}'s {_card(catalog, d['by'])} stop {card}"
        case "CurseCancelled":
            return f"{_card(catalog, d['by'])} lifts {card} from {who}"
        case "CurseMissed":
            return f"{_card(catalog, d['source'])} finds nothing to take from {who}"
        case "DivineIntervention":
            return "Divine Intervention: every cleric goes up a level"
        case "EscapeUndone":
            return f"{_card(catalog, d['by'])}: {_name(state, d['player'])} must roll again"
        case "FightTransferred":
            return f"{_card(catalog, d['by'])}: {_name(state, d['to'])} takes over the fight"
        case "HandDiscarded":
            return f"{who} discards their whole hand"
        case "IllusionPlayed":
            return f"Illusion on {_card(catalog, d['monster'])}: tap the monster that replaces it"
        case "ItemGiven":
            return f"{who} gives {card} to {_name(state, d['to'])}"
        case "WindowReopened":
            return f"the fight is back: the players win unless someone interferes within {d['seconds']:g} s"
        case "ItemPromised":
            return f"{who} promises {card} to {_name(state, d['to'])} if the fight is won"
        case "CurseRemoved":
            return f"{who}: {card} goes with the headgear"
        case "ItemTaken":
            return f"{who} takes {card} from {_name(state, d['from'])}"
        case "ItemToLoseAsked":
            if d["source"] == "big-item-limit":
                return f"{who} has too many Big items: tap the one to give up"
            return f"{who}: tap the item to lose ({_card(catalog, d['source'])})"
        case "ItemUnequipped":
            return f"{who} takes off {card}"
        case "ItemsLost":
            lost = ", ".join(_card(catalog, x) for x in d["cards"])
            return f"{who} loses {lost}" if lost else f"{who} had nothing to lose"
        case "ItemsSold":
            sold = ", ".join(_card(catalog, x) for x in d["cards"])
            return f"{who} sells {sold} for {d['gold']:,} gold: +{d['levels']} level(s)"
        case "MonsterIgnoresPlayer":
            return f"{card} will not fight {who}" + (f"; draw {d['treasures']} treasure(s)" if d["treasures"] else "")
        case "MonsterRemoved":
            return f"{_card(catalog, d['by'])} removes {card}"
        case "MonsterReplaced":
            return f"{card} replaces {_card(catalog, d['old'])}"
        case "MonsterSlain":
            return f"{_card(catalog, d['by'])} kills {_card(catalog, d['card'])}"
        case "MonstersDiscarded":
            return f"{card}: the monsters are gone" + (f"; draw {d['treasures']} treasure(s)" if d["treasures"] else "")
        case "NextCombatCursed":
            return f"{_card(catalog, d['source'])} will hit {who} in the next combat"
        case "PlayerLeft":
            return f"{who} left the game"
        case "PlayerRenamed":
            seat = next((i for i, p in enumerate(state.players, 1) if p.id == d["player"]), 0)
            return f"the player in seat {seat} is now called {who}"
        case "RaceChosen" | "ClassChosen":
            return f"{who} is now {card}"
        case "RestFromHand":
            return f"{who} loses the rest from their hand"
        case "RollRetaken":
            return f"{_card(catalog, d['by']) if d['by'] in catalog else d['by']}: the roll is taken again"
        case "SexChanged":
            return f"{who} is now {d['sex']}"
        case "SpecialPlayed":
            return f"{who} plays {card}"
        case "TheftSucceeded":
            return f"{who} rolled {d['roll']} and steals {card} from {_name(state, d['from'])}"
        case "TheftFailed":
            return f"{who} rolled {d['roll']}: the theft of {card} fails"
        case "TreasuresAdded":
            return f"{_card(catalog, d['by'])}: {who} draws {d['n']} more treasure(s)"
        case "WanderingMonsterPlayed":
            return "Wandering Monster: tap the monster that joins the fight"
    return ""


def _card(catalog: Catalog, card_id: str) -> str:
    return catalog[card_id].name if card_id in catalog else card_id


def describe_events(events: tuple[Event, ...], state: GameState, catalog: Catalog) -> str:
    texts = [describe(e, state, catalog) for e in events if not e.automatic]
    return "; ".join(t for t in texts if t)
