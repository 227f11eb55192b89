"""Running away: a roll per fleeing player per monster; a catch applies that monster's bad stuff."""

from __future__ import annotations

from engine import commands as c
from engine.cards import Catalog, CardDef
from engine.effects import apply_effects, lose_levels
from engine.events import CombatEnd, GameEvent, RunAwayDeclared, RunAwayFailed, RunAwaySucceeded
from engine.flow import (combat_of, die_roll, end_combat, refuse, require_active, require_no_pending_loss,
                         require_phase)
from engine.looting import roll_for_looting_order, tie_roller
from engine.messages import Seq
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
    # The fleeing player chooses the order (of the rolls, and so of the bad stuff): ROLL takes the
    # monsters that need a die first; one that cannot be outrun catches without a die when it is
    # chosen (its monster tapped), or when it is all that is left to that player.
    order = {f: n for n, f in enumerate(combat.fighters)}
    state.flight.pending.sort(key=lambda entry: (order[entry[0]], cannot_be_outrun(catalog, combat.monsters[entry[1]])))
    if state.flight.pending:
        take_automatic_catches(state, catalog, events)
    else:
        end_combat(state, events, how=CombatEnd.RAN_AWAY)


def cannot_be_outrun(catalog: Catalog, monster: MonsterInPlay) -> bool:
    return catalog[monster.card].has_effect("no-run-away")


def roller_entries(state: GameState) -> list[tuple[str, int]]:
    """What the next fleeing player still faces: (player, monster index), in the order ROLL takes them."""
    flight = state.flight
    if flight is None or not flight.pending:
        return []
    roller = flight.pending[0][0]
    return [entry for entry in flight.pending if entry[0] == roller]


def must_choose_catch(state: GameState, catalog: Catalog) -> bool:
    """Whether the next fleeing player faces two or more monsters that cannot be outrun and nothing to roll
    against: they choose which catches first (a monster's tap), and ROLL alone is refused."""
    left = roller_entries(state)
    combat = state.combat
    return (state.phase is Phase.RUN_AWAY and combat is not None and len(left) > 1 and state.pending_loss is None
            and state.pending_roll is None and all(cannot_be_outrun(catalog, combat.monsters[i]) for _, i in left))


def take_automatic_catches(state: GameState, catalog: Catalog, events: list[GameEvent]) -> None:
    """A fleeing player whose one monster left cannot be outrun is caught, without a die, while nothing
    waits for the players. With more than one left, the player chooses which comes first."""
    while state.phase is Phase.RUN_AWAY and state.pending_loss is None and state.pending_roll is None:
        left = roller_entries(state)
        if len(left) != 1 or not cannot_be_outrun(catalog, combat_of(state).monsters[left[0][1]]):
            return
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
    if state.pending_roll is not None:
        roll_for_bad_stuff(state, cmd, catalog, events)
        return
    if tie_roller(state) is not None:
        roll_for_looting_order(state, cmd.forced, events)
        return
    require_phase(state, "roll the die", Phase.RUN_AWAY)
    require_no_pending_loss(state, "roll")
    if cmd.forced is not None and not 1 <= cmd.forced <= 6:
        raise refuse(RejectCode.ILLEGAL_PLAY, "a die shows 1 to 6, not {forced}", forced=cmd.forced)
    flight = state.flight
    if flight is None or not flight.pending:
        raise refuse(RejectCode.ILLEGAL_PLAY, "no run-away roll is left")
    entry = chosen_entry(state, cmd, catalog)
    flight.pending.remove(entry)
    flight.pending.insert(0, entry)        # the fleeing player chooses the order of the rolls
    if cannot_be_outrun(catalog, combat_of(state).monsters[entry[1]]):
        take_roll(state, catalog, events, forced=None, escaped=False, automatic=True)     # no die here
    else:
        take_roll(state, catalog, events, forced=cmd.forced, escaped=None)
    take_automatic_catches(state, catalog, events)


def chosen_entry(state: GameState, cmd: c.Roll, catalog: Catalog) -> tuple[str, int]:
    """The monster this ROLL is against: the one tapped, else the next that needs a die. Two or more
    that cannot be outrun and nothing else: the player chooses which catches first (never a guess)."""
    left = roller_entries(state)
    roller = left[0][0]
    combat = combat_of(state)
    if cmd.monster >= 0:
        if (roller, cmd.monster) not in left:
            raise refuse(RejectCode.ILLEGAL_TARGET, "{roller} has no roll left against that monster", roller=state.player(roller))
        return roller, cmd.monster
    rolls = [entry for entry in left if not cannot_be_outrun(catalog, combat.monsters[entry[1]])]
    if rolls or len(left) == 1:
        return (rolls or left)[0]
    monsters = Seq((catalog[combat.monsters[i].card] for _, i in left), "and")
    raise refuse(RejectCode.ILLEGAL_PLAY, "{roller} cannot outrun {monsters}: tap the monster whose Bad Stuff comes first",
                 roller=state.player(roller), monsters=monsters)


def roll_for_bad_stuff(state: GameState, cmd: c.Roll, catalog: Catalog, events: list[GameEvent]) -> None:
    """The die the table rolled for a piece of bad stuff (3,872 Orcs, Snails on Speed); the rest follows."""
    pending = state.pending_roll
    assert pending is not None
    value = die_roll(state, cmd.forced)
    state.pending_roll = None
    player = state.player(pending.player)
    apply_effects(state, player, catalog[pending.source].bad_stuff, catalog, events, source=pending.source,
                  first=pending.effect, rolled=value)
    flight = state.flight
    if state.phase is not Phase.RUN_AWAY or flight is None:
        return
    if not player.alive:
        flight.pending = [(p, i) for p, i in flight.pending if p != player.id]
    take_automatic_catches(state, catalog, events)
    end_flight_if_done(state, events)


def end_flight_if_done(state: GameState, events: list[GameEvent]) -> None:
    """Every fleeing player has rolled and nothing waits for them: the fight is over (its results kept)."""
    flight = state.flight
    if (state.phase is not Phase.RUN_AWAY or flight is None or flight.pending or state.pending_loss is not None
            or state.pending_roll is not None):
        return
    end_combat(state, events, how=CombatEnd.RAN_AWAY)
    state.flight = Flight(pending=[], results=flight.results, before_roll=flight.before_roll,
                          result_cards=flight.result_cards)
    state.phase = Phase.CHARITY


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
    end_flight_if_done(state, events)
