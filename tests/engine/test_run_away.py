from engine import commands as c
from engine.game import replay
from engine.results import RejectCode
from engine.rules import Ruleset

from tests.engine.scenario import scenario


def test_run_away_escapes_on_five(catalog):
    t = scenario(catalog, monster="flying-frogs").run().roll(6)
    assert t.state.phase.value == "charity" and t.p(1).level == 1


def test_run_away_fails_below_five_and_applies_bad_stuff(catalog):
    t = scenario(catalog, levels={1: 4}, monster="harpies").run().roll(4)
    assert t.p(1).level == 2


def test_one_roll_per_fleeing_player_per_monster(catalog):
    t = scenario(catalog, monster="net-troll").play("wandering-monster").play("gazebo").run()
    assert len(t.state.flight.pending) == 2
    t.roll(6).roll(6)
    assert t.state.combat is None


def test_helper_rolls_too(catalog):
    t = scenario(catalog, monster="net-troll").help("player-2").run()
    assert [p for p, _ in t.state.flight.pending] == ["player-1", "player-2"]


def test_elf_gets_plus_one_to_run_away(catalog):
    t = scenario(catalog, levels={1: 4}, races={1: ["elf"]}, monster="harpies").run().roll(4)
    assert t.p(1).level == 4


def test_run_away_items_add(catalog):
    t = scenario(catalog, levels={1: 4}, items={1: ["boots-of-running-really-fast"]}, monster="harpies").run().roll(3)
    assert t.p(1).level == 4


def test_tuba_of_charm_adds_three_and_a_treasure(catalog):
    t = scenario(catalog, levels={1: 4}, items={1: ["tuba-of-charm"]}, monster="harpies").run().roll(2)
    assert t.p(1).level == 4 and t.state.treasures_to_draw == 1


def test_monster_run_away_modifiers(catalog):
    t = scenario(catalog, levels={1: 4}, items={1: ["helm-of-courage"]}, monster="snails-on-speed").run().roll(6)
    assert t.json()["prompt"]["kind"] == "bad-stuff-roll"      # 6 - 2 = 4: caught; the Bad Stuff's die next
    t2 = scenario(catalog, levels={1: 3}, monster="lame-goblin").run().roll(4)
    assert t2.p(1).level == 3
    t3 = scenario(catalog, levels={1: 3}, monster="gelatinous-octahedron").run().roll(4)
    assert t3.state.combat is None
    t4 = scenario(catalog, levels={1: 3}, monster="flying-frogs").run().roll(5)
    assert t4.p(1).level == 1


def test_mate_gives_minus_one_to_run_away(catalog):
    t = scenario(catalog, levels={1: 5}, monster="lame-goblin").play("mate", "player-2").run().roll(4).roll(4)
    assert t.p(1).level == 4


def test_chicken_on_your_head_minus_one_to_run_away(catalog):
    t = scenario(catalog, levels={1: 4}).play("curse-chicken-on-your-head", "player-2", target="player-1")
    assert t.p(1).curses == ["curse-chicken-on-your-head"]
    t.play("harpies").run().roll(5)
    assert t.p(1).level == 2


def test_halfling_minus_one_to_run_away_by_default(catalog):
    t = scenario(catalog, levels={1: 4}, races={1: ["halfling"]}, monster="harpies").run().roll(5)
    assert t.p(1).level == 2


def test_halfling_rerolls_a_failed_first_run_away_when_the_ruleset_says(catalog):
    t = scenario(catalog, levels={1: 4}, races={1: ["halfling"]}, monster="harpies",
                 ruleset=Ruleset(halfling_run_away="reroll"), seed=3).run().roll(5)
    assert t.p(1).level == 4
    t = scenario(catalog, levels={1: 4}, races={1: ["halfling"]}, monster="harpies",
                 ruleset=Ruleset(halfling_run_away="reroll"), seed=3).run().roll(2)
    assert t.p(1).level == 2
    t.ability("reroll")
    rolled = t.state.last_roll
    assert t.p(1).level == (4 if rolled >= 5 else 2)
    assert t.attempt(c.UseAbility(player="player-1", ability="reroll")).code is RejectCode.ILLEGAL_PLAY


