"""What can be done now: the actions the engine would accept, said as a group at the table does them.

``hints`` answers "what can I do now?" for the player who is acting: each ``Hint`` names how to do it
at the table (``how``: ``press run``, ``tap a monster``, ``tap CARD-ID``…) and what it does (``what``,
a message the table words in its language). Every hint comes from a dry run of the engine's own
``apply`` (through ``legal``), so the list can never offer what the engine then refuses.

The engine does not know the cards in a player's hand: a kind of card (``tap a one-shot``) is offered
when some card of that kind in the catalog would be accepted now, tried on a few of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine import commands as c
from engine.cards import Catalog, Kind
from engine.flow import combat_of
from engine.game import next_command
from engine.legal import Need, card_needs, is_legal
from engine.messages import Msg, msg
from engine.results import Rejected
from engine.run_away import roll_to_escape
from engine.state import GameState, Phase
from engine.strength import combat_totals

# A kind of card, how a group says tapping one, and what it does now (by phase, else the default).
TAP_KINDS: tuple[tuple[Kind, str], ...] = (
    (Kind.MONSTER, "tap a monster"), (Kind.CURSE, "tap a curse"), (Kind.ONE_SHOT, "tap a one-shot"),
    (Kind.MONSTER_ENHANCER, "tap a monster enhancer"), (Kind.WANDERING_MONSTER, "tap a wandering monster"),
    (Kind.GO_UP_A_LEVEL, "tap a go up a level card"), (Kind.ITEM, "tap an item"),
    (Kind.RACE, "tap a race"), (Kind.CLASS, "tap a class"))

# How many cards of a kind are tried before the kind is said to be no use now.
TRIES_PER_KIND = 6


@dataclass(frozen=True)
class Hint:
    how: str          # "press run", "tap a one-shot", "tap net-troll": how to do it at the table
    what: Msg         # what it does, in words the table translates


def hints(state: GameState, catalog: Catalog, player: str, at: float) -> tuple[Hint, ...]:
    """What ``player`` (the one acting) can do now, buttons first, then taps; empty once the game is over
    but for NEXT's new game."""
    if state.phase is Phase.GAME_OVER:
        return (Hint("press next", msg("start a new game")),)
    return (*_buttons(state, catalog, player, at), *_taps(state, catalog, player, at))


def _buttons(state: GameState, catalog: Catalog, player: str, at: float) -> Iterator[Hint]:
    phase = state.phase
    if phase is Phase.SETUP:
        if is_legal(state, catalog, c.ChooseFirstPlayer(player=player, at=at)):
            yield Hint("press roll", msg("roll to pick who starts"))
    if phase is Phase.RUN_AWAY:
        roll = _flight_roll(state, catalog, at)
        if roll is not None:
            yield roll
    if phase is Phase.COMBAT:
        yield from _combat_buttons(state, catalog, player, at)
    nxt = next_command(state, player, at)
    if not isinstance(nxt, Rejected) and is_legal(state, catalog, nxt):
        yield Hint("press next", _next_what(state, catalog, nxt))


def _combat_buttons(state: GameState, catalog: Catalog, player: str, at: float) -> Iterator[Hint]:
    combat = combat_of(state)
    if any(is_legal(state, catalog, c.AddHelper(player=player, helper=other.id, at=at))
           for other in state.players if other.id != player):
        yield Hint("press help", msg("ask for help: press HELP, then the helper taps their token"))
    if is_legal(state, catalog, c.RunAway(player=player, at=at)) and combat.monsters:
        fleeing = state.player(player if player in combat.fighters else combat.fighters[0])
        need = min(roll_to_escape(state, fleeing, monster, catalog) for monster in combat.monsters)
        yield Hint("press run", msg("run away: roll {n} or more on the die", n=need))


