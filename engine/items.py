"""Item limits that hold at every moment, not just when an item comes into play.

A player who loses what let them carry several Big items (a Dwarf who loses the race to a curse or
the Shrieking Geek, or the Hireling) must get rid of the excess at once; the player chooses which to
keep. The engine asks through the pending loss: "tap the Big item to lose", one tap per excess item.
Giving, selling or discarding a Big item also settles it.
"""

from __future__ import annotations

from engine.cards import Catalog
from engine.events import GameEvent, ItemCarried, ItemToLoseAsked
from engine.state import GameState, PendingLoss, Player
from engine.strength import BIG_ITEMS, big_limit, restriction_problem, slot_problem

BIG_LIMIT = "big-item-limit"


def excess_big_items(player: Player, catalog: Catalog) -> int:
    """How many Big items ``player`` has beyond what they may carry (an item under Cheat! is free)."""
    bigs = sum(1 for i in [*player.equipped, *player.carried] if catalog[i].big and i != player.cheat_on)
    if bigs <= BIG_ITEMS:               # within any limit (none is below it): the cards need not be looked at
        return 0
    limit = big_limit(player, catalog)
    return 0 if limit is None else max(0, bigs - limit)


def enforce_big_limit(state: GameState, catalog: Catalog, events: list[GameEvent]) -> None:
    """Re-check the Big-item limit after a command: ask for the excess, or settle the request."""
    loss = state.pending_loss
    if loss is not None and loss.source == BIG_LIMIT:
        excess = excess_big_items(state.player(loss.player), catalog) if state.has_player(loss.player) else 0
        if excess <= 0:
            state.pending_loss = None
        else:
            loss.count = excess
        return
    if loss is not None:
        return
    for player in state.players:
        excess = excess_big_items(player, catalog)
        if excess:
            state.pending_loss = PendingLoss(player=player.id, kind="big", count=excess, source=BIG_LIMIT)
            events.append(ItemToLoseAsked(player=player.id, kind="big", count=excess, gold=0, source=BIG_LIMIT))
            return


def settle_equipment(state: GameState, catalog: Catalog, events: list[GameEvent]) -> None:
    """An item its wearer can no longer use (Change Sex, a lost race or class, Cheat! gone) or that no
    longer fits beside the rest is carried, not equipped: it gives no bonus and fills no slot."""
    for player in state.players:
        kept: list[str] = []
        moved: list[tuple[str, str]] = []
        for card_id in player.equipped:
            card = catalog[card_id]
            wearing = player.equipped
            player.equipped = kept           # fit against the items kept so far
            why = restriction_problem(card, player) or slot_problem(card, player, catalog)
            player.equipped = wearing
            if why is None:
                kept.append(card_id)
            else:
                moved.append((card_id, why))
        if moved:
            player.equipped = kept
            for card_id, why in moved:
                player.carried.append(card_id)
                events.append(ItemCarried(player=player.id, card=card_id, why=why, automatic=True))
