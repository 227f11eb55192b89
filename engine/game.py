"""``apply(state, command, catalog)``: the rules, as one pure function, and what the buttons mean now.

Each handler works on a private copy of the state and either returns normally
(the copy becomes the new state) or raises Refusal, which becomes a Rejected
value and leaves the caller's state untouched. The rules of each phase live in
their own module: setup, turns, plays, one_shots, combat, run_away, card_menu,
selling, abilities, looting and items (limits that hold at every moment);
flow holds the steps they share. This module keeps the dispatch, the replay,
and the player's own menu.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from engine import commands as c
from engine.abilities import do_use_ability
from engine.card_menu import do_lose_item, do_use
from engine.cards import Catalog
from engine.combat import do_add_helper, do_fight, do_reopen_window, do_resolve
from engine.errors import ReplayError
from engine.events import GameEvent, SexChanged
from engine.flow import acting, combat_of, refuse, set_level
from engine.items import enforce_big_limit, settle_equipment
from engine.looting import do_loot_from_hand, tie_roller
from engine.messages import msg, word
from engine.plays import do_play
from engine.results import Accepted, Refusal, RejectCode, Rejected
from engine.rules import Ruleset
from engine.run_away import do_roll, do_run_away
from engine.selling import do_sell
from engine.setup import SEXES, do_choose_first, do_join, do_leave, do_rename, do_start
from engine.state import GameState, Phase, Player
from engine.strength import players_win
from engine.turns import do_end_phase


def new_game(seed: int, ruleset: Ruleset | None = None) -> GameState:
    return GameState(seed=seed, ruleset=ruleset or Ruleset())


def do_set_sex(state: GameState, cmd: c.SetSex, catalog: Catalog, events: list[GameEvent]) -> None:
    player = acting(state, cmd)
    if cmd.sex not in SEXES:
        raise refuse(RejectCode.ILLEGAL_PLAY, "sex must be male or female, not {sex!r}", sex=cmd.sex)
    player.sex = cmd.sex
    events.append(SexChanged(player=player.id, sex=cmd.sex))


def corrects_level(state: GameState, player: Player, delta: int) -> bool:
    """Whether a manual correction of ``player``'s level by ``delta`` is taken: not below the
    floor, and never to the winning level (that comes only from a kill)."""
    return state.ruleset.level_floor <= player.level + delta < state.ruleset.winning_level


def do_adjust_level(state: GameState, cmd: c.AdjustLevel, catalog: Catalog, events: list[GameEvent]) -> None:
    player = acting(state, cmd)
    target = player.level + cmd.delta
    if corrects_level(state, player, cmd.delta):
        set_level(state, player, target, events, why="correction")
        return
    if target >= state.ruleset.winning_level:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     "a correction cannot take {player} to level {target}: the winning level comes only from a kill", player=player, target=target)
    raise refuse(RejectCode.ILLEGAL_PLAY, "{player} is already at level {level}, the lowest", player=player, level=player.level)


HANDLERS: dict[type[c.Command], Callable[..., None]] = {
    c.Join: do_join, c.Leave: do_leave, c.ChooseFirstPlayer: do_choose_first, c.StartGame: do_start,
    c.PlayCard: do_play, c.UseCard: do_use, c.AddHelper: do_add_helper, c.Fight: do_fight,
    c.ResolveCombat: do_resolve, c.RunAway: do_run_away, c.Roll: do_roll, c.EndPhase: do_end_phase,
    c.SetSex: do_set_sex, c.AdjustLevel: do_adjust_level, c.Sell: do_sell, c.UseAbility: do_use_ability,
    c.LoseItem: do_lose_item, c.ReopenWindow: do_reopen_window, c.Rename: do_rename, c.LootFromHand: do_loot_from_hand,
}


def apply(state: GameState, cmd: c.Command, catalog: Catalog) -> Accepted | Rejected:
    """Apply ``cmd`` to ``state``. Never mutates ``state``; a refusal is a value."""
    if state.phase is Phase.GAME_OVER:
        return Rejected(RejectCode.GAME_OVER, "the game is over; press NEXT for a new game")
    handler = HANDLERS.get(type(cmd))
    if handler is None:
        return Rejected(RejectCode.ILLEGAL_PLAY, msg("the engine does not know the command {command}", command=cmd.name))
    new = state.clone()
    events: list[GameEvent] = []
    try:
        handler(new, cmd, catalog, events)
        if new.phase is not Phase.SETUP:
            settle_equipment(new, catalog, events)
            enforce_big_limit(new, catalog, events)
    except Refusal as refusal:
        return Rejected(refusal.code, refusal.message)
    return Accepted(new, tuple(events))


@dataclass(frozen=True)
class Step:
    """One command of a replay: its number in the game (1 for the first), the state it met, and
    what ``apply`` made of it."""

    n: int
    command: c.Command
    before: GameState
    result: Accepted | Rejected

    @property
    def state(self) -> GameState:
        """The state after the step (the state it met, when it was refused)."""
        return self.result.state if isinstance(self.result, Accepted) else self.before

    @property
    def events(self) -> tuple[GameEvent, ...]:
        return self.result.events if isinstance(self.result, Accepted) else ()


def replay_steps(catalog: Catalog, state: GameState, commands: Iterable[c.Command], *, first: int = 1) -> Iterator[Step]:
    """Apply ``commands`` one after another from ``state``, yielding each ``Step`` as it is taken.

    Every fold over a game is this loop: the state after a game (``replay``), the undo history
    from a snapshot (``state`` is the snapshot, ``first`` the number of its next command), the game
    facts from the events. A refused command is yielded too, and is the last: a game does not go on
    past a command it refused, so the caller decides whether that is an error or where it stops.
    """
    for n, cmd in enumerate(commands, first):
        result = apply(state, cmd, catalog)
        yield Step(n, cmd, state, result)
        if isinstance(result, Rejected):
            return
        state = result.state


def replay(catalog: Catalog, ruleset: Ruleset, seed: int, commands: Iterable[c.Command]) -> GameState:
    """The state after ``commands``; raises ReplayError on a command that is refused."""
    state = new_game(seed, ruleset)
    for step in replay_steps(catalog, state, commands):
        if isinstance(step.result, Rejected):
            raise ReplayError(f"command {step.n} ({step.command.name}) was refused on replay: {step.result.message}")
        state = step.state
    return state


def next_command(state: GameState, player: str, at: float) -> c.Command | Rejected:
    """The command that NEXT stands for now, or why NEXT means nothing now."""
    phase = state.phase
    if phase is Phase.SETUP:
        return c.StartGame(player=player, at=at)
    if phase in (Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE, Phase.CHARITY):
        return c.EndPhase(player=player, at=at)
    if phase is Phase.COMBAT:
        return c.Fight(player=player, at=at)
    if phase is Phase.RUN_AWAY:
        if state.pending_loss is not None:
            return c.LoseItem(player=state.pending_loss.player, at=at)
        return Rejected(RejectCode.WRONG_PHASE, "running away: press ROLL for each roll")
    return Rejected(RejectCode.GAME_OVER, "the game is over")


def legal_buttons(state: GameState, catalog: Catalog) -> dict[str, str]:
    """A short label for what each button does now; empty where it does nothing."""
    labels = {"roll": "", "help": "", "run": "", "next": "", "undo": word("Undo")}
    phase = state.phase
    if phase is Phase.SETUP:
        labels["roll"] = word("Who starts?") if len(state.players) >= 2 else ""
        labels["next"] = word("Start game") if len(state.players) >= state.ruleset.min_players else ""
    elif phase is Phase.KICK_OPEN_THE_DOOR:
        labels["next"] = word("No monster")
    elif phase is Phase.LOOK_FOR_TROUBLE:
        labels["next"] = word("Loot the room")
    elif phase is Phase.CHARITY:
        labels["next"] = word("End turn")
    elif phase is Phase.COMBAT:
        combat = combat_of(state)
        labels["help"] = "" if combat.helper else word("Ask for help")
        winning = players_win(state, combat, catalog)
        labels["run"] = "" if winning else word("Run away")        # running away is for a fight the players cannot win
        labels["next"] = word("Fight!") if winning and combat.window_until is None else ""
    elif phase is Phase.RUN_AWAY:
        labels["roll"] = word("Roll for the Bad Stuff") if state.pending_roll is not None else word("Roll to flee")
    elif phase is Phase.GAME_OVER:
        labels["next"] = word("New game")
        labels["undo"] = word("Undo")
    if tie_roller(state) is not None and state.pending_roll is None:
        labels["roll"] = word("Roll for the looting order")
    return labels
