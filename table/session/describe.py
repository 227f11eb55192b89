"""Engine events as messages (an id and values), for the message line; words come at the screen."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, assert_never

from engine.cards import Catalog
from engine.events import (AbilityUsed, AutoEscape, BadStuffRollAsked, BadStuffRolled, CardDiscarded, CharityDue, CheatAttached,
                           ClassChosen, ClassLost, CombatEnded, CombatStarted, CurseBlocked, CurseCancelled,
                           CurseMissed, CursePlayed, CurseRemoved, DivineIntervention, DoorClosed,
                           EscapeUndone, FightTransferred, FirstPlayerChosen, GameEvent, GameStarted, GameWon,
                           HandDiscarded, HandLooted, HelperJoined, IllusionPlayed, ItemCarried, ItemEquipped, ItemGiven,
                           ItemPromised, ItemTaken, ItemToLoseAsked, ItemUnequipped, ItemsLost, ItemsSold,
                           LevelGained, LevelLost, LootOrderRolled, MonsterEnhanced, MonsterIgnoresPlayer, MonsterJoined,
                           MonsterRemoved, MonsterReplaced, MonsterSlain, MonstersDiscarded, MonstersKilled,
                           NextCombatCursed, OneShotPlayed, PlayerDied, PlayerJoined, PlayerLeft,
                           PlayerRenamed, PlayerRevived, PlayersMustAct, RaceChosen, RaceLost, RestFromHand,
                           RollRetaken, RoomLooted, RunAwayDeclared, RunAwayFailed, RunAwaySucceeded,
                           SexChanged, SpecialPlayed, TheftFailed, TheftSucceeded, TreasuresAdded, TurnEnded,
                           TurnStarted, WanderingMonsterPlayed, WindowClosed, WindowOpened, WindowReopened,
                           WindowRestarted)
from engine.messages import CardRef, Msg, PlayerRef, Seq, msg, nmsg, word
from engine.players import default_name
from engine.state import PLAYER_TOKENS, GameState

SIDES = {"players": word("players"), "monsters": word("monsters")}
SEXES = {"male": word("male"), "female": word("female")}
ABILITIES = {"berserk": word("berserk"), "turning": word("turning"), "charm": word("charm"), "flight": word("flight"),
             "backstab": word("backstab"), "theft": word("theft"), "chase": word("chase"), "reroll": word("reroll")}


def _name(state: GameState, player_id: str) -> PlayerRef:
    if state.has_player(player_id):
        return PlayerRef(player_id, state.player(player_id).name)
    name = default_name(player_id) if player_id in PLAYER_TOKENS else player_id      # a player who has left
    return PlayerRef(player_id, name)


def _card(catalog: Catalog, card_id: str) -> Any:
    return CardRef(card_id, catalog[card_id].name) if card_id in catalog else card_id


def _treasures(n: int) -> Msg:
    return nmsg("draw {n} treasure", "draw {n} treasures", "n", n=n)


def _levels(n: int) -> Msg:
    return nmsg("+{n} level", "+{n} levels", "n", n=n)


def _card_shown(catalog: Catalog, card_id: str | None) -> Any:
    """The card to name in a sentence, or "" when the catalog does not know it."""
    return _card(catalog, card_id) if isinstance(card_id, str) and card_id in catalog else ""


def describe(event: GameEvent, state: GameState, catalog: Catalog) -> Msg | str:
    """The sentence for one event ("" for the automatic ones, which the message line leaves out).

    Every kind of event has its case: one the engine adds and this forgets fails type checking."""
    match event:
        case (PlayerJoined() | PlayerLeft() | PlayerRenamed() | FirstPlayerChosen() | GameStarted() | TurnEnded()
              | GameWon() | DoorClosed() | RoomLooted() | SexChanged() | LevelGained() | LevelLost()
              | DivineIntervention()):
            return _table(event, state, catalog)
        case (CombatStarted() | MonsterJoined() | MonstersKilled() | WindowOpened() | WindowReopened() | HelperJoined()
              | OneShotPlayed() | MonsterEnhanced() | AbilityUsed() | MonsterIgnoresPlayer() | MonsterRemoved()
              | MonsterReplaced() | MonsterSlain() | MonstersDiscarded() | IllusionPlayed() | WanderingMonsterPlayed()
              | FightTransferred() | TreasuresAdded() | ItemPromised()):
            return _fight(event, state, catalog)
        case (RunAwayDeclared() | RunAwaySucceeded() | RunAwayFailed() | AutoEscape() | EscapeUndone() | RollRetaken()
              | BadStuffRollAsked() | BadStuffRolled() | PlayerDied() | TheftSucceeded() | TheftFailed()
              | LootOrderRolled()):
            return _fleeing(event, state, catalog)
        case (ItemEquipped() | ItemCarried() | ItemUnequipped() | ItemGiven() | ItemTaken() | ItemsLost() | ItemsSold()
              | ItemToLoseAsked() | CardDiscarded() | CheatAttached() | SpecialPlayed() | RaceChosen() | ClassChosen()
              | RestFromHand() | HandDiscarded() | HandLooted()):
            return _cards(event, state, catalog)
        case (CursePlayed() | CurseBlocked() | CurseCancelled() | CurseMissed() | CurseRemoved() | ClassLost()
              | RaceLost() | NextCombatCursed() | PlayersMustAct()):
            return _curses(event, state, catalog)
        case CharityDue() | CombatEnded() | PlayerRevived() | TurnStarted() | WindowClosed() | WindowRestarted():
            return ""           # automatic: the screen shows what they did, the message line does not
        case _:
            assert_never(event)


TableEvent = (PlayerJoined | PlayerLeft | PlayerRenamed | FirstPlayerChosen | GameStarted | TurnEnded | GameWon
              | DoorClosed | RoomLooted | SexChanged | LevelGained | LevelLost | DivineIntervention)


def _table(event: TableEvent, state: GameState, catalog: Catalog) -> Msg:
    match event:
        case PlayerJoined(player=player, seat=seat):
            return msg("{who} joined (seat {seat})", who=_name(state, player), seat=seat)
        case PlayerLeft(player=player):
            return msg("{who} left the game", who=_name(state, player))
        case PlayerRenamed(player=player):
            seat = next((i for i, p in enumerate(state.players, 1) if p.id == player), 0)
            return msg("the player in seat {seat} is now called {who}", seat=seat, who=_name(state, player))
        case FirstPlayerChosen(player=player):
            return msg("the die chose {who} to start", who=_name(state, player))
        case GameStarted(first=first):
            return msg("the game starts: {who} kicks open the door", who=_name(state, first))
        case TurnEnded():
            return msg("turn {turn}: {who} kicks open the door", turn=state.turn, who=_name(state, state.active_player or ""))
        case GameWon(winners=winners):
            return msg("game over: {winners} won!", winners=Seq((_name(state, w) for w in winners), "and"))
        case DoorClosed(player=player):
            return msg("{who} may look for trouble (tap a monster) or loot the room (NEXT)", who=_name(state, player))
        case RoomLooted(player=player):
            return msg("{who} loots the room: draw a Door card face down", who=_name(state, player))
        case SexChanged(player=player, sex=sex):
            return msg("{who} is now {sex}", who=_name(state, player), sex=SEXES.get(sex, sex))
        case LevelGained(player=player, from_=old, to=new) | LevelLost(player=player, from_=old, to=new):
            return msg("{who}: level {old} → {new}", who=_name(state, player), old=old, new=new)
        case DivineIntervention():
            return msg("Divine Intervention: every cleric goes up a level")
        case _:
            assert_never(event)


FightEvent = (CombatStarted | MonsterJoined | MonstersKilled | WindowOpened | WindowReopened | HelperJoined
              | OneShotPlayed | MonsterEnhanced | AbilityUsed | MonsterIgnoresPlayer | MonsterRemoved | MonsterReplaced
              | MonsterSlain | MonstersDiscarded | IllusionPlayed | WanderingMonsterPlayed | FightTransferred
              | TreasuresAdded | ItemPromised)


def _fight(event: FightEvent, state: GameState, catalog: Catalog) -> Msg:
    """The sentences of the fight: monsters, helpers, one-shots, the interference window."""
    match event:
        case CombatStarted(player=player, card=card):
            return msg("{who} fights {card}", who=_name(state, player), card=_card_shown(catalog, card))
        case MonsterJoined(card=card):
            return msg("{card} joins the fight", card=_card_shown(catalog, card))
        case MonstersKilled(player=player, levels=levels, treasures=treasures):
            return msg("{who} killed the monsters: {levels}, {treasures}", who=_name(state, player), levels=_levels(levels),
                       treasures=_treasures(treasures))
        case WindowOpened(seconds=seconds):
            return msg("the players win unless someone interferes within {seconds:g} s", seconds=seconds)
        case WindowReopened(seconds=seconds):
            return msg("the fight is back: the players win unless someone interferes within {seconds:g} s",
                       seconds=seconds)
        case HelperJoined(player=player):
            return msg("{who} helps", who=_name(state, player))
        case OneShotPlayed(card=card, bonus=bonus, side=side):
            return msg("{card}: {bonus:+d} for the {side}", card=_card_shown(catalog, card), bonus=bonus,
                       side=SIDES.get(side, side))
        case MonsterEnhanced(card=card, monster=monster):
            return msg("{card} on {monster}", card=_card_shown(catalog, card), monster=_card(catalog, monster))
        case AbilityUsed():
            return _ability(event, state)
        case MonsterIgnoresPlayer(card=card, player=player, treasures=treasures):
            if treasures:
                return msg("{card} will not fight {who}; {treasures}", card=_card_shown(catalog, card), who=_name(state, player),
                           treasures=_treasures(treasures))
            return msg("{card} will not fight {who}", card=_card_shown(catalog, card), who=_name(state, player))
        case MonsterRemoved(card=card, by=by):
            return msg("{by} removes {card}", by=_card(catalog, by), card=_card_shown(catalog, card))
        case MonsterReplaced(card=card, old=old):
            return msg("{card} replaces {old}", card=_card_shown(catalog, card), old=_card(catalog, old))
        case MonsterSlain(card=card, by=by):
            return msg("{by} kills {card}", by=_card(catalog, by), card=_card(catalog, card))
        case MonstersDiscarded(card=card, treasures=treasures):
            if treasures:
                return msg("{card}: the monsters are gone; {treasures}", card=_card_shown(catalog, card),
                           treasures=_treasures(treasures))
            return msg("{card}: the monsters are gone", card=_card_shown(catalog, card))
        case IllusionPlayed(monster=monster):
            return msg("Illusion on {monster}: tap the monster that replaces it", monster=_card(catalog, monster))
        case WanderingMonsterPlayed():
            return msg("Wandering Monster: tap the monster that joins the fight")
        case FightTransferred(to=to, by=by):
            return msg("{by}: {to} takes over the fight", by=_card(catalog, by), to=_name(state, to))
        case TreasuresAdded(player=player, n=n, by=by):
            return nmsg("{by}: {who} draws {n} more treasure", "{by}: {who} draws {n} more treasures", "n",
                        by=_card(catalog, by), who=_name(state, player), n=n)
        case ItemPromised(player=player, card=card, to=to):
            return msg("{who} promises {card} to {to} if the fight is won", who=_name(state, player),
                       card=_card_shown(catalog, card), to=_name(state, to))
        case _:
            assert_never(event)


def _ability(event: AbilityUsed, state: GameState) -> Msg:
    ability = ABILITIES.get(event.ability, event.ability)
    if event.count:
        return nmsg("{who} uses {ability} ({count} discard)", "{who} uses {ability} ({count} discards)", "count",
                    who=_name(state, event.player), ability=ability, count=event.count)
    return msg("{who} uses {ability}", who=_name(state, event.player), ability=ability)


FleeingEvent = (RunAwayDeclared | RunAwaySucceeded | RunAwayFailed | AutoEscape | EscapeUndone | RollRetaken
                | BadStuffRollAsked | BadStuffRolled | PlayerDied | TheftSucceeded | TheftFailed | LootOrderRolled)


def _fleeing(event: FleeingEvent, state: GameState, catalog: Catalog) -> Msg:
    match event:
        case RunAwayDeclared():
            if state.combat is not None and len(state.combat.monsters) > 1:     # the fleeing player chooses the order
                return msg("running away: press ROLL for each roll (5 or more escapes); tap a monster to face it first")
            return msg("running away: press ROLL for each roll (5 or more escapes)")
        case RunAwaySucceeded(player=player, monster=monster, roll=roll, without_roll=without_roll):
            if without_roll:
                return msg("{who} escapes {monster} without a roll", who=_name(state, player), monster=_card(catalog, monster))
            return msg("{who} rolled {roll} and escaped {monster}", who=_name(state, player), roll=roll,
                       monster=_card(catalog, monster))
        case RunAwayFailed(player=player, monster=monster, roll=roll, without_roll=without_roll):
            if without_roll:
                return msg("{who} cannot outrun {monster}: caught", who=_name(state, player), monster=_card(catalog, monster))
            return msg("{who} rolled {roll}: caught by {monster}", who=_name(state, player), roll=roll,
                       monster=_card(catalog, monster))
        case AutoEscape(players=players, by=by):
            return msg("{by}: {players} escape", by=_card(catalog, by), players=Seq((_name(state, p) for p in players), "and"))
        case EscapeUndone(player=player, by=by):
            return msg("{by}: {who} must roll again", by=_card(catalog, by), who=_name(state, player))
        case RollRetaken(by=by):
            shown = _card(catalog, by) if by in catalog else ABILITIES.get(by, by)
            return msg("{by}: the roll is taken again", by=shown)
        case BadStuffRollAsked(player=player, source=source):
            return msg("{who}: press ROLL for the bad stuff of {source}", who=_name(state, player), source=_card(catalog, source))
        case BadStuffRolled(player=player, roll=roll, source=source):
            return msg("{who} rolled {roll} for the bad stuff of {source}", who=_name(state, player), roll=roll,
                       source=_card(catalog, source))
        case LootOrderRolled(player=player, roll=roll):
            return msg("{who} rolled {roll} for the looting order", who=_name(state, player), roll=roll)
        case PlayerDied(player=player):
            return msg("{who} died and loses all items", who=_name(state, player))
        case TheftSucceeded(player=player, from_=victim, card=card, roll=roll):
            return msg("{who} rolled {roll} and steals {card} from {victim}", who=_name(state, player), roll=roll,
                       card=_card_shown(catalog, card), victim=_name(state, victim))
        case TheftFailed(player=player, card=card, roll=roll):
            return msg("{who} rolled {roll}: the theft of {card} fails", who=_name(state, player), roll=roll,
                       card=_card_shown(catalog, card))
        case _:
            assert_never(event)


CardEvent = (ItemEquipped | ItemCarried | ItemUnequipped | ItemGiven | ItemTaken | ItemsLost | ItemsSold
             | ItemToLoseAsked | CardDiscarded | CheatAttached | SpecialPlayed | RaceChosen | ClassChosen
             | RestFromHand | HandDiscarded | HandLooted)


def _cards(event: CardEvent, state: GameState, catalog: Catalog) -> Msg:
    """The sentences of a player's cards: items, races and classes, losses and sales."""
    who = _name(state, event.player)
    match event:
        case ItemEquipped(card=card):
            return msg("{who} equips {card}", who=who, card=_card_shown(catalog, card))
        case ItemCarried(card=card, why=why):
            return msg("{who} carries {card} (no bonus: {why})", who=who, card=_card_shown(catalog, card), why=why)
        case ItemUnequipped(card=card):
            return msg("{who} takes off {card}", who=who, card=_card_shown(catalog, card))
        case ItemGiven(card=card, to=to):
            return msg("{who} gives {card} to {to}", who=who, card=_card_shown(catalog, card), to=_name(state, to))
        case ItemTaken(card=card, from_=giver):
            return msg("{who} takes {card} from {giver}", who=who, card=_card_shown(catalog, card), giver=_name(state, giver))
        case ItemsLost(cards=cards):
            if cards:
                return msg("{who} loses {card}", who=who, card=Seq(_card(catalog, x) for x in cards))
            return msg("{who} had nothing to lose", who=who)
        case ItemsSold(cards=cards, gold=gold, levels=levels):
            return msg("{who} sells {cards} for {gold:,} gold: {levels}", who=who, cards=Seq(_card(catalog, x) for x in cards),
                       gold=gold, levels=_levels(levels))
        case ItemToLoseAsked(source=source, kind=kind):
            if kind == "class":
                return msg("{who}: tap the class card to lose ({source})", who=who, source=_card(catalog, source))
            if source == "big-item-limit":
                return msg("{who} has too many Big items: tap the one to give up", who=who)
            return msg("{who}: tap the item to lose ({source})", who=who, source=_card(catalog, source))
        case CardDiscarded(card=card):
            return msg("{who} discards {card}", who=who, card=_card_shown(catalog, card))
        case CheatAttached(card=card):
            return msg("{who} attaches Cheat! to {card}", who=who, card=_card_shown(catalog, card))
        case SpecialPlayed(card=card):
            return msg("{who} plays {card}", who=who, card=_card_shown(catalog, card))
        case RaceChosen(card=card) | ClassChosen(card=card):
            return msg("{who} is now {card}", who=who, card=_card_shown(catalog, card))
        case RestFromHand():
            return msg("{who} loses the rest from their hand", who=who)
        case HandDiscarded():
            return msg("{who} discards their whole hand", who=who)
        case HandLooted(from_=body):
            return msg("{who} takes a card from {body}'s hand", who=who, body=_name(state, body))
        case _:
            assert_never(event)


