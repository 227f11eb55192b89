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
from engine.effects import apply_effects, items_of, lose_levels, remove_item
from engine.items import BIG_LIMIT, enforce_big_limit
from engine.looting import is_loot, take_from_body
from engine.results import Accepted, Event, Refusal, RejectCode, Rejected
from engine.rules import Ruleset
from engine.state import (PLAYER_TOKENS, Combat, Flight, GameState, MonsterInPlay, OneShot, PendingLoss, Phase,
                          Player)
from engine.strength import (big_problem, combat_totals, players_win, restriction_problem, run_away_bonus,
                             slot_problem, traits)

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


def set_level(state: GameState, player: Player, level: int, events: list[Event], *, why: str,
              may_win: bool = False) -> None:
    """Change a level within the bounds: never below the floor, the winning level only by a kill."""
    before = player.level
    top = state.ruleset.winning_level if may_win else state.ruleset.winning_level - 1
    level = max(state.ruleset.level_floor, level)
    if level > before:
        level = max(before, min(level, top))
    player.level = level
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
    if len(state.players) < 3:
        state.warnings.append(f"{len(state.players)} players: a practice game (the rules ask for 3 to 6)")
    first = state.first_player or state.players[0].id
    events.append(Event("GameStarted", {"players": [p.id for p in state.players], "first": first,
                                        "deal": {"door": state.ruleset.starting_hand,
                                                 "treasure": state.ruleset.starting_hand}}))
    begin_turn(state, first, events)


# ---------------------------------------------------------------- turns

def next_seat(state: GameState, player_id: str) -> str:
    ids = [p.id for p in state.players]
    return ids[(ids.index(player_id) + 1) % len(ids)]


def begin_turn(state: GameState, player_id: str, events: list[Event]) -> None:
    for p in state.players:
        if not p.alive:
            p.alive = True
            events.append(Event("PlayerRevived", {"player": p.id, "deal": state.ruleset.starting_hand},
                                automatic=True))
    state.looting = None
    state.after_combat = False
    state.treasures_face_up = False
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
    require_no_pending_loss(state, "end the phase")
    state.flight = None
    if state.phase is Phase.KICK_OPEN_THE_DOOR:
        state.phase = Phase.LOOK_FOR_TROUBLE
        events.append(Event("DoorClosed", {"player": cmd.player}))
    elif state.phase is Phase.LOOK_FOR_TROUBLE:
        state.phase = Phase.CHARITY
        events.append(Event("RoomLooted", {"player": cmd.player}))
    else:
        giver = state.player(cmd.player)
        events.append(Event("CharityDue", {"player": giver.id, "hand_limit": hand_limit(state, giver),
                                           "receivers": charity_receivers(state)}, automatic=True))
        for p in state.players:
            p.level_history = (*p.level_history, p.level)
        events.append(Event("TurnEnded", {"player": cmd.player, "turn": state.turn}))
        begin_turn(state, next_seat(state, cmd.player), events)


# ---------------------------------------------------------------- playing cards

def require_no_pending_loss(state: GameState, tried: str) -> None:
    loss = state.pending_loss
    if loss is not None:
        who = state.player(loss.player).name
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     f"cannot {tried} yet: {who} must first tap the item to lose ({loss.kind}, for {loss.source})")


def do_play(state: GameState, cmd: c.PlayCard, catalog: Catalog, events: list[Event]) -> None:
    if state.phase is Phase.SETUP:
        raise refuse(RejectCode.WRONG_PHASE, "cards are played once the game has started; press NEXT to start")
    card = card_of(catalog, cmd.card)
    player = acting(state, cmd)
    if is_loot(state, card, player.id):
        take_from_body(state, card, player, catalog, events)
        return
    holder = holder_of(state, card.id)
    if holder is not None and card.copies <= 1:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} is already in play with {holder.name}")
    if not player.alive and card.kind is not Kind.CURSE:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{player.name} is dead until the next turn and cannot play {card.name}")
    handler = PLAYS.get(card.kind)
    if card.kind is Kind.SPECIAL:
        handler = SPECIALS.get(card.effects[0].op if card.effects else "")
    if handler is None:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} ({card.kind.value}) is not played through the box")
    handler(state, cmd, card, player, catalog, events)
    if state.combat is not None and state.phase is Phase.COMBAT:
        refresh_window(state, cmd.at, catalog, events)


def start_combat(state: GameState, card: CardDef, player: Player, catalog: Catalog, events: list[Event]) -> None:
    state.combat = Combat(monsters=[MonsterInPlay(card.id)], fighters=[player.id],
                          from_door=state.phase is Phase.KICK_OPEN_THE_DOOR)
    state.phase = Phase.COMBAT
    state.after_combat = False
    events.append(Event("CombatStarted", {"card": card.id, "player": player.id}))
    ignores = card.effect("ignores-trait")
    if ignores is not None and ignores.get("trait") in traits(player):
        state.treasures_to_draw += int(ignores.get("treasures"))
        events.append(Event("MonsterIgnoresPlayer", {"card": card.id, "player": player.id,
                                                     "treasures": int(ignores.get("treasures"))}))
        end_combat(state, events, how="ignored")
        return
    if card.has_effect("discard-before-combat") and items_of(player):
        state.pending_loss = PendingLoss(player=player.id, kind="any", count=1, source=card.id)
        events.append(Event("ItemToLoseAsked", {"player": player.id, "kind": "any", "count": 1,
                                                "gold": 0, "source": card.id}))


def play_monster(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                 events: list[Event]) -> None:
    if state.phase is Phase.COMBAT:
        combat = combat_of(state)
        if combat.illusion_pending >= 0:
            old = combat.monsters[combat.illusion_pending]
            combat.monsters[combat.illusion_pending] = MonsterInPlay(card.id)
            combat.illusion_pending = -1
            events.append(Event("MonsterReplaced", {"card": card.id, "old": old.card, "by": player.id}))
            return
        if combat.wandering_pending:
            combat.wandering_pending = False
        elif not (card.undead and any(catalog[m.card].undead for m in combat.monsters)):
            raise refuse(RejectCode.ILLEGAL_PLAY,
                         f"cannot add {card.name} to the fight: play a Wandering Monster first "
                         f"(or an Undead beside an Undead)")
        combat.monsters.append(MonsterInPlay(card.id))
        events.append(Event("MonsterJoined", {"card": card.id, "by": player.id}))
        return
    require_phase(state, f"fight {card.name}", Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE)
    require_active(state, cmd, f"fight {card.name}")
    require_no_pending_loss(state, f"fight {card.name}")
    start_combat(state, card, player, catalog, events)


