"""The card menu on a card in play (equip, unequip, give, discard, escape) and the item the box asked
the player to lose."""

from __future__ import annotations

from collections.abc import Callable

from engine import commands as c
from engine.cards import Catalog, CardDef, Kind
from engine.effects import items_of, lose_headgear_chicken, remove_item
from engine.events import (AutoEscape, CardDiscarded, ClassLost, CombatEnd, GameEvent, ItemEquipped, ItemGiven,
                           ItemPromised, ItemUnequipped, ItemsLost, RestFromHand)
from engine.flow import acting, card_of, end_combat, holder_of, other_player, phase_name, refuse
from engine.items import BIG_LIMIT
from engine.messages import msg, Seq, word
from engine.results import RejectCode
from engine.state import GameState, Phase, Player, Promise
from engine.strength import big_problem, restriction_problem, slot_problem


def do_use(state: GameState, cmd: c.UseCard, catalog: Catalog, events: list[GameEvent]) -> None:
    card = card_of(catalog, cmd.card)
    player = acting(state, cmd)
    if card.id not in player.in_play():
        holder = holder_of(state, card.id)
        where = msg("it belongs to {holder}", holder=holder) if holder else msg("it is not in play")
        raise refuse(RejectCode.NOT_IN_HAND, "{player} cannot {action} {card}: {where}", player=player, action=word(cmd.action), card=card, where=where)
    if cmd.action == "promise":
        promise_item(state, player, card, cmd, catalog, events)
        return
    if cmd.action in ("equip", "unequip", "give") and state.phase in (Phase.COMBAT, Phase.RUN_AWAY):
        raise refuse(RejectCode.WRONG_PHASE, "cannot {action} {card} during {phase}; equipment is fixed until the fight is over", action=word(cmd.action), card=card, phase=state.phase)
    action = CARD_ACTIONS.get(cmd.action)
    if action is None:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     "cannot {action} {card}; allowed: equip, unequip, discard, give, promise, escape", action=word(cmd.action), card=card)
    action(state, cmd, player, card, catalog, events)


def equip(state: GameState, cmd: c.UseCard, player: Player, card: CardDef, catalog: Catalog,
          events: list[GameEvent]) -> None:
    if card.id not in player.carried:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{card} is not a carried item", card=card)
    why_not = restriction_problem(card, player) or slot_problem(card, player, catalog)
    if why_not:
        raise refuse(RejectCode.ILLEGAL_PLAY, "cannot equip {card}: {why_not}", card=card, why_not=why_not)
    player.carried.remove(card.id)
    player.equipped.append(card.id)
    events.append(ItemEquipped(player=player.id, card=card.id))


def unequip(state: GameState, cmd: c.UseCard, player: Player, card: CardDef, catalog: Catalog,
            events: list[GameEvent]) -> None:
    if card.id not in player.equipped:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{card} is not equipped", card=card)
    player.equipped.remove(card.id)
    player.carried.append(card.id)
    events.append(ItemUnequipped(player=player.id, card=card.id))


def give(state: GameState, cmd: c.UseCard, player: Player, card: CardDef, catalog: Catalog,
         events: list[GameEvent]) -> None:
    if card.id not in items_of(player):
        raise refuse(RejectCode.ILLEGAL_PLAY, "only items on the table can be given, not {card}", card=card)
    receiver = other_player(state, cmd, player, msg("give {card} to whom? tap another player's token", card=card))
    if not receiver.alive:
        raise refuse(RejectCode.ILLEGAL_TARGET,
                     "cannot give {card} to {receiver}: the dead receive no cards until the next turn", card=card, receiver=receiver)
    big = big_problem(card, receiver, catalog)
    if big:
        raise refuse(RejectCode.ILLEGAL_PLAY, big)
    hand_over(player, receiver, card, catalog)
    events.append(ItemGiven(player=player.id, to=receiver.id, card=card.id))


def escape(state: GameState, cmd: c.UseCard, player: Player, card: CardDef, catalog: Catalog,
           events: list[GameEvent]) -> None:
    escape_by_discarding(state, player, card, catalog, events)


def discard(state: GameState, cmd: c.UseCard, player: Player, card: CardDef, catalog: Catalog,
            events: list[GameEvent]) -> None:
    if card.kind is Kind.ITEM and state.phase in (Phase.COMBAT, Phase.RUN_AWAY):
        raise refuse(RejectCode.WRONG_PHASE, "cannot discard {card} during {phase}; an item that escapes a monster is used with 'escape'", card=card, phase=state.phase)
    if card.id == "cheat":
        player.cheat_on = None
    if card.big and card.id in items_of(player):
        player.big_discarded_turn = state.turn
    remove_item(player, card.id)
    for pile in (player.races, player.classes, player.curses, player.specials):
        if card.id in pile:
            pile.remove(card.id)
    if card.kind is Kind.RACE and "half-breed" in player.specials and not player.races:
        player.specials.remove("half-breed")
    if card.kind is Kind.CLASS and "super-munchkin" in player.specials and not player.classes:
        player.specials.remove("super-munchkin")
    events.append(CardDiscarded(player=player.id, card=card.id))


