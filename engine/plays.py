"""Playing a card that is not in play: by its kind and the moment (monsters, curses, races and
classes, items, enhancers, specials, Go Up a Level)."""

from __future__ import annotations

from collections.abc import Callable

from engine import commands as c
from engine.cards import Catalog, CardDef, Kind
from engine.combat import refresh_window
from engine.effects import apply_effects, items_of, remove_item
from engine.events import (CheatAttached, ClassChosen, CombatEnd, CombatStarted, CurseBlocked, CursePlayed,
                           DivineIntervention, DoorClosed, GameEvent, IllusionPlayed, ItemCarried,
                           ItemEquipped, ItemTaken, ItemToLoseAsked, ItemsLost, MonsterEnhanced,
                           MonsterIgnoresPlayer, MonsterJoined, MonsterReplaced, MonstersDiscarded, RaceChosen,
                           SpecialPlayed, WanderingMonsterPlayed)
from engine.flow import (acting, card_of, check_winners, combat_of, drop_dead_fighter, end_combat, holder_of,
                         in_combat, phase_name, pick_monster, refuse, require_active, require_no_pending_loss,
                         require_phase, set_level)
from engine.looting import is_loot, take_from_body
from engine.messages import msg, word
from engine.one_shots import ONE_SHOTS, add_one_shot
from engine.results import RejectCode
from engine.state import Combat, GameState, MonsterInPlay, PendingLoss, Phase, Player
from engine.strength import big_limit, big_problem, players_win, restriction_problem, slot_problem, traits


def do_play(state: GameState, cmd: c.PlayCard, catalog: Catalog, events: list[GameEvent]) -> None:
    if state.phase is Phase.SETUP:
        raise refuse(RejectCode.WRONG_PHASE, "cards are played once the game has started; press NEXT to start")
    card = card_of(catalog, cmd.card)
    player = acting(state, cmd)
    if is_loot(state, card, player.id):
        take_from_body(state, card, player, catalog, events)
        return
    holder = holder_of(state, card.id)
    if holder is not None and card.copies <= 1:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{card} is already in play with {holder}", card=card, holder=holder)
    if not player.alive and card.kind is not Kind.CURSE:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{player} is dead until the next turn and cannot play {card}", player=player, card=card)
    handler = PLAYS.get(card.kind)
    if card.kind is Kind.SPECIAL:
        handler = SPECIALS.get(card.effects[0].op if card.effects else "")
    if handler is None:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{card} ({kind}) is not played through the box", card=card, kind=word(card.kind.value))
    handler(state, cmd, card, player, catalog, events)
    if state.combat is not None and state.phase is Phase.COMBAT:
        refresh_window(state, cmd.at, catalog, events)


def start_combat(state: GameState, card: CardDef, player: Player, catalog: Catalog, events: list[GameEvent]) -> None:
    state.combat = Combat(monsters=[MonsterInPlay(card.id)], fighters=[player.id],
                          from_door=state.phase is Phase.KICK_OPEN_THE_DOOR)
    state.phase = Phase.COMBAT
    state.after_combat = False
    events.append(CombatStarted(card=card.id, player=player.id))
    ignores = card.effect("ignores-trait")
    if ignores is not None and ignores.get("trait") in traits(player):
        state.treasures_to_draw += int(ignores.get("treasures"))
        events.append(MonsterIgnoresPlayer(card=card.id, player=player.id, treasures=int(ignores.get("treasures"))))
        end_combat(state, events, how=CombatEnd.IGNORED)
        return
    if card.has_effect("discard-before-combat") and items_of(player):
        state.pending_loss = PendingLoss(player=player.id, kind="any", count=1, source=card.id)
        events.append(ItemToLoseAsked(player=player.id, kind="any", count=1, gold=0, source=card.id))


def play_monster(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                 events: list[GameEvent]) -> None:
    if state.phase is Phase.COMBAT:
        combat = combat_of(state)
        if combat.illusion_pending >= 0:
            old = combat.monsters[combat.illusion_pending]
            combat.monsters[combat.illusion_pending] = MonsterInPlay(card.id)
            combat.illusion_pending = -1
            events.append(MonsterReplaced(card=card.id, old=old.card, by=player.id))
            return
        if combat.wandering_pending:
            combat.wandering_pending = False
        elif not (card.undead and any(catalog[m.card].undead for m in combat.monsters)):
            raise refuse(RejectCode.ILLEGAL_PLAY,
                         "cannot add {card} to the fight: play a Wandering Monster first (or an Undead beside an Undead)", card=card)
        combat.monsters.append(MonsterInPlay(card.id))
        events.append(MonsterJoined(card=card.id, by=player.id))
        return
    require_phase(state, msg("fight {card}", card=card), Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE)
    require_active(state, cmd, msg("fight {card}", card=card))
    require_no_pending_loss(state, msg("fight {card}", card=card))
    start_combat(state, card, player, catalog, events)