def play_curse(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
               events: list[Event]) -> None:
    from_door = False
    if cmd.target:
        if not state.has_player(cmd.target):
            raise refuse(RejectCode.ILLEGAL_TARGET, f"{cmd.target} is not playing; tap a player's token as the victim")
        victim = state.player(cmd.target)
    elif state.phase is Phase.KICK_OPEN_THE_DOOR and cmd.player == state.active_player:
        victim, from_door = player, True
    else:
        raise refuse(RejectCode.ILLEGAL_TARGET, f"{card.name} needs a victim: tap a player's token")
    if from_door and any(catalog[i].has_effect("curse-immunity-door") for i in victim.equipped):
        events.append(Event("CurseBlocked", {"card": card.id, "victim": victim.id,
                                             "by": "sandals-of-protection"}))
        return
    events.append(Event("CursePlayed", {"card": card.id, "victim": victim.id}))
    apply_effects(state, victim, card.bad_stuff, catalog, events, source=card.id)
    if card.has_effect("lasting"):
        victim.curses.append(card.id)
    if state.combat is not None and not victim.alive:
        drop_dead_fighter(state, victim, events)


def play_race_or_class(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                       events: list[Event]) -> None:
    if state.phase is Phase.RUN_AWAY:
        raise refuse(RejectCode.WRONG_PHASE, f"cannot play {card.name} while running away")
    is_race = card.kind is Kind.RACE
    owned = player.races if is_race else player.classes
    if card.id in owned:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{player.name} is already a {card.name}")
    allows_two = "half-breed" if is_race else "super-munchkin"
    replaced: list[str] = []
    if allows_two in player.specials and len(owned) < 2:
        owned.append(card.id)
    else:
        replaced = list(owned)
        owned[:] = [card.id]
    events.append(Event("RaceChosen" if is_race else "ClassChosen",
                        {"player": player.id, "card": card.id, "replaced": replaced}))


def play_two_of_a_kind(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                       events: list[Event]) -> None:
    """Half-Breed and Super Munchkin: room for a second race or class."""
    if state.phase is Phase.RUN_AWAY:
        raise refuse(RejectCode.WRONG_PHASE, f"cannot play {card.name} while running away")
    needs = player.races if card.id == "half-breed" else player.classes
    if not needs:
        what = "race" if card.id == "half-breed" else "class"
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} needs a {what} card in front of {player.name} first")
    player.specials.append(card.id)
    events.append(Event("SpecialPlayed", {"player": player.id, "card": card.id}))


def play_cheat(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
               events: list[Event]) -> None:
    if state.phase in (Phase.COMBAT, Phase.RUN_AWAY):
        raise refuse(RejectCode.WRONG_PHASE, f"{card.name} goes on an item outside combat")
    if cmd.item not in [*player.equipped, *player.carried]:
        raise refuse(RejectCode.ILLEGAL_TARGET, f"{card.name} needs one of {player.name}'s items: tap the item")
    player.cheat_on = cmd.item
    item = catalog[cmd.item]
    if cmd.item in player.carried and slot_problem(item, player, catalog) is None:
        player.carried.remove(cmd.item)
        player.equipped.append(cmd.item)
    events.append(Event("CheatAttached", {"player": player.id, "card": cmd.item}))


def play_divine(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                events: list[Event]) -> None:
    for p in state.players:
        if "cleric" in p.classes:
            set_level(state, p, p.level + 1, events, why=card.id, may_win=True)
    events.append(Event("DivineIntervention", {"by": player.id}))
    check_winners(state, events)


def in_combat(state: GameState, card: CardDef) -> Combat:
    if state.phase is not Phase.COMBAT or state.combat is None:
        raise refuse(RejectCode.WRONG_PHASE, f"{card.name} is played during a combat")
    return state.combat


def pick_monster(combat: Combat, index: int, card: CardDef) -> int:
    if index == -1:
        return len(combat.monsters) - 1
    if not 0 <= index < len(combat.monsters):
        raise refuse(RejectCode.ILLEGAL_TARGET,
                     f"{card.name}: there is no monster {index + 1}; pick 1 to {len(combat.monsters)}")
    return index


def play_combat_special(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                        events: list[Event]) -> None:
    """Mate, Illusion, Out to Lunch, Help Me Out Here."""
    combat = in_combat(state, card)
    op = card.effects[0].op
    if op == "duplicate-monster":
        index = pick_monster(combat, cmd.monster, card)
        source = combat.monsters[index]
        combat.monsters.append(MonsterInPlay(source.card, list(source.enhancers), mate=True))
        events.append(Event("MonsterJoined", {"card": source.card, "by": player.id, "mate": True}))
    elif op == "replace-monster":
        combat.illusion_pending = pick_monster(combat, cmd.monster, card)
        events.append(Event("IllusionPlayed", {"monster": combat.monsters[combat.illusion_pending].card,
                                               "by": player.id}))
    elif op == "end-combat":
        effect = card.effects[0]
        state.treasures_to_draw += int(effect.get("treasures", 0))
        events.append(Event("MonstersDiscarded", {"card": card.id, "by": player.id,
                                                  "treasures": int(effect.get("treasures", 0))}))
        end_combat(state, events, how=card.id, loot=bool(effect.get("loot", 0)))
    elif op == "take-item":
        if player.id != combat.fighters[0]:
            raise refuse(RejectCode.NOT_YOUR_TURN, f"{card.name} is played only in your own combat")
        owner = holder_of(state, cmd.item) if cmd.item else None
        if owner is None or owner.id == player.id or cmd.item not in items_of(owner):
            raise refuse(RejectCode.ILLEGAL_TARGET, f"{card.name}: tap another player's item to take")
        if players_win(state, combat, catalog):
            raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} only when the item makes the difference; you already win")
        item = catalog[cmd.item]
        if restriction_problem(item, player) or slot_problem(item, player, catalog) or big_problem(item, player, catalog):
            raise refuse(RejectCode.ILLEGAL_PLAY, f"{player.name} could not use {item.name}")
        remove_item(owner, item.id)
        player.equipped.append(item.id)
        if not players_win(state, combat, catalog):
            raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name}: {item.name} does not make the players win")
        events.append(Event("ItemTaken", {"player": player.id, "from": owner.id, "card": item.id}))


