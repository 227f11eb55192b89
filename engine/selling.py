"""Selling items for levels: on your own turn, out of combat, 1,000 gold a level, never to the win."""

from __future__ import annotations

from engine import commands as c
from engine.cards import Catalog, Kind
from engine.effects import remove_item
from engine.flow import acting, card_of, holder_of, refuse, require_active, require_phase, set_level
from engine.results import Event, RejectCode
from engine.state import GameState, Phase


def do_sell(state: GameState, cmd: c.Sell, catalog: Catalog, events: list[Event]) -> None:
    player = acting(state, cmd)
    require_active(state, cmd, "sell items")
    require_phase(state, "sell items", Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE, Phase.CHARITY)
    if not cmd.cards or len(set(cmd.cards)) != len(cmd.cards):
        raise refuse(RejectCode.ILLEGAL_PLAY, "the basket is empty (or names a card twice): "
                                              "add items with the card menu, then NEXT")
    values = []
    for card_id in cmd.cards:
        card = card_of(catalog, card_id)
        holder = holder_of(state, card_id)
        if card.kind not in (Kind.ITEM, Kind.ONE_SHOT) or card.gold is None:
            raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} has no gold value and cannot be sold")
        if holder is not None and holder.id != player.id:
            raise refuse(RejectCode.NOT_IN_HAND, f"{card.name} belongs to {holder.name}")
        values.append(card.gold)
    double = ("halfling" in player.races and player.sold_double_turn != state.turn)
    total = sum(values) + (max(values) if double else 0)
    levels = total // 1000
    names = ", ".join(catalog[i].name for i in cmd.cards)
    if levels < 1:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{names} are worth {total} gold; selling needs 1,000 gold per level")
    if player.level + levels >= state.ruleset.winning_level:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     f"selling {names} would take {player.name} to level {player.level + levels}; "
                     f"the winning level comes only from a kill")
    for card_id in cmd.cards:
        remove_item(player, card_id)
    if double:
        player.sold_double_turn = state.turn
    set_level(state, player, player.level + levels, events, why="sale")
    events.append(Event("ItemsSold", {"player": player.id, "cards": list(cmd.cards), "gold": total,
                                      "levels": levels, "wasted": total - levels * 1000,
                                      "double": double}))
