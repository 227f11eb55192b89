"""Every card id in the catalog has a tested behaviour, or is on the short list in docs/manual-cards.md.

Each card is played in a context where it should act, and what it does is checked against the numbers
written out here (its level, bonus, treasures, bad stuff), so a wrong number in the card data or in
the engine fails the test. The last test checks that the tables below, plus the manual list, name
every card in the catalog: a new card without a tested behaviour fails it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest

from cards.loader import load_catalog
from engine import commands as c
from engine.cards import Kind, Slot
from engine.items import excess_big_items
from engine.messages import msg
from engine.results import RejectCode, Rejected
from engine.rules import Ruleset
from engine.state import Player
from engine.strength import HAND_SLOTS, SINGLE_SLOTS, big_limit, slot_problem

from tests.engine.scenario import Table, scenario

CATALOG = load_catalog()
MANUAL_DOC = Path(__file__).resolve().parents[2] / "docs" / "manual-cards.md"
FAST = Ruleset(interference_seconds=0)          # a fight that the players win resolves at once

# Four items worn, one per slot plus a Big one, worth +7 together; then a spare headgear, armor and
# footgear that can only be carried (their slots are taken), so they add nothing.
WORN = ["helm-of-courage", "leather-armor", "boots-of-butt-kicking", "huge-rock"]
SPARE = ["horny-helmet", "slimy-armor", "sandals-of-protection"]
GEAR = WORN + SPARE
GEAR_BONUS = 1 + 1 + 2 + 3

RACES = {"dwarf", "elf", "halfling"}
CLASSES = {"cleric", "thief", "warrior", "wizard"}


def traits_kw(*traits: str, player: int = 1) -> dict[str, Any]:
    """scenario() keywords that give ``player`` these races, classes or sex (human: no race)."""
    kw: dict[str, Any] = {}
    for trait in traits:
        if trait in RACES:
            kw.setdefault("races", {}).setdefault(player, []).append(trait)
        elif trait in CLASSES:
            kw.setdefault("classes", {}).setdefault(player, []).append(trait)
        elif trait in ("male", "female"):
            kw.setdefault("sexes", {})[player] = trait
        elif trait != "human":
            raise AssertionError(f"unknown trait {trait!r}")
    return kw


def names(t: Table) -> list[str]:
    return [e.name for e in t.events]


def event(t: Table, name: str) -> dict[str, Any]:
    found = [e.data for e in t.events if e.name == name]
    assert found, f"no {name} event in {names(t)}"
    return found[-1]


def refused(t: Table, cmd: c.Command, code: RejectCode | None = None) -> Rejected:
    r = t.attempt(cmd)
    assert isinstance(r, Rejected), f"{cmd} was accepted"
    if code is not None:
        assert r.code is code, r
    return r


def items(t: Table, n: int = 1) -> set[str]:
    p = t.p(n)
    return {*p.equipped, *p.carried}


def monster_strengths(t: Table) -> list[int]:
    return [m["strength"] for m in t.json()["combat"]["monsters"]]


# ======================================================================== monsters

@dataclass(frozen=True)
class M:
    level: int
    treasures: int
    levels: int = 1                              # levels gained for the kill
    vs: dict[str, int] = field(default_factory=dict)


MONSTERS: dict[str, M] = {
    "3872-orcs": M(10, 3, vs={"dwarf": 6}),
    "amazon": M(8, 2),
    "bigfoot": M(12, 3, vs={"dwarf": 3, "halfling": 3}),
    "bullrog": M(18, 5, 2),
    "crabs": M(1, 1),
    "drooling-slime": M(1, 1, vs={"elf": 4}),
    "face-sucker": M(8, 2, vs={"elf": 6}),
    "floating-nose": M(10, 3),
    "flying-frogs": M(2, 1),
    "gazebo": M(8, 2),
    "gelatinous-octahedron": M(2, 1),
    "ghoulfiends": M(8, 2),
    "harpies": M(4, 2, vs={"wizard": 5}),
    "hippogriff": M(16, 4, 2),
    "insurance-salesman": M(14, 4),
    "king-tut": M(16, 4, 2),
    "lame-goblin": M(1, 1),
    "large-angry-chicken": M(2, 1),
    "lawyers": M(6, 2),
    "leperchaun": M(4, 2, vs={"elf": 5}),
    "maul-rat": M(1, 1, vs={"cleric": 3}),
    "mr-bones": M(2, 1),
    "net-troll": M(10, 3),
    "pit-bull": M(2, 1),
    "platycore": M(6, 2, vs={"wizard": 6}),
    "plutonium-dragon": M(20, 5, 2),
    "potted-plant": M(1, 1),
    "pukachu": M(6, 2),
    "shrieking-geek": M(6, 2, vs={"warrior": 6}),
    "snails-on-speed": M(4, 2),
    "squidzilla": M(18, 4, 2, vs={"elf": 4}),
    "stoned-golem": M(14, 4),
    "tongue-demon": M(12, 3, vs={"cleric": 4}),
    "undead-horse": M(4, 2, vs={"dwarf": 5}),
    "unspeakably-awful-indescribable-horror": M(14, 4, vs={"warrior": 4}),
    "wannabe-vampire": M(12, 3),
    "wight-brothers": M(16, 4, 2),
}


def look_for_trouble(t: Table, card_id: str) -> Table:
    """From look-for-trouble, player-1 fights ``card_id`` from the hand."""
    t.next()
    assert t.state.phase.value == "look-for-trouble"
    t.play(card_id)
    if t.state.pending_loss is not None:              # Tongue Demon: an item goes before the fight
        assert t.state.pending_loss.source == card_id == "tongue-demon"
        t.do(c.LoseItem(player="player-1", card="huge-rock"))
    return t


@pytest.mark.parametrize("card_id", sorted(MONSTERS))
def test_monster_strength_and_vs_modifiers(card_id):
    m = MONSTERS[card_id]
    card = CATALOG[card_id]
    assert (card.level, card.treasures, card.levels_gained) == (m.level, m.treasures, m.levels)
    assert {v.target: v.bonus for v in card.vs} == m.vs
    t = look_for_trouble(scenario(CATALOG), card_id)
    assert t.state.phase.value == "combat" and t.json()["combat"]["fighters"] == ["player-1"]
    assert monster_strengths(t) == [m.level]
    assert t.strengths() == (0 if card_id == "insurance-salesman" else 1, m.level)   # it ignores the level
    for trait, bonus in m.vs.items():
        t = look_for_trouble(scenario(CATALOG, **traits_kw(trait)), card_id)
        assert monster_strengths(t) == [m.level + bonus], trait
        # the modifier counts against a helper's traits too
        t = look_for_trouble(scenario(CATALOG, **traits_kw(trait, player=2)), card_id)
        if not CATALOG[card_id].has_effect("no-helpers"):
            t.help("player-2")
            assert monster_strengths(t) == [m.level + bonus], f"helper {trait}"


@pytest.mark.parametrize("card_id", sorted(MONSTERS))
def test_monster_kill_gives_its_levels_and_treasures(card_id):
    m = MONSTERS[card_id]
    t = look_for_trouble(scenario(CATALOG, levels={1: 7}, items={1: GEAR}, ruleset=FAST), card_id)
    # (7 + gear + 5) doubled beats any monster, even one that ignores the level or the items
    t.play("doppleganger").play("electric-radioactive-acid-potion", side="players")
    t.fight()
    assert t.state.phase.value == "charity" and t.state.combat is None
    killed = event(t, "MonstersKilled")
    assert killed["monsters"] == [card_id]
    assert t.p(1).level == 7 + m.levels
    assert t.state.treasures_to_draw == m.treasures


# ---- losing: run away, fail the roll (die 1), take the bad stuff

@dataclass(frozen=True)
class Loss:
    """What a fleeing player-1 (level 6, male human, GEAR; others at levels 2 and 3) ends with when caught.

    Everything not named must stay as it was.
    """
    level: int | None = None
    lost: frozenset[str] = frozenset()
    dead: bool = False
    must_act: bool = False
    hand: bool = False
    pending: tuple[str, int, int] | None = None      # kind, count, gold
    races: list[str] | None = None
    classes: list[str] | None = None
    ctx: tuple[str, ...] = ()                         # traits of the victim
    gear: tuple[str, ...] | None = None               # items instead of GEAR
    at: int = 6                                       # the victim's level


def lost(*ids: str) -> frozenset[str]:
    return frozenset(ids)


NO_RUN = "no-run-away"          # cannot be outrun: caught without a roll
AUTO = "auto-escape"            # everybody gets away without a roll

LOSSES: dict[str, Any] = {
    "3872-orcs": "roll",
    "amazon": [Loss(level=3), Loss(ctx=("warrior",), classes=[])],
    "bigfoot": [Loss(lost=lost("helm-of-courage"))],
    "bullrog": [Loss(dead=True)],
    "crabs": NO_RUN,
    "drooling-slime": [Loss(lost=lost("boots-of-butt-kicking")),
                       Loss(gear=("helm-of-courage",), level=5)],
    "face-sucker": [Loss(lost=lost("helm-of-courage"), level=5)],
    "floating-nose": NO_RUN,
    "flying-frogs": [Loss(level=4)],
    "gazebo": [Loss(level=3)],
    "gelatinous-octahedron": [Loss(lost=lost("huge-rock"))],
    "ghoulfiends": [Loss(level=2), Loss(at=1, level=1)],     # the lowest level at the table, never up
    "harpies": [Loss(level=4)],
    "hippogriff": [Loss(must_act=True)],
    "insurance-salesman": [Loss(pending=("any", len(GEAR), 1000))],
    "king-tut": [Loss(lost=lost(*GEAR), hand=True)],
    "lame-goblin": [Loss(level=5)],
    "large-angry-chicken": [Loss(level=5)],
    "lawyers": [Loss(must_act=True)],
    "leperchaun": [Loss(must_act=True)],
    "maul-rat": [Loss(level=5)],
    "mr-bones": [Loss(level=4)],
    "net-troll": [Loss(must_act=True)],
    "pit-bull": [Loss(level=4)],
    "platycore": [Loss(must_act=True)],
    "plutonium-dragon": [Loss(dead=True)],
    "potted-plant": AUTO,
    "pukachu": [Loss(hand=True)],
    "shrieking-geek": [Loss(ctx=("elf", "warrior"), races=[], classes=[])],
    "snails-on-speed": "roll",
    "squidzilla": [Loss(dead=True)],
    "stoned-golem": AUTO,
    "tongue-demon": [Loss(lost=lost("huge-rock"), level=4),
                     Loss(ctx=("elf",), lost=lost("huge-rock"), level=3)],
    "undead-horse": [Loss(level=4)],
    "unspeakably-awful-indescribable-horror": [Loss(dead=True), Loss(ctx=("wizard",), classes=[])],
    "wannabe-vampire": [Loss(level=3)],
    "wight-brothers": [Loss(level=1)],
}


def fleeing(card_id: str, *, ctx: tuple[str, ...] = (), gear: tuple[str, ...] | None = None,
            level: int = 6, seed: int = 7) -> Table:
    kw = traits_kw(*ctx)
    t = scenario(CATALOG, levels={1: level, 2: 2, 3: 3}, items={1: list(GEAR if gear is None else gear)},
                 ruleset=FAST, seed=seed, **kw)
    return look_for_trouble(t, card_id)


def caught(card_id: str, **kw: Any) -> tuple[Table, dict[str, Any]]:
    t = fleeing(card_id, **kw)
    before = {"items": items(t) | ({"huge-rock"} if card_id == "tongue-demon" and not kw.get("gear") else set()),
              "level": t.p(1).level, "races": list(t.p(1).races), "classes": list(t.p(1).classes)}
    t.run()
    assert [p["player"] for p in t.json()["run_away"]["pending"]] == ["player-1"], "the monster must pursue"
    t.roll(1)
    assert event(t, "RunAwayFailed")["roll"] == 1
    return t, before


@pytest.mark.parametrize("card_id", sorted(LOSSES))
def test_monster_bad_stuff_when_caught(card_id):
    spec = LOSSES[card_id]
    if spec == NO_RUN:
        t = fleeing(card_id).run()
        assert event(t, "RunAwayFailed")["automatic"] is True and t.state.rolls == 0
        assert t.state.phase.value == "charity"
        card = CATALOG[card_id]
        for effect in card.bad_stuff:               # exactly what the card says, and nothing rolled
            if effect.op == "lose-levels":
                assert t.p(1).level == 6 - int(effect.get("n"))
            elif effect.op == "lose-slot":
                assert all(CATALOG[i].slot is None or CATALOG[i].slot.value != effect.get("slot")
                           for i in t.p(1).equipped)
        return
    if spec == AUTO:
        t = fleeing(card_id).run()
        assert t.state.combat is None and t.state.phase.value == "charity"
        assert event(t, "RunAwaySucceeded")["automatic"] is True
        assert t.p(1).level == 6 and items(t) == set(GEAR)
        return
    if spec == "roll":
        ROLLED[card_id]()
        return
    for loss in spec:
        t, before = caught(card_id, ctx=loss.ctx, gear=loss.gear, level=loss.at)
        p = t.p(1)
        what = f"{card_id} {loss}"
        assert p.alive is not loss.dead, what
        if loss.dead:
            assert event(t, "PlayerDied")["player"] == "player-1"
            assert t.state.combat is None and set(t.state.looting["items"]) == before["items"]
            continue
        assert p.level == (before["level"] if loss.level is None else loss.level), what
        assert items(t) == before["items"] - loss.lost, what
        assert p.races == (before["races"] if loss.races is None else loss.races), what
        assert p.classes == (before["classes"] if loss.classes is None else loss.classes), what
        assert ("PlayersMustAct" in names(t)) is loss.must_act, what
        if loss.must_act:
            assert event(t, "PlayersMustAct")["source"] == card_id
        assert ("HandDiscarded" in names(t)) is loss.hand, what
        pl = t.state.pending_loss
        assert (None if pl is None else (pl.kind, pl.count, pl.gold)) == loss.pending, what
        if loss.pending is None:
            assert t.state.combat is None and t.state.phase.value == "charity", what


def test_slot_bad_stuff_takes_only_the_worn_item():
    """'Lose the headgear you are wearing': a spare headgear that is only carried stays."""
    t, _ = caught("bigfoot")
    assert event(t, "ItemsLost")["cards"] == ["helm-of-courage"] and "horny-helmet" in t.p(1).carried
    t = victim().play("curse-lose-the-armor-you-are-wearing", "player-2", target="player-1")
    assert event(t, "ItemsLost")["cards"] == ["leather-armor"] and "slimy-armor" in t.p(1).carried


def _orcs() -> None:
    """3,872 Orcs: the die rolled at the table; 1-2 death, else lose that many levels."""
    for die in range(1, 7):
        t, _ = caught("3872-orcs", level=8)
        assert t.state.pending_roll is not None and "BadStuffRolled" not in names(t)    # the table rolls it
        t.roll(die)
        assert event(t, "BadStuffRolled")["roll"] == die
        if die <= 2:
            assert not t.p(1).alive
        else:
            assert t.p(1).alive and t.p(1).level == 8 - die


def _snails() -> None:
    """Snails on Speed: the die rolled at the table; lose that many items (the rest from the hand)."""
    t, _ = caught("snails-on-speed")
    t.roll(4)
    assert event(t, "BadStuffRolled")["roll"] == 4
    pl = t.state.pending_loss
    assert (pl.kind, pl.count, pl.source) == ("any", 4, "snails-on-speed")


ROLLED: dict[str, Callable[[], None]] = {"3872-orcs": _orcs, "snails-on-speed": _snails}


# ---- the monsters' other powers

NO_PURSUIT = {"bullrog": 4, "hippogriff": 3, "king-tut": 3, "plutonium-dragon": 5, "squidzilla": 4,
              "wight-brothers": 3}


@pytest.mark.parametrize("card_id", sorted(NO_PURSUIT))
def test_monster_will_not_pursue_low_levels(card_id):
    top = NO_PURSUIT[card_id]
    t = fleeing(card_id, level=top).run()
    assert event(t, "RunAwaySucceeded")["automatic"] is True
    assert t.state.combat is None and t.p(1).level == top and items(t) == set(GEAR)
    t = fleeing(card_id, level=top + 1).run()
    assert t.state.phase.value == "run-away"


def test_squidzilla_pursues_elves_of_any_level():
    t = fleeing("squidzilla", level=4, ctx=("elf",)).run()
    assert t.state.phase.value == "run-away"


def test_stoned_golem_halflings_must_fight():
    t, _ = caught("stoned-golem", ctx=("halfling",))
    assert not t.p(1).alive


FLEE_COST = {"mr-bones": 1, "king-tut": 2, "wight-brothers": 2}


@pytest.mark.parametrize("card_id", sorted(FLEE_COST))
def test_flee_cost_even_on_escape(card_id):
    t = fleeing(card_id).run().roll(6)
    assert event(t, "RunAwaySucceeded")["roll"] == 6
    assert t.p(1).level == 6 - FLEE_COST[card_id] and items(t) == set(GEAR)


RUN_AWAY_MOD = {"flying-frogs": -1, "gelatinous-octahedron": 1, "lame-goblin": 1, "snails-on-speed": -2,
                "maul-rat": 0}


@pytest.mark.parametrize("card_id", sorted(RUN_AWAY_MOD))
def test_run_away_modifier(card_id):
    t = fleeing(card_id).run().roll(3)
    n = RUN_AWAY_MOD[card_id]
    assert ("RunAwaySucceeded" if 3 + n >= 5 else "RunAwayFailed") in names(t)
    assert [e.data["total"] for e in t.events if e.name.startswith("RunAway")] == [3 + n]


def test_gazebo_allows_no_helpers():
    t = fleeing("gazebo")
    assert "Gazebo" in refused(t, c.AddHelper(player="player-1", helper="player-2")).message


def test_insurance_salesman_ignores_the_level():
    assert fleeing("insurance-salesman").strengths() == (GEAR_BONUS, 14)


def test_ghoulfiends_ignore_the_items():
    assert fleeing("ghoulfiends").strengths() == (6, 8)


@pytest.mark.parametrize("card_id,trait,treasures", [("amazon", "female", 1), ("lawyers", "thief", 2)])
def test_monster_ignores_a_trait_and_gives_treasure(card_id, trait, treasures):
    t = look_for_trouble(scenario(CATALOG, levels={1: 3}, **traits_kw(trait)), card_id)
    assert event(t, "MonsterIgnoresPlayer")["treasures"] == treasures
    assert t.state.combat is None and t.state.treasures_to_draw == treasures and t.p(1).level == 3


def test_pukachu_extra_level_when_killed_alone():
    t = look_for_trouble(scenario(CATALOG, levels={1: 7}, ruleset=FAST), "pukachu").fight()
    assert t.p(1).level == 7 + 1 + 1
    t = look_for_trouble(scenario(CATALOG, levels={1: 3}, items={1: GEAR}, ruleset=FAST), "pukachu").fight()
    assert t.p(1).level == 3 + 1            # the items' bonuses are bonuses
    t = look_for_trouble(scenario(CATALOG, levels={1: 3}, items={1: GEAR}, ruleset=FAST), "pukachu")
    t.play("sleep-potion", side="players").fight()
    assert t.p(1).level == 3 + 1


def test_large_angry_chicken_extra_level_with_fire():
    gear = ["flaming-armor", "helm-of-courage"]
    t = look_for_trouble(scenario(CATALOG, levels={1: 2}, items={1: gear}, ruleset=FAST),
                         "large-angry-chicken").fight()
    assert t.p(1).level == 2 + 1 + 1


def test_potted_plant_extra_treasure_for_an_elf():
    t = look_for_trouble(scenario(CATALOG, levels={1: 2}, races={1: ["elf"]}, ruleset=FAST), "potted-plant").fight()
    assert t.state.treasures_to_draw == 1 + 1


def test_tongue_demon_takes_an_item_before_the_fight():
    t = scenario(CATALOG, items={1: ["helm-of-courage"]})
    t.next().play("tongue-demon")
    pl = t.state.pending_loss
    assert (pl.player, pl.kind, pl.count) == ("player-1", "any", 1)
    refused(t, c.RunAway(player="player-1"))
    t.do(c.LoseItem(player="player-1", card="helm-of-courage"))
    assert items(t) == set() and t.state.pending_loss is None
    assert scenario(CATALOG).next().play("tongue-demon").state.pending_loss is None


def test_wannabe_vampire_chased_by_a_cleric():
    t = look_for_trouble(scenario(CATALOG, levels={1: 2}, classes={1: ["cleric"]}), "wannabe-vampire")
    t.ability("chase", monster=0)
    assert t.state.combat is None and t.state.treasures_to_draw == 3 and t.p(1).level == 2
    t = look_for_trouble(scenario(CATALOG, classes={1: ["cleric"]}), "gazebo")
    refused(t, c.UseAbility(player="player-1", ability="chase", monster=0), RejectCode.ILLEGAL_TARGET)


@pytest.mark.parametrize("stick,ctx", [("eleven-foot-pole", ()), ("staff-of-napalm", ("wizard",)),
                                       ("swiss-army-polearm", ())])
def test_pit_bull_escaped_by_dropping_a_pole_or_staff(stick, ctx):
    t = look_for_trouble(scenario(CATALOG, items={1: [stick]}, **traits_kw(*ctx)), "pit-bull")
    t.use(stick, "escape")
    assert t.state.combat is None and items(t) == set() and event(t, "AutoEscape")["by"] == stick
    t = look_for_trouble(scenario(CATALOG, items={1: [stick]}, **traits_kw(*ctx)), "lame-goblin")
    refused(t, c.UseCard(player="player-1", card=stick, action="escape"), RejectCode.ILLEGAL_PLAY)


# ======================================================================== curses

@dataclass(frozen=True)
class Curse:
    """What the victim (player-1: level 5, male elf thief with GEAR) ends with; the rest unchanged."""
    level: int | None = None
    lost: frozenset[str] = frozenset()
    must_act: bool = False
    pending: tuple[str, int] | None = None
    races: list[str] | None = None
    classes: list[str] | None = None
    sex: str = "male"
    lasting: bool = False
    next_combat: bool = False


CURSES: dict[str, Curse] = {
    "curse-change-class": Curse(must_act=True),
    "curse-change-race": Curse(must_act=True),
    "curse-change-sex": Curse(sex="female", next_combat=True),
    "curse-chicken-on-your-head": Curse(lasting=True),
    "curse-duck-of-doom": Curse(level=3),
    "curse-income-tax": Curse(must_act=True),
    "curse-lose-1-big-item": Curse(pending=("big", 1)),
    "curse-lose-1-small-item": Curse(pending=("small", 1)),
    "curse-lose-a-level": Curse(level=4),
    "curse-lose-the-armor-you-are-wearing": Curse(lost=lost("leather-armor")),
    "curse-lose-the-footgear-you-are-wearing": Curse(lost=lost("boots-of-butt-kicking")),
    "curse-lose-the-headgear-you-are-wearing": Curse(lost=lost("helm-of-courage")),
    "curse-lose-two-cards": Curse(must_act=True),
    "curse-lose-your-class": Curse(classes=[]),
    "curse-lose-your-race": Curse(races=[]),
    "curse-malign-mirror": Curse(next_combat=True),
    "truly-obnoxious-curse": Curse(lost=lost("huge-rock")),     # +3, the biggest bonus
}


def victim(**kw: Any) -> Table:
    base: dict[str, Any] = {"levels": {1: 5}, "races": {1: ["elf"]}, "classes": {1: ["thief"]}, "items": {1: GEAR}}
    base.update(kw)
    return scenario(CATALOG, ruleset=FAST, **base)


@pytest.mark.parametrize("card_id", sorted(CURSES))
def test_curse_on_a_victim(card_id):
    spec = CURSES[card_id]
    t = victim().play(card_id, "player-2", target="player-1")
    p = t.p(1)
    assert event(t, "CursePlayed") == {"card": card_id, "victim": "player-1"}
    assert p.alive and p.sex == spec.sex
    assert p.level == (5 if spec.level is None else spec.level)
    assert items(t) == set(GEAR) - spec.lost
    assert p.races == (["elf"] if spec.races is None else spec.races)
    assert p.classes == (["thief"] if spec.classes is None else spec.classes)
    assert p.curses == ([card_id] if spec.lasting else [])
    assert p.next_combat == ([card_id] if spec.next_combat else [])
    assert ("PlayersMustAct" in names(t)) is spec.must_act
    if spec.must_act:
        assert event(t, "PlayersMustAct")["source"] == card_id
    pl = t.state.pending_loss
    assert (None if pl is None else (pl.kind, pl.count)) == spec.pending
    if pl is not None:
        assert pl.player == "player-1" and pl.source == card_id
    # the other players are untouched
    assert [t.p(n).level for n in (2, 3)] == [1, 1]


def test_change_sex_minus_five_in_the_next_combat_only():
    t = victim().play("curse-change-sex", "player-2", target="player-1").play("net-troll")
    assert t.strengths() == (5 + GEAR_BONUS - 5, 10)
    t = victim(levels={1: 8}).play("curse-change-sex", "player-2", target="player-1").play("lame-goblin").fight()
    assert t.p(1).next_combat == [] and t.p(1).sex == "female"


def test_malign_mirror_only_armor_counts_in_the_next_combat():
    t = victim().play("curse-malign-mirror", "player-2", target="player-1").play("net-troll")
    assert t.strengths() == (5 + 1, 10)       # Leather Armor only


def test_chicken_on_your_head_minus_one_to_every_roll():
    t = victim().play("curse-chicken-on-your-head", "player-2", target="player-1").play("maul-rat").run().roll(4)
    assert event(t, "RunAwayFailed")["total"] == 4 + 1 - 1      # elf +1, chicken -1


def test_lose_your_class_without_a_class_costs_a_level():
    t = victim(classes={}).play("curse-lose-your-class", "player-2", target="player-1")
    assert t.p(1).level == 4


# ======================================================================== races and classes

RACE_CLASS = {"dwarf": "race", "elf": "race", "halfling": "race",
              "cleric": "class", "thief": "class", "warrior": "class", "wizard": "class"}


@pytest.mark.parametrize("card_id", sorted(RACE_CLASS))
def test_race_or_class_card(card_id):
    is_race = RACE_CLASS[card_id] == "race"
    assert CATALOG[card_id].kind.value == RACE_CLASS[card_id]
    t = scenario(CATALOG).play(card_id)
    assert (t.p(1).races if is_race else t.p(1).classes) == [card_id]
    assert event(t, "RaceChosen" if is_race else "ClassChosen")["card"] == card_id
    other = next(k for k, v in RACE_CLASS.items() if v == RACE_CLASS[card_id] and k != card_id)
    t = scenario(CATALOG).play(other).play(card_id)
    assert (t.p(1).races if is_race else t.p(1).classes) == [card_id]     # replaces, one of each
    RACE_CLASS_POWER[card_id]()


def _dwarf() -> None:
    t = scenario(CATALOG, races={1: ["dwarf"]}, items={1: ["huge-rock", "chainsaw-of-bloody-dismemberment"]})
    assert items(t) == {"huge-rock", "chainsaw-of-bloody-dismemberment"}
    t.play("curse-lose-your-race", "player-2", target="player-1")      # no longer a dwarf: one Big item
    pl = t.state.pending_loss
    assert (pl.player, pl.kind, pl.count) == ("player-1", "big", 1)


def _flee_total(race: str) -> int:
    t = scenario(CATALOG, races={1: [race]}).play("maul-rat").run().roll(3)
    return [e.data["total"] for e in t.events if e.name.startswith("RunAway")][0]


def _warrior() -> None:
    t = scenario(CATALOG, levels={1: 2}, classes={1: ["warrior"]}, monster="pit-bull")
    assert t.strengths() == (2, 2) and t.json()["combat"]["players_winning"] is True


def _cleric() -> None:
    t = scenario(CATALOG, classes={1: ["cleric"]}, monster="mr-bones").ability("turning", count=2)
    assert t.strengths() == (1 + 6, 2)


def _thief() -> None:
    t = scenario(CATALOG, levels={1: 4}, classes={2: ["thief"]}, monster="net-troll").help("player-3")
    t.ability("backstab", "player-2", target="player-1")
    assert t.strengths() == (4 - 2 + 1, 10)


def _wizard() -> None:
    t = scenario(CATALOG, classes={1: ["wizard"]}, monster="maul-rat").run().ability("flight", count=2).roll(3)
    assert event(t, "RunAwaySucceeded")["total"] == 3 + 2


def _elf() -> None:
    assert _flee_total("elf") == 3 + 1


def _halfling() -> None:
    assert _flee_total("halfling") == 3 - 1          # the default ruleset: the older printing's -1


RACE_CLASS_POWER: dict[str, Callable[[], None]] = {
    "dwarf": _dwarf, "elf": _elf, "halfling": _halfling, "cleric": _cleric, "thief": _thief, "warrior": _warrior, "wizard": _wizard,
}


# ======================================================================== items

@dataclass(frozen=True)
class I:
    bonus: int | None
    slot: str
    requires: str | None = None
    big: bool = False


ITEMS: dict[str, I] = {
    "bad-ass-bandana": I(3, "headgear", "human"),
    "boots-of-butt-kicking": I(2, "footgear"),
    "boots-of-running-really-fast": I(None, "footgear"),
    "bow-with-ribbons": I(4, "2-hand", "elf"),
    "broad-sword": I(3, "1-hand", "female"),
    "buckler-of-swashing": I(2, "1-hand"),
    "chainsaw-of-bloody-dismemberment": I(3, "2-hand", big=True),
    "cheese-grater-of-peace": I(3, "1-hand", "cleric"),
    "cloak-of-obscurity": I(4, "none", "thief"),
    "dagger-of-treachery": I(3, "1-hand", "thief"),
    "eleven-foot-pole": I(1, "2-hand"),
    "flaming-armor": I(2, "armor"),
    "gentlemen-s-club": I(3, "1-hand", "male"),
    "hammer-of-kneecapping": I(4, "1-hand", "dwarf"),
    "helm-of-courage": I(1, "headgear"),
    "hireling": I(1, "none"),
    "horny-helmet": I(1, "headgear"),
    "huge-rock": I(3, "2-hand", big=True),
    "kneepads-of-allure": I(None, "none", "not-cleric"),
    "leather-armor": I(1, "armor"),
    "limburger-and-anchovy-sandwich": I(3, "none", "halfling"),
    "mace-of-sharpness": I(4, "1-hand", "cleric"),
    "mithril-armor": I(3, "armor", "not-wizard", big=True),
    "pantyhose-of-giant-strength": I(3, "none", "not-warrior"),
    "pointy-hat-of-power": I(3, "headgear", "wizard"),
    "rapier-of-unfairness": I(3, "1-hand", "elf"),
    "rat-on-a-stick": I(1, "1-hand"),
    "really-impressive-title": I(3, "none"),
    "sandals-of-protection": I(None, "footgear"),
    "shield-of-ubiquity": I(4, "1-hand", "warrior", big=True),
    "short-wide-armor": I(3, "armor", "dwarf"),
    "singing-and-dancing-sword": I(2, "none", "not-thief"),
    "slimy-armor": I(1, "armor"),
    "sneaky-bastard-sword": I(2, "1-hand"),
    "spiky-knees": I(1, "none"),
    "staff-of-napalm": I(5, "1-hand", "wizard"),
    "stepladder": I(3, "none", "halfling", big=True),
    "swiss-army-polearm": I(4, "2-hand", "human", big=True),
    "tuba-of-charm": I(None, "1-hand", big=True),
}

SLOT_BLOCKERS = {"headgear": ["helm-of-courage", "horny-helmet"], "armor": ["leather-armor", "slimy-armor"],
                 "footgear": ["boots-of-butt-kicking", "sandals-of-protection"],
                 "1-hand": ["eleven-foot-pole", "buckler-of-swashing"], "2-hand": ["eleven-foot-pole", "huge-rock"]}


def allowed_ctx(requires: str | None) -> tuple[str, ...]:
    if requires is None or requires.startswith("not-") or requires in ("human", "male"):
        return ()
    return (requires,)


def barred_ctx(requires: str) -> tuple[str, ...]:
    if requires.startswith("not-"):
        return (requires[4:],)
    return {"human": ("elf",), "male": ("female",), "female": ("male",)}.get(requires, ())


@pytest.mark.parametrize("card_id", sorted(ITEMS))
def test_item(card_id):
    spec = ITEMS[card_id]
    card = CATALOG[card_id]
    assert (card.bonus, card.slot.value, card.requires, card.big) == (spec.bonus, spec.slot, spec.requires, spec.big)
    ctx = allowed_ctx(spec.requires)
    # usable: equipped, and the strength rises by its bonus (in and out of combat)
    t = scenario(CATALOG, levels={1: 2}, **traits_kw(*ctx)).play(card_id)
    assert t.p(1).equipped == [card_id] and t.p(1).carried == []
    assert event(t, "ItemEquipped")["card"] == card_id
    assert t.json()["players"][0]["combat_strength"] == 2 + (spec.bonus or 0)
    t.play("net-troll")
    assert t.strengths() == (2 + (spec.bonus or 0), 10)
    # barred by its restriction: carried, and it adds nothing
    if spec.requires:
        t = scenario(CATALOG, levels={1: 2}, **traits_kw(*barred_ctx(spec.requires))).play(card_id)
        assert t.p(1).equipped == [] and t.p(1).carried == [card_id]
        why = event(t, "ItemCarried")["why"]
        assert spec.requires.removeprefix("not-") in why and card.name in why
        assert t.json()["players"][0]["combat_strength"] == 2
    # its slot already taken: carried
    if spec.slot != "none":
        blocker = next(b for b in SLOT_BLOCKERS[spec.slot] if b != card_id)
        t = scenario(CATALOG, levels={1: 2}, items={1: [blocker]}, **traits_kw(*ctx)).play(card_id)
        assert t.p(1).equipped == [blocker] and t.p(1).carried == [card_id]
        why = event(t, "ItemCarried")["why"]
        assert "already wears" in why if spec.slot in ("headgear", "armor", "footgear") else "hands are full" in why
    # Big: one only, unless a dwarf (or a Hireling carries one more)
    other_big = "huge-rock" if card_id != "huge-rock" else "chainsaw-of-bloody-dismemberment"
    t = scenario(CATALOG, items={1: [other_big]}, **traits_kw(*ctx))
    if spec.big:
        r = refused(t, c.PlayCard(player="player-1", card=card_id), RejectCode.ILLEGAL_PLAY)
        assert card.name in r.message and "Big" in r.message
        t = scenario(CATALOG, items={1: [other_big]}, races={1: ["dwarf"]}).play(card_id)
        assert items(t) == {other_big, card_id}
        t = scenario(CATALOG, items={1: ["hireling", other_big]}, **traits_kw(*ctx)).play(card_id)
        assert items(t) == {"hireling", other_big, card_id}
    else:
        t.play(card_id)
        assert card_id in items(t)
    ITEM_POWER.get(card_id, lambda: None)()


def _flee_with(item: str, monster: str = "maul-rat", die: int = 2) -> Table:
    return scenario(CATALOG, items={1: [item]}).play(monster).run().roll(die)


def _boots_of_running() -> None:
    t = _flee_with("boots-of-running-really-fast")
    assert event(t, "RunAwayFailed")["total"] == 2 + 2


def _tuba() -> None:
    t = _flee_with("tuba-of-charm")
    assert event(t, "RunAwaySucceeded")["total"] == 2 + 3
    assert t.state.treasures_to_draw == 1


def _hireling() -> None:
    t = scenario(CATALOG, items={1: ["hireling"]}, monster="plutonium-dragon").use("hireling", "escape")
    assert t.state.combat is None and items(t) == set()


def _rat_on_a_stick() -> None:
    t = scenario(CATALOG, items={1: ["rat-on-a-stick"]}, monster="gazebo").use("rat-on-a-stick", "escape")
    assert t.state.combat is None and items(t) == set()
    t = scenario(CATALOG, items={1: ["rat-on-a-stick"]}, monster="net-troll")
    refused(t, c.UseCard(player="player-1", card="rat-on-a-stick", action="escape"), RejectCode.ILLEGAL_PLAY)


def _sandals() -> None:
    t = scenario(CATALOG, levels={1: 3}, items={1: ["sandals-of-protection"]}).play("curse-lose-a-level")
    assert event(t, "CurseBlocked")["by"] == "sandals-of-protection" and t.p(1).level == 3
    t.play("curse-lose-a-level", "player-2", target="player-1")
    assert t.p(1).level == 2


def _horny_helmet() -> None:
    t = scenario(CATALOG, races={1: ["elf"]}).play("horny-helmet")
    assert t.json()["players"][0]["combat_strength"] == 1 + 1 + 2


ITEM_POWER: dict[str, Callable[[], None]] = {
    "boots-of-running-really-fast": _boots_of_running, "tuba-of-charm": _tuba, "hireling": _hireling,
    "rat-on-a-stick": _rat_on_a_stick, "sandals-of-protection": _sandals, "horny-helmet": _horny_helmet,
}


# ======================================================================== one-shots

ONE_SHOT_BONUS = {
    "cotion-of-ponfusion": 3, "electric-radioactive-acid-potion": 5, "flaming-poison-potion": 3,
    "freezing-explosive-potion": 3, "magic-missile": 5, "nasty-tasting-sports-drink": 2,
    "potion-of-halitosis": 2, "potion-of-idiotic-bravery": 2, "pretty-balloons": 5, "sleep-potion": 2,
}


@pytest.mark.parametrize("card_id", sorted(ONE_SHOT_BONUS))
def test_one_shot_bonus_for_either_side(card_id):
    b = ONE_SHOT_BONUS[card_id]
    assert CATALOG[card_id].bonus == b
    t = scenario(CATALOG, levels={1: 3}, monster="net-troll").play(card_id)
    assert t.strengths() == (3 + b, 10)
    assert event(t, "OneShotPlayed") == {"card": card_id, "side": "players", "bonus": b}
    t = scenario(CATALOG, levels={1: 3}, monster="net-troll").play(card_id, "player-2")
    assert t.strengths() == (3, 10 + b)
    refused(scenario(CATALOG), c.PlayCard(player="player-1", card=card_id), RejectCode.WRONG_PHASE)


def fight_goblin(level: int = 3, **kw: Any) -> Table:
    """player-1 at ``level`` (level 2 by default) flees the Lame Goblin (bad stuff: lose 1 level)."""
    return scenario(CATALOG, levels={1: level}, monster="lame-goblin", **kw)


def _doppleganger() -> None:
    t = scenario(CATALOG, levels={1: 3}, items={1: ["huge-rock"]}, monster="net-troll").play("doppleganger")
    assert t.strengths() == ((3 + 3) * 2, 10)
    t = scenario(CATALOG, levels={1: 3}, monster="net-troll").help("player-2")
    refused(t, c.PlayCard(player="player-1", card="doppleganger"), RejectCode.ILLEGAL_PLAY)


def _flask_of_glue() -> None:
    t = fight_goblin().run().roll(6)
    assert t.state.phase.value == "charity"
    t.play("flask-of-glue", "player-2")
    assert event(t, "EscapeUndone")["player"] == "player-1"
    assert t.state.phase.value == "run-away" and t.json()["run_away"]["pending"][0]["player"] == "player-1"
    t.roll(1)
    assert t.p(1).level == 2


def _friendship() -> None:
    t = scenario(CATALOG, levels={1: 3}, monster="net-troll").play("friendship-potion", "player-2")
    assert t.state.combat is None and t.state.phase.value == "charity" and event(t, "RoomLooted")["player"] == "player-1"
    assert t.state.treasures_to_draw == 0 and t.p(1).level == 3


def _instant_wall() -> None:
    t = scenario(CATALOG, levels={1: 3}, monster="net-troll").help("player-2").play("instant-wall")
    assert set(event(t, "AutoEscape")["players"]) == {"player-1", "player-2"}
    assert t.state.combat is None and t.p(1).level == 3 and "PlayersMustAct" not in names(t)


def _invisibility() -> None:
    t = fight_goblin().run().roll(1)
    assert t.p(1).level == 2
    t.play("invisibility-potion")
    assert t.p(1).level == 3 and t.state.combat is None and event(t, "RunAwaySucceeded")["roll"] == 1
    t = fight_goblin().run().roll(6)
    refused(t, c.PlayCard(player="player-1", card="invisibility-potion"))


def _loaded_die() -> None:
    t = fight_goblin().run().roll(1).play("loaded-die", value=6)
    assert t.p(1).level == 3 and event(t, "RunAwaySucceeded")["roll"] == 6
    t = fight_goblin().run().roll(6).play("loaded-die", "player-2", value=1)
    assert t.p(1).level == 2 and event(t, "RunAwayFailed")["roll"] == 1


def _magic_lamp() -> None:
    t = scenario(CATALOG, levels={1: 3}, monster="net-troll")
    refused(t, c.PlayCard(player="player-2", card="magic-lamp"), RejectCode.NOT_YOUR_TURN)
    t.play("magic-lamp")
    assert t.state.combat is None and t.state.treasures_to_draw == 3 and t.p(1).level == 3


def _pollymorph() -> None:
    t = scenario(CATALOG, levels={1: 3}, monster="net-troll").play("pollymorph-potion", "player-2")
    assert event(t, "MonsterRemoved")["card"] == "net-troll"
    assert t.state.combat is None and t.state.treasures_to_draw == 0 and t.p(1).level == 3


def _transferral() -> None:
    t = scenario(CATALOG, levels={1: 3}, monster="net-troll").play("transferral-potion", target="player-2")
    assert t.json()["combat"]["fighters"] == ["player-2"]


def _wand_of_dowsing() -> None:
    t = scenario(CATALOG).play("wand-of-dowsing")
    assert event(t, "PlayersMustAct")["source"] == "wand-of-dowsing"


def _wishing_ring() -> None:
    t = scenario(CATALOG).play("curse-chicken-on-your-head", "player-2", target="player-1").play("wishing-ring")
    assert t.p(1).curses == [] and event(t, "CurseCancelled")["card"] == "curse-chicken-on-your-head"
    refused(scenario(CATALOG), c.PlayCard(player="player-1", card="wishing-ring"), RejectCode.ILLEGAL_TARGET)


def _yuppie_water() -> None:
    t = scenario(CATALOG, races={1: ["elf"], 2: ["elf"]}, monster="net-troll").help("player-2")
    t.play("yuppie-water", "player-3")
    assert t.strengths() == (1 + 1 + 2 * 2, 10)
    refused(scenario(CATALOG, monster="net-troll"), c.PlayCard(player="player-1", card="yuppie-water"))


def _hoard() -> None:
    t = scenario(CATALOG).play("hoard")
    assert t.state.treasures_to_draw == 3


def _steal_a_level() -> None:
    t = scenario(CATALOG, levels={2: 3}).play("steal-a-level", target="player-2")
    assert (t.p(1).level, t.p(2).level) == (2, 2)
    refused(scenario(CATALOG), c.PlayCard(player="player-1", card="steal-a-level", target="player-2"))


def _halitosis_kills_the_nose() -> None:
    t = scenario(CATALOG, ruleset=FAST, monster="floating-nose").play("potion-of-halitosis")
    assert monster_strengths(t) == [0] and event(t, "MonsterSlain")["card"] == "floating-nose"
    t.fight()
    assert t.p(1).level == 2 and t.state.treasures_to_draw == 3


ONE_SHOT_EFFECT: dict[str, Callable[[], None]] = {
    "doppleganger": _doppleganger, "flask-of-glue": _flask_of_glue, "friendship-potion": _friendship,
    "instant-wall": _instant_wall, "invisibility-potion": _invisibility, "loaded-die": _loaded_die,
    "magic-lamp": _magic_lamp, "pollymorph-potion": _pollymorph, "transferral-potion": _transferral,
    "wand-of-dowsing": _wand_of_dowsing, "wishing-ring": _wishing_ring, "yuppie-water": _yuppie_water,
    "hoard": _hoard, "steal-a-level": _steal_a_level, "potion-of-halitosis": _halitosis_kills_the_nose,
}


@pytest.mark.parametrize("card_id", sorted(ONE_SHOT_EFFECT))
def test_one_shot_effect(card_id):
    ONE_SHOT_EFFECT[card_id]()


# ======================================================================== monster enhancers

ENHANCERS = {"ancient": (10, 2), "baby": (-5, -1), "enraged": (5, 1), "humongous": (10, 2), "intelligent": (5, 1)}


@pytest.mark.parametrize("card_id", sorted(ENHANCERS))
def test_monster_enhancer(card_id):
    bonus, more = ENHANCERS[card_id]
    t = scenario(CATALOG, levels={1: 8}, items={1: GEAR}, ruleset=FAST, monster="harpies")
    t.play(card_id, "player-2")
    assert t.json()["combat"]["monsters"][0]["enhancers"] == [card_id]
    assert monster_strengths(t) == [max(4 + bonus, 1)]
    t.fight()
    assert t.p(1).level == 9 and t.state.treasures_to_draw == max(2 + more, 1)
    # on a one-treasure monster: never less than one treasure
    t = scenario(CATALOG, levels={1: 8}, items={1: GEAR}, ruleset=FAST, monster="lame-goblin")
    t.play(card_id, "player-2")
    assert monster_strengths(t) == [max(1 + bonus, 1)]
    t.fight()
    assert t.state.treasures_to_draw == max(1 + more, 1)


# ======================================================================== specials and the Wandering Monster

def _wandering() -> None:
    t = scenario(CATALOG, monster="lame-goblin")
    refused(t, c.PlayCard(player="player-2", card="maul-rat"), RejectCode.ILLEGAL_PLAY)
    t.play("wandering-monster", "player-2").play("maul-rat", "player-2")
    assert [m["card"] for m in t.json()["combat"]["monsters"]] == ["lame-goblin", "maul-rat"]
    assert t.strengths() == (1, 1 + 1)


def _cheat() -> None:
    t = scenario(CATALOG, items={1: ["mace-of-sharpness"]})
    assert t.p(1).carried == ["mace-of-sharpness"]
    t.play("cheat", item="mace-of-sharpness")
    assert t.p(1).equipped == ["mace-of-sharpness"] and t.p(1).cheat_on == "mace-of-sharpness"
    assert t.json()["players"][0]["combat_strength"] == 1 + 4


def _divine() -> None:
    t = scenario(CATALOG, levels={1: 2, 2: 9, 3: 4}, classes={2: ["cleric"], 3: ["cleric"]}).play("divine-intervention")
    assert [t.p(n).level for n in (1, 2, 3)] == [2, 10, 5]
    assert t.state.winners == ["player-2"]


def _half_breed() -> None:
    t = scenario(CATALOG, races={1: ["elf"]}).play("half-breed").play("dwarf")
    assert t.p(1).races == ["elf", "dwarf"] and t.p(1).specials == ["half-breed"]
    refused(scenario(CATALOG), c.PlayCard(player="player-1", card="half-breed"), RejectCode.ILLEGAL_PLAY)


def _super_munchkin() -> None:
    t = scenario(CATALOG, classes={1: ["wizard"]}).play("super-munchkin").play("warrior")
    assert t.p(1).classes == ["wizard", "warrior"] and t.p(1).specials == ["super-munchkin"]
    refused(scenario(CATALOG), c.PlayCard(player="player-1", card="super-munchkin"), RejectCode.ILLEGAL_PLAY)


def _help_me_out_here() -> None:
    t = scenario(CATALOG, items={2: ["sneaky-bastard-sword"]}, monster="pit-bull")
    assert t.json()["combat"]["players_winning"] is False
    t.play("help-me-out-here", item="sneaky-bastard-sword")
    assert t.p(1).equipped == ["sneaky-bastard-sword"] and items(t, 2) == set()
    assert t.strengths() == (1 + 2, 2)


def _illusion() -> None:
    t = scenario(CATALOG, monster="lame-goblin").play("illusion", "player-2").play("net-troll", "player-2")
    assert [m["card"] for m in t.json()["combat"]["monsters"]] == ["net-troll"]


def _mate() -> None:
    t = scenario(CATALOG, levels={1: 7}, items={1: GEAR}, ruleset=FAST, monster="harpies")
    t.play("enraged", "player-2").play("mate", "player-2")
    assert monster_strengths(t) == [9, 9] and t.json()["combat"]["monsters"][1]["mate"] is True
    t.play("electric-radioactive-acid-potion", side="players").fight()       # 7 + 7 + 5 > 9 + 9
    assert t.p(1).level == 9 and t.state.treasures_to_draw == 2 * (2 + 1)
    t = scenario(CATALOG, monster="maul-rat").play("mate", "player-2").run().roll(5).roll(5)
    assert [e.data["total"] for e in t.events if e.name.startswith("RunAway")] == [5 - 1]


def _out_to_lunch() -> None:
    t = scenario(CATALOG, levels={1: 3}, monster="net-troll").play("out-to-lunch", "player-2")
    assert t.state.combat is None and t.state.treasures_to_draw == 2 and t.p(1).level == 3


SPECIALS: dict[str, Callable[[], None]] = {
    "wandering-monster": _wandering, "cheat": _cheat, "divine-intervention": _divine, "half-breed": _half_breed,
    "super-munchkin": _super_munchkin, "help-me-out-here": _help_me_out_here, "illusion": _illusion,
    "mate": _mate, "out-to-lunch": _out_to_lunch,
}


@pytest.mark.parametrize("card_id", sorted(SPECIALS))
def test_special_card(card_id):
    SPECIALS[card_id]()


# ======================================================================== go up a level

def _whine() -> Table:
    t = scenario(CATALOG, levels={1: 3, 2: 3})
    refused(t, c.PlayCard(player="player-1", card="whine-at-the-gm"), RejectCode.ILLEGAL_PLAY)
    return scenario(CATALOG, levels={1: 2, 2: 3})


def _kill_the_hireling() -> Table:
    refused(scenario(CATALOG), c.PlayCard(player="player-1", card="kill-the-hireling"), RejectCode.ILLEGAL_PLAY)
    return scenario(CATALOG, items={2: ["hireling", "huge-rock", "chainsaw-of-bloody-dismemberment"]})


def _mutilate() -> Table:
    t = scenario(CATALOG, levels={1: 2}, ruleset=FAST)
    refused(t, c.PlayCard(player="player-1", card="mutilate-the-bodies"), RejectCode.ILLEGAL_PLAY)
    return t.play("lame-goblin").fight()


GO_UP = {"1000-gold-pieces": None, "boil-an-anthill": None, "bribe-gm-with-food": None,
         "convenient-addition-error": None, "invoke-obscure-rules": None, "potion-of-general-studliness": None,
         "whine-at-the-gm": _whine, "kill-the-hireling": _kill_the_hireling, "mutilate-the-bodies": _mutilate}


@pytest.mark.parametrize("card_id", sorted(GO_UP))
def test_go_up_a_level(card_id):
    setup = GO_UP[card_id]
    t = setup() if setup else scenario(CATALOG, levels={1: 4})
    before = t.p(1).level
    t.play(card_id)
    assert t.p(1).level == before + 1
    assert event(t, "LevelGained")["why"] == card_id
    if card_id == "kill-the-hireling":       # the Hireling goes, and with him room for a second Big item
        assert "hireling" not in items(t, 2)
        pl = t.state.pending_loss
        assert (pl.player, pl.kind, pl.count) == ("player-2", "big", 1)
    # never the winning level
    t = scenario(CATALOG, levels={1: 9, 2: 9, 3: 9})
    refused(t, c.PlayCard(player="player-1", card=card_id), RejectCode.ILLEGAL_PLAY)


# ======================================================================== every card is covered

def manual_cards() -> set[str]:
    by_name = {CATALOG[i].name: i for i in CATALOG}
    found = set()
    for line in MANUAL_DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\|\s*([^|]+?)\s*\|", line)
        if not m or m.group(1) in ("card", "---") or set(m.group(1)) <= {"-"}:
            continue
        name = m.group(1).removesuffix(" (bad stuff)")
        assert name in by_name, f"docs/manual-cards.md names {name!r}, which is not in the catalog"
        found.add(by_name[name])
    return found


COVERED = {*MONSTERS, *LOSSES, *CURSES, *RACE_CLASS, *ITEMS, *ONE_SHOT_BONUS, *ONE_SHOT_EFFECT, *ENHANCERS,
           *SPECIALS, *GO_UP}


def test_the_manual_list_is_what_the_card_data_says():
    manual = manual_cards()
    count = re.search(r"These (\d+) of the (\d+)", MANUAL_DOC.read_text(encoding="utf-8"))
    assert count and int(count.group(1)) == len(manual) and int(count.group(2)) == len(CATALOG)
    says_manual = {i for i in CATALOG
                   if any(e.op == "manual" for e in (*CATALOG[i].bad_stuff, *CATALOG[i].effects))}
    assert manual == says_manual


def test_every_card_has_a_tested_behaviour_or_is_on_the_manual_list():
    catalog_ids = set(CATALOG)
    assert COVERED <= catalog_ids, f"tables name unknown cards: {sorted(COVERED - catalog_ids)}"
    missing = catalog_ids - COVERED - manual_cards()
    assert not missing, f"cards with no tested behaviour and not on docs/manual-cards.md: {sorted(missing)}"
    assert set(MONSTERS) == set(LOSSES) == {i for i in CATALOG if CATALOG[i].kind.value == "monster"}
    assert set(ITEMS) == {i for i in CATALOG if CATALOG[i].kind.value == "item"}


def _slot_problem_as_written(card: Any, player: Any) -> str | None:
    """``slot_problem`` as it was before it looked only at slotted items (the oracle)."""
    if player.cheat_on == card.id:
        return None
    worn = [CATALOG[i] for i in player.equipped if i != card.id and i != player.cheat_on]
    if card.slot in SINGLE_SLOTS:
        for other in worn:
            if other.slot is card.slot:
                return msg("{player} already wears {other} as {slot}", player=player, other=other, slot=card.slot)
    if card.slot in HAND_SLOTS:
        hands = sum(HAND_SLOTS.get(o.slot, 0) for o in worn if o.slot is not None)
        if hands + HAND_SLOTS[card.slot] > 2:
            return msg("{player}'s hands are full", player=player)
    return None


def test_the_slot_and_big_limits_answer_as_counted_out_for_every_item() -> None:
    """``slot_problem`` looks only at slotted items, and ``excess_big_items`` asks the limit only past
    one Big item: both still answer, for every item beside every other (two hand items too), what
    counting everything worn and carried gives."""
    items = sorted(i for i, card in CATALOG.items() if card.kind is Kind.ITEM)
    hands = [i for i in items if CATALOG[i].slot in (Slot.ONE_HAND, Slot.TWO_HANDS)]
    bigs = [i for i in items if CATALOG[i].big]
    worn_sets = [[], *([i] for i in items), *([a, b] for a in hands for b in hands if a < b)]
    answers = set()
    for worn in worn_sets:
        for cheat in (None, worn[0] if worn else None):
            player = Player("player-1", "Ann", equipped=list(worn), cheat_on=cheat)
            for card_id in items:
                answer = slot_problem(CATALOG[card_id], player, CATALOG)
                assert answer == _slot_problem_as_written(CATALOG[card_id], player), (worn, cheat, card_id)
                answers.add(answer is None)
    assert answers == {True, False}
    for n in range(len(bigs) + 1):
        for races in ([], ["dwarf"]):
            for extra in ([], ["hireling"]):
                for cheat in (None, bigs[0]):
                    player = Player("player-1", "Ann", races=list(races), equipped=bigs[:n], carried=list(extra), cheat_on=cheat)
                    limit = big_limit(player, CATALOG)
                    counted = sum(1 for i in bigs[:n] if i != cheat)
                    assert excess_big_items(player, CATALOG) == (0 if limit is None else max(0, counted - limit))
