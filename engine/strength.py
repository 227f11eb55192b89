"""Combat maths: what a player and a monster are worth right now."""

from __future__ import annotations

from engine.cards import Catalog, CardDef, Kind, Slot
from engine.state import Combat, GameState, MonsterInPlay, Player

HAND_SLOTS = {Slot.ONE_HAND: 1, Slot.TWO_HANDS: 2}
SINGLE_SLOTS = (Slot.HEADGEAR, Slot.ARMOR, Slot.FOOTGEAR)


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
        return f"{card.name} cannot be used by a {banned}" if banned in disadvantage_traits(player) else None
    return None if need in traits(player) else f"{card.name} is for {need} only"


def slot_problem(card: CardDef, player: Player, catalog: Catalog) -> str | None:
    """Why ``card`` cannot be equipped beside what ``player`` already wears, or None.

    An item with Cheat! on it is outside the limits: it may be worn beyond them and takes no room.
    """
    if player.cheat_on == card.id:
        return None
    worn = [catalog[c] for c in player.equipped if c != card.id and c != player.cheat_on]
    if card.slot in SINGLE_SLOTS:
        for other in worn:
            if other.slot is card.slot:
                return f"{player.name} already wears {other.name} as {card.slot.value}"
    if card.slot in HAND_SLOTS:
        hands = sum(HAND_SLOTS.get(o.slot, 0) for o in worn if o.slot is not None)
        if hands + HAND_SLOTS[card.slot] > 2:
            return f"{player.name}'s hands are full"
    return None


def big_limit(player: Player, catalog: Catalog) -> int | None:
    """How many Big items ``player`` may have; None: any number (dwarf)."""
    if "dwarf" in player.races:
        return None
    limit = 1
    if any(catalog[c].has_effect("extra-big-item") for c in [*player.equipped, *player.carried]):
        limit += 1
    return limit


def big_problem(card: CardDef, player: Player, catalog: Catalog) -> str | None:
    """Why ``player`` may not even carry the Big item ``card``, or None."""
    if not card.big:
        return None
    limit = big_limit(player, catalog)
    bigs = [catalog[i].name for i in [*player.equipped, *player.carried]
            if catalog[i].big and i != card.id and i != player.cheat_on]      # a Big item under Cheat! is free
    if limit is not None and len(bigs) >= limit:
        return f"{player.name} cannot carry {card.name}: already carrying the Big item {bigs[0]}"
    return None


def item_bonus(card: CardDef, player: Player) -> int:
    bonus = card.bonus or 0
    for effect in card.effects:
        if effect.op == "bonus-vs-trait" and effect.get("trait") in traits(player):
            bonus += int(effect.get("bonus", 0))
    return bonus


def items_bonus(player: Player, catalog: Catalog, *, armor_only: bool = False) -> int:
    total = 0
    for card_id in player.equipped:
        card = catalog[card_id]
        if card.kind is Kind.ITEM and restriction_problem(card, player) is None:
            if armor_only and card.slot is not Slot.ARMOR:
                continue
            total += item_bonus(card, player)
    return total


def player_strength(player: Player, catalog: Catalog) -> int:
    """Level plus the bonuses of equipped items that the player may use."""
    return player.level + items_bonus(player, catalog)


def fighter_strength(state: GameState, combat: Combat, player: Player, catalog: Catalog) -> int:
    """A fighter's worth in this combat: level and items as the monsters allow, curses, abilities."""
    ignores_level = any(catalog[m.card].has_effect("level-ignored") for m in combat.monsters)
    ignores_items = any(catalog[m.card].has_effect("items-ignored") for m in combat.monsters)
    armor_only = any(e.op == "next-combat-armor-only" for curse in player.next_combat
                     for e in catalog[curse].bad_stuff)
    total = 0 if ignores_level else player.level
    if not ignores_items:
        total += items_bonus(player, catalog, armor_only=armor_only)
    for curse in player.next_combat:
        for effect in catalog[curse].bad_stuff:
            if effect.op == "next-combat-penalty":
                total += int(effect.get("n"))
    total += combat.bonuses.get(player.id, 0)
    total -= 2 * sum(1 for _, victim in combat.backstabs if victim == player.id)
    return total


def monster_strength(monster: MonsterInPlay, fighters: list[Player], catalog: Catalog) -> int:
    if monster.slain:
        return 0
    card = catalog[monster.card]
    total = card.level or 0
    for enhancer in monster.enhancers:
        total += catalog[enhancer].bonus or 0
    against = set().union(*(disadvantage_traits(p) for p in fighters)) if fighters else set()
    favour = set().union(*(traits(p) for p in fighters)) if fighters else set()
    for mod in card.vs:
        if mod.target in (against if mod.bonus > 0 else favour):
            total += mod.bonus
    return max(total, 1) if card.kind is Kind.MONSTER else total


def combat_totals(state: GameState, combat: Combat, catalog: Catalog) -> tuple[int, int]:
    fighters = [state.player(f) for f in combat.fighters]
    players = sum(fighter_strength(state, combat, p, catalog) for p in fighters)
    monsters = sum(monster_strength(m, fighters, catalog) for m in combat.monsters)
    doubled = False
    for shot in combat.one_shots:
        card = catalog[shot.card]
        if card.has_effect("double-strength"):
            doubled = True
            continue
        if shot.side == "players":
            players += shot.bonus
        else:
            monsters += shot.bonus
    if doubled:
        players *= 2
    return players, monsters


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