# The card menu's actions on a card in play (``promise`` is checked first: it is allowed in a fight).
CARD_ACTIONS: dict[str, Callable[[GameState, c.UseCard, Player, CardDef, Catalog, list[GameEvent]], None]] = {
    "equip": equip, "unequip": unequip, "give": give, "escape": escape, "discard": discard,
}


def hand_over(giver: Player, receiver: Player, card: CardDef, catalog: Catalog) -> None:
    """``card`` goes from ``giver``'s table to ``receiver``'s: worn if it fits and may be used, else carried."""
    remove_item(giver, card.id)
    if restriction_problem(card, receiver) or slot_problem(card, receiver, catalog):
        receiver.carried.append(card.id)
    else:
        receiver.equipped.append(card.id)


def promise_item(state: GameState, player: Player, card: CardDef, cmd: c.UseCard, catalog: Catalog,
                 events: list[GameEvent]) -> None:
    """A bribe: an item on the table promised to a player for their help, handed over if the fight is won."""
    combat = state.combat
    if state.phase is not Phase.COMBAT or combat is None:
        raise refuse(RejectCode.WRONG_PHASE, "{card} is promised to a helper during a combat; outside a combat it is simply given", card=card)
    if player.id != combat.fighters[0]:
        raise refuse(RejectCode.NOT_YOUR_TURN, "only {who}, who asks for help, promises items for it", who=state.player(combat.fighters[0]))
    if card.id not in items_of(player):
        raise refuse(RejectCode.ILLEGAL_PLAY, "only items on the table can be promised, not {card}", card=card)
    receiver = other_player(state, cmd, player, msg("promise {card} to whom? tap the helper's token", card=card))
    if any(p.card == card.id and p.giver == player.id for p in combat.promises):
        raise refuse(RejectCode.ILLEGAL_PLAY, "{card} is already promised", card=card)
    combat.promises.append(Promise(player.id, card.id, receiver.id))
    events.append(ItemPromised(player=player.id, to=receiver.id, card=card.id))


def keep_promises(state: GameState, catalog: Catalog, events: list[GameEvent]) -> None:
    """The fight is won: each item promised to the player who helped changes hands."""
    combat = state.combat
    if combat is None:
        return
    for promise in combat.promises:
        if promise.receiver != combat.helper or not state.has_player(promise.giver):
            continue
        giver, receiver = state.player(promise.giver), state.player(promise.receiver)
        if promise.card not in items_of(giver) or not receiver.alive:
            continue
        hand_over(giver, receiver, catalog[promise.card], catalog)
        events.append(ItemGiven(player=giver.id, to=receiver.id, card=promise.card, promised=True))


def big_item_receivers(state: GameState, player: Player, card: CardDef, catalog: Catalog) -> list[str]:
    """Who takes a Big item ``player`` can no longer carry: the lowest-level living players who can carry it."""
    able = [p for p in state.players if p.id != player.id and p.alive and big_problem(card, p, catalog) is None]
    if not able:
        return []
    lowest = min(p.level for p in able)
    return [p.id for p in able if p.level == lowest]


def give_up_big_item(state: GameState, cmd: c.LoseItem, player: Player, card: CardDef, catalog: Catalog,
                     events: list[GameEvent]) -> None:
    """An item ``player`` can no longer carry goes to the lowest-level player (or is sold on their own
    turn, through the sales basket); it is discarded only when nobody could carry it."""
    receivers = big_item_receivers(state, player, card, catalog)
    if not receivers:
        remove_item(player, card.id)
        events.append(ItemsLost(player=player.id, cards=(card.id,), source=BIG_LIMIT))
        return
    if cmd.target:
        if cmd.target not in receivers:
            names = Seq((state.player(r) for r in receivers), "list")
            raise refuse(RejectCode.ILLEGAL_TARGET, "{card} goes to the lowest-level player: {names}", card=card, names=names)
        receiver = state.player(cmd.target)
    elif len(receivers) == 1:
        receiver = state.player(receivers[0])
    else:
        names = Seq((state.player(r) for r in receivers), "list")
        raise refuse(RejectCode.ILLEGAL_TARGET, "{card} goes to one of the lowest-level players ({names}): tap their token", card=card, names=names)
    hand_over(player, receiver, card, catalog)
    events.append(ItemGiven(player=player.id, to=receiver.id, card=card.id, source=BIG_LIMIT))