def play_curse(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
               events: list[GameEvent]) -> None:
    from_door = False
    if cmd.target:
        if not state.has_player(cmd.target):
            raise refuse(RejectCode.ILLEGAL_TARGET, "{target} is not playing; tap a player's token as the victim", target=cmd.target)
        victim = state.player(cmd.target)
    elif state.phase is Phase.KICK_OPEN_THE_DOOR and cmd.player == state.active_player:
        victim, from_door = player, True
    else:
        raise refuse(RejectCode.ILLEGAL_TARGET, "{card} needs a victim: tap a player's token", card=card)
    if from_door:
        # The door is kicked once a turn: the curse was the door's card, the turn moves on.
        state.phase = Phase.LOOK_FOR_TROUBLE
        events.append(DoorClosed(player=player.id, by=card.id, automatic=True))
    if from_door and any(catalog[i].has_effect("curse-immunity-door") for i in victim.equipped):
        events.append(CurseBlocked(card=card.id, victim=victim.id, by="sandals-of-protection"))
        return
    events.append(CursePlayed(card=card.id, victim=victim.id))
    apply_effects(state, victim, card.bad_stuff, catalog, events, source=card.id)
    if card.has_effect("lasting"):
        victim.curses.append(card.id)
    if state.combat is not None and not victim.alive:
        drop_dead_fighter(state, victim, events)


def play_race_or_class(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                       events: list[GameEvent]) -> None:
    if state.phase is Phase.RUN_AWAY:
        raise refuse(RejectCode.WRONG_PHASE, "cannot play {card} while running away", card=card)
    is_race = card.kind is Kind.RACE
    owned = player.races if is_race else player.classes
    if card.id in owned:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{player} is already a {card}", player=player, card=card)
    allows_two = "half-breed" if is_race else "super-munchkin"
    replaced: list[str] = []
    if allows_two in player.specials and len(owned) < 2:
        owned.append(card.id)
    else:
        replaced = list(owned)
        owned[:] = [card.id]
    chosen = RaceChosen if is_race else ClassChosen
    events.append(chosen(player=player.id, card=card.id, replaced=tuple(replaced)))


def play_two_of_a_kind(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                       events: list[GameEvent]) -> None:
    """Half-Breed and Super Munchkin: room for a second race or class."""
    if state.phase is Phase.RUN_AWAY:
        raise refuse(RejectCode.WRONG_PHASE, "cannot play {card} while running away", card=card)
    needs = player.races if card.id == "half-breed" else player.classes
    if not needs:
        what = "race" if card.id == "half-breed" else "class"
        raise refuse(RejectCode.ILLEGAL_PLAY, "{card} needs a {what} card in front of {player} first", card=card, what=word(what), player=player)
    player.specials.append(card.id)
    events.append(SpecialPlayed(player=player.id, card=card.id))


def play_cheat(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
               events: list[GameEvent]) -> None:
    if state.phase in (Phase.COMBAT, Phase.RUN_AWAY):
        raise refuse(RejectCode.WRONG_PHASE, "{card} goes on an item outside combat", card=card)
    if cmd.item not in [*player.equipped, *player.carried]:
        raise refuse(RejectCode.ILLEGAL_TARGET, "{card} needs one of {player}'s items: tap the item", card=card, player=player)
    player.cheat_on = cmd.item
    item = catalog[cmd.item]
    if cmd.item in player.carried and slot_problem(item, player, catalog) is None:
        player.carried.remove(cmd.item)
        player.equipped.append(cmd.item)
    events.append(CheatAttached(player=player.id, card=cmd.item))


def play_divine(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                events: list[GameEvent]) -> None:
    for p in state.players:
        if "cleric" in p.classes:
            set_level(state, p, p.level + 1, events, why=card.id, may_win=True)
    events.append(DivineIntervention(by=player.id))
    check_winners(state, events)


def play_combat_special(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                        events: list[GameEvent]) -> None:
    """Mate, Illusion, Out to Lunch, Help Me Out Here."""
    combat = in_combat(state, card)
    op = card.effects[0].op
    if op == "duplicate-monster":
        index = pick_monster(combat, cmd.monster, card)
        source = combat.monsters[index]
        combat.monsters.append(MonsterInPlay(source.card, list(source.enhancers), mate=True))
        events.append(MonsterJoined(card=source.card, by=player.id, mate=True))
    elif op == "replace-monster":
        combat.illusion_pending = pick_monster(combat, cmd.monster, card)
        events.append(IllusionPlayed(monster=combat.monsters[combat.illusion_pending].card, by=player.id))
    elif op == "end-combat":
        effect = card.effects[0]
        state.treasures_to_draw += int(effect.get("treasures", 0))
        events.append(MonstersDiscarded(card=card.id, by=player.id, treasures=int(effect.get("treasures", 0))))
        end_combat(state, events, how=CombatEnd.BY_CARD, card=card.id, loot=bool(effect.get("loot", 0)))
    elif op == "take-item":
        if player.id != combat.fighters[0]:
            raise refuse(RejectCode.NOT_YOUR_TURN, "{card} is played only in your own combat", card=card)
        owner = holder_of(state, cmd.item) if cmd.item else None
        if owner is None or owner.id == player.id or cmd.item not in items_of(owner):
            raise refuse(RejectCode.ILLEGAL_TARGET, "{card}: tap another player's item to take", card=card)
        if players_win(state, combat, catalog):
            raise refuse(RejectCode.ILLEGAL_PLAY, "{card} only when the item makes the difference; you already win", card=card)
        item = catalog[cmd.item]
        if restriction_problem(item, player) or slot_problem(item, player, catalog) or big_problem(item, player, catalog):
            raise refuse(RejectCode.ILLEGAL_PLAY, "{player} could not use {item}", player=player, item=item)
        remove_item(owner, item.id)
        player.equipped.append(item.id)
        if not players_win(state, combat, catalog):
            raise refuse(RejectCode.ILLEGAL_PLAY, "{card}: {item} does not make the players win", card=card, item=item)
        events.append(ItemTaken(player=player.id, from_=owner.id, card=item.id))


