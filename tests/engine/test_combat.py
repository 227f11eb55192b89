from engine import commands as c
from engine.results import RejectCode, Rejected
from engine.rules import Ruleset

from tests.engine.scenario import scenario


def test_kill_gives_levels_and_treasures(catalog):
    t = scenario(catalog, levels={1: 2}, monster="lame-goblin", ruleset=Ruleset(interference_seconds=0)).fight()
    assert t.p(1).level == 3 and t.state.treasures_to_draw == 1 and t.state.phase.value == "charity"


def test_monsters_win_ties(catalog):
    t = scenario(catalog, levels={1: 2}, monster="pit-bull")
    assert t.strengths() == (2, 2)
    assert t.attempt(c.Fight(player="player-1")).code is RejectCode.ILLEGAL_PLAY


def test_warrior_wins_ties(catalog):
    t = scenario(catalog, levels={1: 2}, classes={1: ["warrior"]}, monster="pit-bull")
    assert t.json()["combat"]["players_winning"] is True


def test_warrior_helper_lets_the_pair_win_ties(catalog):
    t = scenario(catalog, classes={2: ["warrior"]}, monster="pit-bull").help("player-2")
    assert t.strengths() == (2, 2) and t.json()["combat"]["players_winning"]


def test_negative_combat_strength_is_shown(catalog):
    t2 = scenario(catalog).play("curse-change-sex", "player-2", target="player-1").play("lame-goblin")
    assert t2.json()["players"][0]["combat_strength"] == -4
    assert t2.strengths()[0] == -4


def test_only_one_helper(catalog):
    t = scenario(catalog, players=4, monster="net-troll").help("player-2")
    r = t.attempt(c.AddHelper(player="player-1", helper="player-3"))
    assert r.code is RejectCode.ILLEGAL_TARGET and "only one helper" in r.message


def test_gazebo_allows_no_helpers(catalog):
    t = scenario(catalog, monster="gazebo")
    r = t.attempt(c.AddHelper(player="player-1", helper="player-2"))
    assert isinstance(r, Rejected) and "Gazebo" in r.message


def test_elf_helper_gains_a_level_per_monster(catalog):
    t = scenario(catalog, levels={1: 5, 2: 3}, races={2: ["elf"]}, monster="lame-goblin")
    t.play("wandering-monster", "player-3").play("maul-rat", "player-3").help("player-2").win_fight()
    assert t.p(1).level == 7 and t.p(2).level == 5
    assert t.state.treasures_to_draw == 2 and t.state.treasures_face_up


def test_monster_bonus_vs_race(catalog):
    t = scenario(catalog, races={1: ["elf"]}, monster="drooling-slime")
    assert t.strengths() == (1, 5)


def test_monster_bonus_applies_to_helper_traits(catalog):
    t = scenario(catalog, races={2: ["elf"]}, monster="drooling-slime").help("player-2")
    assert t.strengths()[1] == 5


def test_enhancer_goes_on_the_chosen_monster(catalog):
    t = scenario(catalog, monster="lame-goblin").play("wandering-monster", "player-2").play("maul-rat", "player-2")
    t.play("enraged", "player-2", monster=0)
    j = t.json()["combat"]["monsters"]
    assert j[0]["enhancers"] == ["enraged"] and j[0]["strength"] == 6 and j[1]["enhancers"] == []


def test_enhancers_add_up_and_change_treasure(catalog):
    t = scenario(catalog, levels={1: 9}, items={1: ["boots-of-butt-kicking", "flaming-armor", "helm-of-courage"]},
                 monster="lame-goblin", ruleset=Ruleset(interference_seconds=0))
    t.play("ancient", "player-2").play("baby", "player-2")
    assert t.strengths()[1] == 6
    t.fight()
    assert t.state.treasures_to_draw == 2


def test_baby_keeps_monster_at_least_one_and_one_treasure(catalog):
    t = scenario(catalog, monster="lame-goblin", ruleset=Ruleset(interference_seconds=0)).play("baby", "player-2")
    assert t.strengths()[1] == 1
    t.play("sleep-potion")
    t.fight()
    assert t.state.treasures_to_draw == 1


def test_one_shot_defaults_to_the_acting_players_side(catalog):
    t = scenario(catalog, monster="lame-goblin").play("magic-missile").play("sleep-potion", "player-2")
    assert t.strengths() == (6, 3)


def test_wandering_monster_needed_to_add_a_monster(catalog):
    t = scenario(catalog, monster="lame-goblin")
    r = t.attempt(c.PlayCard(player="player-2", card="maul-rat"))
    assert r.code is RejectCode.ILLEGAL_PLAY and "Maul Rat" in r.message