def play_item(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
              events: list[Event]) -> None:
    if state.phase in (Phase.COMBAT, Phase.RUN_AWAY):
        raise refuse(RejectCode.WRONG_PHASE,
                     f"cannot bring out {card.name} during {phase_name(state.phase)}: equipment is fixed in a fight")
    big = big_problem(card, player, catalog)
    if big:
        raise refuse(RejectCode.ILLEGAL_PLAY, big)
    why_not = restriction_problem(card, player) or slot_problem(card, player, catalog)
    if why_not is None:
        player.equipped.append(card.id)
        events.append(Event("ItemEquipped", {"player": player.id, "card": card.id}))
    else:
        player.carried.append(card.id)
        events.append(Event("ItemCarried", {"player": player.id, "card": card.id, "why": why_not}))


def play_bonus_card(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                    events: list[Event]) -> None:
    """One-shots and monster enhancers: a bonus for one side of the current combat, or a card's effect."""
    if card.kind is Kind.ONE_SHOT and card.effects:
        ONE_SHOTS[card.effects[0].op](state, cmd, card, player, catalog, events)
        return
    combat = in_combat(state, card)
    if card.kind is Kind.MONSTER_ENHANCER:
        index = pick_monster(combat, cmd.monster, card)
        combat.monsters[index].enhancers.append(card.id)
        events.append(Event("MonsterEnhanced", {"card": card.id, "monster": combat.monsters[index].card,
                                                "index": index}))
        return
    if card.bonus is None:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} has no combat bonus the box can add")
    add_one_shot(combat, cmd, card, player, card.bonus, events)


def add_one_shot(combat: Combat, cmd: c.PlayCard, card: CardDef, player: Player, bonus: int,
                 events: list[Event]) -> None:
    side = cmd.side or ("players" if player.id in combat.fighters else "monsters")
    if side not in ("players", "monsters"):
        raise refuse(RejectCode.ILLEGAL_PLAY, f"a one-shot helps 'players' or 'monsters', not {side!r}")
    combat.one_shots.append(OneShot(card.id, side, bonus))
    events.append(Event("OneShotPlayed", {"card": card.id, "side": side, "bonus": bonus}))


