"""Race and class abilities, paid with discards from the hand that the box cannot see."""

from __future__ import annotations

from collections.abc import Callable

from engine import commands as c
from engine.cards import Catalog
from engine.combat import refresh_window
from engine.effects import remove_item
from engine.events import AbilityUsed, CombatEnd, GameEvent, TheftFailed, TheftSucceeded
from engine.flow import (acting, card_of, combat_of, die_roll, end_combat, monster_treasures, other_player, refuse,
                         require_phase, set_level)
from engine.messages import Seq, word
from engine.one_shots import redo_last_roll
from engine.results import RejectCode
from engine.state import Combat, GameState, Phase, Player
from engine.strength import big_problem


ABILITY_CLASS = {"berserk": "warrior", "turning": "cleric", "flight": "wizard", "charm": "wizard",
                 "backstab": "thief", "theft": "thief", "chase": "cleric", "reroll": "halfling"}


MAX_DISCARDS = 3


def do_use_ability(state: GameState, cmd: c.UseAbility, catalog: Catalog, events: list[GameEvent]) -> None:
    player = acting(state, cmd)
    who = ABILITY_CLASS.get(cmd.ability)
    if who is None:
        raise refuse(RejectCode.ILLEGAL_PLAY, "no ability {ability!r}; abilities: {abilities}", ability=cmd.ability, abilities=Seq(ABILITY_CLASS))
    if who not in [*player.races, *player.classes]:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{ability} is a {who} ability and {player} is no {who}", ability=word(cmd.ability), who=word(who), player=player)
    if not player.alive:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{player} is dead until the next turn", player=player)
    if cmd.count < 1:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{ability}: discard at least one card", ability=word(cmd.ability))
    ABILITIES[cmd.ability](state, cmd, player, catalog, events)
    if state.combat is not None and state.phase is Phase.COMBAT:
        refresh_window(state, cmd.at, catalog, events)


def _discards(state: GameState, cmd: c.UseAbility, player: Player, combat: Combat, limit: int) -> None:
    key = f"{player.id}:{cmd.ability}"
    used = combat.discards.get(key, 0)
    if used + cmd.count > limit:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     "{ability}: at most {limit} cards per combat; {player} has used {used}", ability=word(cmd.ability), limit=limit, player=player, used=used)
    combat.discards[key] = used + cmd.count
    events_note = cmd.count
    del events_note


def ability_berserk(state: GameState, cmd: c.UseAbility, player: Player, catalog: Catalog,
                    events: list[GameEvent]) -> None:
    require_phase(state, "go berserk", Phase.COMBAT)
    combat = combat_of(state)
    if player.id not in combat.fighters:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{player} is not fighting", player=player)
    _discards(state, cmd, player, combat, MAX_DISCARDS)
    combat.bonuses[player.id] = combat.bonuses.get(player.id, 0) + cmd.count
    events.append(AbilityUsed(player=player.id, ability="berserk", count=cmd.count, bonus=cmd.count))


def ability_turning(state: GameState, cmd: c.UseAbility, player: Player, catalog: Catalog,
                    events: list[GameEvent]) -> None:
    require_phase(state, "turn undead", Phase.COMBAT)
    combat = combat_of(state)
    if player.id not in combat.fighters:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{player} is not fighting", player=player)
    if not any(catalog[m.card].undead for m in combat.monsters):
        raise refuse(RejectCode.ILLEGAL_PLAY, "Turning works only against Undead, and none is in this fight")
    _discards(state, cmd, player, combat, MAX_DISCARDS)
    combat.bonuses[player.id] = combat.bonuses.get(player.id, 0) + 3 * cmd.count
    events.append(AbilityUsed(player=player.id, ability="turning", count=cmd.count, bonus=3 * cmd.count))


def ability_flight(state: GameState, cmd: c.UseAbility, player: Player, catalog: Catalog,
                   events: list[GameEvent]) -> None:
    """The printed card: after the Run Away roll, up to 3 discards, +1 each to flee. Right after the
    wizard's failed roll the roll is taken again with the bonus (the same die); before a roll the bonus
    waits for it."""
    flight = state.flight
    if flight is None or state.phase not in (Phase.RUN_AWAY, Phase.CHARITY):
        raise refuse(RejectCode.WRONG_PHASE, "the Flight Spell is cast after a run-away roll")
    last = flight.results[-1] if flight.results else None
    retake = last is not None and last[0] == player.id and not last[3] and isinstance(flight.before_roll, GameState)
    before = flight.before_roll if retake else state
    assert isinstance(before, GameState) and before.flight is not None    # a flight before the roll
    used = before.flight.bonus.get(player.id, 0)
    if used + cmd.count > MAX_DISCARDS:
        raise refuse(RejectCode.ILLEGAL_PLAY, "flight: at most {limit} cards; {player} has used {used}", limit=MAX_DISCARDS, player=player, used=used)
    if retake:
        before.flight.bonus[player.id] = used + cmd.count
        events.append(AbilityUsed(player=player.id, ability="flight", count=cmd.count, bonus=cmd.count))
        redo_last_roll(state, catalog, events, value=state.last_roll, escaped=None, why="flight")
        return
    if state.phase is not Phase.RUN_AWAY or not any(p == player.id for p, _ in flight.pending):
        raise refuse(RejectCode.ILLEGAL_PLAY, "{player} has no run-away roll to cast the Flight Spell on", player=player)
    flight.bonus[player.id] = used + cmd.count
    events.append(AbilityUsed(player=player.id, ability="flight", count=cmd.count, bonus=cmd.count))