CurseEvent = (CursePlayed | CurseBlocked | CurseCancelled | CurseMissed | CurseRemoved | ClassLost | RaceLost
              | NextCombatCursed | PlayersMustAct)


def _curses(event: CurseEvent, state: GameState, catalog: Catalog) -> Msg:
    match event:
        case CursePlayed(card=card, victim=victim):
            return msg("{card} hits {victim}", card=_card_shown(catalog, card), victim=_name(state, victim))
        case CurseBlocked(card=card, victim=victim, by=by):
            return msg("{victim}'s {by} stop {card}", victim=_name(state, victim), by=_card(catalog, by),
                       card=_card_shown(catalog, card))
        case CurseCancelled(player=player, card=card, by=by):
            return msg("{by} lifts {card} from {who}", by=_card(catalog, by), card=_card_shown(catalog, card),
                       who=_name(state, player))
        case CurseMissed(player=player, source=source):
            return msg("{source} finds nothing to take from {who}", source=_card(catalog, source), who=_name(state, player))
        case CurseRemoved(player=player, card=card):
            return msg("{who}: {card} goes with the headgear", who=_name(state, player), card=_card_shown(catalog, card))
        case ClassLost(player=player, card=card):
            shown = _card_shown(catalog, card)
            if shown:
                return msg("{who} loses {card}", who=_name(state, player), card=shown)
            return msg("{who} loses their class", who=_name(state, player))
        case RaceLost(player=player):
            return msg("{who} loses their race", who=_name(state, player))
        case NextCombatCursed(player=player, source=source):
            return msg("{source} will hit {who} in the next combat", source=_card(catalog, source), who=_name(state, player))
        case PlayersMustAct(player=player, text=text):
            return msg("{who}: {text}", who=_name(state, player), text=word(text) if text else "")
        case _:
            assert_never(event)


def describe_events(events: Iterable[GameEvent], state: GameState, catalog: Catalog) -> Seq | str:
    """The message line for what one action did: its events' sentences, joined."""
    texts = [describe(e, state, catalog) for e in events if not e.automatic]
    texts = [t for t in texts if t]
    return Seq(texts, "sentences") if texts else ""
