"""The turn: the next seat, a new turn (the dead come back), ending a phase, and charity."""

from __future__ import annotations

from engine import commands as c
from engine.cards import Catalog
from engine.events import CharityDue, DoorClosed, GameEvent, PlayerRevived, RoomLooted, TurnEnded, TurnStarted
from engine.flow import require_active, require_no_pending_loss, require_phase
from engine.state import GameState, Phase, Player


def next_seat(state: GameState, player_id: str) -> str:
    ids = [p.id for p in state.players]
    return ids[(ids.index(player_id) + 1) % len(ids)]


def begin_turn(state: GameState, player_id: str, events: list[GameEvent]) -> None:
    for p in state.players:
        if not p.alive:
            p.alive = True
            events.append(PlayerRevived(player=p.id, deal=state.ruleset.starting_hand, automatic=True))
    state.looting = None
    state.after_combat = False
    state.treasures_face_up = False
    state.turn += 1
    state.active_player = player_id
    state.phase = Phase.KICK_OPEN_THE_DOOR
    state.combat = None
    state.flight = None
    state.treasures_to_draw = 0
    events.append(TurnStarted(player=player_id, turn=state.turn, automatic=True))


def do_end_phase(state: GameState, cmd: c.EndPhase, catalog: Catalog, events: list[GameEvent]) -> None:
    require_phase(state, "end the phase", Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE, Phase.CHARITY)
    require_active(state, cmd, "end the phase")
    require_no_pending_loss(state, "end the phase")
    state.flight = None
    if state.phase is Phase.KICK_OPEN_THE_DOOR:
        state.phase = Phase.LOOK_FOR_TROUBLE
        events.append(DoorClosed(player=cmd.player))
    elif state.phase is Phase.LOOK_FOR_TROUBLE:
        state.phase = Phase.CHARITY
        events.append(RoomLooted(player=cmd.player))
    else:
        giver = state.player(cmd.player)
        events.append(CharityDue(player=giver.id, hand_limit=hand_limit(state, giver),
                                 receivers=tuple(charity_receivers(state))))
        for p in state.players:
            p.level_history = (*p.level_history, p.level)
        events.append(TurnEnded(player=cmd.player, turn=state.turn))
        begin_turn(state, next_seat(state, cmd.player), events)


def hand_limit(state: GameState, player: Player) -> int:
    return state.ruleset.hand_limit + (1 if "dwarf" in player.races else 0)


def charity_receivers(state: GameState) -> list[str]:
    """Who gets the cards over the hand limit: the lowest-level living players, unless the giver is one."""
    if state.active_player is None:
        return []
    giver = state.player(state.active_player)
    living = [p for p in state.players if p.alive and p.id != giver.id]
    if not living:
        return []
    lowest = min(p.level for p in living)
    if giver.level <= lowest:
        return []
    return [p.id for p in living if p.level == lowest]