def test_undead_joins_undead_without_wandering_monster(catalog):
    t = scenario(catalog, monster="mr-bones").play("undead-horse", "player-2")
    assert [m["card"] for m in t.json()["combat"]["monsters"]] == ["mr-bones", "undead-horse"]


def test_mate_copies_monster_with_enhancers_and_doubles_rewards(catalog):
    t = scenario(catalog, levels={1: 8}, items={1: ["mace-of-sharpness"]}, classes={1: ["cleric"]},
                 monster="lame-goblin", ruleset=Ruleset(interference_seconds=0))
    t.play("enraged", "player-2").play("mate", "player-2")
    assert t.strengths()[1] == 12
    t.play("sleep-potion").fight()
    assert t.p(1).level == 10 and t.state.treasures_to_draw == 4


def test_interference_window_restarts_on_every_change(catalog):
    t = scenario(catalog, levels={1: 2}, monster="lame-goblin")
    t.fight()
    until = t.state.combat.window_until
    t.at = 1.0
    t.play("sleep-potion", "player-1")
    assert t.state.combat.window_until == 1.0 + 2.6 > until


def test_interference_window_closes_when_the_fight_turns(catalog):
    t = scenario(catalog, levels={1: 2}, monster="lame-goblin").fight()
    t.play("magic-missile", "player-2", side="monsters")
    assert t.state.combat.window_until is None


def test_zero_interference_window_resolves_at_once(catalog):
    t = scenario(catalog, levels={1: 2}, monster="lame-goblin", ruleset=Ruleset(interference_seconds=0)).fight()
    assert t.state.combat is None and t.p(1).level == 3


def test_resolve_waits_for_the_window(catalog):
    t = scenario(catalog, levels={1: 2}, monster="lame-goblin").fight()
    assert t.attempt(c.ResolveCombat(player="player-1", at=1.0)).code is RejectCode.ILLEGAL_PLAY


def test_winning_level_only_by_a_kill(catalog):
    t = scenario(catalog, levels={1: 9})
    r = t.attempt(c.PlayCard(player="player-1", card="boil-an-anthill"))
    assert r.code is RejectCode.ILLEGAL_PLAY and "Boil an Anthill" in r.message
    t.play("lame-goblin").win_fight()
    assert t.state.winners == ["player-1"] and t.state.phase.value == "game-over"


def test_shared_win_when_elf_helper_reaches_winning_level(catalog):
    t = scenario(catalog, levels={1: 9, 2: 9}, races={2: ["elf"]}, monster="lame-goblin").help("player-2")
    t.win_fight()
    assert t.state.winners == ["player-1", "player-2"]


def test_kill_levels_as_on_the_card(catalog):
    t = scenario(catalog, levels={1: 5}, items={1: ["staff-of-napalm", "pointy-hat-of-power"]},
                 classes={1: ["wizard"]}, monster="king-tut")
    t.play("electric-radioactive-acid-potion").play("magic-missile").win_fight()
    assert t.p(1).level == 7 and t.state.treasures_to_draw == 4


def test_divine_intervention_raises_clerics_and_can_win(catalog):
    t = scenario(catalog, levels={2: 9}, classes={2: ["cleric"], 3: ["cleric"]})
    t.play("divine-intervention")
    assert t.state.winners == ["player-2"]


def test_insurance_salesman_ignores_level(catalog):
    t = scenario(catalog, levels={1: 5}, items={1: ["boots-of-butt-kicking"]}, monster="insurance-salesman")
    assert t.strengths()[0] == 2


def test_ghoulfiends_ignore_items(catalog):
    t = scenario(catalog, levels={1: 5}, items={1: ["boots-of-butt-kicking"]}, monster="ghoulfiends")
    assert t.strengths()[0] == 5


def test_amazon_will_not_fight_a_woman(catalog):
    t = scenario(catalog, sexes={1: "female"}, monster="amazon")
    assert t.state.combat is None and t.state.treasures_to_draw == 1


def test_lawyers_will_not_attack_a_thief(catalog):
    t = scenario(catalog, classes={1: ["thief"]}, monster="lawyers")
    assert t.state.combat is None and t.state.treasures_to_draw == 2


def test_pukachu_gives_an_extra_level_alone(catalog):
    t = scenario(catalog, levels={1: 7}, monster="pukachu").win_fight()
    assert t.p(1).level == 9


def test_large_angry_chicken_extra_level_with_fire(catalog):
    t = scenario(catalog, items={1: ["flaming-armor"]}, monster="large-angry-chicken").win_fight()
    assert t.p(1).level == 3


