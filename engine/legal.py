"""What is legal now: the questions a table asks before it builds a command.

Every answer here comes from the state, the catalog and the rules the engine applies, so a table
never keeps its own copy of a rule (python-chess's ``legal_moves`` discipline). The queries are
pure: state, catalog, player or card in, answer out.

- ``ability_of`` / ``usable_abilities`` / ``ability_command``: a race or class card's ability in
  this phase, and the command that uses it; ``abilities_of`` / ``abilities_now`` / ``ability_use``:
  every ability a card gives in this phase, those the engine would accept now, and the command for one.
- ``card_needs``: what a card needs before it can be played (a victim's or a target's token, an
  item in play, a number, one of several monsters, a side of the fight), or nothing.
- ``may_sell``, ``sellable``, ``give_action``: the rules of selling and giving an item.
- ``menu_holder`` / ``menu_actions``: whose card a tap opens the menu of (else it is played), and
  what that card menu can do with the card now.
- ``is_legal`` / ``why_not`` / ``legal_commands``: answered by the engine's own ``apply`` as a dry
  run, so they can never disagree with what the engine then does.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from engine import commands as c
from engine.cards import Catalog, CardDef, Kind
from engine.game import apply, next_command
from engine.looting import tie_roller
from engine.results import Rejected
from engine.state import GameState, Phase

# A race or class card's abilities, in the order its card menu offers them (HELP, then RUN).
CARD_ABILITIES: dict[str, tuple[str, ...]] = {
    "warrior": ("berserk",), "cleric": ("turning", "chase"), "wizard": ("charm", "flight"),
    "thief": ("backstab", "theft"), "halfling": ("reroll",)}

# The phases each ability may be used in, as its card says (theft: at any time out of combat).
_OUT_OF_COMBAT = (Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE, Phase.CHARITY)
ABILITY_PHASES: dict[str, tuple[Phase, ...]] = {
    "berserk": (Phase.COMBAT,), "turning": (Phase.COMBAT,), "chase": (Phase.COMBAT,), "charm": (Phase.COMBAT,),
    "flight": (Phase.RUN_AWAY, Phase.CHARITY), "backstab": (Phase.COMBAT,), "theft": _OUT_OF_COMBAT,
    "reroll": (Phase.RUN_AWAY, Phase.CHARITY)}

# A race or class card's ability, by the phase it may be used in (the first its menu offers).
ABILITY_BY_PHASE: dict[tuple[str, Phase], str] = {
    (card, phase): ability for card, abilities in reversed(CARD_ABILITIES.items())
    for ability in reversed(abilities) for phase in ABILITY_PHASES[ability]}

# The abilities that need a player's token before they can be used.
NEEDS_TOKEN = frozenset({"backstab", "theft"})

# How many discards one use of an ability pays (Charm pays with the whole hand the table cannot see: 3).
DISCARDS_PER_USE = {"charm": 3}

# The effects that need something besides the tap of the card.
_NEEDS_TARGET = frozenset({"steal-level", "transfer-fight"})
_NEEDS_ITEM = frozenset({"take-item", "cheat"})
_NEEDS_VALUE = frozenset({"set-last-roll"})
_NEEDS_MONSTER = frozenset({"duplicate-monster", "replace-monster", "remove-monster"})

# Selling is on one's own turn, out of combat, in these phases (engine.selling refuses the rest).
SELLING_PHASES = (Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE, Phase.CHARITY)


class Need(enum.StrEnum):
    """What a card needs before it can be played."""

    NOTHING = "nothing"
    VICTIM = "victim"        # a curse played outside one's own door: the victim's token
    TARGET = "target"        # a player's token (steal a level, transfer the fight)
    ITEM = "item"            # an item in play (take it, cheat with it)
    VALUE = "value"          # a number chosen with the buttons (set the last roll)
    MONSTER = "monster"      # one of several monsters in the fight
    SIDE = "side"            # the players' side or the monsters' (a one-shot from outside the fight)


def ability_of(card_id: str, phase: Phase) -> str | None:
    """The ability race or class ``card_id`` gives during ``phase``, or None."""
    return ABILITY_BY_PHASE.get((card_id, phase))


def ability_card(ability: str) -> str | None:
    """The race or class card whose ability ``ability`` is, whatever the phase."""
    return next((card for card, names in CARD_ABILITIES.items() if ability in names), None)


def abilities_of(card_id: str, phase: Phase) -> tuple[str, ...]:
    """Every ability race or class ``card_id`` gives during ``phase``, in its menu's order."""
    return tuple(a for a in CARD_ABILITIES.get(card_id, ()) if phase in ABILITY_PHASES[a])


