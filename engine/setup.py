"""Setup: players join or leave, the die picks who starts, the game starts."""

from __future__ import annotations

import random

from engine import commands as c
from engine.cards import Catalog
from engine.events import FirstPlayerChosen, GameEvent, GameStarted, PlayerJoined, PlayerLeft, PlayerRenamed
from engine.flow import acting, die_roll, phase_name, refuse, require_phase
from engine.looting import drop_looter
from engine.messages import msg, nmsg
from engine.players import default_name
from engine.results import RejectCode
from engine.state import PLAYER_TOKENS, GameState, Phase, Player
from engine.turns import begin_turn, next_seat


SEXES = ("male", "female")


def do_join(state: GameState, cmd: c.Join, catalog: Catalog, events: list[GameEvent]) -> None:
    require_phase(state, msg("join {player}", player=cmd.player), Phase.SETUP)
    if cmd.player not in PLAYER_TOKENS:
        raise refuse(RejectCode.ILLEGAL_TARGET, "{player!r} is not a player token (player-1 … player-6)", player=cmd.player)
    if state.has_player(cmd.player):
        raise refuse(RejectCode.ILLEGAL_TARGET, "{player} has already joined", player=cmd.player)
    if len(state.players) >= state.ruleset.max_players:
        raise refuse(RejectCode.ILLEGAL_TARGET, "the table is full ({max_players} players)", max_players=state.ruleset.max_players)
    if cmd.sex not in SEXES:
        raise refuse(RejectCode.ILLEGAL_PLAY, "sex must be male or female, not {sex!r}", sex=cmd.sex)
    name = cmd.name_ or default_name(cmd.player)
    state.players.append(Player(id=cmd.player, name=name, sex=cmd.sex))
    events.append(PlayerJoined(player=cmd.player, seat=len(state.players)))


NAME_LENGTH = 24


def do_rename(state: GameState, cmd: c.Rename, catalog: Catalog, events: list[GameEvent]) -> None:
    require_phase(state, "change a name", Phase.SETUP)
    player = acting(state, cmd)
    name = " ".join(cmd.name_.split())
    if not name or len(name) > NAME_LENGTH:
        raise refuse(RejectCode.ILLEGAL_PLAY, "a name has 1 to {n} characters", n=NAME_LENGTH)
    other = next((p for p in state.players if p.id != player.id and p.name.casefold() == name.casefold()), None)
    if other is not None:
        raise refuse(RejectCode.ILLEGAL_PLAY, "another player is already called {name}", name=name)
    player.name = name
    events.append(PlayerRenamed(player=player.id, name_=name))


def do_leave(state: GameState, cmd: c.Leave, catalog: Catalog, events: list[GameEvent]) -> None:
    if state.phase is Phase.GAME_OVER:
        raise refuse(RejectCode.GAME_OVER, "the game is over")
    player = acting(state, cmd)
    if state.phase not in (Phase.SETUP, Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE, Phase.CHARITY):
        raise refuse(RejectCode.WRONG_PHASE, "{player} cannot leave during {phase}", player=player, phase=state.phase)
    if state.phase is not Phase.SETUP and len(state.players) <= 2:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{player} cannot leave: the game needs two players", player=player)
    if state.pending_loss is not None:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{player} cannot leave while the table waits for an item to be lost, tap it first", player=player)
    if state.active_player == player.id:
        following = next_seat(state, player.id)
        state.players.remove(player)
        begin_turn(state, following, events)
    else:
        state.players.remove(player)
    if state.first_player == player.id:
        state.first_player = None
    drop_looter(state, player.id)                 # their body goes with them
    events.append(PlayerLeft(player=player.id))


def do_choose_first(state: GameState, cmd: c.ChooseFirstPlayer, catalog: Catalog, events: list[GameEvent]) -> None:
    require_phase(state, "roll for the first player", Phase.SETUP)
    if len(state.players) < 2:
        raise refuse(RejectCode.ILLEGAL_PLAY, "tap at least two player tokens before rolling for who starts")
    if cmd.forced is not None:
        index = (cmd.forced - 1) % len(state.players)
        die_roll(state, cmd.forced)
    else:
        index = random.Random(f"{state.seed}:first:{state.rolls}").randrange(len(state.players))
        die_roll(state, None)
    state.first_player = state.players[index].id
    events.append(FirstPlayerChosen(player=state.first_player))


def do_start(state: GameState, cmd: c.StartGame, catalog: Catalog, events: list[GameEvent]) -> None:
    require_phase(state, "start the game", Phase.SETUP)
    need = state.ruleset.min_players
    if len(state.players) < need:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     nmsg("cannot start with {n} player; tap at least {need} player tokens",
                          "cannot start with {n} players; tap at least {need} player tokens", "n",
                          n=len(state.players), need=need))
    if len(state.players) < 3:
        state.warnings.append(nmsg("{n} player: a practice game (the rules ask for 3 to 6)",
                                   "{n} players: a practice game (the rules ask for 3 to 6)", "n", n=len(state.players)))
    first = state.first_player or state.players[0].id
    events.append(GameStarted(players=tuple(p.id for p in state.players), first=first,
                              deal={"door": state.ruleset.starting_hand, "treasure": state.ruleset.starting_hand}))
    begin_turn(state, first, events)
