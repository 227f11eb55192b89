"""One-shot cards: a bonus for one side of a combat, or what the card's effect says."""

from __future__ import annotations

from collections.abc import Callable

from engine import commands as c
from engine.cards import Catalog, CardDef
from engine.events import (AutoEscape, CombatEnd, CurseCancelled, EscapeUndone, FightTransferred, GameEvent,
                           MonsterRemoved, MonsterSlain, MonstersDiscarded, OneShotPlayed, PlayersMustAct,
                           RollRetaken, TreasuresAdded)
from engine.flow import (combat_of, end_combat, in_combat, monster_treasures, other_player, pick_monster, refuse,
                         set_level)
from engine.messages import msg
from engine.results import RejectCode
from engine.run_away import take_roll
from engine.state import Combat, Flight, GameState, OneShot, Phase, Player
from engine.strength import traits


def add_one_shot(combat: Combat, cmd: c.PlayCard, card: CardDef, player: Player, bonus: int,
                 events: list[GameEvent]) -> None:
    side = cmd.side or ("players" if player.id in combat.fighters else "monsters")
    if side not in ("players", "monsters"):
        raise refuse(RejectCode.ILLEGAL_PLAY, "a one-shot helps 'players' or 'monsters', not {side!r}", side=side)
    combat.one_shots.append(OneShot(card.id, side, bonus))
    events.append(OneShotPlayed(card=card.id, side=side, bonus=bonus))


def shot_bonus_or_kill(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                       events: list[GameEvent]) -> None:
    """Potion of Halitosis: +2 to a side, or kills the Floating Nose outright."""
    combat = in_combat(state, card)
    prey = card.effects[0].get("card")
    for m in combat.monsters:
        if m.card == prey and not m.slain and cmd.side != "monsters":
            m.slain = True
            events.append(MonsterSlain(card=prey, by=card.id))
            return
    add_one_shot(combat, cmd, card, player, card.bonus or 0, events)


def shot_per_trait(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                   events: list[GameEvent]) -> None:
    """Yuppie Water: +2 for each elf among the fighters."""
    combat = in_combat(state, card)
    effect = card.effects[0]
    elves = [f for f in combat.fighters if effect.get("trait") in traits(state.player(f))]
    if not elves:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{card} only helps elves, and no elf is fighting", card=card)
    add_one_shot(combat, c.PlayCard(card=card.id, side="players"), card, player,
                 int(effect.get("bonus")) * len(elves), events)


def shot_double(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                events: list[GameEvent]) -> None:
    combat = in_combat(state, card)
    if len(combat.fighters) != 1 or player.id != combat.fighters[0]:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{card} only when you fight alone", card=card)
    combat.one_shots.append(OneShot(card.id, "players", 0))
    events.append(OneShotPlayed(card=card.id, side="players", bonus=0, double=True))


def shot_remove_monster(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                        events: list[GameEvent]) -> None:
    """Magic Lamp, Pollymorph Potion: one monster leaves."""
    if state.phase is Phase.RUN_AWAY and card.has_effect("own-turn-only"):
        combat = combat_of(state)
    else:
        combat = in_combat(state, card)
    if card.has_effect("own-turn-only") and player.id != state.active_player:
        raise refuse(RejectCode.NOT_YOUR_TURN, "{card} only on your own turn", card=card)
    index = pick_monster(combat, cmd.monster, card)
    gone = combat.monsters.pop(index)
    effect = card.effect("remove-monster")
    assert effect is not None                       # ONE_SHOTS chose this handler by it (own-turn-only comes with it)
    mode = effect.get("treasure")
    events.append(MonsterRemoved(card=gone.card, by=card.id))
    if state.flight is not None:
        state.flight.pending = [(p, i if i < index else i - 1) for p, i in state.flight.pending if i != index]
    if not combat.monsters:
        if mode == "if-last":
            state.treasures_to_draw += monster_treasures(gone, catalog)
        end_combat(state, events, how=CombatEnd.BY_CARD, card=card.id)
    elif state.flight is not None and not state.flight.pending:
        end_combat(state, events, how=CombatEnd.RAN_AWAY)


def shot_end_combat(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                    events: list[GameEvent]) -> None:
    in_combat(state, card)
    effect = card.effects[0]
    events.append(MonstersDiscarded(card=card.id, by=player.id, treasures=0))
    end_combat(state, events, how=CombatEnd.BY_CARD, card=card.id, loot=bool(effect.get("loot", 0)))


def shot_instant_wall(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                      events: list[GameEvent]) -> None:
    if state.phase not in (Phase.COMBAT, Phase.RUN_AWAY) or state.combat is None:
        raise refuse(RejectCode.WRONG_PHASE, "{card} is played during a combat", card=card)
    combat = state.combat
    who = [cmd.target] if cmd.target else list(combat.fighters)
    if any(w not in combat.fighters for w in who):
        raise refuse(RejectCode.ILLEGAL_TARGET, "{card}: only players in the fight escape", card=card)
    events.append(AutoEscape(players=tuple(who), by=card.id))
    if state.flight is not None:
        state.flight.pending = [(p, i) for p, i in state.flight.pending if p not in who]
        if not state.flight.pending:
            end_combat(state, events, how=CombatEnd.RAN_AWAY)
        return
    combat.auto_escape = who
    if all(f in who for f in combat.fighters):
        end_combat(state, events, how=CombatEnd.ESCAPED)


