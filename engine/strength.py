"""Combat maths: what a player and a monster are worth right now."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Catalog, CardDef, Kind, Slot
from engine.messages import msg, word
from engine.state import Combat, GameState, MonsterInPlay, Player

HAND_SLOTS = {Slot.ONE_HAND: 1, Slot.TWO_HANDS: 2}
SINGLE_SLOTS = (Slot.HEADGEAR, Slot.ARMOR, Slot.FOOTGEAR)
_HAND_SLOT_KINDS = tuple(HAND_SLOTS)      # ``in`` a tuple is by identity; ``in`` the dict hashes the enum, in Python


def traits(player: Player) -> set[str]:
    """Race, class and sex words a card restriction or monster bonus can name."""
    found = {player.sex, *player.races, *player.classes}
    if not player.races:
        found.add("human")
    return found


def disadvantage_traits(player: Player) -> set[str]:
    """The traits that count against ``player``: Half-Breed with a single race (Super Munchkin with a
    single class) gives that race's (class's) advantages without its disadvantages."""
    found = traits(player)
    if "half-breed" in player.specials and len(player.races) == 1:
        found.discard(player.races[0])
    if "super-munchkin" in player.specials and len(player.classes) == 1:
        found.discard(player.classes[0])
    return found


def restriction_problem(card: CardDef, player: Player) -> str | None:
    """Why ``player`` may not use ``card``, or None if they may."""
    need = card.requires
    if not need or player.cheat_on == card.id:
        return None
    if need.startswith("not-"):
        banned = need[4:]
        return msg("{card} cannot be used by a {banned}", card=card, banned=word(banned)) if banned in disadvantage_traits(player) else None
    return None if need in traits(player) else msg("{card} is for {need} only", card=card, need=word(need))


def slot_problem(card: CardDef, player: Player, catalog: Catalog) -> str | None:
    """Why ``card`` cannot be equipped beside what ``player`` already wears, or None.

    An item with Cheat! on it is outside the limits: it may be worn beyond them and takes no room.
    """
    slot = card.slot
    if player.cheat_on == card.id or not (slot in SINGLE_SLOTS or slot in _HAND_SLOT_KINDS):
        return None
    worn = [catalog[c] for c in player.equipped if c != card.id and c != player.cheat_on]
    if slot in SINGLE_SLOTS:
        for other in worn:
            if other.slot is slot:
                return msg("{player} already wears {other} as {slot}", player=player, other=other, slot=slot)
        return None
    hands = sum(HAND_SLOTS[o.slot] for o in worn if o.slot in _HAND_SLOT_KINDS)
    if hands + HAND_SLOTS[slot] > 2:
        return msg("{player}'s hands are full", player=player)
    return None


BIG_ITEMS = 1                   # Big items anyone may have; a card can raise it, a dwarf has no limit


def big_limit(player: Player, catalog: Catalog) -> int | None:
    """How many Big items ``player`` may have (never below BIG_ITEMS); None: any number (dwarf)."""
    if "dwarf" in player.races:
        return None
    limit = BIG_ITEMS
    if any(catalog[c].has_effect("extra-big-item") for c in [*player.equipped, *player.carried]):
        limit += 1
    return limit


def big_problem(card: CardDef, player: Player, catalog: Catalog) -> str | None:
    """Why ``player`` may not even carry the Big item ``card``, or None."""
    if not card.big:
        return None
    limit = big_limit(player, catalog)
    bigs = [catalog[i] for i in [*player.equipped, *player.carried]
            if catalog[i].big and i != card.id and i != player.cheat_on]      # a Big item under Cheat! is free
    if limit is not None and len(bigs) >= limit:
        return msg("{player} cannot carry {card}: already carrying the Big item {big}", player=player, card=card, big=bigs[0])
    return None


def item_bonus(card: CardDef, player: Player) -> int:
    bonus = card.bonus or 0
    for effect in card.effects:
        if effect.op == "bonus-vs-trait" and effect.get("trait") in traits(player):
            bonus += int(effect.get("bonus", 0))
    return bonus


def counts_in_combat(card: CardDef, player: Player, *, armor_only: bool = False) -> bool:
    """Whether the equipped ``card`` adds its bonus to ``player``'s strength: an item they may use
    (only armor, under a curse that allows only armor)."""
    if card.kind is not Kind.ITEM or restriction_problem(card, player) is not None:
        return False
    return not armor_only or card.slot is Slot.ARMOR


def items_bonus(player: Player, catalog: Catalog, *, armor_only: bool = False) -> int:
    return sum(item_bonus(catalog[i], player) for i in player.equipped
               if counts_in_combat(catalog[i], player, armor_only=armor_only))


def player_strength(player: Player, catalog: Catalog) -> int:
    """Level plus the bonuses of equipped items that the player may use."""
    return player.level + items_bonus(player, catalog)


class Part(StrEnum):
    """What a piece of combat strength comes from."""

    LEVEL = "level"            # the fighter's level (0 against a monster that ignores levels)
    ITEM = "item"              # one equipped item that counts
    CURSE = "curse"            # a curse that hits in this combat
    BONUS = "bonus"            # one fight's bonus (berserk, turning, flight)
    BACKSTAB = "backstab"      # -2 a backstab
    ONE_SHOT = "one-shot"      # a one-shot played for this side
    DOUBLED = "doubled"        # a card that doubles the players' strength: as much again
    MONSTER = "monster"        # the monster's level
    ENHANCER = "enhancer"      # a monster enhancer
    VERSUS = "versus"          # the monster's bonus or penalty against these fighters
    FLOOR = "floor"            # a monster is worth at least 1
    SLAIN = "slain"            # a slain monster counts for nothing: minus what it had


@dataclass(frozen=True)
class StrengthPart:
    """One piece of a side's combat strength: what it is, how much, and whose or which card."""

    part: Part
    value: int
    card: str | None = None          # the item, curse, one-shot, monster or enhancer
    player: str | None = None        # the fighter it belongs to (the players' side)


