"""The effect vocabulary: the steps that card data is written in, and what each does.

``OPS`` names every op with the arguments it takes; ``OPTIONAL`` lists the
arguments an op may leave out. The catalog loader checks card data against
them, so a card can only say what the engine can do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.cards import Catalog, Effect, Slot
from engine.events import (BadStuffRollAsked, BadStuffRolled, ClassLost, CurseMissed, CurseRemoved, GameEvent, HandDiscarded,
                           ItemToLoseAsked, ItemsLost, LevelLost, NextCombatCursed, PlayerDied, PlayersMustAct,
                           RaceLost, SexChanged)
from engine.looting import looting_order, start_looting
from engine.state import GameState, PendingLoss, PendingRoll, Player
from engine.strength import disadvantage_traits, item_bonus

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
    "lose-class-or-levels": {"n": int, "every": int},  # no class: lose n levels instead; every=1: all classes
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
    "bonus-level-alone": {"n": int},                  # extra levels if killed without help or bonuses
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
    "lose-class-or-levels": {"every"},
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
    # looting the body: highest level first, ties by the die at the table
    order, ties = looting_order(state, player)
    start_looting(state, player, lost, order, ties)
    events.append(PlayerDied(player=player.id, lost=tuple(lost), loot_order=tuple(order)))


def _lost(events: list[GameEvent], player: Player, lost: list[str], source: str) -> None:
    events.append(ItemsLost(player=player.id, cards=tuple(lost), source=source))


def best_item(player: Player, catalog: Catalog) -> str | None:
    items = items_of(player)
    if not items:
        return None
    return max(items, key=lambda c: (c in player.equipped and item_bonus(catalog[c], player), catalog[c].gold or 0))


@dataclass
class Hit:
    """Who the bad stuff or curse hits, and where: what every effect handler works on. ``rolled`` is
    the die the table rolled for the effect that needs one (``ROLLED``)."""

    state: GameState
    player: Player
    catalog: Catalog
    events: list[GameEvent]
    source: str
    rolled: int | None = None

    def roll(self) -> int:
        """The die rolled at the table for this effect, said as an event."""
        value, self.rolled = self.rolled, None
        assert value is not None            # apply_effects asks the table for it first
        self.events.append(BadStuffRolled(player=self.player.id, roll=value, source=self.source))
        return value

    def lose_levels(self, n: int) -> None:
        lose_levels(self.state, self.player, n, self.events)

    def lose_items(self, keep: Callable[[str], bool]) -> list[str]:
        """The player's items that ``keep`` refuses leave (the chicken with the headgear): the list."""
        return _items_where(self.player, self.catalog, keep, self.events)

    def lost(self, cards: list[str]) -> None:
        _lost(self.events, self.player, cards, self.source)

    def worn_in(self, slot: Slot) -> Callable[[str], bool]:
        """A ``keep`` for ``lose_items``: everything but the item worn in ``slot`` (a carried spare stays)."""
        return lambda c: not (c in self.player.equipped and self.catalog[c].slot is slot)


def _lose_levels(hit: Hit, effect: Effect) -> None:
    hit.lose_levels(int(effect.get("n", 1)))


def _lose_levels_vs(hit: Hit, effect: Effect) -> None:
    if effect.get("trait") in disadvantage_traits(hit.player):
        hit.lose_levels(int(effect.get("n")))


def _set_level(hit: Hit, effect: Effect) -> None:
    hit.lose_levels(hit.player.level - int(effect.get("level")))


def _drop_to_lowest_level(hit: Hit, effect: Effect) -> None:
    hit.lose_levels(hit.player.level - min(p.level for p in hit.state.players))


def _death(hit: Hit, effect: Effect) -> None:
    kill(hit.state, hit.player, hit.events)


def _death_or_lose_class(hit: Hit, effect: Effect) -> None:
    cls = effect.get("cls")
    if cls in hit.player.classes:
        hit.player.classes.remove(cls)
        hit.events.append(ClassLost(player=hit.player.id, card=cls, source=hit.source))
    else:
        kill(hit.state, hit.player, hit.events)


def _roll_death_or_levels(hit: Hit, effect: Effect) -> None:
    roll = hit.roll()
    if roll <= int(effect.get("death_max")):
        kill(hit.state, hit.player, hit.events)
    else:
        hit.lose_levels(roll)


def _lose_slot(hit: Hit, effect: Effect) -> None:
    """The armor (or other slot) being worn: a carried spare stays."""
    hit.lost(hit.lose_items(hit.worn_in(Slot(effect.get("slot")))))


def _lose_slot_or_levels(hit: Hit, effect: Effect) -> None:
    lost = hit.lose_items(hit.worn_in(Slot(effect.get("slot"))))
    if lost:
        hit.lost(lost)
    else:
        hit.lose_levels(int(effect.get("n")))


def _lose_big_items(hit: Hit, effect: Effect) -> None:
    hit.lost(hit.lose_items(lambda c: not hit.catalog[c].big))


def _lose_all_items(hit: Hit, effect: Effect) -> None:
    hit.lost(hit.lose_items(lambda c: False))


def _lose_best_item(hit: Hit, effect: Effect) -> None:
    best = best_item(hit.player, hit.catalog)
    if best is not None:
        lose_headgear_chicken(hit.player, [best], hit.catalog, hit.events)
        remove_item(hit.player, best)
        hit.lost([best])