def shot_bonus_or_kill(state, cmd, card, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    """Potion of Halitosis: +2 to a side, or kills the Floating Nose outright."""
    combat = in_combat(state, card)
    prey = card.effects[0].get("card")
    for m in combat.monsters:
        if m.card == prey and not m.slain and cmd.side != "monsters":
            m.slain = True
            events.append(Event("MonsterSlain", {"card": prey, "by": card.id}))
            return
    add_one_shot(combat, cmd, card, player, card.bonus or 0, events)


def shot_per_trait(state, cmd, card, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    """Yuppie Water: +2 for each elf among the fighters."""
    combat = in_combat(state, card)
    effect = card.effects[0]
    elves = [f for f in combat.fighters if effect.get("trait") in traits(state.player(f))]
    if not elves:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} only helps elves, and no elf is fighting")
    add_one_shot(combat, c.PlayCard(card=card.id, side="players"), card, player,
                 int(effect.get("bonus")) * len(elves), events)


def shot_double(state, cmd, card, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    combat = in_combat(state, card)
    if len(combat.fighters) != 1 or player.id != combat.fighters[0]:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} only when you fight alone")
    combat.one_shots.append(OneShot(card.id, "players", 0))
    events.append(Event("OneShotPlayed", {"card": card.id, "side": "players", "bonus": 0, "double": True}))


def shot_remove_monster(state, cmd, card, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    """Magic Lamp, Pollymorph Potion: one monster leaves."""
    if state.phase is Phase.RUN_AWAY and card.has_effect("own-turn-only"):
        combat = combat_of(state)
    else:
        combat = in_combat(state, card)
    if card.has_effect("own-turn-only") and player.id != state.active_player:
        raise refuse(RejectCode.NOT_YOUR_TURN, f"{card.name} only on your own turn")
    index = pick_monster(combat, cmd.monster, card)
    gone = combat.monsters.pop(index)
    mode = card.effect("remove-monster").get("treasure")  # type: ignore[union-attr]
    events.append(Event("MonsterRemoved", {"card": gone.card, "by": card.id}))
    if state.flight is not None:
        state.flight.pending = [(p, i if i < index else i - 1) for p, i in state.flight.pending if i != index]
    if not combat.monsters:
        if mode == "if-last":
            state.treasures_to_draw += monster_treasures(gone, catalog)
        end_combat(state, events, how=card.id)
    elif state.flight is not None and not state.flight.pending:
        end_combat(state, events, how="ran away")


def shot_end_combat(state, cmd, card, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    in_combat(state, card)
    effect = card.effects[0]
    events.append(Event("MonstersDiscarded", {"card": card.id, "by": player.id, "treasures": 0}))
    end_combat(state, events, how=card.id, loot=bool(effect.get("loot", 0)))


def shot_instant_wall(state, cmd, card, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    if state.phase not in (Phase.COMBAT, Phase.RUN_AWAY) or state.combat is None:
        raise refuse(RejectCode.WRONG_PHASE, f"{card.name} is played during a combat")
    combat = state.combat
    who = [cmd.target] if cmd.target else list(combat.fighters)
    if any(w not in combat.fighters for w in who):
        raise refuse(RejectCode.ILLEGAL_TARGET, f"{card.name}: only players in the fight escape")
    events.append(Event("AutoEscape", {"players": who, "by": card.id}))
    if state.flight is not None:
        state.flight.pending = [(p, i) for p, i in state.flight.pending if p not in who]
        if not state.flight.pending:
            end_combat(state, events, how="ran away")
        return
    combat.auto_escape = who
    if all(f in who for f in combat.fighters):
        end_combat(state, events, how="escaped")


def require_flight(state: GameState, card: CardDef) -> Flight:
    if state.flight is None or state.flight.before_roll is None or not state.flight.results:
        raise refuse(RejectCode.WRONG_PHASE, f"{card.name} is played right after a run-away roll")
    return state.flight


def redo_last_roll(state: GameState, catalog: Catalog, events: list[Event], *, value: int | None,
                   escaped: bool | None, why: str) -> None:
    """Restore the state before the last run-away roll and take it again with a new outcome."""
    flight = state.flight
    assert flight is not None and isinstance(flight.before_roll, GameState)
    before: GameState = flight.before_roll.clone()
    rolls = state.rolls
    for name in ("players", "combat", "flight", "rolls", "last_roll", "pending_loss", "looting",
                 "treasures_to_draw", "phase"):
        setattr(state, name, getattr(before, name))
    if value is None:
        state.rolls = rolls          # a re-roll is a new roll, not the old one again
    events.append(Event("RollRetaken", {"by": why}))
    take_roll(state, catalog, events, forced=value, escaped=escaped, count_roll=value is None)


def shot_invisibility(state, cmd, card, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    flight = require_flight(state, card)
    who, _, _, escaped = flight.results[-1]
    if escaped:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} is for a failed run-away roll; the last roll escaped")
    redo_last_roll(state, catalog, events, value=state.last_roll, escaped=True, why=card.id)


def shot_loaded_die(state, cmd, card, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    if not 1 <= cmd.value <= 6:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name}: choose a number from 1 to 6")
    require_flight(state, card)
    redo_last_roll(state, catalog, events, value=cmd.value, escaped=None, why=card.id)


def shot_glue(state, cmd, card, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    flight = require_flight(state, card)
    who, index, _, escaped = flight.results[-1]
    if not escaped:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} makes an escaped player roll again; the last roll failed")
    rolls = state.rolls
    before: GameState = flight.before_roll.clone()  # type: ignore[arg-type]
    for name in ("players", "combat", "flight", "last_roll", "pending_loss", "looting",
                 "treasures_to_draw", "phase"):
        setattr(state, name, getattr(before, name))
    state.rolls = rolls       # the new roll is a new die, not the old one again
    events.append(Event("EscapeUndone", {"player": who, "by": card.id}))


def shot_glue_after_escape(state, cmd, card, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    shot_glue(state, cmd, card, player, catalog, events)


def shot_transfer(state, cmd, card, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    combat = in_combat(state, card)
    if not cmd.target or not state.has_player(cmd.target) or cmd.target in combat.fighters:
        raise refuse(RejectCode.ILLEGAL_TARGET, f"{card.name}: tap the token of a player not in the fight")
    old = list(combat.fighters)
    combat.fighters = [cmd.target]
    events.append(Event("FightTransferred", {"from": old, "to": cmd.target, "by": card.id}))


def shot_hoard(state, cmd, card, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    n = int(card.effects[0].get("n"))
    state.treasures_to_draw += n
    events.append(Event("TreasuresAdded", {"player": player.id, "n": n, "by": card.id}))


def shot_steal_level(state, cmd, card, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    if not cmd.target or not state.has_player(cmd.target) or cmd.target == player.id:
        raise refuse(RejectCode.ILLEGAL_TARGET, f"{card.name}: tap the token of the player to steal from")
    victim = state.player(cmd.target)
    if victim.level <= state.ruleset.level_floor:
        raise refuse(RejectCode.ILLEGAL_TARGET, f"{card.name}: {victim.name} is at level {victim.level}, the lowest")
    if player.level + 1 >= state.ruleset.winning_level:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} cannot take {player.name} to the winning level")
    set_level(state, victim, victim.level - 1, events, why=card.id)
    set_level(state, player, player.level + 1, events, why=card.id)


def shot_wishing_ring(state, cmd, card, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    target = state.player(cmd.target) if cmd.target and state.has_player(cmd.target) else player
    if cmd.item and cmd.item in target.curses:
        curse = cmd.item
    elif target.curses:
        curse = target.curses[-1]
    elif target.next_combat:
        curse = target.next_combat[-1]
    else:
        raise refuse(RejectCode.ILLEGAL_TARGET, f"{card.name}: {target.name} has no curse to cancel")
    if curse in target.curses:
        target.curses.remove(curse)
    if curse in target.next_combat:
        target.next_combat.remove(curse)
    events.append(Event("CurseCancelled", {"player": target.id, "card": curse, "by": card.id}))


def shot_manual(state, cmd, card, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    events.append(Event("PlayersMustAct", {"player": player.id, "text": card.effects[0].get("text"),
                                           "source": card.id}))


ONE_SHOTS: dict[str, Callable[..., None]] = {
    "kills-monster": shot_bonus_or_kill, "combat-bonus-per-trait": shot_per_trait,
    "double-strength": shot_double, "remove-monster": shot_remove_monster, "own-turn-only": shot_remove_monster,
    "end-combat": shot_end_combat, "auto-escape-players": shot_instant_wall,
    "cancel-failed-roll": shot_invisibility, "set-last-roll": shot_loaded_die, "reroll-escape": shot_glue,
    "transfer-fight": shot_transfer, "extra-treasures": shot_hoard, "steal-level": shot_steal_level,
    "cancel-curse": shot_wishing_ring, "manual": shot_manual,
}


def play_wandering(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                   events: list[Event]) -> None:
    combat = in_combat(state, card)
    combat.wandering_pending = True
    events.append(Event("WanderingMonsterPlayed", {"by": player.id}))


def play_go_up_a_level(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                       events: list[Event]) -> None:
    target = player
    if cmd.target:
        if not state.has_player(cmd.target):
            raise refuse(RejectCode.ILLEGAL_TARGET, f"{cmd.target} is not playing")
        target = state.player(cmd.target)
    if target.level + 1 >= state.ruleset.winning_level:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     f"{card.name} cannot take {target.name} to level {target.level + 1}: "
                     f"the winning level comes only from a kill")
    if card.has_effect("not-highest"):
        top = max(p.level for p in state.players)
        if target.level >= top:
            raise refuse(RejectCode.ILLEGAL_PLAY,
                         f"{card.name} is not for {target.name}: level {target.level} is the highest (or tied)")
    if card.has_effect("needs-hireling"):
        owner = holder_of(state, "hireling")
        if owner is None:
            raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} needs a Hireling in play")
        remove_item(owner, "hireling")
        events.append(Event("ItemsLost", {"player": owner.id, "cards": ["hireling"], "source": card.id}))
    if card.has_effect("after-combat") and not state.after_combat:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} is played only after a combat")
    set_level(state, target, target.level + 1, events, why=card.id)


SPECIALS: dict[str, Callable[..., None]] = {
    "allow-two-races": play_two_of_a_kind, "allow-two-classes": play_two_of_a_kind, "cheat": play_cheat,
    "clerics-level-up": play_divine, "duplicate-monster": play_combat_special,
    "replace-monster": play_combat_special, "end-combat": play_combat_special, "take-item": play_combat_special,
}

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
    fighting = state.phase in (Phase.COMBAT, Phase.RUN_AWAY)
    if cmd.action in ("equip", "unequip", "give") and fighting:
        raise refuse(RejectCode.WRONG_PHASE, f"cannot {cmd.action} {card.name} during {phase_name(state.phase)}; "
                                             f"equipment is fixed until the fight is over")
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
    elif cmd.action == "give":
        if card.id not in items_of(player):
            raise refuse(RejectCode.ILLEGAL_PLAY, f"only items on the table can be given, not {card.name}")
        if not cmd.target or not state.has_player(cmd.target) or cmd.target == player.id:
            raise refuse(RejectCode.ILLEGAL_TARGET, f"give {card.name} to whom? tap another player's token")
        receiver = state.player(cmd.target)
        big = big_problem(card, receiver, catalog)
        if big:
            raise refuse(RejectCode.ILLEGAL_PLAY, big)
        remove_item(player, card.id)
        if restriction_problem(card, receiver) or slot_problem(card, receiver, catalog):
            receiver.carried.append(card.id)
        else:
            receiver.equipped.append(card.id)
        events.append(Event("ItemGiven", {"player": player.id, "to": receiver.id, "card": card.id}))
    elif cmd.action == "escape":
        escape_by_discarding(state, player, card, catalog, events)
    elif cmd.action == "discard":
        if card.kind is Kind.ITEM and fighting:
            raise refuse(RejectCode.WRONG_PHASE, f"cannot discard {card.name} during {phase_name(state.phase)}; "
                                                 f"an item that escapes a monster is used with 'escape'")
        if card.id == "cheat":
            player.cheat_on = None
        remove_item(player, card.id)
        for pile in (player.races, player.classes, player.curses, player.specials):
            if card.id in pile:
                pile.remove(card.id)
        if card.kind is Kind.RACE and "half-breed" in player.specials and not player.races:
            player.specials.remove("half-breed")
        if card.kind is Kind.CLASS and "super-munchkin" in player.specials and not player.classes:
            player.specials.remove("super-munchkin")
        events.append(Event("CardDiscarded", {"player": player.id, "card": card.id}))
    else:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     f"cannot {cmd.action} {card.name}; allowed: equip, unequip, discard, give, escape")


def escape_by_discarding(state: GameState, player: Player, card: CardDef, catalog: Catalog,
                         events: list[Event]) -> None:
    """Rat on a Stick, Hireling, or a pole/staff thrown to the Pit Bull: discard it and escape."""
    if state.combat is None or player.id not in state.combat.fighters:
        raise refuse(RejectCode.WRONG_PHASE, f"{card.name} buys an escape only from your own fight")
    combat = state.combat
    own = card.effect("discard-to-escape")
    escapes = []
    for i, m in enumerate(combat.monsters):
        monster = catalog[m.card]
        by_monster = monster.effect("escape-by-discarding")
        if by_monster is not None and card.id in by_monster.get("cards"):
            escapes.append(i)
        elif own is not None and (own.get("max_level") == 0 or (monster.level or 0) <= own.get("max_level")):
            escapes.append(i)
    if len(escapes) != len(combat.monsters):
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} does not get {player.name} away from every monster here")
    remove_item(player, card.id)
    events.append(Event("AutoEscape", {"players": [player.id], "by": card.id}))
    if state.flight is not None:
        state.flight.pending = [(p, i) for p, i in state.flight.pending if p != player.id]
        if not state.flight.pending:
            end_combat(state, events, how="ran away")
        return
    if player.id == combat.fighters[0]:
        end_combat(state, events, how="escaped")
    else:
        combat.fighters.remove(player.id)


# ---------------------------------------------------------------- combat

def refresh_window(state: GameState, at: float, catalog: Catalog, events: list[Event]) -> None:
    """Every accepted change restarts the interference window, or closes it if the fight turned."""
    combat = state.combat
    if combat is None or combat.window_until is None:
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
    loner = next((catalog[m.card] for m in combat.monsters if catalog[m.card].has_effect("no-helpers")), None)
    if loner is not None:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{loner.name} allows no helpers: fight alone or RUN")
    if not helper.alive:
        raise refuse(RejectCode.ILLEGAL_TARGET, f"{helper.name} is dead until the next turn")
    combat.fighters.append(helper.id)
    events.append(Event("HelperJoined", {"player": helper.id}))
    refresh_window(state, cmd.at, catalog, events)


def do_fight(state: GameState, cmd: c.Fight, catalog: Catalog, events: list[Event]) -> None:
    require_phase(state, "fight", Phase.COMBAT)
    require_active(state, cmd, "fight")
    require_no_pending_loss(state, "fight")
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


def monster_treasures(monster: MonsterInPlay, catalog: Catalog) -> int:
    t = catalog[monster.card].treasures or 0
    for e in monster.enhancers:
        mod = catalog[e].effect("treasure-mod")
        t += int(mod.get("n", 0)) if mod is not None else 0
    return max(t, 1)


def resolve(state: GameState, catalog: Catalog, events: list[Event]) -> None:
    """The players killed every monster: levels, treasure, and perhaps the win."""
    combat = combat_of(state)
    active = state.player(combat.fighters[0])
    helper = state.player(combat.helper) if combat.helper else None
    in_fight = {s.card for s in combat.one_shots} | {i for f in combat.fighters for i in state.player(f).equipped}
    levels = 0
    treasures = combat.charmed_treasures
    for m in combat.monsters:
        card = catalog[m.card]
        levels += card.levels_gained or 1
        treasures += monster_treasures(m, catalog)
        alone = card.effect("bonus-level-alone")
        if alone is not None and helper is None and not combat.one_shots:
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
    events.append(Event("MonstersKilled", {"player": active.id, "monsters": [m.card for m in combat.monsters],
                                           "levels": levels, "treasures": treasures,
                                           "face_up": helper is not None}))
    end_combat(state, events, how="kill")
    check_winners(state, events)


def end_combat(state: GameState, events: list[Event], *, how: str, loot: bool = False) -> None:
    """The fight is over, however it ended: back to the turn (loot the room, or charity)."""
    combat = state.combat
    if combat is not None:
        for f in combat.fighters:
            if state.has_player(f):
                state.player(f).next_combat.clear()
    state.combat = None
    state.flight = None
    state.after_combat = True
    state.phase = Phase.LOOK_FOR_TROUBLE if loot else Phase.CHARITY
    events.append(Event("CombatEnded", {"how": how}, automatic=True))


def drop_dead_fighter(state: GameState, player: Player, events: list[Event]) -> None:
    combat = combat_of(state)
    if player.id == combat.fighters[0]:
        end_combat(state, events, how="death")
    elif player.id in combat.fighters:
        combat.fighters.remove(player.id)


def check_winners(state: GameState, events: list[Event]) -> None:
    winners = [p.id for p in state.players if p.level >= state.ruleset.winning_level]
    if winners:
        state.winners = winners
        state.phase = Phase.GAME_OVER
        for p in state.players:
            p.level_history = (*p.level_history, p.level)
        events.append(Event("GameWon", {"winners": winners}))


# ---------------------------------------------------------------- running away

def pursues(monster: CardDef, player: Player) -> bool:
    rule = monster.effect("no-pursuit")
    if rule is None:
        return True
    if rule.get("unless") and rule.get("unless") in traits(player):
        return True
    return player.level > int(rule.get("max_level"))


def auto_escapes(monster: CardDef, player: Player) -> bool:
    rule = monster.effect("auto-escape")
    if rule is None:
        return False
    return not (rule.get("unless") and rule.get("unless") in traits(player))


def do_run_away(state: GameState, cmd: c.RunAway, catalog: Catalog, events: list[Event]) -> None:
    require_phase(state, "run away", Phase.COMBAT)
    require_active(state, cmd, "run away")
    require_no_pending_loss(state, "run away")
    combat = combat_of(state)
    stuck = next((catalog[m.card] for m in combat.monsters if catalog[m.card].has_effect("no-run-away")), None)
    if stuck is not None:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"nobody can run away from {stuck.name}: fight it, or play cards")
    combat.window_until = None
    state.flight = Flight(pending=[])
    state.phase = Phase.RUN_AWAY
    events.append(Event("RunAwayDeclared", {"players": list(combat.fighters)}))
    for f in combat.fighters:
        player = state.player(f)
        for i, m in enumerate(combat.monsters):
            monster = catalog[m.card]
            if f in combat.auto_escape or auto_escapes(monster, player) or not pursues(monster, player):
                state.flight.results.append((f, i, 0, True))
                events.append(Event("RunAwaySucceeded", {"player": f, "monster": monster.id, "roll": 0,
                                                         "total": 0, "automatic": True}))
                continue
            state.flight.pending.append((f, i))
    if not state.flight.pending:
        end_combat(state, events, how="ran away")


def flee_modifier(state: GameState, player: Player, monster: MonsterInPlay, catalog: Catalog) -> int:
    bonus = run_away_bonus(player, catalog, halfling_penalty=state.ruleset.halfling_run_away == "penalty")
    for card_id in [monster.card, *(["mate"] if monster.mate else [])]:
        mod = catalog[card_id].effect("run-away-mod")
        if mod is not None:
            bonus += int(mod.get("n"))
    if state.flight is not None:
        bonus += state.flight.bonus.get(player.id, 0)
    return bonus


def do_roll(state: GameState, cmd: c.Roll, catalog: Catalog, events: list[Event]) -> None:
    require_phase(state, "roll the die", Phase.RUN_AWAY)
    require_no_pending_loss(state, "roll")
    if cmd.forced is not None and not 1 <= cmd.forced <= 6:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"a die shows 1 to 6, not {cmd.forced}")
    take_roll(state, catalog, events, forced=cmd.forced, escaped=None)


def take_roll(state: GameState, catalog: Catalog, events: list[Event], *, forced: int | None,
              escaped: bool | None, count_roll: bool = True) -> None:
    """Roll for the next fleeing player against the next monster; a catch applies its bad stuff."""
    flight = state.flight
    assert flight is not None
    combat = combat_of(state)
    before = state.clone()
    before.flight.before_roll = None  # type: ignore[union-attr]
    player_id, index = flight.pending[0]
    player = state.player(player_id)
    mip = combat.monsters[index]
    monster = catalog[mip.card]
    if count_roll:
        roll = die_roll(state, forced)
    else:
        roll = forced if forced is not None else (state.last_roll or 1)
        state.last_roll = roll
    flight.pending.pop(0)
    total = roll + flee_modifier(state, player, mip, catalog)
    if escaped is None:
        escaped = total >= ESCAPE_ON
    flight.results.append((player_id, index, roll, escaped))
    flight.before_roll = before
    data = {"player": player_id, "monster": monster.id, "roll": roll, "total": total}
    if escaped:
        events.append(Event("RunAwaySucceeded", data))
        for item in player.equipped:
            bonus = catalog[item].effect("treasure-on-escape")
            if bonus is not None:
                state.treasures_to_draw += int(bonus.get("n"))
    else:
        events.append(Event("RunAwayFailed", data))
        apply_effects(state, player, monster.bad_stuff, catalog, events, source=monster.id)
        if not player.alive:
            flight.pending = [(p, i) for p, i in flight.pending if p != player_id]
    cost = monster.effect("flee-cost")
    if escaped and cost is not None:
        lose_levels(state, player, int(cost.get("n")), events)
    if not flight.pending and state.pending_loss is None:
        end_combat(state, events, how="ran away")
        state.flight = Flight(pending=[], results=flight.results, before_roll=before)
        state.phase = Phase.CHARITY


# ---------------------------------------------------------------- choices the box asked for

def do_lose_item(state: GameState, cmd: c.LoseItem, catalog: Catalog, events: list[Event]) -> None:
    loss = state.pending_loss
    if loss is None:
        raise refuse(RejectCode.ILLEGAL_PLAY, "nobody has to lose an item now")
    player = state.player(loss.player)
    if cmd.player != loss.player:
        raise refuse(RejectCode.NOT_YOUR_TURN, f"{player.name} chooses the item to lose, not {cmd.player}")
    if not cmd.card:
        if loss.source == BIG_LIMIT:
            raise refuse(RejectCode.ILLEGAL_PLAY, f"{player.name} may carry only so many Big items: tap the Big "
                                                  f"item to give up ({loss.count} to go), or give or sell it")
        if loss.count <= 1 and loss.gold == 0 and not loss.source.startswith("snails"):
            raise refuse(RejectCode.ILLEGAL_PLAY, f"tap the item {player.name} loses")
        events.append(Event("RestFromHand", {"player": player.id, "count": loss.count, "source": loss.source}))
        state.pending_loss = None
    else:
        card = card_of(catalog, cmd.card)
        if card.id not in items_of(player):
            raise refuse(RejectCode.NOT_IN_HAND, f"{card.name} is not one of {player.name}'s items; "
                                                 f"tap an item {player.name} has ({loss.kind})")
        if loss.kind == "big" and not card.big or loss.kind == "small" and card.big:
            raise refuse(RejectCode.ILLEGAL_TARGET, f"{card.name} is not a {loss.kind} item; tap a {loss.kind} item")
        remove_item(player, card.id)
        events.append(Event("ItemsLost", {"player": player.id, "cards": [card.id], "source": loss.source}))
        loss.count -= 1
        loss.lost_gold += card.gold or 0
        done = loss.count <= 0 or not items_of(player) or (loss.gold and loss.lost_gold >= loss.gold)
        if done:
            state.pending_loss = None
    if state.pending_loss is None and state.phase is Phase.RUN_AWAY and state.flight and not state.flight.pending:
        end_combat(state, events, how="ran away")


# ---------------------------------------------------------------- selling and charity

def do_sell(state: GameState, cmd: c.Sell, catalog: Catalog, events: list[Event]) -> None:
    player = acting(state, cmd)
    require_active(state, cmd, "sell items")
    require_phase(state, "sell items", Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE, Phase.CHARITY)
    if not cmd.cards or len(set(cmd.cards)) != len(cmd.cards):
        raise refuse(RejectCode.ILLEGAL_PLAY, "the basket is empty (or names a card twice): "
                                              "add items with the card menu, then NEXT")
    values = []
    for card_id in cmd.cards:
        card = card_of(catalog, card_id)
        holder = holder_of(state, card_id)
        if card.kind not in (Kind.ITEM, Kind.ONE_SHOT) or card.gold is None:
            raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} has no gold value and cannot be sold")
        if holder is not None and holder.id != player.id:
            raise refuse(RejectCode.NOT_IN_HAND, f"{card.name} belongs to {holder.name}")
        values.append(card.gold)
    double = ("halfling" in player.races and player.sold_double_turn != state.turn)
    total = sum(values) + (max(values) if double else 0)
    levels = total // 1000
    names = ", ".join(catalog[i].name for i in cmd.cards)
    if levels < 1:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{names} are worth {total} gold; selling needs 1,000 gold per level")
    if player.level + levels >= state.ruleset.winning_level:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     f"selling {names} would take {player.name} to level {player.level + levels}; "
                     f"the winning level comes only from a kill")
    for card_id in cmd.cards:
        remove_item(player, card_id)
    if double:
        player.sold_double_turn = state.turn
    set_level(state, player, player.level + levels, events, why="sale")
    events.append(Event("ItemsSold", {"player": player.id, "cards": list(cmd.cards), "gold": total,
                                      "levels": levels, "wasted": total - levels * 1000,
                                      "double": double}))


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