@dataclass(frozen=True)
class Breakdown:
    """Both sides' strength in parts; the totals are their sums (``combat_totals``)."""

    players: tuple[StrengthPart, ...]
    monsters: tuple[StrengthPart, ...]

    @property
    def totals(self) -> tuple[int, int]:
        return sum(p.value for p in self.players), sum(p.value for p in self.monsters)


def fighter_parts(state: GameState, combat: Combat, player: Player, catalog: Catalog) -> list[StrengthPart]:
    """A fighter's worth in this combat, part by part: level and items as the monsters allow,
    curses, one fight's bonuses and backstabs. The level part is there even when it is 0."""
    ignores_level = any(catalog[m.card].has_effect("level-ignored") for m in combat.monsters)
    ignores_items = any(catalog[m.card].has_effect("items-ignored") for m in combat.monsters)
    armor_only = any(e.op == "next-combat-armor-only" for curse in player.next_combat
                     for e in catalog[curse].bad_stuff)
    who = player.id
    parts = [StrengthPart(Part.LEVEL, 0 if ignores_level else player.level, player=who)]
    if not ignores_items:
        parts += [StrengthPart(Part.ITEM, item_bonus(catalog[i], player), i, who) for i in player.equipped
                  if counts_in_combat(catalog[i], player, armor_only=armor_only)]
    for curse in player.next_combat:
        for effect in catalog[curse].bad_stuff:
            if effect.op == "next-combat-penalty":
                parts.append(StrengthPart(Part.CURSE, int(effect.get("n")), curse, who))
    if combat.bonuses.get(who, 0):
        parts.append(StrengthPart(Part.BONUS, combat.bonuses[who], player=who))
    stabs = sum(1 for _, victim in combat.backstabs if victim == who)
    if stabs:
        parts.append(StrengthPart(Part.BACKSTAB, -2 * stabs, player=who))
    return parts


# What a fighter adds beyond their level: "without help or bonuses" means none of these (a curse's
# penalty or a backstab is no bonus).
BONUS_PARTS = frozenset({Part.ITEM, Part.BONUS, Part.ONE_SHOT, Part.DOUBLED})