def test_nobody_outruns_crabs_the_bad_stuff_comes_without_a_roll(catalog):
    t = scenario(catalog, items={1: ["leather-armor", "boots-of-butt-kicking", "helm-of-courage"]},
                 monster="crabs").run()
    assert t.state.phase.value == "charity" and t.state.combat is None and t.state.rolls == 0
    assert t.p(1).equipped == ["helm-of-courage"]
    failed = [e for e in t.events if e.name == "RunAwayFailed"]
    assert len(failed) == 1 and failed[0].data["automatic"] is True


def test_a_helper_is_caught_by_crabs_too_and_other_monsters_still_get_rolls(catalog):
    t = scenario(catalog, levels={1: 5}, items={2: ["leather-armor"]}, monster="crabs")
    t.do(c.AddHelper(player="player-1", helper="player-2"))
    t.play("wandering-monster").play("flying-frogs").run()
    assert t.state.phase.value == "run-away" and t.p(2).equipped == ["leather-armor"]    # nobody chose yet
    assert [m for _, m in t.state.flight.pending] == [1, 0, 1, 0]    # each: the frogs' roll, then the crabs
    t.roll(6)                                                         # player-1 escapes the frogs: the crabs catch
    assert [m for _, m in t.state.flight.pending] == [1, 0] and t.p(2).equipped == ["leather-armor"]
    t.roll(6)
    assert t.state.phase.value == "charity" and t.p(1).level == 5 and t.p(2).equipped == []


def test_potted_plant_automatic_escape(catalog):
    t = scenario(catalog, monster="potted-plant").run()
    assert t.state.combat is None


def test_stoned_golem_may_be_declined_but_not_by_halflings(catalog):
    assert scenario(catalog, monster="stoned-golem").run().state.combat is None
    t = scenario(catalog, races={1: ["halfling"]}, monster="stoned-golem").run()
    assert t.state.flight.pending == [("player-1", 0)]


def test_will_not_pursue_low_levels(catalog):
    for monster, level in (("bullrog", 4), ("plutonium-dragon", 5), ("hippogriff", 3), ("squidzilla", 4)):
        t = scenario(catalog, levels={1: level}, monster=monster).run()
        assert t.state.combat is None, monster
    t = scenario(catalog, levels={1: 5}, monster="bullrog").run().roll(1)
    assert not t.p(1).alive


def test_squidzilla_pursues_elves_anyway(catalog):
    t = scenario(catalog, races={1: ["elf"]}, monster="squidzilla").run()
    assert t.state.flight.pending


def test_king_tut_costs_two_levels_even_on_escape(catalog):
    t = scenario(catalog, levels={1: 5}, monster="king-tut").run().roll(6)
    assert t.p(1).level == 3


def test_mr_bones_costs_a_level_even_on_escape(catalog):
    t = scenario(catalog, levels={1: 5}, monster="mr-bones").run().roll(6)
    assert t.p(1).level == 4


def test_wight_brothers_reduce_to_level_one(catalog):
    t = scenario(catalog, levels={1: 6}, monster="wight-brothers").run().roll(1)
    assert t.p(1).level == 1


def test_invisibility_potion_turns_a_failed_roll_into_an_escape(catalog):
    t = scenario(catalog, levels={1: 4}, monster="harpies").run().roll(1)
    assert t.p(1).level == 2
    t.play("invisibility-potion")
    assert t.p(1).level == 4 and t.state.combat is None


def test_loaded_die_chooses_the_result(catalog):
    t = scenario(catalog, levels={1: 4}, monster="harpies").run().roll(1).play("loaded-die", value=6)
    assert t.p(1).level == 4 and t.state.last_roll == 6
    t = scenario(catalog, levels={1: 4}, monster="harpies").run().roll(6).play("loaded-die", "player-2", value=1)
    assert t.p(1).level == 2


def test_flask_of_glue_makes_an_escaped_player_roll_again(catalog):
    t = scenario(catalog, levels={1: 4}, monster="harpies").run().roll(6)
    t.play("flask-of-glue", "player-2")
    assert t.state.phase.value == "run-away" and t.state.flight.pending == [("player-1", 0)]
    t.roll(2)
    assert t.p(1).level == 2


def test_instant_wall_escapes_everyone(catalog):
    t = scenario(catalog, monster="net-troll").help("player-2").play("instant-wall")
    assert t.state.combat is None


