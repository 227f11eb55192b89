"""Shared steps of every phase: refusals, who acts, levels within their bounds, the die, and how a
combat ends (however it ends)."""

from __future__ import annotations

import random
from typing import Any

from engine import commands as c
from engine.cards import Catalog, CardDef
from engine.events import CombatEnd, CombatEnded, GameEvent, GameWon, LevelGained, LevelLost, RoomLooted
from engine.messages import Msg, Seq, word
from engine.results import Refusal, RejectCode
from engine.state import Combat, GameState, MonsterInPlay, Phase, Player


def die_roll(state: GameState, forced: int | None) -> int:
    """The next die result: from the game's seed and the roll's index, unless forced."""
    if forced is not None:
        if not 1 <= forced <= 6:
            raise Refusal(RejectCode.ILLEGAL_PLAY, "a die shows 1 to 6, not {forced}", forced=forced)
        value = forced
    else:
        value = random.Random(f"{state.seed}:{state.rolls}").randint(1, 6)
    state.rolls += 1
    state.last_roll = value
    return value


def refuse(code: RejectCode, message: str, /, **values: Any) -> Refusal:
    """A refusal: ``message`` is the English template, ``values`` fill it (cards, players, phases as themselves)."""
    return Refusal(code, message, **values)


def phase_name(phase: Phase) -> str:
    return phase.value.replace("-", " ")


def _verb(tried: str) -> Any:
    """What was tried: a word the catalogs translate, or a message of its own ("fight {card}")."""
    return tried if isinstance(tried, Msg) else word(tried)


def require_phase(state: GameState, tried: str, *phases: Phase) -> None:
    if state.phase not in phases:
        allowed = Seq(phases, "or")
        raise refuse(RejectCode.WRONG_PHASE,
                     "cannot {tried} during {phase}; only during {allowed}", tried=_verb(tried), phase=state.phase, allowed=allowed)


def require_active(state: GameState, cmd: c.Command, tried: str) -> None:
    if cmd.player != state.active_player:
        who = state.player(cmd.player) if state.has_player(cmd.player) else cmd.player or word("nobody")
        active = state.player(state.active_player) if state.active_player else word("nobody")
        raise refuse(RejectCode.NOT_YOUR_TURN, "{who} cannot {tried}: it is {active}'s turn", who=who, tried=_verb(tried), active=active)


def acting(state: GameState, cmd: c.Command) -> Player:
    if not state.has_player(cmd.player):
        raise refuse(RejectCode.ILLEGAL_TARGET, "{player} is not playing", player=cmd.player or word('nobody'))
    return state.player(cmd.player)


def other_player(state: GameState, cmd: c.Command, player: Player, ask: str) -> Player:
    """The player ``cmd.target`` names, who must be at the table and not ``player``; else ``ask``."""
    target = getattr(cmd, "target", "")
    if not target or target == player.id or not state.has_player(target):
        raise refuse(RejectCode.ILLEGAL_TARGET, ask)
    return state.player(target)


def card_of(catalog: Catalog, card_id: str) -> CardDef:
    if card_id not in catalog:
        raise refuse(RejectCode.UNKNOWN_CARD, "no card {card_id!r} in the catalog", card_id=card_id)
    return catalog[card_id]


def holder_of(state: GameState, card_id: str) -> Player | None:
    for p in state.players:
        if card_id in p.in_play():
            return p
    return None


def set_level(state: GameState, player: Player, level: int, events: list[GameEvent], *, why: str,
              may_win: bool = False) -> None:
    """Change a level within the bounds: never below the floor, the winning level only by a kill."""
    before = player.level
    top = state.ruleset.winning_level if may_win else state.ruleset.winning_level - 1
    level = max(state.ruleset.level_floor, level)
    if level > before:
        level = max(before, min(level, top))
    player.level = level
    if player.level != before:
        kind = LevelGained if player.level > before else LevelLost
        events.append(kind(player=player.id, from_=before, to=player.level, why=why))


def combat_of(state: GameState) -> Combat:
    assert state.combat is not None
    return state.combat


def require_no_pending_loss(state: GameState, tried: str) -> None:
    """Nothing the game waits for first: an item to lose, or a die for a piece of bad stuff."""
    roll = state.pending_roll
    if roll is not None and state.has_player(roll.player):
        raise refuse(RejectCode.ILLEGAL_PLAY, "cannot {tried} yet: {who} must first roll the die for {source} (press ROLL)",
                     tried=_verb(tried), who=state.player(roll.player), source=roll.source)
    loss = state.pending_loss
    if loss is not None:
        who = state.player(loss.player)
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     "cannot {tried} yet: {who} must first tap the item to lose ({kind}, for {source})", tried=_verb(tried), who=who, kind=word(loss.kind), source=loss.source)


def in_combat(state: GameState, card: CardDef) -> Combat:
    if state.phase is not Phase.COMBAT or state.combat is None:
        raise refuse(RejectCode.WRONG_PHASE, "{card} is played during a combat", card=card)
    return state.combat


def pick_monster(combat: Combat, index: int, card: CardDef) -> int:
    if index == -1:
        return len(combat.monsters) - 1
    if not 0 <= index < len(combat.monsters):
        raise refuse(RejectCode.ILLEGAL_TARGET,
                     "{card}: there is no monster {n}; pick 1 to {count}", card=card, n=index + 1, count=len(combat.monsters))
    return index


def monster_treasures(monster: MonsterInPlay, catalog: Catalog) -> int:
    t = catalog[monster.card].treasures or 0
    for e in monster.enhancers:
        mod = catalog[e].effect("treasure-mod")
        t += int(mod.get("n", 0)) if mod is not None else 0
    return max(t, 1)


def end_combat(state: GameState, events: list[GameEvent], *, how: CombatEnd, card: str | None = None,
               loot: bool = False) -> None:
    """The fight is over, however it ended (``card``: the card that ended it): the turn goes on to
    charity. A monster was met, so there is no looking for trouble now; ``loot``: the card that ended
    it lets the fighter loot the room (a Door card face down) all the same."""
    combat = state.combat
    if combat is not None:
        for f in combat.fighters:
            if state.has_player(f):
                state.player(f).next_combat.clear()
    state.combat = None
    state.flight = None
    state.after_combat = True
    state.phase = Phase.CHARITY
    events.append(CombatEnded(how=how, card=card))
    if loot and combat is not None and combat.fighters:
        events.append(RoomLooted(player=combat.fighters[0]))


def drop_dead_fighter(state: GameState, player: Player, events: list[GameEvent]) -> None:
    combat = combat_of(state)
    if player.id == combat.fighters[0]:
        end_combat(state, events, how=CombatEnd.DIED)
    elif player.id in combat.fighters:
        combat.fighters.remove(player.id)


def check_winners(state: GameState, events: list[GameEvent]) -> None:
    winners = [p.id for p in state.players if p.level >= state.ruleset.winning_level]
    if winners:
        state.winners = winners
        state.phase = Phase.GAME_OVER
        for p in state.players:
            p.level_history = (*p.level_history, p.level)
        events.append(GameWon(winners=tuple(winners)))