def ability_charm(state: GameState, cmd: c.UseAbility, player: Player, catalog: Catalog,
                  events: list[GameEvent]) -> None:
    require_phase(state, "cast the Charm Spell", Phase.COMBAT)
    combat = combat_of(state)
    if player.id not in combat.fighters:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{player} is not fighting", player=player)
    if cmd.count < 3:
        raise refuse(RejectCode.ILLEGAL_PLAY, "charm: discard your whole hand, at least 3 cards")
    index = cmd.monster if cmd.monster >= 0 else len(combat.monsters) - 1
    if index >= len(combat.monsters):
        raise refuse(RejectCode.ILLEGAL_TARGET, "charm: there is no monster {n}", n=index + 1)
    gone = combat.monsters.pop(index)
    combat.charmed_treasures += monster_treasures(gone, catalog)
    events.append(AbilityUsed(player=player.id, ability="charm", count=cmd.count, monster=gone.card))
    if not combat.monsters:
        state.treasures_to_draw += combat.charmed_treasures
        end_combat(state, events, how=CombatEnd.CHARMED)


def ability_chase(state: GameState, cmd: c.UseAbility, player: Player, catalog: Catalog,
                  events: list[GameEvent]) -> None:
    require_phase(state, "chase a monster away", Phase.COMBAT)
    combat = combat_of(state)
    index = cmd.monster if cmd.monster >= 0 else len(combat.monsters) - 1
    if index >= len(combat.monsters) or not catalog[combat.monsters[index].card].has_effect("cleric-chases"):
        raise refuse(RejectCode.ILLEGAL_TARGET, "a cleric can chase away only a monster whose card says so")
    gone = combat.monsters.pop(index)
    combat.charmed_treasures += monster_treasures(gone, catalog)
    events.append(AbilityUsed(player=player.id, ability="chase", monster=gone.card))
    if not combat.monsters:
        state.treasures_to_draw += combat.charmed_treasures
        end_combat(state, events, how=CombatEnd.CHASED)


def ability_backstab(state: GameState, cmd: c.UseAbility, player: Player, catalog: Catalog,
                     events: list[GameEvent]) -> None:
    require_phase(state, "backstab", Phase.COMBAT)
    combat = combat_of(state)
    if cmd.target not in combat.fighters or cmd.target == player.id:
        raise refuse(RejectCode.ILLEGAL_TARGET, "backstab: tap the token of another player in the fight")
    if (player.id, cmd.target) in combat.backstabs:
        raise refuse(RejectCode.ILLEGAL_PLAY, "backstab: once per victim per combat")
    combat.backstabs.append((player.id, cmd.target))
    events.append(AbilityUsed(player=player.id, ability="backstab", target=cmd.target))


def ability_theft(state: GameState, cmd: c.UseAbility, player: Player, catalog: Catalog,
                  events: list[GameEvent]) -> None:
    if state.phase in (Phase.COMBAT, Phase.RUN_AWAY):
        raise refuse(RejectCode.WRONG_PHASE, "theft: not while anyone is in combat")
    victim = other_player(state, cmd, player, "theft: tap the token of the player to rob")
    card = card_of(catalog, cmd.card) if cmd.card else None
    # Both rulebooks: every item in play is carried, worn or not.
    if card is None or card.id not in [*victim.equipped, *victim.carried] or card.big:
        raise refuse(RejectCode.ILLEGAL_TARGET, "theft: tap a small item that {victim} carries", victim=victim)
    roll = die_roll(state, cmd.forced)
    if roll >= 4 and not big_problem(card, player, catalog):
        remove_item(victim, card.id)
        player.carried.append(card.id)
        events.append(TheftSucceeded(player=player.id, from_=victim.id, card=card.id, roll=roll))
    else:
        events.append(TheftFailed(player=player.id, from_=victim.id, card=card.id, roll=roll))
        set_level(state, player, player.level - 1, events, why="theft")


def ability_reroll(state: GameState, cmd: c.UseAbility, player: Player, catalog: Catalog,
                   events: list[GameEvent]) -> None:
    if state.ruleset.halfling_run_away != "reroll":
        raise refuse(RejectCode.ILLEGAL_PLAY, "this table plays the halfling's -1 to Run Away, not the re-roll")
    flight = state.flight
    if flight is None or flight.before_roll is None or not flight.results:
        raise refuse(RejectCode.WRONG_PHASE, "the halfling re-roll comes right after a failed run-away roll")
    who, _, _, escaped = flight.results[-1]
    if who != player.id or escaped:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{player}'s last run-away roll did not fail", player=player)
    if player.id in flight.rerolled:
        raise refuse(RejectCode.ILLEGAL_PLAY, "the halfling re-rolls only the first failed Run Away")
    redo_last_roll(state, catalog, events, value=None, escaped=None, why="halfling")
    if state.flight is not None:
        state.flight.rerolled.append(player.id)


ABILITIES: dict[str, Callable[..., None]] = {
    "berserk": ability_berserk, "turning": ability_turning, "flight": ability_flight, "charm": ability_charm,
    "chase": ability_chase, "backstab": ability_backstab, "theft": ability_theft, "reroll": ability_reroll,
}