def test_rat_on_a_stick_escapes_small_monsters(catalog):
    t = scenario(catalog, items={1: ["rat-on-a-stick"]}, monster="maul-rat").use("rat-on-a-stick", "escape")
    assert t.state.combat is None and t.p(1).equipped == []
    t = scenario(catalog, items={1: ["rat-on-a-stick"]}, monster="net-troll")
    assert t.attempt(c.UseCard(player="player-1", card="rat-on-a-stick", action="escape")).code is RejectCode.ILLEGAL_PLAY


def test_pit_bull_escape_by_dropping_a_pole(catalog):
    t = scenario(catalog, items={1: ["eleven-foot-pole"]}, monster="pit-bull").use("eleven-foot-pole", "escape")
    assert t.state.combat is None


def test_hireling_discarded_for_automatic_escape(catalog):
    t = scenario(catalog, items={1: ["hireling"]}, monster="bigfoot").use("hireling", "escape")
    assert t.state.combat is None


def test_wizard_flight_spell(catalog):
    t = scenario(catalog, levels={1: 4}, classes={1: ["wizard"]}, monster="lame-goblin").run()
    t.ability("flight", count=3)
    assert t.attempt(c.UseAbility(player="player-1", ability="flight", count=1)).code is RejectCode.ILLEGAL_PLAY
    t.roll(1)
    assert t.p(1).level == 4


def test_death_loses_items_keeps_level_race_class_curses(catalog):
    t = scenario(catalog, levels={1: 6, 2: 3, 3: 3}, races={1: ["elf"]}, classes={1: ["thief"]},
                 items={1: ["helm-of-courage", "dagger-of-treachery"]})
    t.play("curse-chicken-on-your-head", "player-2", target="player-1").play("bullrog").run().roll(1)
    p = t.p(1)
    assert not p.alive and p.level == 6 and p.races == ["elf"] and p.classes == ["thief"]
    assert p.equipped == [] and p.curses == ["curse-chicken-on-your-head"]
    assert t.json()["looting"]["items"] == ["helm-of-courage", "dagger-of-treachery"]
    assert sorted(t.json()["looting"]["order"]) == ["player-2", "player-3"]


def test_looting_order_by_level(catalog):
    t = scenario(catalog, levels={1: 6, 2: 2, 3: 5}, items={1: ["helm-of-courage"]}).play("bullrog").run().roll(1)
    assert t.json()["looting"]["order"] == ["player-3", "player-2"]


def test_death_loses_race_and_class_when_the_ruleset_says(catalog):
    t = scenario(catalog, levels={1: 6}, races={1: ["elf"]}, classes={1: ["thief"]},
                 ruleset=Ruleset(death_keeps_race_and_class=False)).play("bullrog").run().roll(1)
    assert t.p(1).races == [] and t.p(1).classes == []


def test_revived_at_the_next_turn(catalog):
    t = scenario(catalog, levels={1: 6}).play("bullrog").run().roll(1)
    assert t.json()["charity"] is not None
    t.next()
    assert t.p(1).alive and t.state.active_player == "player-2" and t.state.looting is None


def test_undone_roll_rolled_again_gives_the_same_number(catalog):
    t = scenario(catalog, levels={1: 4}, monster="harpies").run()
    t.do(c.Roll(player="player-1"))
    first = t.state.last_roll
    again = replay(catalog, t.state.ruleset, t.state.seed, t.commands[:-1])
    from engine.game import apply
    assert apply(again, c.Roll(player="player-1"), catalog).state.last_roll == first


