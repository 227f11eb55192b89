"""The effect vocabulary: the steps that card data is written in, and what each does.

``OPS`` names every op with the arguments it takes; ``OPTIONAL`` lists the
arguments an op may leave out. The catalog loader checks card data against
them, so a card can only say what the engine can do.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from engine.cards import Catalog, Effect, Slot
from engine.events import (BadStuffRolled, ClassLost, CurseMissed, CurseRemoved, GameEvent, HandDiscarded,
                           ItemToLoseAsked, ItemsLost, LevelLost, NextCombatCursed, PlayerDied, PlayersMustAct,
                           RaceLost, SexChanged)
from engine.looting import start_looting
from engine.state import GameState, PendingLoss, Player

# op -> {argument: type}
OPS: dict[str, dict[str, type]] = {
    # bad stuff and curses (applied to one player)
    "lose-levels": {"n": int},
    "lose-levels-vs": {"trait": str, "n": int},       # extra levels lost if the victim has the trait
    "set-level": {"level": int},
    "drop-to-lowest-level": {},                       # level becomes the lowest level at the table
    "death": {},
    "death-or-lose-class": {"cls": str},              # death, unless the victim has cls: then lose it
    "roll-death-or-levels": {"death_max": int},       # d6 <= death_max: death, else lose that many levels
    "lose-slot": {"slot": str},                       # the item worn in the slot (not a carried one)
    "lose-slot-or-levels": {"slot": str, "n": int},   # no item in the slot: lose n levels
    "lose-big-items": {},
    "lose-all-items": {},
    "lose-best-item": {},                             # the item giving the biggest bonus
    "choose-item": {"kind": str},                     # victim taps the item to lose: big | small | any
    "lose-items-worth": {"gold": int},                # victim taps items until they are worth gold
    "roll-lose-items": {},                            # d6: lose that many items and/or hand cards
    "lose-race": {},
    "lose-class": {},
    "lose-class-or-levels": {"n": int},               # no class: lose n levels instead
    "discard-hand": {},                               # the box cannot see the hand: it records and says so
    "change-sex": {},
    "next-combat-penalty": {"n": int},                # lasting until the victim's next combat ends
    "next-combat-armor-only": {},                     # Malign Mirror: only armor counts in the next combat
    "die-mod": {"n": int},                            # lasting curse: every die roll of the victim
    "manual": {"text": str},          # the box cannot do it; the screen tells the players
    "lasting": {},                    # a curse that stays in front of its victim
    # monsters
    "no-pursuit": {"max_level": int, "unless": str},  # will not pursue level <= max_level
    "auto-escape": {"unless": str},                   # everybody escapes (but those with trait unless)
    "no-run-away": {},
    "no-helpers": {},
    "level-ignored": {},                              # player strength = bonuses only
    "items-ignored": {},                              # player strength = level only
    "run-away-mod": {"n": int},
    "flee-cost": {"n": int},                          # levels lost by a pursued player even on escape
    "ignores-trait": {"trait": str, "treasures": int},  # will not fight the trait; gives treasures
    "bonus-level-alone": {"n": int},                  # extra levels if killed without help or one-shots
    "bonus-level-with": {"cards": list, "n": int},    # extra levels if one of cards is in the fight
    "treasure-vs-trait": {"trait": str, "n": int},
    "discard-before-combat": {},                      # the fighter taps one item to lose
    "cleric-chases": {},                              # a cleric may send it away: treasure, no level
    "escape-by-discarding": {"cards": list},          # discarding one of these items escapes it
    # monster enhancers
    "treasure-mod": {"n": int},
    # items
    "run-away-bonus": {"bonus": int},
    "bonus-vs-trait": {"trait": str, "bonus": int},
    "discard-to-escape": {"max_level": int},          # discard (even carried) to escape; 0 = any monster
    "treasure-on-escape": {"n": int},
    "extra-big-item": {},                             # Hireling: carry one more Big item
    "any-time": {},                                   # Hireling: played at any time, even in a fight
    "curse-immunity-door": {},                        # Sandals of Protection
    # one-shots and specials
    "combat-bonus-per-trait": {"trait": str, "bonus": int},  # Yuppie Water
    "double-strength": {},                            # Doppleganger
    "kills-monster": {"card": str},                   # Potion of Halitosis vs Floating Nose
    "remove-monster": {"treasure": str},              # treasure: none | keep | if-last
    "end-combat": {"treasures": int, "loot": int},    # Friendship Potion, Out to Lunch
    "auto-escape-players": {"n": int},                # Instant Wall
    "cancel-failed-roll": {},                         # Invisibility Potion
    "set-last-roll": {},                              # Loaded Die
    "reroll-escape": {},                              # Flask of Glue
    "transfer-fight": {},                             # Transferral Potion
    "own-turn-only": {},
    "extra-treasures": {"n": int},                    # Hoard
    "steal-level": {},
    "cancel-curse": {},                               # Wishing Ring
    "take-item": {},                                  # Help Me Out Here
    "replace-monster": {},                            # Illusion
    "duplicate-monster": {},                          # Mate
    "clerics-level-up": {},                           # Divine Intervention
    "allow-two-races": {},
    "allow-two-classes": {},
    "cheat": {},
    # go up a level conditions
    "not-highest": {},
    "needs-hireling": {},
    "after-combat": {},
}

OPTIONAL: dict[str, set[str]] = {
    "no-pursuit": {"unless"},
    "auto-escape": {"unless"},
    "end-combat": {"treasures", "loot"},
}


def check_effect(effect: Effect) -> str | None:
    """What is wrong with ``effect`` against the vocabulary, or None."""
    spec = OPS.get(effect.op)
    if spec is None:
        return f"unknown effect {effect.op!r}; known: {', '.join(sorted(OPS))}"
    for key, value in effect.args.items():
        if key not in spec:
            return f"effect {effect.op!r} takes no argument {key!r}"
        if not isinstance(value, spec[key]) or isinstance(value, bool):
            return f"effect {effect.op!r}: {key} must be {spec[key].__name__}, got {value!r}"
    missing = set(spec) - set(effect.args) - OPTIONAL.get(effect.op, set())
    if missing:
        return f"effect {effect.op!r} needs {', '.join(sorted(missing))}"
    return None


def lose_levels(state: GameState, player: Player, n: int, events: list[GameEvent]) -> None:
    before = player.level
    player.level = max(state.ruleset.level_floor, player.level - n)
    if player.level != before:
        events.append(LevelLost(player=player.id, from_=before, to=player.level))


def items_of(player: Player) -> list[str]:
    return [*player.equipped, *player.carried]


def remove_item(player: Player, card_id: str) -> None:
    for pile in (player.equipped, player.carried):
        if card_id in pile:
            pile.remove(card_id)
    if player.cheat_on == card_id:
        player.cheat_on = None


CHICKEN = "curse-chicken-on-your-head"


def lose_headgear_chicken(player: Player, lost: Iterable[str], catalog: Catalog, events: list[GameEvent]) -> None:
    """Chicken on Your Head goes with the headgear: a curse or bad stuff that takes the worn headgear
    takes the chicken too. Call before the items leave ``player``."""
    if CHICKEN not in player.curses:
        return
    if any(c in player.equipped and catalog[c].slot is Slot.HEADGEAR for c in lost):
        player.curses.remove(CHICKEN)
        events.append(CurseRemoved(player=player.id, card=CHICKEN, why="headgear lost"))


def _items_where(player: Player, catalog: Catalog, keep: Callable[[str], bool], events: list[GameEvent] | None = None) -> list[str]:
    lost = [c for c in items_of(player) if not keep(c)]
    if events is not None:
        lose_headgear_chicken(player, lost, catalog, events)
    for card_id in lost:
        remove_item(player, card_id)
    return lost


def kill(state: GameState, player: Player, events: list[GameEvent]) -> None:
    player.alive = False
    lost = items_of(player)
    player.equipped.clear()
    player.carried.clear()
    player.cheat_on = None
    if not state.ruleset.death_keeps_race_and_class:
        player.races.clear()
        player.classes.clear()
        player.specials.clear()
    # looting the body: highest level first, ties by a die from the seed
    others = [p for p in state.players if p.id != player.id and p.alive]
    tiebreak = {p.id: random.Random(f"{state.seed}:loot:{state.rolls}:{p.id}").random() for p in others}
    order = [p.id for p in sorted(others, key=lambda p: (-p.level, tiebreak[p.id]))]
    start_looting(state, player, lost, order)
    events.append(PlayerDied(player=player.id, lost=tuple(lost), loot_order=tuple(order)))


def roll_die(state: GameState, player: Player | None = None) -> int:
    """A die from the game's seed and the roll's index."""
    value = random.Random(f"{state.seed}:{state.rolls}").randint(1, 6)
    state.rolls += 1
    state.last_roll = value
    return value


def _lost(events: list[GameEvent], player: Player, lost: list[str], source: str) -> None:
    events.append(ItemsLost(player=player.id, cards=tuple(lost), source=source))


def best_item(player: Player, catalog: Catalog) -> str | None:
    from engine.strength import item_bonus

    items = items_of(player)
    if not items:
        return None
    return max(items, key=lambda c: (c in player.equipped and item_bonus(catalog[c], player), catalog[c].gold or 0))


def apply_effects(state: GameState, player: Player, effects: Iterable[Effect], catalog: Catalog,
                  events: list[GameEvent], *, source: str) -> None:
    """Apply bad stuff or a curse to ``player``."""
    for effect in effects:
        if not player.alive:
            return
        op = effect.op
        if op == "lose-levels":
            lose_levels(state, player, int(effect.get("n", 1)), events)
        elif op == "lose-levels-vs":
            from engine.strength import disadvantage_traits
            if effect.get("trait") in disadvantage_traits(player):
                lose_levels(state, player, int(effect.get("n")), events)
        elif op == "set-level":
            lose_levels(state, player, player.level - int(effect.get("level")), events)
        elif op == "drop-to-lowest-level":
            lowest = min(p.level for p in state.players)
            lose_levels(state, player, player.level - lowest, events)
        elif op == "death":
            kill(state, player, events)
        elif op == "death-or-lose-class":
            cls = effect.get("cls")
            if cls in player.classes:
                player.classes.remove(cls)
                events.append(ClassLost(player=player.id, card=cls, source=source))
            else:
                kill(state, player, events)
        elif op == "roll-death-or-levels":
            roll = roll_die(state, player)
            events.append(BadStuffRolled(player=player.id, roll=roll, source=source))
            if roll <= int(effect.get("death_max")):
                kill(state, player, events)
            else:
                lose_levels(state, player, roll, events)
        elif op == "lose-slot":          # "the armor you are wearing": a carried spare stays
            slot = Slot(effect.get("slot"))
            _lost(events, player, _items_where(
                player, catalog, lambda c: not (c in player.equipped and catalog[c].slot is slot), events), source)
        elif op == "lose-slot-or-levels":
            slot = Slot(effect.get("slot"))
            lost = _items_where(player, catalog, lambda c: not (c in player.equipped and catalog[c].slot is slot), events)
            if lost:
                _lost(events, player, lost, source)
            else:
                lose_levels(state, player, int(effect.get("n")), events)
        elif op == "lose-big-items":
            _lost(events, player, _items_where(player, catalog, lambda c: not catalog[c].big, events), source)
        elif op == "lose-all-items":
            _lost(events, player, _items_where(player, catalog, lambda c: False, events), source)
        elif op == "lose-best-item":
            best = best_item(player, catalog)
            if best is not None:
                lose_headgear_chicken(player, [best], catalog, events)
                remove_item(player, best)
                _lost(events, player, [best], source)
        elif op in ("choose-item", "lose-items-worth", "roll-lose-items"):
            kind = effect.get("kind", "any")
            candidates = [c for c in items_of(player) if kind == "any"
                          or (kind == "big") == catalog[c].big]
            if not candidates:
                events.append(CurseMissed(player=player.id, source=source))
                continue
            count, gold = 1, 0
            if op == "lose-items-worth":
                count, gold = len(candidates), int(effect.get("gold"))
            if op == "roll-lose-items":
                count = roll_die(state, player)
                events.append(BadStuffRolled(player=player.id, roll=count, source=source))
            state.pending_loss = PendingLoss(player=player.id, kind=kind, count=count, gold=gold, source=source)
            events.append(ItemToLoseAsked(player=player.id, kind=kind, count=count, gold=gold, source=source))
        elif op == "lose-race":
            player.races.clear()
            if "half-breed" in player.specials:
                player.specials.remove("half-breed")
            events.append(RaceLost(player=player.id, source=source))
        elif op == "lose-class":
            player.classes.clear()
            if "super-munchkin" in player.specials:
                player.specials.remove("super-munchkin")
            events.append(ClassLost(player=player.id, source=source))
        elif op == "lose-class-or-levels":
            if player.classes:
                lost_class = player.classes.pop()
                events.append(ClassLost(player=player.id, card=lost_class, source=source))
            else:
                lose_levels(state, player, int(effect.get("n")), events)
        elif op == "discard-hand":
            events.append(HandDiscarded(player=player.id, source=source))
        elif op == "change-sex":
            player.sex = "female" if player.sex == "male" else "male"
            events.append(SexChanged(player=player.id, sex=player.sex, source=source))
        elif op in ("next-combat-penalty", "next-combat-armor-only"):
            player.next_combat.append(source)
            events.append(NextCombatCursed(player=player.id, source=source))
        elif op == "manual":
            events.append(PlayersMustAct(player=player.id, text=effect.get("text", ""), source=source))