def _flight_roll(state: GameState, catalog: Catalog, at: float) -> Hint | None:
    flight = state.flight
    if flight is None or not flight.pending:
        return None
    roller, index = flight.pending[0]
    if not is_legal(state, catalog, c.Roll(player=roller, at=at)):
        return None
    monster = combat_of(state).monsters[index]
    need = roll_to_escape(state, state.player(roller), monster, catalog)
    return Hint("press roll", msg("{who} rolls to flee {monster}: {n} or more gets away",
                                  who=state.player(roller), monster=catalog[monster.card], n=need))


def _next_what(state: GameState, catalog: Catalog, nxt: c.Command) -> Msg:
    phase = state.phase
    if phase is Phase.SETUP:
        return msg("start the game")
    if phase is Phase.KICK_OPEN_THE_DOOR:
        return msg("the door held no monster: go on")
    if phase is Phase.LOOK_FOR_TROUBLE:
        return msg("loot the room: draw a door card face down")
    if phase is Phase.CHARITY:
        return msg("end the turn")
    if phase is Phase.COMBAT:
        players, monsters = combat_totals(state, combat_of(state), catalog)
        return msg("fight: {players} against {monsters}, the players win", players=players, monsters=monsters)
    return msg("go on")


def _taps(state: GameState, catalog: Catalog, player: str, at: float) -> Iterator[Hint]:
    if state.phase is Phase.SETUP:
        if is_legal(state, catalog, c.Join(player=_free_token(state), at=at)):
            yield Hint("tap a player token", msg("join the game: tap your token"))
        return
    loss = state.pending_loss
    if loss is not None:
        owner = state.player(loss.player)
        for card in owner.equipped + owner.carried:
            if is_legal(state, catalog, c.LoseItem(player=loss.player, card=card, at=at)):
                yield Hint(f"tap {card}", msg("lose {card}", card=catalog[card]))
        return
    for kind, how in TAP_KINDS:
        if _some_card_plays(state, catalog, player, kind, at):
            yield Hint(how, _tap_what(state, kind))


def _free_token(state: GameState) -> str:
    taken = {p.id for p in state.players}
    return next((f"player-{n}" for n in range(1, 7) if f"player-{n}" not in taken), "player-1")


def _some_card_plays(state: GameState, catalog: Catalog, player: str, kind: Kind, at: float) -> bool:
    tried = 0
    held = {card for p in state.players for card in p.in_play()}
    victims = [p.id for p in state.players if p.id != player and p.alive]
    for card in catalog.of_kind(kind):
        need = card_needs(state, catalog, player, card.id)
        if card.id in held or need not in (Need.NOTHING, Need.VICTIM) or (need is Need.VICTIM and not victims):
            continue
        target = victims[0] if need is Need.VICTIM else ""
        if is_legal(state, catalog, c.PlayCard(player=player, card=card.id, target=target, at=at)):
            return True
        tried += 1
        if tried >= TRIES_PER_KIND:
            return False
    return False


def _tap_what(state: GameState, kind: Kind) -> Msg:
    phase = state.phase
    if kind is Kind.MONSTER:
        if phase is Phase.KICK_OPEN_THE_DOOR:
            return msg("the door held a monster: tap it to fight")
        if phase is Phase.LOOK_FOR_TROUBLE:
            return msg("look for trouble: fight a monster from your hand")
        return msg("add a monster to the fight")
    return {
        Kind.CURSE: msg("the door held a curse: tap it and it strikes you") if phase is Phase.KICK_OPEN_THE_DOOR
        else msg("curse a player: tap the curse, then their token"),
        Kind.ONE_SHOT: msg("play a one-shot on either side") if phase is Phase.COMBAT else msg("play a one-shot"),
        Kind.MONSTER_ENHANCER: msg("make a monster stronger or weaker"),
        Kind.WANDERING_MONSTER: msg("bring a wandering monster into the fight"),
        Kind.GO_UP_A_LEVEL: msg("go up a level"),
        Kind.ITEM: msg("put an item in play"),
        Kind.RACE: msg("take a race"),
        Kind.CLASS: msg("take a class"),
    }[kind]


__all__ = ["Hint", "TAP_KINDS", "hints"]
