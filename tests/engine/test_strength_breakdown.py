"""The engine's strength breakdown: its parts add up to the strengths the engine reports.

The oracle below is the engine's combat arithmetic as it was written before the breakdown existed
(totals only); the breakdown must agree with it at every step of the golden games and of random
games, and the state JSON's strengths must be the breakdown's sums.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from cards.loader import load_catalog
from engine import commands as c
from engine.cards import Catalog, Kind, Slot
from engine.game import apply, replay
from engine.results import Accepted
from engine.serialize import state_to_json
from engine.state import Combat, GameState, MonsterInPlay, Player
from engine.strength import (Part, combat_breakdown, disadvantage_traits, fighter_parts, item_bonus, monster_parts,
                             restriction_problem, traits)
from tests.engine.scenario import scenario
from tests.engine.test_invariants import PLAYERS, RULESET, commands

CATALOG = load_catalog()
GOLDEN = sorted((Path(__file__).parents[1] / "golden").glob("*.txt"))


# ------------------------------------------------------------------ the oracle: totals as first written

def _old_fighter(combat: Combat, player: Player, catalog: Catalog) -> int:
    ignores_level = any(catalog[m.card].has_effect("level-ignored") for m in combat.monsters)
    ignores_items = any(catalog[m.card].has_effect("items-ignored") for m in combat.monsters)
    armor_only = any(e.op == "next-combat-armor-only" for curse in player.next_combat for e in catalog[curse].bad_stuff)
    total = 0 if ignores_level else player.level
    if not ignores_items:
        for card_id in player.equipped:
            card = catalog[card_id]
            if card.kind is Kind.ITEM and restriction_problem(card, player) is None:
                if armor_only and card.slot is not Slot.ARMOR:
                    continue
                total += item_bonus(card, player)
    for curse in player.next_combat:
        for effect in catalog[curse].bad_stuff:
            if effect.op == "next-combat-penalty":
                total += int(effect.get("n"))
    total += combat.bonuses.get(player.id, 0)
    total -= 2 * sum(1 for _, victim in combat.backstabs if victim == player.id)
    return total


def _old_monster(monster: MonsterInPlay, fighters: list[Player], catalog: Catalog) -> int:
    if monster.slain:
        return 0
    card = catalog[monster.card]
    total = (card.level or 0) + sum(catalog[e].bonus or 0 for e in monster.enhancers)
    against = set().union(*(disadvantage_traits(p) for p in fighters)) if fighters else set()
    favour = set().union(*(traits(p) for p in fighters)) if fighters else set()
    total += sum(mod.bonus for mod in card.vs if mod.target in (against if mod.bonus > 0 else favour))
    return max(total, 1) if card.kind is Kind.MONSTER else total


def _old_totals(state: GameState, combat: Combat, catalog: Catalog) -> tuple[int, int]:
    fighters = [state.player(f) for f in combat.fighters]
    players = sum(_old_fighter(combat, p, catalog) for p in fighters)
    monsters = sum(_old_monster(m, fighters, catalog) for m in combat.monsters)
    doubled = False
    for shot in combat.one_shots:
        if catalog[shot.card].has_effect("double-strength"):
            doubled = True
        elif shot.side == "players":
            players += shot.bonus
        else:
            monsters += shot.bonus
    return (players * 2 if doubled else players), monsters


def check(state: GameState, catalog: Catalog) -> int:
    """The breakdown of ``state``'s combat against the oracle and the state JSON; 1 if there was one."""
    combat = state.combat
    if combat is None:
        return 0
    breakdown = combat_breakdown(state, combat, catalog)
    assert breakdown.totals == _old_totals(state, combat, catalog)
    shown: dict[str, Any] = state_to_json(state, catalog)["combat"]
    assert (shown["players_strength"], shown["monsters_strength"]) == breakdown.totals
    fighters = [state.player(f) for f in combat.fighters]
    for player in fighters:
        parts = fighter_parts(state, combat, player, catalog)
        assert sum(p.value for p in parts) == _old_fighter(combat, player, catalog)
        assert [p for p in breakdown.players if p.player == player.id] == parts
        assert all(p.player == player.id for p in parts)
        for part in parts:
            if part.part is Part.ITEM:      # each counting item: equipped, an item, usable by its wearer
                assert part.card in player.equipped and restriction_problem(catalog[part.card], player) is None
    for monster in combat.monsters:
        assert sum(p.value for p in monster_parts(monster, fighters, catalog)) == _old_monster(monster, fighters, catalog)
    return 1


# ------------------------------------------------------------------ the cases

def test_the_parts_of_a_fight_name_what_they_come_from() -> None:
    t = scenario(CATALOG, races={1: ["elf"]}, items={1: ["helm-of-courage", "boots-of-butt-kicking"]},
                 monster="drooling-slime")
    t.play("magic-missile", "player-2", side="players")
    combat = t.state.combat
    assert combat is not None
    breakdown = combat_breakdown(t.state, combat, CATALOG)
    assert [(p.part, p.card) for p in breakdown.players] == [
        (Part.LEVEL, None), (Part.ITEM, "helm-of-courage"), (Part.ITEM, "boots-of-butt-kicking"),
        (Part.ONE_SHOT, "magic-missile")]
    assert [p.value for p in breakdown.players] == [
        1, CATALOG["helm-of-courage"].bonus, CATALOG["boots-of-butt-kicking"].bonus, CATALOG["magic-missile"].bonus]
    slime = CATALOG["drooling-slime"]
    assert breakdown.monsters[0] == type(breakdown.monsters[0])(Part.MONSTER, slime.level or 0, "drooling-slime")
    assert {p.part for p in breakdown.monsters[1:]} <= {Part.VERSUS, Part.FLOOR}
    assert breakdown.totals == t.strengths() == _old_totals(t.state, combat, CATALOG)


def test_a_cursed_fighter_shows_the_curse_as_a_part() -> None:
    t = scenario(CATALOG).play("curse-change-sex", "player-2", target="player-1").play("lame-goblin")
    assert check(t.state, CATALOG) == 1
    player = t.state.player("player-1")
    assert t.state.combat is not None
    parts = fighter_parts(t.state, t.state.combat, player, CATALOG)
    assert any(p.part is Part.CURSE and p.card == "curse-change-sex" and p.value < 0 for p in parts)


def test_the_breakdown_sums_to_the_strengths_along_every_golden_game(tmp_path: Path) -> None:
    from drivers.base import ManualClock
    from drivers.sim import SimButtons, SimReader
    from table.config import parse_config
    from table.control.assembly import build_table
    from table.sim.script import parse_script
    from table.sim.harness import perform

    fights = 0
    for index, script in enumerate(GOLDEN):
        table = build_table(parse_config({}), ManualClock(), state_dir=tmp_path / str(index), seed_source=lambda: 1)
        clock = table.controller.clock
        reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
        for action in parse_script(script.read_text(), table.catalog, source=script.name):
            perform(action, table, reader, buttons, clock)
            fights += check(table.controller.state, table.catalog)
        table.journal.close()
    assert len(GOLDEN) > 10 and fights > 50


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(commands, min_size=1, max_size=40))
def test_the_breakdown_sums_to_the_strengths_in_random_games(cmds: list[c.Command]) -> None:
    state = replay(CATALOG, RULESET, 11, [*(c.Join(player=p) for p in PLAYERS), c.StartGame(player="player-1")])
    for cmd in cmds:
        result = apply(state, cmd, CATALOG)
        if isinstance(result, Accepted):
            state = result.state
            check(state, CATALOG)