def test_potted_plant_elf_gets_extra_treasure(catalog):
    t = scenario(catalog, levels={1: 2}, races={1: ["elf"]}, monster="potted-plant").win_fight()
    assert t.state.treasures_to_draw == 2


def test_potion_of_halitosis_kills_the_floating_nose(catalog):
    t = scenario(catalog, monster="floating-nose").play("potion-of-halitosis").win_fight()
    assert t.p(1).level == 2 and t.state.treasures_to_draw == 3


def test_tongue_demon_asks_for_an_item_before_combat(catalog):
    t = scenario(catalog, items={1: ["helm-of-courage"]}, monster="tongue-demon")
    assert t.json()["pending_loss"]["prompt"] == "tap the item to lose"
    assert t.attempt(c.RunAway(player="player-1")).code is RejectCode.ILLEGAL_PLAY
    t.do(c.LoseItem(player="player-1", card="helm-of-courage"))
    assert t.p(1).equipped == [] and t.state.pending_loss is None


def test_doppleganger_doubles_a_lone_fighter(catalog):
    t = scenario(catalog, levels={1: 4}, monster="pit-bull").play("doppleganger")
    assert t.strengths() == (8, 2)


def test_yuppie_water_helps_each_elf(catalog):
    t = scenario(catalog, races={1: ["elf"], 2: ["elf"]}, monster="net-troll").help("player-2")
    t.play("yuppie-water", "player-3")
    assert t.strengths()[0] == 6


def test_one_shots_plus_n(catalog):
    for card in ("cotion-of-ponfusion", "electric-radioactive-acid-potion", "flaming-poison-potion",
                 "freezing-explosive-potion", "magic-missile", "nasty-tasting-sports-drink",
                 "potion-of-idiotic-bravery", "pretty-balloons", "sleep-potion", "potion-of-halitosis"):
        t = scenario(catalog, monster="net-troll").play(card, "player-2", side="monsters")
        assert t.strengths()[1] == 10 + catalog[card].bonus, card


def test_magic_lamp_removes_the_only_monster_for_its_treasure(catalog):
    t = scenario(catalog, monster="net-troll").play("magic-lamp")
    assert t.state.combat is None and t.state.treasures_to_draw == 3 and t.p(1).level == 1


def test_magic_lamp_only_on_your_own_turn(catalog):
    t = scenario(catalog, monster="net-troll")
    r = t.attempt(c.PlayCard(player="player-2", card="magic-lamp"))
    assert r.code is RejectCode.NOT_YOUR_TURN and "Magic Lamp" in r.message


def test_pollymorph_removes_a_monster_without_treasure(catalog):
    t = scenario(catalog, monster="net-troll").play("wandering-monster").play("lame-goblin")
    t.play("pollymorph-potion", monster=0)
    assert [m.card for m in t.state.combat.monsters] == ["lame-goblin"]


def test_friendship_potion_ends_the_fight_and_lets_you_loot(catalog):
    t = scenario(catalog, monster="net-troll").play("friendship-potion")
    assert t.state.combat is None and t.state.treasures_to_draw == 0
    # the card lets the fighter loot the room (a Door card face down); the turn goes on to charity
    assert t.state.phase.value == "charity" and [e.name for e in t.events][-1] == "RoomLooted"


def test_out_to_lunch_gives_two_treasures(catalog):
    t = scenario(catalog, monster="net-troll").play("out-to-lunch")
    assert t.state.combat is None and t.state.treasures_to_draw == 2


def test_illusion_replaces_a_monster(catalog):
    t = scenario(catalog, monster="net-troll").play("illusion", "player-2").play("lame-goblin", "player-2")
    assert [m.card for m in t.state.combat.monsters] == ["lame-goblin"]


def test_transferral_potion_hands_the_fight_over(catalog):
    t = scenario(catalog, monster="net-troll").play("transferral-potion", target="player-2")
    assert t.state.combat.fighters == ["player-2"]


def test_help_me_out_here_takes_the_deciding_item(catalog):
    t = scenario(catalog, levels={1: 2}, items={2: ["boots-of-butt-kicking"]}, monster="pit-bull")
    t.play("help-me-out-here", item="boots-of-butt-kicking")
    assert "boots-of-butt-kicking" in t.p(1).equipped and t.json()["combat"]["players_winning"]


def test_hoard_adds_three_treasures(catalog):
    t = scenario(catalog).play("hoard")
    assert t.state.treasures_to_draw == 3


def test_cleric_chases_the_wannabe_vampire(catalog):
    t = scenario(catalog, classes={1: ["cleric"]}, monster="wannabe-vampire").ability("chase")
    assert t.state.combat is None and t.state.treasures_to_draw == 3 and t.p(1).level == 1