def require_flight(state: GameState, card: CardDef) -> Flight:
    if state.flight is None or state.flight.before_roll is None or not state.flight.results:
        raise refuse(RejectCode.WRONG_PHASE, "{card} is played right after a run-away roll", card=card)
    return state.flight


def redo_last_roll(state: GameState, catalog: Catalog, events: list[GameEvent], *, value: int | None,
                   escaped: bool | None, why: str) -> None:
    """Restore the state before the last run-away roll and take it again with a new outcome."""
    flight = state.flight
    assert flight is not None and isinstance(flight.before_roll, GameState)
    before: GameState = flight.before_roll.clone()
    rolls = state.rolls
    for name in ("players", "combat", "flight", "rolls", "last_roll", "pending_loss", "pending_roll", "looting",
                 "treasures_to_draw", "phase"):
        setattr(state, name, getattr(before, name))
    if value is None:
        state.rolls = rolls          # a re-roll is a new roll, not the old one again
    events.append(RollRetaken(by=why))
    take_roll(state, catalog, events, forced=value, escaped=escaped, count_roll=value is None)


def shot_invisibility(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                      events: list[GameEvent]) -> None:
    flight = require_flight(state, card)
    who, _, _, escaped = flight.results[-1]
    if escaped:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{card} is for a failed run-away roll; the last roll escaped", card=card)
    redo_last_roll(state, catalog, events, value=state.last_roll, escaped=True, why=card.id)


def shot_loaded_die(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                    events: list[GameEvent]) -> None:
    if not 1 <= cmd.value <= 6:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{card}: choose a number from 1 to 6", card=card)
    require_flight(state, card)
    redo_last_roll(state, catalog, events, value=cmd.value, escaped=None, why=card.id)


def shot_glue(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
              events: list[GameEvent]) -> None:
    flight = require_flight(state, card)
    who, index, _, escaped = flight.results[-1]
    if not escaped:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{card} makes an escaped player roll again; the last roll failed", card=card)
    rolls = state.rolls
    assert flight.before_roll is not None           # an escape by a roll: the state before it was kept
    before = flight.before_roll.clone()
    for name in ("players", "combat", "flight", "last_roll", "pending_loss", "pending_roll", "looting",
                 "treasures_to_draw", "phase"):
        setattr(state, name, getattr(before, name))
    state.rolls = rolls       # the new roll is a new die, not the old one again
    events.append(EscapeUndone(player=who, by=card.id))


def shot_transfer(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                  events: list[GameEvent]) -> None:
    combat = in_combat(state, card)
    if not cmd.target or not state.has_player(cmd.target) or cmd.target in combat.fighters:
        raise refuse(RejectCode.ILLEGAL_TARGET, "{card}: tap the token of a player not in the fight", card=card)
    old = list(combat.fighters)
    combat.fighters = [cmd.target]
    events.append(FightTransferred(from_=tuple(old), to=cmd.target, by=card.id))


def shot_hoard(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
               events: list[GameEvent]) -> None:
    n = int(card.effects[0].get("n"))
    state.treasures_to_draw += n
    events.append(TreasuresAdded(player=player.id, n=n, by=card.id))


def shot_steal_level(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                     events: list[GameEvent]) -> None:
    victim = other_player(state, cmd, player, msg("{card}: tap the token of the player to steal from", card=card))
    if victim.level <= state.ruleset.level_floor:
        raise refuse(RejectCode.ILLEGAL_TARGET, "{card}: {victim} is at level {level}, the lowest", card=card, victim=victim, level=victim.level)
    if player.level + 1 >= state.ruleset.winning_level:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{card} cannot take {player} to the winning level", card=card, player=player)
    set_level(state, victim, victim.level - 1, events, why=card.id)
    set_level(state, player, player.level + 1, events, why=card.id)


def shot_wishing_ring(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                      events: list[GameEvent]) -> None:
    target = state.player(cmd.target) if cmd.target and state.has_player(cmd.target) else player
    if cmd.item and cmd.item in target.curses:
        curse = cmd.item
    elif target.curses:
        curse = target.curses[-1]
    elif target.next_combat:
        curse = target.next_combat[-1]
    else:
        raise refuse(RejectCode.ILLEGAL_TARGET, "{card}: {target} has no curse to cancel", card=card, target=target)
    if curse in target.curses:
        target.curses.remove(curse)
    if curse in target.next_combat:
        target.next_combat.remove(curse)
    events.append(CurseCancelled(player=target.id, card=curse, by=card.id))


def shot_manual(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                events: list[GameEvent]) -> None:
    events.append(PlayersMustAct(player=player.id, text=card.effects[0].get("text"), source=card.id))


ONE_SHOTS: dict[str, Callable[..., None]] = {
    "kills-monster": shot_bonus_or_kill, "combat-bonus-per-trait": shot_per_trait,
    "double-strength": shot_double, "remove-monster": shot_remove_monster, "own-turn-only": shot_remove_monster,
    "end-combat": shot_end_combat, "auto-escape-players": shot_instant_wall,
    "cancel-failed-roll": shot_invisibility, "set-last-roll": shot_loaded_die, "reroll-escape": shot_glue,
    "transfer-fight": shot_transfer, "extra-treasures": shot_hoard, "steal-level": shot_steal_level,
    "cancel-curse": shot_wishing_ring, "manual": shot_manual,
}
