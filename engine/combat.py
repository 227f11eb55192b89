"""Combat: helpers, the interference window, and the rewards of a kill."""

from __future__ import annotations

from engine import commands as c
from engine.card_menu import keep_promises
from engine.cards import Catalog
from engine.events import (CombatEnd, GameEvent, HelperJoined, MonstersKilled, WindowClosed, WindowOpened,
                           WindowReopened, WindowRestarted)
from engine.flow import (check_winners, combat_of, end_combat, monster_treasures, refuse, require_active,
                         require_no_pending_loss, require_phase, set_level)
from engine.results import RejectCode
from engine.state import GameState, Phase
from engine.strength import beaten_alone, combat_totals, players_win, traits


def refresh_window(state: GameState, at: float, catalog: Catalog, events: list[GameEvent]) -> None:
    """Every accepted change restarts the interference window, or closes it if the fight turned."""
    combat = state.combat
    if combat is None or combat.window_until is None:
        return
    if players_win(state, combat, catalog):
        combat.window_until = at + state.ruleset.interference_seconds
        events.append(WindowRestarted(until=combat.window_until))
    else:
        combat.window_until = None
        events.append(WindowClosed(why="the monsters are winning again"))


def do_add_helper(state: GameState, cmd: c.AddHelper, catalog: Catalog, events: list[GameEvent]) -> None:
    require_phase(state, "ask for help", Phase.COMBAT)
    require_active(state, cmd, "ask for help")
    combat = combat_of(state)
    if not state.has_player(cmd.helper):
        raise refuse(RejectCode.ILLEGAL_TARGET, "{helper} is not playing", helper=cmd.helper)
    helper = state.player(cmd.helper)
    if cmd.helper == cmd.player:
        raise refuse(RejectCode.ILLEGAL_TARGET, "a player cannot help themselves; tap another player's token")
    if combat.helper is not None:
        raise refuse(RejectCode.ILLEGAL_TARGET,
                     "{helper} is already helping; only one helper is allowed", helper=state.player(combat.helper))
    loner = next((catalog[m.card] for m in combat.monsters if catalog[m.card].has_effect("no-helpers")), None)
    if loner is not None:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{loner} allows no helpers: fight alone or RUN", loner=loner)
    if not helper.alive:
        raise refuse(RejectCode.ILLEGAL_TARGET, "{helper} is dead until the next turn", helper=helper)
    combat.fighters.append(helper.id)
    events.append(HelperJoined(player=helper.id))
    refresh_window(state, cmd.at, catalog, events)


def do_fight(state: GameState, cmd: c.Fight, catalog: Catalog, events: list[GameEvent]) -> None:
    require_phase(state, "fight", Phase.COMBAT)
    require_active(state, cmd, "fight")
    require_no_pending_loss(state, "fight")
    combat = combat_of(state)
    players, monsters = combat_totals(state, combat, catalog)
    if not players_win(state, combat, catalog):
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     "cannot win yet: players {players} vs monsters {monsters}; play cards, ask for help or RUN", players=players, monsters=monsters)
    if combat.window_until is not None:
        raise refuse(RejectCode.ILLEGAL_PLAY, "the fight is already won unless somebody interferes; wait")
    window = state.ruleset.interference_seconds
    if window <= 0:
        resolve(state, catalog, events)
        return
    combat.window_until = cmd.at + window
    events.append(WindowOpened(until=combat.window_until, seconds=window))


def do_resolve(state: GameState, cmd: c.ResolveCombat, catalog: Catalog, events: list[GameEvent]) -> None:
    require_phase(state, "end the fight", Phase.COMBAT)
    combat = combat_of(state)
    if combat.window_until is None:
        raise refuse(RejectCode.ILLEGAL_PLAY, "the fight is not won yet; press NEXT when the players win")
    if cmd.at + 1e-9 < combat.window_until:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     "others may still interfere for {seconds:.1f} s", seconds=combat.window_until - cmd.at)
    resolve(state, catalog, events)


def do_reopen_window(state: GameState, cmd: c.ReopenWindow, catalog: Catalog, events: list[GameEvent]) -> None:
    require_phase(state, "reopen the interference window", Phase.COMBAT)
    combat = combat_of(state)
    if combat.window_until is None:
        raise refuse(RejectCode.ILLEGAL_PLAY, "no interference window to reopen: the fight is not won yet")
    seconds = state.ruleset.interference_seconds
    combat.window_until = cmd.at + seconds
    events.append(WindowReopened(until=combat.window_until, seconds=seconds))


def resolve(state: GameState, catalog: Catalog, events: list[GameEvent]) -> None:
    """The players killed every monster: levels, treasure, and perhaps the win."""
    combat = combat_of(state)
    active = state.player(combat.fighters[0])
    helper = state.player(combat.helper) if combat.helper else None
    in_fight = {s.card for s in combat.one_shots} | {i for f in combat.fighters for i in state.player(f).equipped}
    alone_and_bare = beaten_alone(state, combat, catalog)
    levels = 0
    treasures = combat.charmed_treasures
    for m in combat.monsters:
        card = catalog[m.card]
        levels += card.levels_gained or 1
        treasures += monster_treasures(m, catalog)
        alone = card.effect("bonus-level-alone")
        if alone is not None and alone_and_bare:
            levels += int(alone.get("n"))
        fire = card.effect("bonus-level-with")
        if fire is not None and in_fight & set(fire.get("cards")):
            levels += int(fire.get("n"))
        extra = card.effect("treasure-vs-trait")
        if extra is not None and any(extra.get("trait") in traits(state.player(f)) for f in combat.fighters):
            treasures += int(extra.get("n"))
    set_level(state, active, active.level + levels, events, why="kill", may_win=True)
    if helper is not None and "elf" in helper.races:
        set_level(state, helper, helper.level + len(combat.monsters), events, why="elf-helper", may_win=True)
    state.treasures_to_draw += treasures
    state.treasures_face_up = helper is not None
    events.append(MonstersKilled(player=active.id, monsters=tuple(m.card for m in combat.monsters), levels=levels,
                                 treasures=treasures, face_up=helper is not None))
    keep_promises(state, catalog, events)
    end_combat(state, events, how=CombatEnd.KILLED)
    check_winners(state, events)