def abilities_now(state: GameState, catalog: Catalog, player: str, card_id: str, at: float) -> tuple[str, ...]:
    """The abilities of ``card_id`` that ``player`` can use now: those the engine would accept (for one
    that needs a token, with some player's token; for theft, some small item in play)."""
    return tuple(a for a in abilities_of(card_id, state.phase) if _usable(state, catalog, player, a, at))


def _usable(state: GameState, catalog: Catalog, player: str, ability: str, at: float) -> bool:
    if ability == "theft":
        return any(is_legal(state, catalog, c.UseAbility(player=player, ability=ability, target=p.id, card=item,
                                                          forced=6, at=at))
                   for p in state.players if p.id != player
                   for item in [*p.equipped, *p.carried] if not catalog[item].big)
    if ability in NEEDS_TOKEN:
        return any(is_legal(state, catalog, c.UseAbility(player=player, ability=ability, target=p.id, at=at))
                   for p in state.players if p.id != player)
    cmd = ability_use(state, catalog, player, ability, at)
    return is_legal(state, catalog, cmd)


def ability_use(state: GameState, catalog: Catalog, player: str, ability: str, at: float,
                target: str = "", card: str = "", monster: int = -1, forced: int | None = None) -> c.UseAbility:
    """The command that uses ``ability`` once now (Charm pays with the whole hand, counted as 3; a chase
    is of the monster whose card says so)."""
    combat = state.combat
    if ability == "chase" and combat is not None and monster < 0:
        monster = next((i for i, m in enumerate(combat.monsters) if catalog[m.card].has_effect("cleric-chases")), -1)
    return c.UseAbility(player=player, ability=ability, count=DISCARDS_PER_USE.get(ability, 1), target=target,
                        card=card, monster=monster, forced=forced, at=at)


def usable_abilities(state: GameState, player: str) -> tuple[str, ...]:
    """The abilities ``player``'s races and classes give during the current phase."""
    if not state.has_player(player):
        return ()
    p = state.player(player)
    found = (ability_of(card, state.phase) for card in [*p.races, *p.classes])
    return tuple(a for a in found if a is not None)


def ability_command(state: GameState, player: str, card_id: str, at: float) -> c.UseAbility | None:
    """The command that uses ``card_id``'s ability now (one use), or None when it has none now."""
    ability = ability_of(card_id, state.phase)
    if ability is None:
        return None
    target = ""
    if ability == "backstab" and state.combat is not None:
        target = state.combat.fighters[0]
    return c.UseAbility(player=player, ability=ability, count=DISCARDS_PER_USE.get(ability, 1), target=target, at=at)


def card_needs(state: GameState, catalog: Catalog, player: str, card_id: str) -> Need:
    """What ``card_id`` (not in play) needs before ``player`` can play it now."""
    card = catalog[card_id]
    if card.kind is Kind.CURSE and not (state.phase is Phase.KICK_OPEN_THE_DOOR and player == state.active_player):
        return Need.VICTIM
    ops = {e.op for e in card.effects}
    combat = state.combat
    if combat is not None and len(combat.monsters) > 1 and (card.kind is Kind.MONSTER_ENHANCER or ops & _NEEDS_MONSTER):
        return Need.MONSTER
    if ops & _NEEDS_TARGET:
        return Need.TARGET
    if ops & _NEEDS_ITEM:
        return Need.ITEM
    if ops & _NEEDS_VALUE:
        return Need.VALUE
    if needs_side(state, card, player):
        return Need.SIDE
    return Need.NOTHING


def needs_side(state: GameState, card: CardDef, player: str) -> bool:
    """A one-shot with a bonus, played by someone outside the fight, may help either side."""
    combat = state.combat
    if state.phase is not Phase.COMBAT or combat is None or player in combat.fighters:
        return False
    if card.kind is not Kind.ONE_SHOT or card.bonus is None:
        return False
    return not card.effects or card.effects[0].op == "kills-monster"