def test_bad_stuff_ops(catalog):
    t = scenario(catalog, levels={1: 5}, items={1: ["helm-of-courage", "leather-armor", "boots-of-butt-kicking"]})
    t.play("crabs").play("curse-change-sex", "player-2", target="player-1").run()
    assert t.p(1).equipped == ["helm-of-courage"]          # armor and footgear gone, no roll
    t = scenario(catalog, levels={1: 5}, items={1: ["helm-of-courage"]}, monster="bigfoot").run().roll(1)
    assert t.p(1).equipped == []
    t = scenario(catalog, levels={1: 5}, monster="drooling-slime").run().roll(1)
    assert t.p(1).level == 4
    t = scenario(catalog, levels={1: 5}, items={1: ["boots-of-butt-kicking"]}, monster="drooling-slime").run().roll(1)
    assert t.p(1).level == 5 and t.p(1).equipped == []
    t = scenario(catalog, levels={1: 5}, items={1: ["helm-of-courage"]}, monster="face-sucker").run().roll(1)
    assert t.p(1).level == 4 and t.p(1).equipped == []
    t = scenario(catalog, levels={1: 5}, items={1: ["huge-rock", "helm-of-courage"]},
                 monster="gelatinous-octahedron").run().roll(1)
    assert t.p(1).equipped == ["helm-of-courage"]
    t = scenario(catalog, levels={1: 5, 2: 2}, monster="ghoulfiends").run().roll(1)
    assert t.p(1).level == 1
    t = scenario(catalog, levels={1: 5}, classes={1: ["warrior"]}, monster="amazon").run().roll(1)
    assert t.p(1).classes == [] and t.p(1).level == 5
    t = scenario(catalog, levels={1: 5}, monster="amazon").run().roll(1)
    assert t.p(1).level == 2
    t = scenario(catalog, levels={1: 5}, races={1: ["elf"]}, classes={1: ["wizard"]},
                 monster="shrieking-geek").run().roll(1)
    assert t.p(1).races == [] and t.p(1).classes == []
    t = scenario(catalog, levels={1: 5}, races={1: ["elf"]}, monster="tongue-demon").run().roll(1)
    assert t.p(1).level == 2
    t = scenario(catalog, levels={1: 5}, classes={1: ["wizard"]},
                 monster="unspeakably-awful-indescribable-horror").run().roll(1)
    assert t.p(1).alive and t.p(1).classes == []
    t = scenario(catalog, levels={1: 5}, monster="unspeakably-awful-indescribable-horror").run().roll(1)
    assert not t.p(1).alive
    t = scenario(catalog, levels={1: 5}, items={1: ["helm-of-courage"]}, monster="king-tut").run().roll(1)
    assert t.p(1).equipped == [] and any(e.name == "HandDiscarded" for e in t.events)
    t = scenario(catalog, levels={1: 5}, monster="pukachu").run().roll(1)
    assert any(e.name == "HandDiscarded" for e in t.events)
    t = scenario(catalog, levels={1: 6}, monster="floating-nose").run()
    assert t.p(1).level == 3 and t.state.rolls == 0
    for monster, lost in (("gazebo", 3), ("harpies", 2), ("lame-goblin", 1),
                          ("large-angry-chicken", 1), ("maul-rat", 1), ("mr-bones", 2), ("pit-bull", 2),
                          ("undead-horse", 2), ("wannabe-vampire", 3), ("flying-frogs", 2)):
        t = scenario(catalog, levels={1: 6}, monster=monster)
        if lost:
            t.run().roll(1)
            assert t.p(1).level == 6 - lost, monster
    t = scenario(catalog, levels={1: 6}, monster="plutonium-dragon").run().roll(1)
    assert not t.p(1).alive
    t = scenario(catalog, levels={1: 6}, monster="squidzilla").run().roll(1)
    assert not t.p(1).alive


def test_3872_orcs_roll_for_death_or_levels(catalog):
    for roll in range(1, 7):
        t = scenario(catalog, levels={1: 8}, monster="3872-orcs").run().roll(1).roll(roll)
        if roll <= 2:
            assert not t.p(1).alive
        else:
            assert t.p(1).level == max(1, 8 - roll)


def test_insurance_salesman_takes_items_worth_1000(catalog):
    t = scenario(catalog, levels={1: 5}, items={1: ["mithril-armor", "helm-of-courage", "leather-armor"]},
                 monster="insurance-salesman").run().roll(1)
    assert t.state.phase.value == "run-away"
    t.do(c.LoseItem(player="player-1", card="mithril-armor"))
    assert t.state.pending_loss is not None
    t.do(c.LoseItem(player="player-1", card="helm-of-courage"))
    assert t.state.pending_loss is not None
    t.do(c.LoseItem(player="player-1", card="leather-armor"))
    assert t.state.pending_loss is None and t.state.phase.value == "charity"


def test_snails_roll_items_to_lose_rest_from_hand(catalog):
    t = scenario(catalog, levels={1: 5}, items={1: ["helm-of-courage"]}, monster="snails-on-speed").run().roll(1)
    t.roll(1)
    t.do(c.LoseItem(player="player-1", card="helm-of-courage"))
    assert t.state.phase.value == "charity"