# ---------------------------------------------------------------- race and class abilities

ABILITY_CLASS = {"berserk": "warrior", "turning": "cleric", "flight": "wizard", "charm": "wizard",
                 "backstab": "thief", "theft": "thief", "chase": "cleric", "reroll": "halfling"}
MAX_DISCARDS = 3


def do_use_ability(state: GameState, cmd: c.UseAbility, catalog: Catalog, events: list[Event]) -> None:
    player = acting(state, cmd)
    who = ABILITY_CLASS.get(cmd.ability)
    if who is None:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"no ability {cmd.ability!r}; abilities: {', '.join(ABILITY_CLASS)}")
    if who not in [*player.races, *player.classes]:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{cmd.ability} is a {who} ability and {player.name} is no {who}")
    if not player.alive:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{player.name} is dead until the next turn")
    if cmd.count < 1:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{cmd.ability}: discard at least one card")
    ABILITIES[cmd.ability](state, cmd, player, catalog, events)
    if state.combat is not None and state.phase is Phase.COMBAT:
        refresh_window(state, cmd.at, catalog, events)


def _discards(state: GameState, cmd: c.UseAbility, player: Player, combat: Combat, limit: int) -> None:
    key = f"{player.id}:{cmd.ability}"
    used = combat.discards.get(key, 0)
    if used + cmd.count > limit:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     f"{cmd.ability}: at most {limit} cards per combat; {player.name} has used {used}")
    combat.discards[key] = used + cmd.count
    events_note = cmd.count
    del events_note