def may_sell(state: GameState, player: str) -> bool:
    """Whether ``player`` may sell items now: on their own turn, out of combat."""
    return bool(player) and player == state.active_player and state.phase in SELLING_PHASES


def sellable(card: CardDef) -> bool:
    """Whether ``card`` has a price: an item or a one-shot with a gold value."""
    return card.kind in (Kind.ITEM, Kind.ONE_SHOT) and card.gold is not None


def give_action(state: GameState, holder: str) -> str:
    """What handing over ``holder``'s item means now: "promise" it to a helper (the fighter, in a
    combat; it changes hands if the fight is won) or "give" it."""
    combat = state.combat
    if state.phase is Phase.COMBAT and combat is not None and combat.fighters[0] == holder:
        return "promise"
    return "give"


def menu_holder(state: GameState, catalog: Catalog, acting: str, card_id: str) -> str | None:
    """Whose card in play a tap of ``card_id`` by ``acting`` opens the menu of, or None: it is played.

    The acting player's own copy comes first (with two Warriors at the table, each one's tap opens
    their own); another player's copy of a card with several copies is played, not opened; Go Up a
    Level is always played."""
    card = catalog[card_id]
    if card.kind is Kind.GO_UP_A_LEVEL:
        return None
    if state.has_player(acting) and card_id in state.player(acting).in_play():
        return acting
    holder = next((p for p in state.players if card_id in p.in_play()), None)
    if holder is None or card.copies > 1:
        return None
    return holder.id


@dataclass(frozen=True)
class MenuActions:
    """What the card menu of ``holder``'s card can do now."""

    toggle: str              # "unequip" (equipped), "equip" (carried), "" (neither)
    abilities: bool          # a race or class: it may have an ability (``ability`` says which, now)
    ability: str | None
    for_sale: bool           # an item or a one-shot: it may go into the sales basket
    hand_over: str           # an item: "give" or "promise" (``give_action``); else ""


def menu_actions(state: GameState, catalog: Catalog, holder: str, card_id: str) -> MenuActions:
    card = catalog[card_id]
    player = state.player(holder)
    toggle = "unequip" if card_id in player.equipped else ("equip" if card_id in player.carried else "")
    abilities = card.kind in (Kind.RACE, Kind.CLASS)
    return MenuActions(toggle=toggle, abilities=abilities, ability=ability_of(card_id, state.phase) if abilities else None,
                       for_sale=card.kind in (Kind.ITEM, Kind.ONE_SHOT),
                       hand_over=give_action(state, holder) if card.kind is Kind.ITEM else "")


def why_not(state: GameState, catalog: Catalog, command: c.Command) -> Rejected | None:
    """Why the engine would refuse ``command`` now, or None when it would accept it (a dry run)."""
    result = apply(state, command, catalog)
    return result if isinstance(result, Rejected) else None


def is_legal(state: GameState, catalog: Catalog, command: c.Command) -> bool:
    """Whether the engine accepts ``command`` now (a dry run of ``apply``; nothing changes)."""
    return why_not(state, catalog, command) is None


def legal_commands(state: GameState, catalog: Catalog, player: str, at: float,
                   cards: Iterable[str] = ()) -> list[c.Command]:
    """The commands ``player`` could give now with the buttons, and the plays of ``cards`` that need
    nothing more, each one accepted by a dry run."""
    candidates: list[c.Command] = []
    nxt = next_command(state, player, at)
    if not isinstance(nxt, Rejected):
        candidates.append(nxt)
    if state.phase is Phase.SETUP:
        candidates.append(c.ChooseFirstPlayer(player=player, at=at))
    if state.phase is Phase.COMBAT:
        candidates.append(c.RunAway(player=player, at=at))
    roller = state.pending_roll.player if state.pending_roll is not None else tie_roller(state)
    if roller is not None:
        candidates.append(c.Roll(player=roller, at=at))
    elif state.flight is not None and state.flight.pending:
        candidates.append(c.Roll(player=state.flight.pending[0][0], at=at))
    for card_id in cards:
        if card_id in catalog and card_needs(state, catalog, player, card_id) is Need.NOTHING:
            candidates.append(c.PlayCard(player=player, card=card_id, at=at))
    return [cmd for cmd in candidates if is_legal(state, catalog, cmd)]
