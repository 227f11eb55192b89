"""Engine events as messages (an id and values), for the message line; words come at the screen."""

from __future__ import annotations

from typing import Any

from engine.cards import Catalog
from engine.messages import CardRef, Msg, PlayerRef, Seq, msg, nmsg, word
from engine.results import Event
from engine.state import GameState

SIDES = {"players": word("players"), "monsters": word("monsters")}
SEXES = {"male": word("male"), "female": word("female")}
ABILITIES = {"berserk": word("berserk"), "turning": word("turning"), "charm": word("charm"), "flight": word("flight"),
             "backstab": word("backstab"), "theft": word("theft"), "chase": word("chase"), "reroll": word("reroll")}


def _name(state: GameState, player_id: str) -> PlayerRef:
    name = state.player(player_id).name if state.has_player(player_id) else f"Player {player_id.split('-')[-1]}"
    return PlayerRef(player_id, name)


def _card(catalog: Catalog, card_id: str) -> Any:
    return CardRef(card_id, catalog[card_id].name) if card_id in catalog else card_id


def _treasures(n: int) -> Msg:
    return nmsg("draw {n} treasure", "draw {n} treasures", "n", n=n)


def _levels(n: int) -> Msg:
    return nmsg("+{n} level", "+{n} levels", "n", n=n)