def _ask_for_items(hit: Hit, effect: Effect) -> None:
    """choose-item, lose-items-worth, roll-lose-items: the victim taps what to lose."""
    player, op = hit.player, effect.op
    kind = effect.get("kind", "any")
    candidates = [c for c in items_of(player) if kind == "any" or (kind == "big") == hit.catalog[c].big]
    if op == "roll-lose-items":                 # items and/or cards from the hand: never nothing to take
        count = hit.roll()
        hit.state.pending_loss = PendingLoss(player=player.id, kind=kind, count=count, source=hit.source)
        hit.events.append(ItemToLoseAsked(player=player.id, kind=kind, count=count, gold=0, source=hit.source))
        return
    if not candidates:
        hit.events.append(CurseMissed(player=player.id, source=hit.source))
        return
    count, gold = 1, 0
    if op == "lose-items-worth":
        count, gold = len(candidates), int(effect.get("gold"))
    hit.state.pending_loss = PendingLoss(player=player.id, kind=kind, count=count, gold=gold, source=hit.source)
    hit.events.append(ItemToLoseAsked(player=player.id, kind=kind, count=count, gold=gold, source=hit.source))


def _lose_race(hit: Hit, effect: Effect) -> None:
    hit.player.races.clear()
    if "half-breed" in hit.player.specials:
        hit.player.specials.remove("half-breed")
    hit.events.append(RaceLost(player=hit.player.id, source=hit.source))


def _lose_class(hit: Hit, effect: Effect) -> None:
    hit.player.classes.clear()
    if "super-munchkin" in hit.player.specials:
        hit.player.specials.remove("super-munchkin")
    hit.events.append(ClassLost(player=hit.player.id, source=hit.source))


def _lose_class_or_levels(hit: Hit, effect: Effect) -> None:
    """A card's "lose your class" (one; of two, the victim taps which) or, with ``every``, "lose your
    class(es)": all of them, Super Munchkin's second one too; no class: ``n`` levels instead."""
    player = hit.player
    if not player.classes:
        hit.lose_levels(int(effect.get("n")))
        return
    if not effect.get("every", 0) and len(player.classes) > 1:       # the victim chooses which one goes
        hit.state.pending_loss = PendingLoss(player=player.id, kind="class", count=1, source=hit.source)
        hit.events.append(ItemToLoseAsked(player=player.id, kind="class", count=1, gold=0, source=hit.source))
        return
    lost = list(player.classes) if effect.get("every", 0) else [player.classes[-1]]
    for cls in lost:
        player.classes.remove(cls)
        hit.events.append(ClassLost(player=player.id, card=cls, source=hit.source))
    if not player.classes and "super-munchkin" in player.specials:
        player.specials.remove("super-munchkin")


def _discard_hand(hit: Hit, effect: Effect) -> None:
    hit.events.append(HandDiscarded(player=hit.player.id, source=hit.source))


def _change_sex(hit: Hit, effect: Effect) -> None:
    player = hit.player
    player.sex = "female" if player.sex == "male" else "male"
    hit.events.append(SexChanged(player=player.id, sex=player.sex, source=hit.source))


def _next_combat(hit: Hit, effect: Effect) -> None:
    hit.player.next_combat.append(hit.source)
    hit.events.append(NextCombatCursed(player=hit.player.id, source=hit.source))


def _manual(hit: Hit, effect: Effect) -> None:
    hit.events.append(PlayersMustAct(player=hit.player.id, text=effect.get("text", ""), source=hit.source))


# What each op of bad stuff or a curse does to its victim; the other ops (monsters' abilities, items,
# one-shots) are read where they matter, and mean nothing here.
BAD_STUFF: dict[str, Callable[[Hit, Effect], None]] = {
    "lose-levels": _lose_levels, "lose-levels-vs": _lose_levels_vs, "set-level": _set_level,
    "drop-to-lowest-level": _drop_to_lowest_level, "death": _death, "death-or-lose-class": _death_or_lose_class,
    "roll-death-or-levels": _roll_death_or_levels, "lose-slot": _lose_slot, "lose-slot-or-levels": _lose_slot_or_levels,
    "lose-big-items": _lose_big_items, "lose-all-items": _lose_all_items, "lose-best-item": _lose_best_item,
    "choose-item": _ask_for_items, "lose-items-worth": _ask_for_items, "roll-lose-items": _ask_for_items,
    "lose-race": _lose_race, "lose-class": _lose_class, "lose-class-or-levels": _lose_class_or_levels,
    "discard-hand": _discard_hand, "change-sex": _change_sex, "next-combat-penalty": _next_combat,
    "next-combat-armor-only": _next_combat, "manual": _manual,
}


# The ops that need a die: the table rolls it (ROLL, or the die's value), as every roll of the game.
ROLLED = frozenset({"roll-death-or-levels", "roll-lose-items"})


def apply_effects(state: GameState, player: Player, effects: Sequence[Effect], catalog: Catalog,
                  events: list[GameEvent], *, source: str, first: int = 0, rolled: int | None = None) -> None:
    """Apply bad stuff or a curse to ``player``, effect by effect from ``first``, until one kills them.

    An effect that needs a die waits for it: ``state.pending_roll`` says which, and ``rolled`` (the
    die the table rolled) carries on from there with the rest."""
    hit = Hit(state, player, catalog, events, source, rolled)
    for index in range(first, len(effects)):
        effect = effects[index]
        if not player.alive:
            return
        if effect.op in ROLLED and hit.rolled is None:
            state.pending_roll = PendingRoll(player=player.id, source=source, effect=index)
            events.append(BadStuffRollAsked(player=player.id, source=source))
            return
        handler = BAD_STUFF.get(effect.op)
        if handler is not None:
            handler(hit, effect)
