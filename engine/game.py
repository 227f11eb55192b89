"""``apply(state, command, catalog)``: the rules, as one pure function.

Each handler works on a private copy of the state and either returns normally
(the copy becomes the new state) or raises Refusal, which becomes a Rejected
value and leaves the caller's state untouched.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from engine import commands as c
from engine.cards import Catalog, CardDef, Kind
from engine.effects import apply_effects
from engine.results import Accepted, Event, Refusal, RejectCode, Rejected
from engine.rules import Ruleset
from engine.state import PLAYER_TOKENS, Combat, Flight, GameState, MonsterInPlay, OneShot, Phase, Player
from engine.strength import (combat_totals, players_win, restriction_problem, run_away_bonus,
                             slot_problem)

ESCAPE_ON = 5
SEXES = ("male", "female")


def new_game(seed: int, ruleset: Ruleset | None = None) -> GameState:
    return GameState(seed=seed, ruleset=ruleset or Ruleset())


def die_roll(state: GameState, forced: int | None) -> int:
    """The next die result: from the game's seed and the roll's index, unless forced."""
    if forced is not None:
        if not 1 <= forced <= 6:
            raise Refusal(RejectCode.ILLEGAL_PLAY, f"a die shows 1 to 6, not {forced}")
        value = forced
    else:
        value = random.Random(f"{state.seed}:{state.rolls}").randint(1, 6)
    state.rolls += 1
    state.last_roll = value
    return value


# ---------------------------------------------------------------- helpers

def refuse(code: RejectCode, message: str) -> Refusal:
    return Refusal(code, message)


def phase_name(phase: Phase) -> str:
    return phase.value.replace("-", " ")


def require_phase(state: GameState, tried: str, *phases: Phase) -> None:
    if state.phase not in phases:
        allowed = " or ".join(phase_name(p) for p in phases)
        raise refuse(RejectCode.WRONG_PHASE,
                     f"cannot {tried} during {phase_name(state.phase)}; only during {allowed}")


def require_active(state: GameState, cmd: c.Command, tried: str) -> None:
    if cmd.player != state.active_player:
        who = state.player(cmd.player).name if state.has_player(cmd.player) else cmd.player or "nobody"
        active = state.player(state.active_player).name if state.active_player else "nobody"
        raise refuse(RejectCode.NOT_YOUR_TURN, f"{who} cannot {tried}: it is {active}'s turn")


def acting(state: GameState, cmd: c.Command) -> Player:
    if not state.has_player(cmd.player):
        raise refuse(RejectCode.ILLEGAL_TARGET, f"{cmd.player or 'nobody'} is not playing")
    return state.player(cmd.player)


def card_of(catalog: Catalog, card_id: str) -> CardDef:
    if card_id not in catalog:
        raise refuse(RejectCode.UNKNOWN_CARD, f"no card {card_id!r} in the catalog")
    return catalog[card_id]


def holder_of(state: GameState, card_id: str) -> Player | None:
    for p in state.players:
        if card_id in p.in_play():
            return p
    return None


def set_level(state: GameState, player: Player, level: int, events: list[Event], *, why: str) -> None:
    before = player.level
    player.level = max(state.ruleset.level_floor, level)
    if player.level != before:
        name = "LevelGained" if player.level > before else "LevelLost"
        events.append(Event(name, {"player": player.id, "from": before, "to": player.level, "why": why}))


def combat_of(state: GameState) -> Combat:
    assert state.combat is not None
    return state.combat


# ---------------------------------------------------------------- setup

def do_join(state: GameState, cmd: c.Join, catalog: Catalog, events: list[Event]) -> None:
    require_phase(state, f"join {cmd.player}", Phase.SETUP)
    if cmd.player not in PLAYER_TOKENS:
        raise refuse(RejectCode.ILLEGAL_TARGET, f"{cmd.player!r} is not a player token (player-1 … player-6)")
    if state.has_player(cmd.player):
        raise refuse(RejectCode.ILLEGAL_TARGET, f"{cmd.player} has already joined")
    if len(state.players) >= state.ruleset.max_players:
        raise refuse(RejectCode.ILLEGAL_TARGET, f"the table is full ({state.ruleset.max_players} players)")
    if cmd.sex not in SEXES:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"sex must be male or female, not {cmd.sex!r}")
    name = cmd.name_ or f"Player {cmd.player.split('-')[1]}"
    state.players.append(Player(id=cmd.player, name=name, sex=cmd.sex))
    events.append(Event("PlayerJoined", {"player": cmd.player, "seat": len(state.players)}))


def do_leave(state: GameState, cmd: c.Leave, catalog: Catalog, events: list[Event]) -> None:
    if state.phase is Phase.GAME_OVER:
        raise refuse(RejectCode.GAME_OVER, "the game is over")
    player = acting(state, cmd)
    if state.phase not in (Phase.SETUP, Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE, Phase.CHARITY):
        raise refuse(RejectCode.WRONG_PHASE, f"{player.name} cannot leave during {phase_name(state.phase)}")
    if state.phase is not Phase.SETUP and len(state.players) <= 2:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{player.name} cannot leave: the game needs two players")
    if state.active_player == player.id:
        following = next_seat(state, player.id)
        state.players.remove(player)
        begin_turn(state, following, events)
    else:
        state.players.remove(player)
    if state.first_player == player.id:
        state.first_player = None
    events.append(Event("PlayerLeft", {"player": player.id}))


def do_choose_first(state: GameState, cmd: c.ChooseFirstPlayer, catalog: Catalog, events: list[Event]) -> None:
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
    events.append(Event("FirstPlayerChosen", {"player": state.first_player}))


def do_start(state: GameState, cmd: c.StartGame, catalog: Catalog, events: list[Event]) -> None:
    require_phase(state, "start the game", Phase.SETUP)
    need = state.ruleset.min_players
    if len(state.players) < need:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     f"cannot start with {len(state.players)} player(s); tap at least {need} player tokens")
    first = state.first_player or state.players[0].id
    events.append(Event("GameStarted", {"players": [p.id for p in state.players], "first": first}))
    begin_turn(state, first, events)


# ---------------------------------------------------------------- turns

def next_seat(state: GameState, player_id: str) -> str:
    ids = [p.id for p in state.players]
    return ids[(ids.index(player_id) + 1) % len(ids)]


def begin_turn(state: GameState, player_id: str, events: list[Event]) -> None:
    for p in state.players:
        if not p.alive:
            p.alive = True
            events.append(Event("PlayerRevived", {"player": p.id}, automatic=True))
    state.turn += 1
    state.active_player = player_id
    state.phase = Phase.KICK_OPEN_THE_DOOR
    state.combat = None
    state.flight = None
    state.treasures_to_draw = 0
    events.append(Event("TurnStarted", {"player": player_id, "turn": state.turn}, automatic=True))


def do_end_phase(state: GameState, cmd: c.EndPhase, catalog: Catalog, events: list[Event]) -> None:
    require_phase(state, "end the phase", Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE, Phase.CHARITY)
    require_active(state, cmd, "end the phase")
    if state.phase is Phase.KICK_OPEN_THE_DOOR:
        state.phase = Phase.LOOK_FOR_TROUBLE
        events.append(Event("DoorClosed", {"player": cmd.player}))
    elif state.phase is Phase.LOOK_FOR_TROUBLE:
        state.phase = Phase.CHARITY
        events.append(Event("RoomLooted", {"player": cmd.player}))
    else:
        for p in state.players:
            p.level_history = (*p.level_history, p.level)
        events.append(Event("TurnEnded", {"player": cmd.player, "turn": state.turn}))
        begin_turn(state, next_seat(state, cmd.player), events)


# ---------------------------------------------------------------- playing cards

def do_play(state: GameState, cmd: c.PlayCard, catalog: Catalog, events: list[Event]) -> None:
    if state.phase is Phase.SETUP:
        raise refuse(RejectCode.WRONG_PHASE, "cards are played once the game has started; press NEXT to start")
    card = card_of(catalog, cmd.card)
    player = acting(state, cmd)
    holder = holder_of(state, card.id)
    if holder is not None and card.copies <= 1:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} is already in play with {holder.name}")
    handler = PLAYS.get(card.kind)
    if handler is None:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} ({card.kind.value}) is not played through the box")
    handler(state, cmd, card, player, catalog, events)
    if state.combat is not None and state.phase is Phase.COMBAT:
        refresh_window(state, cmd.at, catalog, events)


def play_monster(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                 events: list[Event]) -> None:
    if state.phase is Phase.COMBAT:
        combat = combat_of(state)
        if combat.wandering_pending:
            combat.wandering_pending = False
        elif not (card.undead and any(catalog[m.card].undead for m in combat.monsters)):
            raise refuse(RejectCode.ILLEGAL_PLAY,
                         f"cannot add {card.name} to the fight: play a Wandering Monster first")
        combat.monsters.append(MonsterInPlay(card.id))
        events.append(Event("MonsterJoined", {"card": card.id, "by": player.id}))
        return
    require_phase(state, f"fight {card.name}", Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE)
    require_active(state, cmd, f"fight {card.name}")
    state.combat = Combat(monsters=[MonsterInPlay(card.id)], fighters=[player.id],
                          from_door=state.phase is Phase.KICK_OPEN_THE_DOOR)
    state.phase = Phase.COMBAT
    events.append(Event("CombatStarted", {"card": card.id, "player": player.id}))


def play_curse(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
               events: list[Event]) -> None:
    if cmd.target:
        if not state.has_player(cmd.target):
            raise refuse(RejectCode.ILLEGAL_TARGET, f"{cmd.target} is not playing; tap a player's token as the victim")
        victim = state.player(cmd.target)
    elif state.phase is Phase.KICK_OPEN_THE_DOOR and cmd.player == state.active_player:
        victim = player
    else:
        raise refuse(RejectCode.ILLEGAL_TARGET, f"{card.name} needs a victim: tap a player's token")
    apply_effects(state, victim, card.bad_stuff, catalog, events, source=card.id)
    if card.has_effect("lasting"):
        victim.curses.append(card.id)
    events.append(Event("CursePlayed", {"card": card.id, "victim": victim.id}))


def play_race_or_class(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                       events: list[Event]) -> None:
    if state.phase is Phase.RUN_AWAY:
        raise refuse(RejectCode.WRONG_PHASE, f"cannot play {card.name} while running away")
    owned = player.races if card.kind is Kind.RACE else player.classes
    if card.id in owned:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{player.name} is already a {card.name}")
    replaced = list(owned)
    owned[:] = [card.id]
    events.append(Event("RaceChosen" if card.kind is Kind.RACE else "ClassChosen",
                        {"player": player.id, "card": card.id, "replaced": replaced}))


def play_item(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
              events: list[Event]) -> None:
    if state.phase in (Phase.COMBAT, Phase.RUN_AWAY):
        raise refuse(RejectCode.WRONG_PHASE,
                     f"cannot bring out {card.name} during {phase_name(state.phase)}: equipment is fixed in a fight")
    if card.big and "dwarf" not in player.races:
        bigs = [catalog[i].name for i in [*player.equipped, *player.carried] if catalog[i].big]
        if bigs:
            raise refuse(RejectCode.ILLEGAL_PLAY,
                         f"{player.name} cannot carry {card.name}: already carrying the Big item {bigs[0]}")
    why_not = restriction_problem(card, player) or slot_problem(card, player, catalog)
    if why_not is None:
        player.equipped.append(card.id)
        events.append(Event("ItemEquipped", {"player": player.id, "card": card.id}))
    else:
        player.carried.append(card.id)
        events.append(Event("ItemCarried", {"player": player.id, "card": card.id, "why": why_not}))


def play_bonus_card(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                    events: list[Event]) -> None:
    """One-shots and monster enhancers: a bonus for one side of the current combat."""
    if state.phase is not Phase.COMBAT:
        raise refuse(RejectCode.WRONG_PHASE, f"{card.name} is played during a combat")
    combat = combat_of(state)
    if card.kind is Kind.MONSTER_ENHANCER:
        index = cmd.monster if 0 <= cmd.monster < len(combat.monsters) else len(combat.monsters) - 1
        combat.monsters[index].enhancers.append(card.id)
        events.append(Event("MonsterEnhanced", {"card": card.id, "monster": combat.monsters[index].card}))
        return
    if card.bonus is None:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} has no combat bonus the box can add")
    side = cmd.side or ("players" if player.id in combat.fighters else "monsters")
    if side not in ("players", "monsters"):
        raise refuse(RejectCode.ILLEGAL_PLAY, f"a one-shot helps 'players' or 'monsters', not {side!r}")
    combat.one_shots.append(OneShot(card.id, side, card.bonus))
    events.append(Event("OneShotPlayed", {"card": card.id, "side": side, "bonus": card.bonus}))


def play_wandering(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                   events: list[Event]) -> None:
    if state.phase is not Phase.COMBAT:
        raise refuse(RejectCode.WRONG_PHASE, f"{card.name} is played during a combat")
    combat_of(state).wandering_pending = True
    events.append(Event("WanderingMonsterPlayed", {"by": player.id}))


def play_go_up_a_level(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                       events: list[Event]) -> None:
    target = state.player(cmd.target) if cmd.target and state.has_player(cmd.target) else player
    if target.level + 1 >= state.ruleset.winning_level:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     f"{card.name} cannot take {target.name} to level {target.level + 1}: "
                     f"the winning level comes only from a kill")
    set_level(state, target, target.level + 1, events, why=card.id)


PLAYS: dict[Kind, Callable[..., None]] = {
    Kind.MONSTER: play_monster,
    Kind.CURSE: play_curse,
    Kind.RACE: play_race_or_class,
    Kind.CLASS: play_race_or_class,
    Kind.ITEM: play_item,
    Kind.ONE_SHOT: play_bonus_card,
    Kind.MONSTER_ENHANCER: play_bonus_card,
    Kind.WANDERING_MONSTER: play_wandering,
    Kind.GO_UP_A_LEVEL: play_go_up_a_level,
}


def do_use(state: GameState, cmd: c.UseCard, catalog: Catalog, events: list[Event]) -> None:
    card = card_of(catalog, cmd.card)
    player = acting(state, cmd)
    if card.id not in player.in_play():
        holder = holder_of(state, card.id)
        where = f"it belongs to {holder.name}" if holder else "it is not in play"
        raise refuse(RejectCode.NOT_IN_HAND, f"{player.name} cannot {cmd.action} {card.name}: {where}")
    if cmd.action in ("equip", "unequip") and state.phase in (Phase.COMBAT, Phase.RUN_AWAY):
        raise refuse(RejectCode.WRONG_PHASE, f"cannot {cmd.action} {card.name} during {phase_name(state.phase)}")
    if cmd.action == "equip":
        if card.id not in player.carried:
            raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} is not a carried item")
        why_not = restriction_problem(card, player) or slot_problem(card, player, catalog)
        if why_not:
            raise refuse(RejectCode.ILLEGAL_PLAY, f"cannot equip {card.name}: {why_not}")
        player.carried.remove(card.id)
        player.equipped.append(card.id)
        events.append(Event("ItemEquipped", {"player": player.id, "card": card.id}))
    elif cmd.action == "unequip":
        if card.id not in player.equipped:
            raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} is not equipped")
        player.equipped.remove(card.id)
        player.carried.append(card.id)
        events.append(Event("ItemUnequipped", {"player": player.id, "card": card.id}))
    elif cmd.action == "discard":
        if card.kind is Kind.ITEM and state.phase in (Phase.COMBAT, Phase.RUN_AWAY):
            raise refuse(RejectCode.WRONG_PHASE, f"cannot discard {card.name} during {phase_name(state.phase)}")
        for pile in (player.races, player.classes, player.equipped, player.carried, player.curses):
            if card.id in pile:
                pile.remove(card.id)
                break
        events.append(Event("CardDiscarded", {"player": player.id, "card": card.id}))
    else:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     f"cannot {cmd.action} {card.name}; allowed: equip, unequip, discard")


# ---------------------------------------------------------------- combat

def refresh_window(state: GameState, at: float, catalog: Catalog, events: list[Event]) -> None:
    """Every accepted change restarts the interference window, or closes it if the fight turned."""
    combat = combat_of(state)
    if combat.window_until is None:
        return
    if players_win(state, combat, catalog):
        combat.window_until = at + state.ruleset.interference_seconds
        events.append(Event("WindowRestarted", {"until": combat.window_until}, automatic=True))
    else:
        combat.window_until = None
        events.append(Event("WindowClosed", {"why": "the monsters are winning again"}, automatic=True))


def do_add_helper(state: GameState, cmd: c.AddHelper, catalog: Catalog, events: list[Event]) -> None:
    require_phase(state, "ask for help", Phase.COMBAT)
    require_active(state, cmd, "ask for help")
    combat = combat_of(state)
    if not state.has_player(cmd.helper):
        raise refuse(RejectCode.ILLEGAL_TARGET, f"{cmd.helper} is not playing")
    helper = state.player(cmd.helper)
    if cmd.helper == cmd.player:
        raise refuse(RejectCode.ILLEGAL_TARGET, "a player cannot help themselves; tap another player's token")
    if combat.helper is not None:
        raise refuse(RejectCode.ILLEGAL_TARGET,
                     f"{state.player(combat.helper).name} is already helping; only one helper is allowed")
    if not helper.alive:
        raise refuse(RejectCode.ILLEGAL_TARGET, f"{helper.name} is dead until the next turn")
    combat.fighters.append(helper.id)
    events.append(Event("HelperJoined", {"player": helper.id}))
    refresh_window(state, cmd.at, catalog, events)


def do_fight(state: GameState, cmd: c.Fight, catalog: Catalog, events: list[Event]) -> None:
    require_phase(state, "fight", Phase.COMBAT)
    require_active(state, cmd, "fight")
    combat = combat_of(state)
    players, monsters = combat_totals(state, combat, catalog)
    if not players_win(state, combat, catalog):
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     f"cannot win yet: players {players} vs monsters {monsters}; play cards, ask for help or RUN")
    if combat.window_until is not None:
        raise refuse(RejectCode.ILLEGAL_PLAY, "the fight is already won unless somebody interferes; wait")
    window = state.ruleset.interference_seconds
    if window <= 0:
        resolve(state, catalog, events)
        return
    combat.window_until = cmd.at + window
    events.append(Event("WindowOpened", {"until": combat.window_until, "seconds": window}))


def do_resolve(state: GameState, cmd: c.ResolveCombat, catalog: Catalog, events: list[Event]) -> None:
    require_phase(state, "end the fight", Phase.COMBAT)
    combat = combat_of(state)
    if combat.window_until is None:
        raise refuse(RejectCode.ILLEGAL_PLAY, "the fight is not won yet; press NEXT when the players win")
    if cmd.at + 1e-9 < combat.window_until:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     f"others may still interfere for {combat.window_until - cmd.at:.1f} s")
    resolve(state, catalog, events)


def resolve(state: GameState, catalog: Catalog, events: list[Event]) -> None:
    """The players killed every monster: levels, treasure, and perhaps the win."""
    combat = combat_of(state)
    active = state.player(combat.fighters[0])
    levels = sum(catalog[m.card].levels_gained or 1 for m in combat.monsters)
    treasures = 0
    for m in combat.monsters:
        t = catalog[m.card].treasures or 0
        for e in m.enhancers:
            t += int(getattr(catalog[e].effect("treasure-mod"), "args", {}).get("n", 0))
        treasures += max(t, 1)
    win = state.ruleset.winning_level
    set_level(state, active, min(win, active.level + levels), events, why="kill")
    state.treasures_to_draw = treasures
    events.append(Event("MonstersKilled", {"player": active.id, "monsters": [m.card for m in combat.monsters],
                                           "levels": levels, "treasures": treasures,
                                           "face_up": combat.helper is not None}))
    state.combat = None
    state.phase = Phase.CHARITY
    check_winners(state, events)


def check_winners(state: GameState, events: list[Event]) -> None:
    winners = [p.id for p in state.players if p.level >= state.ruleset.winning_level]
    if winners:
        state.winners = winners
        state.phase = Phase.GAME_OVER
        for p in state.players:
            p.level_history = (*p.level_history, p.level)
        events.append(Event("GameWon", {"winners": winners}))


def do_run_away(state: GameState, cmd: c.RunAway, catalog: Catalog, events: list[Event]) -> None:
    require_phase(state, "run away", Phase.COMBAT)
    require_active(state, cmd, "run away")
    combat = combat_of(state)
    combat.window_until = None
    state.flight = Flight(pending=[(f, i) for f in combat.fighters for i in range(len(combat.monsters))])
    state.phase = Phase.RUN_AWAY
    events.append(Event("RunAwayDeclared", {"players": list(combat.fighters)}))


def do_roll(state: GameState, cmd: c.Roll, catalog: Catalog, events: list[Event]) -> None:
    require_phase(state, "roll the die", Phase.RUN_AWAY)
    assert state.flight is not None
    combat = combat_of(state)
    player_id, index = state.flight.pending[0]
    player = state.player(player_id)
    monster = catalog[combat.monsters[index].card]
    roll = die_roll(state, cmd.forced)
    state.flight.pending.pop(0)
    total = roll + run_away_bonus(player, catalog)
    escaped = total >= ESCAPE_ON
    state.flight.results.append((player_id, index, roll, escaped))
    data = {"player": player_id, "monster": monster.id, "roll": roll, "total": total}
    if escaped:
        events.append(Event("RunAwaySucceeded", data))
    else:
        events.append(Event("RunAwayFailed", data))
        apply_effects(state, player, monster.bad_stuff, catalog, events, source=monster.id)
        if not player.alive:
            state.flight.pending = [(p, i) for p, i in state.flight.pending if p != player_id]
    if not state.flight.pending:
        state.combat = None
        state.flight = None
        state.phase = Phase.CHARITY
        events.append(Event("CombatEnded", {"how": "ran away"}, automatic=True))


# ---------------------------------------------------------------- player menu

def do_set_sex(state: GameState, cmd: c.SetSex, catalog: Catalog, events: list[Event]) -> None:
    player = acting(state, cmd)
    if cmd.sex not in SEXES:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"sex must be male or female, not {cmd.sex!r}")
    player.sex = cmd.sex
    events.append(Event("SexChanged", {"player": player.id, "sex": cmd.sex}))


def do_adjust_level(state: GameState, cmd: c.AdjustLevel, catalog: Catalog, events: list[Event]) -> None:
    player = acting(state, cmd)
    target = player.level + cmd.delta
    if target >= state.ruleset.winning_level:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     f"a correction cannot take {player.name} to level {target}: the winning level comes only from a kill")
    if target < state.ruleset.level_floor:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{player.name} is already at level {player.level}, the lowest")
    set_level(state, player, target, events, why="correction")


# ---------------------------------------------------------------- dispatch

HANDLERS: dict[type[c.Command], Callable[..., None]] = {
    c.Join: do_join, c.Leave: do_leave, c.ChooseFirstPlayer: do_choose_first, c.StartGame: do_start,
    c.PlayCard: do_play, c.UseCard: do_use, c.AddHelper: do_add_helper, c.Fight: do_fight,
    c.ResolveCombat: do_resolve, c.RunAway: do_run_away, c.Roll: do_roll, c.EndPhase: do_end_phase,
    c.SetSex: do_set_sex, c.AdjustLevel: do_adjust_level,
}


def apply(state: GameState, cmd: c.Command, catalog: Catalog) -> Accepted | Rejected:
    """Apply ``cmd`` to ``state``. Never mutates ``state``; a refusal is a value."""
    if state.phase is Phase.GAME_OVER:
        return Rejected(RejectCode.GAME_OVER, "the game is over; press NEXT for a new game")
    handler = HANDLERS.get(type(cmd))
    if handler is None:
        return Rejected(RejectCode.ILLEGAL_PLAY, f"the engine does not know the command {cmd.name}")
    new = state.clone()
    events: list[Event] = []
    try:
        handler(new, cmd, catalog, events)
    except Refusal as refusal:
        return Rejected(refusal.code, refusal.message)
    return Accepted(new, tuple(events))


def replay(catalog: Catalog, ruleset: Ruleset, seed: int, commands: Iterable[c.Command]) -> GameState:
    """The state after ``commands``; raises ReplayError on a command that is refused."""
    from engine.errors import ReplayError

    state = new_game(seed, ruleset)
    for n, cmd in enumerate(commands, 1):
        result = apply(state, cmd, catalog)
        if isinstance(result, Rejected):
            raise ReplayError(f"command {n} ({cmd.name}) was refused on replay: {result.message}")
        state = result.state
    return state


# ---------------------------------------------------------------- what the buttons mean now

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
        return Rejected(RejectCode.WRONG_PHASE, "running away: press ROLL for each roll")
    return Rejected(RejectCode.GAME_OVER, "the game is over")


def legal_buttons(state: GameState, catalog: Catalog) -> dict[str, str]:
    """A short label for what each button does now; empty where it does nothing."""
    labels = {"roll": "", "help": "", "run": "", "next": "", "undo": "Undo"}
    phase = state.phase
    if phase is Phase.SETUP:
        labels["roll"] = "Who starts?" if len(state.players) >= 2 else ""
        labels["next"] = "Start game" if len(state.players) >= state.ruleset.min_players else ""
    elif phase is Phase.KICK_OPEN_THE_DOOR:
        labels["next"] = "No monster"
    elif phase is Phase.LOOK_FOR_TROUBLE:
        labels["next"] = "Loot the room"
    elif phase is Phase.CHARITY:
        labels["next"] = "End turn"
    elif phase is Phase.COMBAT:
        combat = combat_of(state)
        labels["help"] = "" if combat.helper else "Ask for help"
        labels["run"] = "Run away"
        winning = players_win(state, combat, catalog)
        labels["next"] = "Fight!" if winning and combat.window_until is None else ""
    elif phase is Phase.RUN_AWAY:
        labels["roll"] = "Roll to flee"
    elif phase is Phase.GAME_OVER:
        labels["next"] = "New game"
        labels["undo"] = "Undo"
    return labels
