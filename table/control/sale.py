"""The sales basket: on one's own turn out of combat, HELP opens it; taps of the seller's priced cards
(from the table or the hand) go in and out; NEXT sells them; UNDO empties it."""

from __future__ import annotations

from typing import Any

from engine import commands as c
from engine.cards import CardDef, Catalog
from engine.legal import sellable
from engine.messages import Seq, msg, word
from engine.selling import sale_value
from engine.state import GameState
from table.control.prompts import Desk, Keys, Outcome, Prompt, PromptKind


def basket_value(state: GameState, catalog: Catalog, cards: list[str]) -> int:
    """What ``cards`` fetch if the seller (the turn's player) sells them now, as the engine values
    the sale: a Halfling's dearest item twice, once a turn (nothing while no one has a turn)."""
    seller = state.active_player or ""
    return sale_value(state, state.player(seller), cards, catalog) if state.has_player(seller) else 0


def gold(desk: Desk) -> int:
    return basket_value(desk.state, desk.catalog, desk.basket)


def open_sale(desk: Desk) -> Outcome:
    return desk.show(Prompt(PromptKind.SELL, msg("selling: tap the items to sell, from the table or the hand"),
                            player=desk.state.active_player or ""))


def tap(desk: Desk, card: CardDef) -> Outcome:
    """A card of the seller's, on the table or from the hand, goes into the basket, or out of it."""
    state = desk.state
    seller = state.active_player or ""
    mine = state.has_player(seller) and card.id in state.player(seller).in_play()
    holder = next((p for p in state.players if card.id in p.in_play()), None)
    if holder is not None and not mine and card.copies <= 1:
        return desk.refuse(msg("{card} belongs to {who}; only the seller's cards are sold", card=card, who=holder))
    if not sellable(card):
        return desk.refuse(msg("{card} has no price; tap the items to sell, NEXT sells, UNDO cancels", card=card))
    if card.id in desk.basket:
        desk.basket = [i for i in desk.basket if i != card.id]
    else:
        desk.basket = [*desk.basket, card.id]
    return desk.show(desk.prompt, basket_text(desk))


def basket_text(desk: Desk) -> Any:
    if not desk.basket:
        return msg("the sales basket is empty: tap the items to sell, from the table or the hand")
    return msg("to sell: {cards} ({gold} gold); NEXT sells, UNDO empties the basket",
               cards=Seq(desk.catalog[i] for i in desk.basket), gold=gold(desk))


def press(desk: Desk, prompt: Prompt, button: str) -> Outcome | None:
    """NEXT in the open sale sells; other buttons fall through to the controller's answer."""
    if button != "next":
        return None
    desk.close()
    if not desk.basket:
        return desk.refuse(msg("the sales basket is empty: nothing sold"))
    return sell(desk)


def sell(desk: Desk) -> Outcome:
    cards, desk.basket = tuple(desk.basket), []
    return desk.submit(c.Sell(player=desk.state.active_player or "", cards=cards, at=desk.now))


def soft_keys(desk: Desk, prompt: Prompt) -> Keys:
    return {"roll": "", "help": "", "run": "", "next": msg("Sell {gold} gold", gold=gold(desk)), "undo": word("Cancel")}


def with_basket(desk: Desk, keys: Keys) -> Keys:
    """The free buttons while a basket is filled (the sale prompt closed by the card menu)."""
    if not desk.basket:
        return keys
    return {**keys, "next": msg("Sell {gold} gold", gold=gold(desk)), "undo": word("Empty basket")}