def ability_berserk(state, cmd, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    require_phase(state, "go berserk", Phase.COMBAT)
    combat = combat_of(state)
    if player.id not in combat.fighters:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{player.name} is not fighting")
    _discards(state, cmd, player, combat, MAX_DISCARDS)
    combat.bonuses[player.id] = combat.bonuses.get(player.id, 0) + cmd.count
    events.append(Event("AbilityUsed", {"player": player.id, "ability": "berserk", "count": cmd.count,
                                        "bonus": cmd.count}))


def ability_turning(state, cmd, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    require_phase(state, "turn undead", Phase.COMBAT)
    combat = combat_of(state)
    if player.id not in combat.fighters:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{player.name} is not fighting")
    if not any(catalog[m.card].undead for m in combat.monsters):
        raise refuse(RejectCode.ILLEGAL_PLAY, "Turning works only against Undead, and none is in this fight")
    _discards(state, cmd, player, combat, MAX_DISCARDS)
    combat.bonuses[player.id] = combat.bonuses.get(player.id, 0) + 3 * cmd.count
    events.append(Event("AbilityUsed", {"player": player.id, "ability": "turning", "count": cmd.count,
                                        "bonus": 3 * cmd.count}))


def ability_flight(state, cmd, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    require_phase(state, "cast the Flight Spell", Phase.RUN_AWAY)
    flight = state.flight
    if not any(p == player.id for p, _ in flight.pending):
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{player.name} has no run-away roll left")
    used = flight.bonus.get(player.id, 0)
    if used + cmd.count > MAX_DISCARDS:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"flight: at most {MAX_DISCARDS} cards; {player.name} has used {used}")
    flight.bonus[player.id] = used + cmd.count
    events.append(Event("AbilityUsed", {"player": player.id, "ability": "flight", "count": cmd.count,
                                        "bonus": cmd.count}))


def ability_charm(state, cmd, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    require_phase(state, "cast the Charm Spell", Phase.COMBAT)
    combat = combat_of(state)
    if player.id not in combat.fighters:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{player.name} is not fighting")
    if cmd.count < 3:
        raise refuse(RejectCode.ILLEGAL_PLAY, "charm: discard your whole hand, at least 3 cards")
    index = cmd.monster if cmd.monster >= 0 else len(combat.monsters) - 1
    if index >= len(combat.monsters):
        raise refuse(RejectCode.ILLEGAL_TARGET, f"charm: there is no monster {index + 1}")
    gone = combat.monsters.pop(index)
    combat.charmed_treasures += monster_treasures(gone, catalog)
    events.append(Event("AbilityUsed", {"player": player.id, "ability": "charm", "count": cmd.count,
                                        "monster": gone.card}))
    if not combat.monsters:
        state.treasures_to_draw += combat.charmed_treasures
        end_combat(state, events, how="charm")


def ability_chase(state, cmd, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    require_phase(state, "chase a monster away", Phase.COMBAT)
    combat = combat_of(state)
    index = cmd.monster if cmd.monster >= 0 else len(combat.monsters) - 1
    if index >= len(combat.monsters) or not catalog[combat.monsters[index].card].has_effect("cleric-chases"):
        raise refuse(RejectCode.ILLEGAL_TARGET, "a cleric can chase away only a monster whose card says so")
    gone = combat.monsters.pop(index)
    combat.charmed_treasures += monster_treasures(gone, catalog)
    events.append(Event("AbilityUsed", {"player": player.id, "ability": "chase", "monster": gone.card}))
    if not combat.monsters:
        state.treasures_to_draw += combat.charmed_treasures
        end_combat(state, events, how="chased")


def ability_backstab(state, cmd, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    require_phase(state, "backstab", Phase.COMBAT)
    combat = combat_of(state)
    if cmd.target not in combat.fighters or cmd.target == player.id:
        raise refuse(RejectCode.ILLEGAL_TARGET, "backstab: tap the token of another player in the fight")
    if (player.id, cmd.target) in combat.backstabs:
        raise refuse(RejectCode.ILLEGAL_PLAY, "backstab: once per victim per combat")
    combat.backstabs.append((player.id, cmd.target))
    events.append(Event("AbilityUsed", {"player": player.id, "ability": "backstab", "target": cmd.target}))


def ability_theft(state, cmd, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    if state.phase in (Phase.COMBAT, Phase.RUN_AWAY):
        raise refuse(RejectCode.WRONG_PHASE, "theft: not while anyone is in combat")
    if not cmd.target or not state.has_player(cmd.target) or cmd.target == player.id:
        raise refuse(RejectCode.ILLEGAL_TARGET, "theft: tap the token of the player to rob")
    victim = state.player(cmd.target)
    card = card_of(catalog, cmd.card) if cmd.card else None
    if card is None or card.id not in victim.carried or card.big:
        raise refuse(RejectCode.ILLEGAL_TARGET, f"theft: tap a small item that {victim.name} carries")
    roll = die_roll(state, cmd.forced)
    if roll >= 4 and not big_problem(card, player, catalog):
        remove_item(victim, card.id)
        player.carried.append(card.id)
        events.append(Event("TheftSucceeded", {"player": player.id, "from": victim.id, "card": card.id, "roll": roll}))
    else:
        events.append(Event("TheftFailed", {"player": player.id, "from": victim.id, "card": card.id, "roll": roll}))
        set_level(state, player, player.level - 1, events, why="theft")


def ability_reroll(state, cmd, player, catalog, events) -> None:  # type: ignore[no-untyped-def]
    if state.ruleset.halfling_run_away != "reroll":
        raise refuse(RejectCode.ILLEGAL_PLAY, "this table plays the halfling's -1 to Run Away, not the re-roll")
    flight = state.flight
    if flight is None or flight.before_roll is None or not flight.results:
        raise refuse(RejectCode.WRONG_PHASE, "the halfling re-roll comes right after a failed run-away roll")
    who, _, _, escaped = flight.results[-1]
    if who != player.id or escaped:
        raise refuse(RejectCode.ILLEGAL_PLAY, f"{player.name}'s last run-away roll did not fail")
    if player.id in flight.rerolled:
        raise refuse(RejectCode.ILLEGAL_PLAY, "the halfling re-rolls only the first failed Run Away")
    redo_last_roll(state, catalog, events, value=None, escaped=None, why="halfling")
    if state.flight is not None:
        state.flight.rerolled.append(player.id)


ABILITIES: dict[str, Callable[..., None]] = {
    "berserk": ability_berserk, "turning": ability_turning, "flight": ability_flight, "charm": ability_charm,
    "chase": ability_chase, "backstab": ability_backstab, "theft": ability_theft, "reroll": ability_reroll,
}


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
    c.SetSex: do_set_sex, c.AdjustLevel: do_adjust_level, c.Sell: do_sell, c.UseAbility: do_use_ability,
    c.LoseItem: do_lose_item,
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
        if new.phase is not Phase.SETUP:
            enforce_big_limit(new, catalog, events)
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
        if state.pending_loss is not None:
            return c.LoseItem(player=state.pending_loss.player, at=at)
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
