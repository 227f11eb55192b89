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


def restriction_problem(card: CardDef, player: Player) -> str | None:
    """Why ``player`` may not use ``card``, or None if they may."""
    need = card.requires
    if not need:
        return None
    have = traits(player)
    if need.startswith("not-"):
        banned = need[4:]
        return f"{card.name} cannot be used by a {banned}" if banned in have else None
    return None if need in have else f"{card.name} is for {need} only"


def slot_problem(card: CardDef, player: Player, catalog: Catalog) -> str | None:
    """Why ``card`` cannot be equipped beside what ``player`` already wears, or None."""
    worn = [catalog[c] for c in player.equipped]
    if card.slot in SINGLE_SLOTS:
        for other in worn:
            if other.slot is card.slot:
                return f"{player.name} already wears {other.name} as {card.slot.value}"
    if card.slot in HAND_SLOTS:
        hands = sum(HAND_SLOTS.get(o.slot, 0) for o in worn)  # type: ignore[arg-type]
        if hands + HAND_SLOTS[card.slot] > 2:
            return f"{player.name}'s hands are full"
    return None


def item_bonus(card: CardDef, player: Player) -> int:
    bonus = card.bonus or 0
    for effect in card.effects:
        if effect.op == "bonus-vs-trait" and effect.get("trait") in traits(player):
            bonus += int(effect.get("bonus", 0))
    return bonus


def player_strength(player: Player, catalog: Catalog) -> int:
    """Level plus the bonuses of equipped items that the player may use."""
    total = player.level
    for card_id in player.equipped:
        card = catalog[card_id]
        if restriction_problem(card, player) is None:
            total += item_bonus(card, player)
    return total


def monster_strength(monster: MonsterInPlay, fighters: list[Player], catalog: Catalog) -> int:
    card = catalog[monster.card]
    total = card.level or 0
    for enhancer in monster.enhancers:
        total += catalog[enhancer].bonus or 0
    fighter_traits = set().union(*(traits(p) for p in fighters)) if fighters else set()
    for mod in card.vs:
        if mod.target in fighter_traits:
            total += mod.bonus
    return max(total, 1) if card.kind is Kind.MONSTER else total


def combat_totals(state: GameState, combat: Combat, catalog: Catalog) -> tuple[int, int]:
    fighters = [state.player(f) for f in combat.fighters]
    players = sum(player_strength(p, catalog) for p in fighters)
    monsters = sum(monster_strength(m, fighters, catalog) for m in combat.monsters)
    for shot in combat.one_shots:
        if shot.side == "players":
            players += shot.bonus
        else:
            monsters += shot.bonus
    return players, monsters


def players_win(state: GameState, combat: Combat, catalog: Catalog) -> bool:
    players, monsters = combat_totals(state, combat, catalog)
    if players > monsters:
        return True
    ties_win = any("warrior" in state.player(f).classes for f in combat.fighters)
    return players == monsters and ties_win


def run_away_bonus(player: Player, catalog: Catalog) -> int:
    bonus = 1 if "elf" in player.races else 0
    for card_id in player.equipped:
        effect = catalog[card_id].effect("run-away-bonus")
        if effect is not None:
            bonus += int(effect.get("bonus", 0))
    return bonus