def escape_by_discarding(state: GameState, player: Player, card: CardDef, catalog: Catalog,
                         events: list[GameEvent]) -> None:
    """Rat on a Stick, Hireling, or a pole/staff thrown to the Pit Bull: discard it and escape."""
    if state.combat is None or player.id not in state.combat.fighters:
        raise refuse(RejectCode.WRONG_PHASE, "{card} buys an escape only from your own fight", card=card)
    combat = state.combat
    own = card.effect("discard-to-escape")
    escapes = []
    for i, m in enumerate(combat.monsters):
        monster = catalog[m.card]
        by_monster = monster.effect("escape-by-discarding")
        if by_monster is not None and card.id in by_monster.get("cards"):
            escapes.append(i)
        elif own is not None and (own.get("max_level") == 0 or (monster.level or 0) <= own.get("max_level")):
            escapes.append(i)
    if len(escapes) != len(combat.monsters):
        raise refuse(RejectCode.ILLEGAL_PLAY, "{card} does not get {player} away from every monster here", card=card, player=player)
    remove_item(player, card.id)
    events.append(AutoEscape(players=(player.id,), by=card.id))
    if state.flight is not None:
        state.flight.pending = [(p, i) for p, i in state.flight.pending if p != player.id]
        if not state.flight.pending:
            end_combat(state, events, how=CombatEnd.RAN_AWAY)
        return
    if player.id == combat.fighters[0]:
        end_combat(state, events, how=CombatEnd.ESCAPED)
    else:
        combat.fighters.remove(player.id)


def lose_chosen_class(state: GameState, cmd: c.LoseItem, player: Player, catalog: Catalog,
                      events: list[GameEvent]) -> None:
    """The card said "lose your class" to a player with two (Super Munchkin): the victim tapped the one that goes."""
    loss = state.pending_loss
    assert loss is not None
    if cmd.card not in player.classes:
        raise refuse(RejectCode.ILLEGAL_TARGET, "tap the class card {player} loses ({source})", player=player,
                     source=card_of(catalog, loss.source) if loss.source in catalog else loss.source)
    player.classes.remove(cmd.card)
    events.append(ClassLost(player=player.id, card=cmd.card, source=loss.source))
    if not player.classes and "super-munchkin" in player.specials:
        player.specials.remove("super-munchkin")
    state.pending_loss = None


def do_lose_item(state: GameState, cmd: c.LoseItem, catalog: Catalog, events: list[GameEvent]) -> None:
    loss = state.pending_loss
    if loss is None:
        raise refuse(RejectCode.ILLEGAL_PLAY, "nobody has to lose an item now")
    player = state.player(loss.player)
    if cmd.player != loss.player:
        raise refuse(RejectCode.NOT_YOUR_TURN, "{player} chooses the item to lose, not {other}", player=player, other=cmd.player)
    if loss.kind == "class":
        lose_chosen_class(state, cmd, player, catalog, events)
    elif not cmd.card:
        if loss.source == BIG_LIMIT:
            raise refuse(RejectCode.ILLEGAL_PLAY, "{player} may carry only so many Big items: tap the Big item to give up ({count} to go), or give or sell it", player=player, count=loss.count)
        rolled = loss.source in catalog and any(e.op == "roll-lose-items" for e in catalog[loss.source].bad_stuff)
        if loss.count <= 1 and loss.gold == 0 and not rolled:
            raise refuse(RejectCode.ILLEGAL_PLAY, "tap the item {player} loses", player=player)
        events.append(RestFromHand(player=player.id, count=loss.count, source=loss.source))
        state.pending_loss = None
    else:
        card = card_of(catalog, cmd.card)
        if card.id not in items_of(player):
            raise refuse(RejectCode.NOT_IN_HAND, "{card} is not one of {player}'s items; tap an item {player} has ({kind})", card=card, player=player, kind=word(loss.kind))
        if loss.kind == "big" and not card.big or loss.kind == "small" and card.big:
            raise refuse(RejectCode.ILLEGAL_TARGET, "{card} is not a {kind} item; tap a {kind} item", card=card, kind=word(loss.kind))
        if loss.source == BIG_LIMIT:
            give_up_big_item(state, cmd, player, card, catalog, events)
            # apply's check of the Big-item limit settles or renews the request
        else:
            lose_headgear_chicken(player, [card.id], catalog, events)
            remove_item(player, card.id)
            events.append(ItemsLost(player=player.id, cards=(card.id,), source=loss.source))
            loss.count -= 1
            loss.lost_gold += card.gold or 0
            done = loss.count <= 0 or not items_of(player) or (loss.gold and loss.lost_gold >= loss.gold)
            if done:
                state.pending_loss = None
    if state.pending_loss is None and state.phase is Phase.RUN_AWAY and state.flight and not state.flight.pending:
        end_combat(state, events, how=CombatEnd.RAN_AWAY)
