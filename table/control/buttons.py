"""The buttons when no prompt is open: ROLL, HELP, RUN and NEXT in each phase (UNDO is the controller's)."""

from __future__ import annotations

from collections.abc import Callable

from engine import commands as c
from engine.game import next_command
from engine.legal import may_sell
from engine.looting import tie_roller
from engine.messages import msg
from engine.results import Rejected
from engine.state import Phase
from table.control import choices, sale
from table.control import records as records_menu
from table.control.prompts import Desk, Outcome, PromptKind


def roll(desk: Desk) -> Outcome:
    state, acting = desk.state, desk.acting_player()
    forced, desk.forced_die = desk.forced_die, None
    if state.phase is Phase.SETUP:
        return desk.submit(c.ChooseFirstPlayer(player=acting, at=desk.now, forced=forced))
    if state.pending_roll is not None:          # the die for a piece of bad stuff (3,872 Orcs, Snails on Speed)
        return desk.submit(c.Roll(player=state.pending_roll.player, at=desk.now, forced=forced))
    tied = tie_roller(state)
    if tied is not None:                        # looters at the same level: the die says who picks first
        return desk.submit(c.Roll(player=tied, at=desk.now, forced=forced))
    if state.phase is Phase.RUN_AWAY and state.flight is not None and state.flight.pending:
        roller = state.flight.pending[0][0]
        against, desk.roll_against = desk.roll_against, None
        monster = against if against is not None and (roller, against) in state.flight.pending else -1
        return desk.submit(c.Roll(player=roller, at=desk.now, forced=forced, monster=monster))
    desk.forced_die = forced
    if state.phase is Phase.RUN_AWAY:
        return desk.refuse(desk.standing_prompt()[1] or msg("no run-away roll is left"))   # what the table waits for
    return desk.refuse(msg("ROLL does nothing during {phase}", phase=state.phase))


def help_(desk: Desk) -> Outcome:
    state = desk.state
    if state.phase is Phase.SETUP and not desk.basket:
        return records_menu.open_screen(desk, PromptKind.STANDINGS)
    if state.phase is not Phase.COMBAT and may_sell(state, state.active_player or ""):
        return sale.open_sale(desk)
    if state.phase is not Phase.COMBAT:
        return desk.refuse(msg("HELP is for asking for help in a combat, or for selling on your own turn"))
    if state.combat and state.combat.helper:
        return desk.refuse(msg("{helper} is already helping", helper=state.player(state.combat.helper)))
    return choices.open_helper(desk)


def run(desk: Desk) -> Outcome:
    state = desk.state
    if state.phase is Phase.SETUP and not desk.basket:
        return records_menu.open_screen(desk, PromptKind.GAMES)
    if state.phase is not Phase.COMBAT:
        return desk.refuse(msg("RUN is for running away from a combat"))
    return desk.submit(c.RunAway(player=state.active_player or "", at=desk.now))


def next_(desk: Desk) -> Outcome:
    state = desk.state
    if desk.basket:
        return sale.sell(desk)
    if state.pending_loss is not None:
        return desk.submit(c.LoseItem(player=state.pending_loss.player, at=desk.now))
    if state.phase is Phase.GAME_OVER:
        desk.start_new_game()
        return Outcome(True, desk.message)
    cmd = next_command(state, state.active_player or desk.acting_player(), desk.now)
    if isinstance(cmd, Rejected):
        return desk.refuse(cmd.message)
    return desk.submit(cmd)


FREE: dict[str, Callable[[Desk], Outcome]] = {"roll": roll, "help": help_, "run": run, "next": next_}
