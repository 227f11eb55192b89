"""Selling items for levels: on your own turn, out of combat, 1,000 gold a level, never to the win."""

from __future__ import annotations

from collections.abc import Iterable

from engine import commands as c
from engine.cards import Catalog, Kind
from engine.effects import remove_item
from engine.events import GameEvent, ItemsSold
from engine.flow import acting, card_of, holder_of, refuse, require_active, require_phase, set_level
from engine.messages import Seq
from engine.results import RejectCode
from engine.state import GameState, Phase, Player


GOLD_PER_LEVEL = 1000          # selling: this much gold buys a level, and no change is given


def levels_for_gold(gold: int) -> int:
    """How many levels ``gold`` worth of items buys."""
    return gold // GOLD_PER_LEVEL


def gold_left_over(gold: int) -> int:
    """The gold a sale of ``gold`` wastes: no change is given."""
    return gold % GOLD_PER_LEVEL


def gold_short_of_a_level(gold: int) -> int:
    """How much more gold would buy one more level."""
    return GOLD_PER_LEVEL - gold % GOLD_PER_LEVEL


def sells_double(state: GameState, player: Player) -> bool:
    """Whether ``player``'s dearest item in a sale now fetches twice its price: a Halfling, once a turn."""
    return "halfling" in player.races and player.sold_double_turn != state.turn


def sale_value(state: GameState, player: Player, cards: Iterable[str], catalog: Catalog) -> int:
    """The gold ``cards`` fetch if ``player`` sells them now (a card without a price fetches nothing)."""
    values = [catalog[card].gold or 0 for card in cards]
    return sum(values) + (max(values) if values and sells_double(state, player) else 0)


def do_sell(state: GameState, cmd: c.Sell, catalog: Catalog, events: list[GameEvent]) -> None:
    player = acting(state, cmd)
    require_active(state, cmd, "sell items")
    require_phase(state, "sell items", Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE, Phase.CHARITY)
    if not cmd.cards or len(set(cmd.cards)) != len(cmd.cards):
        raise refuse(RejectCode.ILLEGAL_PLAY, "the basket is empty (or names a card twice): "
                                              "add items with the card menu, then NEXT")
    for card_id in cmd.cards:
        card = card_of(catalog, card_id)
        holder = holder_of(state, card_id)
        if card.kind not in (Kind.ITEM, Kind.ONE_SHOT) or card.gold is None:
            raise refuse(RejectCode.ILLEGAL_PLAY, "{card} has no gold value and cannot be sold", card=card)
        if holder is not None and holder.id != player.id:
            raise refuse(RejectCode.NOT_IN_HAND, "{card} belongs to {holder}", card=card, holder=holder)
    double = sells_double(state, player)
    total = sale_value(state, player, cmd.cards, catalog)
    levels = levels_for_gold(total)
    names = Seq((catalog[i] for i in cmd.cards), "list")
    if levels < 1:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{names} are worth {total} gold; selling needs 1,000 gold per level", names=names, total=total)
    if player.level + levels >= state.ruleset.winning_level:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     "selling {names} would take {player} to level {level}; the winning level comes only from a kill", names=names, player=player, level=player.level + levels)
    for card_id in cmd.cards:
        remove_item(player, card_id)
    if double:
        player.sold_double_turn = state.turn
    set_level(state, player, player.level + levels, events, why="sale")
    events.append(ItemsSold(player=player.id, cards=tuple(cmd.cards), gold=total, levels=levels,
                            wasted=total - levels * GOLD_PER_LEVEL, double=double))
