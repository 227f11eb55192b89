"""Running away: a roll per fleeing player per monster; a catch applies that monster's bad stuff."""

from __future__ import annotations

from engine import commands as c
from engine.cards import Catalog, CardDef
from engine.effects import apply_effects, lose_levels
from engine.events import CombatEnd, GameEvent, RunAwayDeclared, RunAwayFailed, RunAwaySucceeded
from engine.flow import (combat_of, die_roll, end_combat, refuse, require_active, require_no_pending_loss,
                         require_phase)
from engine.results import RejectCode
from engine.state import Flight, GameState, MonsterInPlay, Phase, Player
from engine.strength import combat_totals, disadvantage_traits, players_win, run_away_bonus


ESCAPE_ON = 5           # a run-away roll, with its modifiers, of this or more escapes


def pursues(monster: CardDef, player: Player) -> bool:
    rule = monster.effect("no-pursuit")
    if rule is None:
        return True
    if rule.get("unless") and rule.get("unless") in disadvantage_traits(player):
        return True
    return player.level > int(rule.get("max_level"))


def auto_escapes(monster: CardDef, player: Player) -> bool:
    rule = monster.effect("auto-escape")
    if rule is None:
        return False
    return not (rule.get("unless") and rule.get("unless") in disadvantage_traits(player))


def do_run_away(state: GameState, cmd: c.RunAway, catalog: Catalog, events: list[GameEvent]) -> None:
    require_phase(state, "run away", Phase.COMBAT)
    require_active(state, cmd, "run away")
    require_no_pending_loss(state, "run away")
    combat = combat_of(state)
    if players_win(state, combat, catalog):
        players, monsters = combat_totals(state, combat, catalog)
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     "no need to run: the players win ({players} vs {monsters}); running away is for a fight the players cannot win", players=players, monsters=monsters)
    combat.window_until = None
    state.flight = Flight(pending=[])
    state.phase = Phase.RUN_AWAY
    events.append(RunAwayDeclared(players=tuple(combat.fighters)))
    for f in combat.fighters:
        player = state.player(f)
        for i, m in enumerate(combat.monsters):
            monster = catalog[m.card]
            if f in combat.auto_escape or auto_escapes(monster, player) or not pursues(monster, player):
                state.flight.results.append((f, i, 0, True))
                state.flight.result_cards.append(m.card)
                events.append(RunAwaySucceeded(player=f, monster=monster.id, roll=0, total=0, without_roll=True))
                continue
            state.flight.pending.append((f, i))
    # A monster that cannot be outrun catches its fleeing players without a roll: those catches come
    # first and are taken at once (a choice of item to lose pauses them, as it pauses a roll).
    state.flight.pending.sort(key=lambda entry: not cannot_be_outrun(catalog, combat.monsters[entry[1]]))
    if state.flight.pending:
        take_automatic_catches(state, catalog, events)
    else:
        end_combat(state, events, how=CombatEnd.RAN_AWAY)


def cannot_be_outrun(catalog: Catalog, monster: MonsterInPlay) -> bool:
    return catalog[monster.card].has_effect("no-run-away")


def take_automatic_catches(state: GameState, catalog: Catalog, events: list[GameEvent]) -> None:
    """Resolve the catches that need no die, while nothing waits for the players."""
    while (state.phase is Phase.RUN_AWAY and state.flight is not None and state.flight.pending
           and state.pending_loss is None
           and cannot_be_outrun(catalog, combat_of(state).monsters[state.flight.pending[0][1]])):
        take_roll(state, catalog, events, forced=None, escaped=False, automatic=True)


def flee_modifier(state: GameState, player: Player, monster: MonsterInPlay, catalog: Catalog) -> int:
    bonus = run_away_bonus(player, catalog, halfling_penalty=state.ruleset.halfling_run_away == "penalty")
    for card_id in [monster.card, *(["mate"] if monster.mate else [])]:
        mod = catalog[card_id].effect("run-away-mod")
        if mod is not None:
            bonus += int(mod.get("n"))
    if state.flight is not None:
        bonus += state.flight.bonus.get(player.id, 0)
    return bonus


def roll_to_escape(state: GameState, player: Player, monster: MonsterInPlay, catalog: Catalog) -> int:
    """The lowest die roll that gets ``player`` away from ``monster`` now (1: any roll does)."""
    return max(1, ESCAPE_ON - flee_modifier(state, player, monster, catalog))


def do_roll(state: GameState, cmd: c.Roll, catalog: Catalog, events: list[GameEvent]) -> None:
    require_phase(state, "roll the die", Phase.RUN_AWAY)
    require_no_pending_loss(state, "roll")
    if cmd.forced is not None and not 1 <= cmd.forced <= 6:
        raise refuse(RejectCode.ILLEGAL_PLAY, "a die shows 1 to 6, not {forced}", forced=cmd.forced)
    flight = state.flight
    if cmd.monster >= 0 and flight is not None and flight.pending:
        roller = flight.pending[0][0]
        entry = (roller, cmd.monster)
        if entry not in flight.pending:
            raise refuse(RejectCode.ILLEGAL_TARGET,
                         "{roller} has no roll left against that monster", roller=state.player(roller))
        flight.pending.remove(entry)
        flight.pending.insert(0, entry)        # the fleeing player chooses the order of the rolls
    if flight is not None and flight.pending and cannot_be_outrun(catalog, combat_of(state).monsters[flight.pending[0][1]]):
        take_automatic_catches(state, catalog, events)      # after a choice of item to lose: no die here
        return
    take_roll(state, catalog, events, forced=cmd.forced, escaped=None)


def take_roll(state: GameState, catalog: Catalog, events: list[GameEvent], *, forced: int | None,
              escaped: bool | None, count_roll: bool = True, automatic: bool = False) -> None:
    """Roll for the next fleeing player against the next monster; a catch applies its bad stuff."""
    flight = state.flight
    assert flight is not None
    combat = combat_of(state)
    before = state.clone()
    assert before.flight is not None
    before.flight.before_roll = None
    player_id, index = flight.pending[0]
    player = state.player(player_id)
    mip = combat.monsters[index]
    monster = catalog[mip.card]
    if automatic:
        roll, escaped = 0, False          # it cannot be outrun: no die is rolled
    elif count_roll:
        roll = die_roll(state, forced)
    else:
        roll = forced if forced is not None else (state.last_roll or 1)
        state.last_roll = roll
    flight.pending.pop(0)
    total = roll + flee_modifier(state, player, mip, catalog) if not automatic else 0
    if escaped is None:
        escaped = total >= ESCAPE_ON
    flight.results.append((player_id, index, roll, escaped))
    flight.result_cards.append(monster.id)
    flight.before_roll = before
    outcome = RunAwaySucceeded if escaped else RunAwayFailed
    events.append(outcome(player=player_id, monster=monster.id, roll=roll, total=total, without_roll=automatic))
    if escaped:
        for item in player.equipped:
            bonus = catalog[item].effect("treasure-on-escape")
            if bonus is not None:
                state.treasures_to_draw += int(bonus.get("n"))
    else:
        apply_effects(state, player, monster.bad_stuff, catalog, events, source=monster.id)
        if not player.alive:
            flight.pending = [(p, i) for p, i in flight.pending if p != player_id]
    cost = monster.effect("flee-cost")
    if escaped and cost is not None:
        lose_levels(state, player, int(cost.get("n")), events)
    if not flight.pending and state.pending_loss is None:
        end_combat(state, events, how=CombatEnd.RAN_AWAY)
        state.flight = Flight(pending=[], results=flight.results, before_roll=before, result_cards=flight.result_cards)
        state.phase = Phase.CHARITY