def beaten_alone(state: GameState, combat: Combat, catalog: Catalog) -> bool:
    """Whether the players win "without help or bonuses": one fighter, no one-shot played in the fight,
    and nothing but their level on their side (an item's bonus counts as a bonus)."""
    if len(combat.fighters) != 1 or combat.one_shots:
        return False
    players = combat_breakdown(state, combat, catalog).players
    return not any(p.part in BONUS_PARTS and p.value for p in players)


def fighter_strength(state: GameState, combat: Combat, player: Player, catalog: Catalog) -> int:
    """A fighter's worth in this combat: the sum of ``fighter_parts``."""
    return sum(p.value for p in fighter_parts(state, combat, player, catalog))


def monster_parts(monster: MonsterInPlay, fighters: list[Player], catalog: Catalog) -> list[StrengthPart]:
    """A monster's worth against ``fighters``, part by part: level, enhancers, bonuses against
    them, the floor of 1; a slain monster's parts add up to 0."""
    card = catalog[monster.card]
    parts = [StrengthPart(Part.MONSTER, card.level or 0, card.id)]
    parts += [StrengthPart(Part.ENHANCER, catalog[e].bonus or 0, e) for e in monster.enhancers]
    if monster.slain:
        return [*parts, StrengthPart(Part.SLAIN, -sum(p.value for p in parts), card.id)]
    against = set().union(*(disadvantage_traits(p) for p in fighters)) if fighters else set()
    favour = set().union(*(traits(p) for p in fighters)) if fighters else set()
    parts += [StrengthPart(Part.VERSUS, mod.bonus, card.id) for mod in card.vs
              if mod.target in (against if mod.bonus > 0 else favour)]
    total = sum(p.value for p in parts)
    if card.kind is Kind.MONSTER and total < 1:
        parts.append(StrengthPart(Part.FLOOR, 1 - total, card.id))
    return parts


def monster_strength(monster: MonsterInPlay, fighters: list[Player], catalog: Catalog) -> int:
    return sum(p.value for p in monster_parts(monster, fighters, catalog))


def combat_breakdown(state: GameState, combat: Combat, catalog: Catalog) -> Breakdown:
    """Both sides of ``combat`` part by part: each fighter's parts, each monster's, the one-shots,
    and the doubling, as ``combat_totals`` adds them."""
    fighters = [state.player(f) for f in combat.fighters]
    players = [part for p in fighters for part in fighter_parts(state, combat, p, catalog)]
    monsters = [part for m in combat.monsters for part in monster_parts(m, fighters, catalog)]
    doubled: str | None = None
    for shot in combat.one_shots:
        card = catalog[shot.card]
        if card.has_effect("double-strength"):
            doubled = shot.card
            continue
        side = players if shot.side == "players" else monsters
        side.append(StrengthPart(Part.ONE_SHOT, shot.bonus, shot.card))
    if doubled is not None:
        players.append(StrengthPart(Part.DOUBLED, sum(p.value for p in players), doubled))
    return Breakdown(tuple(players), tuple(monsters))


def combat_totals(state: GameState, combat: Combat, catalog: Catalog) -> tuple[int, int]:
    return combat_breakdown(state, combat, catalog).totals


def ties_win(state: GameState, combat: Combat) -> bool:
    return any("warrior" in state.player(f).classes for f in combat.fighters)


def players_win(state: GameState, combat: Combat, catalog: Catalog) -> bool:
    if all(m.slain for m in combat.monsters):
        return True
    players, monsters = combat_totals(state, combat, catalog)
    if players > monsters:
        return True
    return players == monsters and ties_win(state, combat)


def run_away_bonus(player: Player, catalog: Catalog, *, halfling_penalty: bool = True) -> int:
    bonus = 1 if "elf" in player.races else 0
    if (halfling_penalty and "halfling" in player.races
            and not ("half-breed" in player.specials and len(player.races) == 1)):
        bonus -= 1
    for card_id in player.equipped:
        effect = catalog[card_id].effect("run-away-bonus")
        if effect is not None:
            bonus += int(effect.get("bonus", 0))
    for curse in player.curses:
        effect = catalog[curse].effect("die-mod")
        if effect is not None:
            bonus += int(effect.get("n"))
    return bonus