def describe(event: Event, state: GameState, catalog: Catalog) -> Msg | str:
    d = event.data
    who: Any = _name(state, d["player"]) if "player" in d and isinstance(d["player"], str) else ""
    card: Any = _card(catalog, d["card"]) if isinstance(d.get("card"), str) and d["card"] in catalog else ""
    match event.name:
        case "PlayerJoined":
            return msg("{who} joined (seat {seat})", who=who, seat=d["seat"])
        case "FirstPlayerChosen":
            return msg("the die chose {who} to start", who=who)
        case "GameStarted":
            return msg("the game starts: {who} kicks open the door", who=_name(state, d["first"]))
        case "TurnEnded":
            return msg("turn {turn}: {who} kicks open the door", turn=state.turn, who=_name(state, state.active_player or ""))
        case "CombatStarted":
            return msg("{who} fights {card}", who=who, card=card)
        case "MonsterJoined":
            return msg("{card} joins the fight", card=card)
        case "LevelGained" | "LevelLost":
            return msg("{who}: level {old} → {new}", who=who, old=d["from"], new=d["to"])
        case "MonstersKilled":
            return msg("{who} killed the monsters: {levels}, {treasures}", who=who, levels=_levels(d["levels"]),
                       treasures=_treasures(d["treasures"]))
        case "RunAwaySucceeded":
            if d.get("automatic"):
                return msg("{who} escapes {monster} without a roll", who=who, monster=_card(catalog, d["monster"]))
            return msg("{who} rolled {roll} and escaped {monster}", who=who, roll=d["roll"], monster=_card(catalog, d["monster"]))
        case "RunAwayFailed":
            if d.get("automatic"):
                return msg("{who} cannot outrun {monster}: caught", who=who, monster=_card(catalog, d["monster"]))
            return msg("{who} rolled {roll}: caught by {monster}", who=who, roll=d["roll"], monster=_card(catalog, d["monster"]))
        case "PlayerDied":
            return msg("{who} died and loses all items", who=who)
        case "ItemEquipped":
            return msg("{who} equips {card}", who=who, card=card)
        case "ItemCarried":
            return msg("{who} carries {card} (no bonus: {why})", who=who, card=card, why=d["why"])
        case "GameWon":
            return msg("game over: {winners} won!", winners=Seq((_name(state, w) for w in d["winners"]), "and"))
        case "WindowOpened":
            return msg("the players win unless someone interferes within {seconds:g} s", seconds=d["seconds"])
        case "HelperJoined":
            return msg("{who} helps", who=who)
        case "RunAwayDeclared":
            return msg("running away: press ROLL for each roll (5 or more escapes)")
        case "PlayersMustAct":
            return msg("{who}: {text}", who=who, text=word(d["text"]) if d["text"] else "")
        case "CursePlayed":
            return msg("{card} hits {victim}", card=card, victim=_name(state, d["victim"]))
        case "RoomLooted":
            return msg("{who} loots the room: draw a Door card face down", who=who)
        case "DoorClosed":
            return msg("{who} may look for trouble (tap a monster) or loot the room (NEXT)", who=who)
        case "OneShotPlayed":
            return msg("{card}: {bonus:+d} for the {side}", card=card, bonus=d["bonus"], side=SIDES.get(d["side"], d["side"]))
        case "MonsterEnhanced":
            return msg("{card} on {monster}", card=card, monster=_card(catalog, d["monster"]))
        case "AbilityUsed":
            ability = ABILITIES.get(d["ability"], d["ability"])
            if d.get("count"):
                return nmsg("{who} uses {ability} ({count} discard)", "{who} uses {ability} ({count} discards)", "count",
                            who=who, ability=ability, count=d["count"])
            return msg("{who} uses {ability}", who=who, ability=ability)
        case "AutoEscape":
            return msg("{by}: {players} escape", by=_card(catalog, d["by"]), players=Seq((_name(state, p) for p in d["players"]), "and"))
        case "BadStuffRolled":
            return msg("{who} rolled {roll} for the bad stuff of {source}", who=who, roll=d["roll"], source=_card(catalog, d["source"]))
        case "CardDiscarded":
            return msg("{who} discards {card}", who=who, card=card)
        case "CheatAttached":
            return msg("{who} attaches Cheat! to {card}", who=who, card=card)
        case "ClassLost":
            if card:
                return msg("{who} loses {card}", who=who, card=card)
            return msg("{who} loses their class", who=who)
        case "RaceLost":
            return msg("{who} loses their race", who=who)
        case "CurseBlocked":
            return msg("{victim}'s {by} stop {card}", victim=_name(state, d["victim"]), by=_card(catalog, d["by"]), card=card)
        case "CurseCancelled":
            return msg("{by} lifts {card} from {who}", by=_card(catalog, d["by"]), card=card, who=who)
        case "CurseMissed":
            return msg("{source} finds nothing to take from {who}", source=_card(catalog, d["source"]), who=who)
        case "DivineIntervention":
            return msg("Divine Intervention: every cleric goes up a level")
        case "EscapeUndone":
            return msg("{by}: {who} must roll again", by=_card(catalog, d["by"]), who=_name(state, d["player"]))
        case "FightTransferred":
            return msg("{by}: {to} takes over the fight", by=_card(catalog, d["by"]), to=_name(state, d["to"]))
        case "HandDiscarded":
            return msg("{who} discards their whole hand", who=who)
        case "IllusionPlayed":
            return msg("Illusion on {monster}: tap the monster that replaces it", monster=_card(catalog, d["monster"]))
        case "ItemGiven":
            return msg("{who} gives {card} to {to}", who=who, card=card, to=_name(state, d["to"]))
        case "WindowReopened":
            return msg("the fight is back: the players win unless someone interferes within {seconds:g} s",
                       seconds=d["seconds"])
        case "ItemPromised":
            return msg("{who} promises {card} to {to} if the fight is won", who=who, card=card, to=_name(state, d["to"]))
        case "CurseRemoved":
            return msg("{who}: {card} goes with the headgear", who=who, card=card)
        case "ItemTaken":
            return msg("{who} takes {card} from {giver}", who=who, card=card, giver=_name(state, d["from"]))
        case "ItemToLoseAsked":
            if d["source"] == "big-item-limit":
                return msg("{who} has too many Big items: tap the one to give up", who=who)
            return msg("{who}: tap the item to lose ({source})", who=who, source=_card(catalog, d["source"]))
        case "ItemUnequipped":
            return msg("{who} takes off {card}", who=who, card=card)
        case "ItemsLost":
            if d["cards"]:
                return msg("{who} loses {card}", who=who, card=Seq(_card(catalog, x) for x in d["cards"]))
            return msg("{who} had nothing to lose", who=who)
        case "ItemsSold":
            return msg("{who} sells {cards} for {gold:,} gold: {levels}", who=who, cards=Seq(_card(catalog, x) for x in d["cards"]),
                       gold=d["gold"], levels=_levels(d["levels"]))
        case "MonsterIgnoresPlayer":
            if d["treasures"]:
                return msg("{card} will not fight {who}; {treasures}", card=card, who=who, treasures=_treasures(d["treasures"]))
            return msg("{card} will not fight {who}", card=card, who=who)
        case "MonsterRemoved":
            return msg("{by} removes {card}", by=_card(catalog, d["by"]), card=card)
        case "MonsterReplaced":
            return msg("{card} replaces {old}", card=card, old=_card(catalog, d["old"]))
        case "MonsterSlain":
            return msg("{by} kills {card}", by=_card(catalog, d["by"]), card=_card(catalog, d["card"]))
        case "MonstersDiscarded":
            if d["treasures"]:
                return msg("{card}: the monsters are gone; {treasures}", card=card, treasures=_treasures(d["treasures"]))
            return msg("{card}: the monsters are gone", card=card)
        case "NextCombatCursed":
            return msg("{source} will hit {who} in the next combat", source=_card(catalog, d["source"]), who=who)
        case "PlayerLeft":
            return msg("{who} left the game", who=who)
        case "PlayerRenamed":
            seat = next((i for i, p in enumerate(state.players, 1) if p.id == d["player"]), 0)
            return msg("the player in seat {seat} is now called {who}", seat=seat, who=who)
        case "RaceChosen" | "ClassChosen":
            return msg("{who} is now {card}", who=who, card=card)
        case "RestFromHand":
            return msg("{who} loses the rest from their hand", who=who)
        case "RollRetaken":
            by = _card(catalog, d["by"]) if d["by"] in catalog else ABILITIES.get(d["by"], d["by"])
            return msg("{by}: the roll is taken again", by=by)
        case "SexChanged":
            return msg("{who} is now {sex}", who=who, sex=SEXES.get(d["sex"], d["sex"]))
        case "SpecialPlayed":
            return msg("{who} plays {card}", who=who, card=card)
        case "TheftSucceeded":
            return msg("{who} rolled {roll} and steals {card} from {victim}", who=who, roll=d["roll"], card=card,
                       victim=_name(state, d["from"]))
        case "TheftFailed":
            return msg("{who} rolled {roll}: the theft of {card} fails", who=who, roll=d["roll"], card=card)
        case "TreasuresAdded":
            return nmsg("{by}: {who} draws {n} more treasure", "{by}: {who} draws {n} more treasures", "n",
                        by=_card(catalog, d["by"]), who=who, n=d["n"])
        case "WanderingMonsterPlayed":
            return msg("Wandering Monster: tap the monster that joins the fight")
    return ""


def describe_events(events: tuple[Event, ...], state: GameState, catalog: Catalog) -> Seq | str:
    """The message line for what one action did: its events' sentences, joined."""
    texts = [describe(e, state, catalog) for e in events if not e.automatic]
    texts = [t for t in texts if t]
    return Seq(texts, "sentences") if texts else ""
