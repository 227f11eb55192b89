"""Looting the body: after a death, the other players take one card each from it, highest level first.

The box sees only the dead player's items (the hand is laid out too, but it has no tags in play).
The order holds for every pick: the looter whose pick it is takes an item by tapping it (after their
token, as for any card played for someone else), or says they took a card from the hand
(``LootFromHand``); nobody later in the order picks before them, and each picks once. What nobody
takes is discarded when the next turn begins.
"""

from __future__ import annotations

from engine import commands as c
from engine.cards import Catalog, CardDef
from engine.events import GameEvent, HandLooted, ItemTaken
from engine.messages import msg, Seq
from engine.results import Refusal, RejectCode
from engine.state import GameState, Phase, Player
from engine.strength import big_problem, restriction_problem, slot_problem


def start_looting(state: GameState, body: Player, items: list[str], order: list[str]) -> None:
    state.looting = {"body": body.id, "items": list(items), "order": list(order), "taken": [],
                     "waiting": list(order)}


def is_loot(state: GameState, card: CardDef, player_id: str) -> bool:
    """Whether playing ``card`` for ``player_id`` means taking it from the body."""
    loot = state.looting
    if loot is None or card.id not in loot["items"]:
        return False
    return card.copies <= 1 or player_id in loot["waiting"]


def take_from_body(state: GameState, card: CardDef, player: Player, catalog: Catalog,
                   events: list[GameEvent]) -> None:
    loot = state.looting
    assert loot is not None
    body = _body(state)
    require_looters_turn(state, player, card)
    big = big_problem(card, player, catalog)
    if big:
        raise Refusal(RejectCode.ILLEGAL_PLAY, "{big}; take another card from {body}'s body", big=big, body=body)
    loot["waiting"].pop(0)
    loot["items"].remove(card.id)
    loot["taken"].append([player.id, card.id])
    fighting = state.phase in (Phase.COMBAT, Phase.RUN_AWAY)
    if not fighting and restriction_problem(card, player) is None and slot_problem(card, player, catalog) is None:
        player.equipped.append(card.id)
    else:
        player.carried.append(card.id)
    over = not loot["waiting"] or not loot["items"]
    events.append(ItemTaken(player=player.id, from_=loot["body"], card=card.id, by="looting", passed=(),
                            discarded=tuple(loot["items"]) if over else ()))
    if over:
        state.looting = None


def do_loot_from_hand(state: GameState, cmd: c.LootFromHand, catalog: Catalog, events: list[GameEvent]) -> None:
    """The looter whose pick it is took a card from the dead player's hand: the next looter picks."""
    loot = state.looting
    if loot is None or not loot["waiting"]:
        raise Refusal(RejectCode.ILLEGAL_PLAY, "nobody is looting a body now")
    if not state.has_player(cmd.player):
        raise Refusal(RejectCode.ILLEGAL_TARGET, "{player} is not playing", player=cmd.player)
    player = state.player(cmd.player)
    require_looters_turn(state, player, None)
    loot["waiting"].pop(0)
    over = not loot["waiting"] or not loot["items"]
    events.append(HandLooted(player=player.id, from_=loot["body"], discarded=tuple(loot["items"]) if over else ()))
    if over:
        state.looting = None


def _body(state: GameState) -> Player | str:
    loot = state.looting
    assert loot is not None
    return state.player(loot["body"]) if state.has_player(loot["body"]) else loot["body"]


def require_looters_turn(state: GameState, player: Player, card: CardDef | None) -> None:
    """Looting goes from the highest level down: only the looter whose pick it is picks now."""
    loot = state.looting
    assert loot is not None
    body = _body(state)
    waiting: list[str] = loot["waiting"]
    if waiting and player.id == waiting[0]:
        return
    names = Seq((state.player(p) for p in waiting if state.has_player(p)), "list")
    if player.id == loot["body"]:
        why = msg("{player} is dead and cannot loot their own body", player=player)
    elif player.id in waiting:
        why = msg("{first} picks before {player}: looting {body}'s body goes from the highest level down",
                  first=state.player(waiting[0]), player=player, body=body)
    elif player.id in loot["order"]:
        why = msg("{player} has had their pick from {body}'s body", player=player, body=body)
    else:
        why = msg("{player} does not loot {body}'s body", player=player, body=body)
    if card is None:
        raise Refusal(RejectCode.NOT_YOUR_TURN, "{why}; in order: {names}", why=why, names=names)
    raise Refusal(RejectCode.NOT_YOUR_TURN,
                  "{why}; {card} goes to the next looter, in order: {names} (tap the token, then the card)", why=why, card=card, names=names)