def play_item(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
              events: list[GameEvent]) -> None:
    if state.phase in (Phase.COMBAT, Phase.RUN_AWAY) and not card.has_effect("any-time"):
        raise refuse(RejectCode.WRONG_PHASE,
                     "cannot bring out {card} during {phase}: equipment is fixed in a fight", card=card, phase=state.phase)
    big = big_problem(card, player, catalog)
    if big:
        raise refuse(RejectCode.ILLEGAL_PLAY, big)
    if card.big and player.big_discarded_turn == state.turn and made_room(card, player, catalog):
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     "{player} discarded a Big item this turn: a Big item is not discarded to make room for another (sell it, trade it, lose it or spend it on an ability)", player=player)
    why_not = restriction_problem(card, player) or slot_problem(card, player, catalog)
    if why_not is None:
        player.equipped.append(card.id)
        events.append(ItemEquipped(player=player.id, card=card.id))
    else:
        player.carried.append(card.id)
        events.append(ItemCarried(player=player.id, card=card.id, why=why_not))


def made_room(card: CardDef, player: Player, catalog: Catalog) -> bool:
    """Whether ``card`` fits only because a Big item left: with it back, ``player`` would be over the limit."""
    limit = big_limit(player, catalog)
    if limit is None:
        return False
    bigs = sum(1 for i in [*player.equipped, *player.carried] if catalog[i].big and i != player.cheat_on)
    return bigs + 2 > limit


def play_bonus_card(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                    events: list[GameEvent]) -> None:
    """One-shots and monster enhancers: a bonus for one side of the current combat, or a card's effect."""
    if card.kind is Kind.ONE_SHOT and card.effects:
        ONE_SHOTS[card.effects[0].op](state, cmd, card, player, catalog, events)
        return
    combat = in_combat(state, card)
    if card.kind is Kind.MONSTER_ENHANCER:
        index = pick_monster(combat, cmd.monster, card)
        combat.monsters[index].enhancers.append(card.id)
        events.append(MonsterEnhanced(card=card.id, monster=combat.monsters[index].card, index=index))
        return
    if card.bonus is None:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{card} has no combat bonus the box can add", card=card)
    add_one_shot(combat, cmd, card, player, card.bonus, events)


def play_wandering(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                   events: list[GameEvent]) -> None:
    combat = in_combat(state, card)
    combat.wandering_pending = True
    events.append(WanderingMonsterPlayed(by=player.id))


def play_go_up_a_level(state: GameState, cmd: c.PlayCard, card: CardDef, player: Player, catalog: Catalog,
                       events: list[GameEvent]) -> None:
    target = player
    if cmd.target:
        if not state.has_player(cmd.target):
            raise refuse(RejectCode.ILLEGAL_TARGET, "{target} is not playing", target=cmd.target)
        target = state.player(cmd.target)
    if target.level + 1 >= state.ruleset.winning_level:
        raise refuse(RejectCode.ILLEGAL_PLAY,
                     "{card} cannot take {target} to level {level}: the winning level comes only from a kill", card=card, target=target, level=target.level + 1)
    if card.has_effect("not-highest"):
        top = max(p.level for p in state.players)
        if target.level >= top:
            raise refuse(RejectCode.ILLEGAL_PLAY,
                         "{card} is not for {target}: level {level} is the highest (or tied)", card=card, target=target, level=target.level)
    if card.has_effect("needs-hireling"):
        owner = holder_of(state, "hireling")
        if owner is None:
            raise refuse(RejectCode.ILLEGAL_PLAY, "{card} needs a Hireling in play", card=card)
        remove_item(owner, "hireling")
        events.append(ItemsLost(player=owner.id, cards=("hireling",), source=card.id))
    if card.has_effect("after-combat") and not state.after_combat:
        raise refuse(RejectCode.ILLEGAL_PLAY, "{card} is played only after a combat", card=card)
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
