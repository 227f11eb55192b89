"""Curses, levels, selling, charity, equipment, race and class, ruleset options."""

from engine import commands as c
from engine.results import RejectCode, Rejected
from engine.rules import Ruleset

from tests.engine.scenario import scenario


# ---- curses

def test_curse_drawn_on_the_kick_hits_the_drawer(catalog):
    t = scenario(catalog, levels={1: 3}).play("curse-duck-of-doom")
    assert t.p(1).level == 1


def test_curse_from_the_hand_needs_a_victim(catalog):
    t = scenario(catalog, levels={2: 3})
    t.next()
    r = t.attempt(c.PlayCard(player="player-1", card="curse-lose-a-level"))
    assert r.code is RejectCode.ILLEGAL_TARGET and "Lose a Level" in r.message
    t.play("curse-lose-a-level", target="player-2")
    assert t.p(2).level == 2


def test_sandals_of_protection_block_door_curses_only(catalog):
    t = scenario(catalog, levels={1: 3}, items={1: ["sandals-of-protection"]}).play("curse-duck-of-doom")
    assert t.p(1).level == 3
    t.play("curse-lose-a-level", "player-2", target="player-1")
    assert t.p(1).level == 2


def test_change_sex_flips_sex_and_minus_five_in_the_next_combat_only(catalog):
    t = scenario(catalog, levels={1: 8}).play("curse-change-sex")
    assert t.p(1).sex == "female"
    t.play("lame-goblin")
    assert t.strengths()[0] == 3
    t.win_fight()
    assert t.p(1).next_combat == []


def test_malign_mirror_only_armor_counts_next_combat(catalog):
    t = scenario(catalog, items={1: ["leather-armor", "helm-of-courage"]}).play("curse-malign-mirror")
    t.play("net-troll")
    assert t.strengths()[0] == 2


def test_wishing_ring_cancels_a_curse(catalog):
    t = scenario(catalog).play("curse-chicken-on-your-head", "player-2", target="player-1")
    t.play("wishing-ring")
    assert t.p(1).curses == []
    t.play("curse-malign-mirror", "player-2", target="player-3").play("wishing-ring", "player-3")
    assert t.p(3).next_combat == []


def test_lose_item_curses_prompt_for_the_item(catalog):
    t = scenario(catalog, items={1: ["huge-rock", "helm-of-courage"]}).play("curse-lose-1-big-item")
    r = t.attempt(c.LoseItem(player="player-1", card="helm-of-courage"))
    assert r.code is RejectCode.ILLEGAL_TARGET and "Helm of Courage" in r.message
    t.do(c.LoseItem(player="player-1", card="huge-rock"))
    assert t.p(1).equipped == ["helm-of-courage"]
    t.play("curse-lose-1-small-item", "player-2", target="player-1").do(c.LoseItem(player="player-1", card="helm-of-courage"))
    assert t.p(1).equipped == []
    t.play("curse-lose-1-small-item", "player-2", target="player-1")
    assert t.state.pending_loss is None  # nothing to lose: no effect


def test_truly_obnoxious_curse_takes_the_best_item(catalog):
    t = scenario(catalog, items={1: ["helm-of-courage", "boots-of-butt-kicking"]}).play("truly-obnoxious-curse")
    assert t.p(1).equipped == ["helm-of-courage"]


def test_slot_curses(catalog):
    t = scenario(catalog, items={1: ["helm-of-courage", "leather-armor", "boots-of-butt-kicking"]})
    t.play("curse-lose-the-headgear-you-are-wearing").next().play("curse-lose-the-armor-you-are-wearing", target="player-1")
    t.play("curse-lose-the-footgear-you-are-wearing", target="player-1")
    assert t.p(1).equipped == []


def test_race_and_class_curses(catalog):
    t = scenario(catalog, levels={1: 3}, races={1: ["elf"]}, classes={1: ["thief"]}).play("curse-lose-your-race")
    assert t.p(1).races == []
    t.next().play("curse-lose-your-class", target="player-1")
    assert t.p(1).classes == [] and t.p(1).level == 3
    t.play("curse-lose-your-class", target="player-1")
    assert t.p(1).level == 2


def test_manual_curses_tell_the_players(catalog):
    for card in ("curse-change-class", "curse-change-race", "curse-income-tax", "curse-lose-two-cards"):
        t = scenario(catalog).play(card)
        assert any(e.name == "PlayersMustAct" for e in t.events), card


def test_level_never_below_one(catalog):
    t = scenario(catalog).play("curse-duck-of-doom")
    assert t.p(1).level == 1


# ---- levels

def test_go_up_a_level_cards(catalog):
    for card in ("1000-gold-pieces", "boil-an-anthill", "bribe-gm-with-food", "convenient-addition-error",
                 "invoke-obscure-rules", "potion-of-general-studliness"):
        assert scenario(catalog).play(card).p(1).level == 2, card


def test_go_up_a_level_on_another_player(catalog):
    assert scenario(catalog).play("boil-an-anthill", target="player-2").p(2).level == 2


def test_whine_at_the_gm_not_for_the_highest(catalog):
    t = scenario(catalog, levels={1: 3, 2: 3})
    r = t.attempt(c.PlayCard(player="player-1", card="whine-at-the-gm"))
    assert r.code is RejectCode.ILLEGAL_PLAY and "Whine" in r.message
    assert t.play("whine-at-the-gm", "player-3").p(3).level == 2


def test_kill_the_hireling_needs_a_hireling(catalog):
    t = scenario(catalog)
    assert t.attempt(c.PlayCard(player="player-1", card="kill-the-hireling")).code is RejectCode.ILLEGAL_PLAY
    t.play("hireling", "player-2").play("kill-the-hireling")
    assert t.p(1).level == 2 and t.p(2).equipped == []


def test_mutilate_the_bodies_only_after_a_combat(catalog):
    t = scenario(catalog, levels={1: 2})
    assert t.attempt(c.PlayCard(player="player-1", card="mutilate-the-bodies")).code is RejectCode.ILLEGAL_PLAY
    t.play("lame-goblin").win_fight().play("mutilate-the-bodies", "player-2")
    assert t.p(2).level == 2


def test_steal_a_level(catalog):
    t = scenario(catalog, levels={2: 3}).play("steal-a-level", target="player-2")
    assert t.p(1).level == 2 and t.p(2).level == 2


# ---- selling

def test_selling_1000_gold_per_level_no_change(catalog):
    t = scenario(catalog, items={1: ["mithril-armor"]})
    t.do(c.Sell(player="player-1", cards=("mithril-armor", "boots-of-butt-kicking", "flaming-poison-potion")))
    assert t.p(1).level == 2 and t.p(1).equipped == []


def test_selling_needs_1000_gold(catalog):
    r = scenario(catalog).attempt(c.Sell(player="player-1", cards=("helm-of-courage",)))
    assert r.code is RejectCode.ILLEGAL_PLAY and "Helm of Courage" in r.message


def test_selling_only_on_your_turn_and_not_in_combat(catalog):
    t = scenario(catalog)
    assert t.attempt(c.Sell(player="player-2", cards=("wand-of-dowsing",))).code is RejectCode.NOT_YOUR_TURN
    t.play("net-troll")
    assert t.attempt(c.Sell(player="player-1", cards=("wand-of-dowsing",))).code is RejectCode.WRONG_PHASE


def test_selling_never_to_the_winning_level(catalog):
    t = scenario(catalog, levels={1: 9})
    r = t.attempt(c.Sell(player="player-1", cards=("wand-of-dowsing",)))
    assert r.code is RejectCode.ILLEGAL_PLAY and "Wand of Dowsing" in r.message


def test_halfling_sells_one_item_at_double_price(catalog):
    t = scenario(catalog, races={1: ["halfling"]})
    t.do(c.Sell(player="player-1", cards=("mithril-armor",)))
    assert t.p(1).level == 2
    r = t.attempt(c.Sell(player="player-1", cards=("bow-with-ribbons",)))
    assert r.code is RejectCode.ILLEGAL_PLAY   # 800 gold: the double price is once per turn
    t.end_turn().end_turn().end_turn()
    t.do(c.Sell(player="player-1", cards=("bow-with-ribbons",)))
    assert t.p(1).level == 3


def test_selling_items_of_another_player_is_refused(catalog):
    t = scenario(catalog, items={2: ["mithril-armor"]})
    r = t.attempt(c.Sell(player="player-1", cards=("mithril-armor", "wand-of-dowsing")))
    assert r.code is RejectCode.NOT_IN_HAND


# ---- charity

def test_charity_names_the_lowest_level_receivers(catalog):
    t = scenario(catalog, players=4, levels={1: 4, 2: 2, 3: 2, 4: 3}).next().next()
    assert t.json()["charity"] == {"hand_limit": 5, "receivers": ["player-2", "player-3"]}


def test_charity_discards_when_you_are_the_lowest(catalog):
    t = scenario(catalog, levels={2: 2, 3: 2}).next().next()
    assert t.json()["charity"]["receivers"] == []


def test_dwarf_hand_limit_six(catalog):
    t = scenario(catalog, races={1: ["dwarf"]}).next().next()
    assert t.json()["charity"]["hand_limit"] == 6


def test_dead_players_receive_no_charity(catalog):
    t = scenario(catalog, levels={1: 6, 2: 2, 3: 4}, races={2: ["elf"]}, monster="squidzilla").help("player-2")
    t.run().roll(6).roll(1)
    assert not t.p(2).alive
    assert t.json()["charity"]["receivers"] == ["player-3"]


# ---- equipment

def test_slots_limit_what_is_equipped(catalog):
    t = scenario(catalog, items={1: ["helm-of-courage", "horny-helmet", "buckler-of-swashing",
                                     "sneaky-bastard-sword", "eleven-foot-pole"]})
    assert t.p(1).equipped == ["helm-of-courage", "buckler-of-swashing", "sneaky-bastard-sword"]
    assert t.p(1).carried == ["horny-helmet", "eleven-foot-pole"]
    assert t.json()["players"][0]["combat_strength"] == 6


def test_one_big_item_unless_dwarf(catalog):
    t = scenario(catalog, races={2: ["dwarf"]}, items={1: ["huge-rock"]})
    r = t.attempt(c.PlayCard(player="player-1", card="chainsaw-of-bloody-dismemberment"))
    assert r.code is RejectCode.ILLEGAL_PLAY and "Chainsaw" in r.message
    t.play("chainsaw-of-bloody-dismemberment", "player-2").play("tuba-of-charm", "player-2")


def test_hireling_carries_one_more_big_item(catalog):
    t = scenario(catalog, items={1: ["hireling", "huge-rock", "tuba-of-charm"]})
    assert "tuba-of-charm" in t.p(1).carried


def test_cheat_lets_you_use_a_forbidden_item(catalog):
    t = scenario(catalog, items={1: ["bow-with-ribbons"]})
    assert t.json()["players"][0]["combat_strength"] == 1
    t.play("cheat", item="bow-with-ribbons")
    assert t.json()["players"][0]["combat_strength"] == 5


def test_restrictions_by_race_class_and_sex(catalog):
    restricted = {"bad-ass-bandana": "human", "bow-with-ribbons": "elf", "broad-sword": "female",
                  "cheese-grater-of-peace": "cleric", "cloak-of-obscurity": "thief",
                  "dagger-of-treachery": "thief", "gentlemen-s-club": "male", "hammer-of-kneecapping": "dwarf",
                  "limburger-and-anchovy-sandwich": "halfling", "mace-of-sharpness": "cleric",
                  "pointy-hat-of-power": "wizard", "rapier-of-unfairness": "elf", "shield-of-ubiquity": "warrior",
                  "short-wide-armor": "dwarf", "staff-of-napalm": "wizard", "stepladder": "halfling",
                  "swiss-army-polearm": "human"}
    for card, need in restricted.items():
        t = scenario(catalog, races={1: ["elf"]} if need != "elf" else {}, sexes={1: "female" if need == "male" else "male"})
        t.play(card)
        assert card in t.p(1).carried, card
    banned = {"kneepads-of-allure": "cleric", "mithril-armor": "wizard", "pantyhose-of-giant-strength": "warrior",
              "singing-and-dancing-sword": "thief"}
    for card, cls in banned.items():
        assert card in scenario(catalog, classes={1: [cls]}).play(card).p(1).carried, card
        assert card in scenario(catalog).play(card).p(1).equipped, card


def test_carried_items_give_no_bonus(catalog):
    t = scenario(catalog, items={1: ["boots-of-butt-kicking"]}).use("boots-of-butt-kicking", "unequip")
    assert t.json()["players"][0]["combat_strength"] == 1


def test_item_bonuses(catalog):
    for card in ("boots-of-butt-kicking", "buckler-of-swashing", "chainsaw-of-bloody-dismemberment",
                 "eleven-foot-pole", "flaming-armor", "helm-of-courage", "hireling", "huge-rock",
                 "leather-armor", "rat-on-a-stick", "really-impressive-title", "slimy-armor",
                 "sneaky-bastard-sword", "spiky-knees", "singing-and-dancing-sword", "pantyhose-of-giant-strength",
                 "mithril-armor", "bad-ass-bandana", "swiss-army-polearm", "gentlemen-s-club"):
        t = scenario(catalog).play(card)
        assert t.json()["players"][0]["combat_strength"] == 1 + catalog[card].bonus, card


def test_horny_helmet_gives_elves_more(catalog):
    assert scenario(catalog, items={1: ["horny-helmet"]}).json()["players"][0]["combat_strength"] == 2
    assert scenario(catalog, races={1: ["elf"]}, items={1: ["horny-helmet"]}).json()["players"][0]["combat_strength"] == 4


def test_no_equipment_changes_in_combat(catalog):
    t = scenario(catalog, items={1: ["boots-of-butt-kicking"]}, monster="net-troll")
    r = t.attempt(c.UseCard(player="player-1", card="boots-of-butt-kicking", action="unequip"))
    assert r.code is RejectCode.WRONG_PHASE and "Boots of Butt-Kicking" in r.message
    assert t.attempt(c.PlayCard(player="player-1", card="helm-of-courage")).code is RejectCode.WRONG_PHASE


def test_giving_items_outside_combat(catalog):
    t = scenario(catalog, items={1: ["helm-of-courage"]}).use("helm-of-courage", "give", target="player-2")
    assert t.p(2).equipped == ["helm-of-courage"]
    t.play("net-troll")
    r = t.attempt(c.UseCard(player="player-2", card="helm-of-courage", action="give", target="player-1"))
    assert r.code is RejectCode.WRONG_PHASE


# ---- race and class

def test_half_breed_allows_two_races(catalog):
    t = scenario(catalog, races={1: ["elf"]}).play("half-breed").play("dwarf")
    assert t.p(1).races == ["elf", "dwarf"]
    t.use("dwarf", "discard").use("elf", "discard")
    assert t.p(1).specials == []


def test_super_munchkin_allows_two_classes(catalog):
    t = scenario(catalog, classes={1: ["wizard"]}).play("super-munchkin").play("warrior")
    assert t.p(1).classes == ["wizard", "warrior"]


def test_new_race_replaces_the_old(catalog):
    assert scenario(catalog, races={1: ["elf", "dwarf"]}).p(1).races == ["dwarf"]


def test_discard_race_any_time_even_in_combat(catalog):
    t = scenario(catalog, races={1: ["elf"]}, monster="drooling-slime").use("elf", "discard")
    assert t.strengths()[1] == 1


def test_warrior_berserking(catalog):
    t = scenario(catalog, classes={1: ["warrior"]}, monster="net-troll").ability("berserk", count=3)
    assert t.strengths()[0] == 4
    assert t.attempt(c.UseAbility(player="player-1", ability="berserk", count=1)).code is RejectCode.ILLEGAL_PLAY


def test_ability_needs_the_class(catalog):
    r = scenario(catalog, monster="net-troll").attempt(c.UseAbility(player="player-1", ability="berserk", count=1))
    assert r.code is RejectCode.ILLEGAL_PLAY and "warrior" in r.message


def test_cleric_turning_vs_undead(catalog):
    t = scenario(catalog, classes={1: ["cleric"]}, monster="mr-bones").ability("turning", count=2)
    assert t.strengths()[0] == 7
    t2 = scenario(catalog, classes={1: ["cleric"]}, monster="net-troll")
    assert t2.attempt(c.UseAbility(player="player-1", ability="turning", count=1)).code is RejectCode.ILLEGAL_PLAY


def test_wizard_charm_spell(catalog):
    t = scenario(catalog, classes={1: ["wizard"]}, monster="net-troll")
    assert t.attempt(c.UseAbility(player="player-1", ability="charm", count=2)).code is RejectCode.ILLEGAL_PLAY
    t.ability("charm", count=4)
    assert t.state.combat is None and t.state.treasures_to_draw == 3 and t.p(1).level == 1


def test_thief_backstab_once_per_victim(catalog):
    t = scenario(catalog, levels={2: 5}, classes={3: ["thief"]}, monster="net-troll").help("player-2")
    t.ability("backstab", "player-3", target="player-2")
    assert t.strengths()[0] == 4
    r = t.attempt(c.UseAbility(player="player-3", ability="backstab", target="player-2"))
    assert r.code is RejectCode.ILLEGAL_PLAY


def test_thief_theft(catalog):
    t = scenario(catalog, levels={1: 3}, classes={1: ["thief"]}, items={2: ["hireling"]})
    t.use("hireling", "unequip", "player-2")
    t.ability("theft", target="player-2", card="hireling", forced=4)
    assert "hireling" in t.p(1).carried
    t2 = scenario(catalog, levels={1: 3}, classes={1: ["thief"]}, items={2: ["hireling"]})
    t2.use("hireling", "unequip", "player-2").ability("theft", target="player-2", card="hireling", forced=3)
    assert t2.p(1).level == 2 and "hireling" in t2.p(2).carried


# ---- ruleset options

def test_winning_level_twenty_for_epic_play(catalog):
    t = scenario(catalog, levels={1: 12}, ruleset=Ruleset(winning_level=20))
    assert t.p(1).level == 12


def test_two_players_allowed_for_practice_with_a_warning(catalog):
    t = scenario(catalog, players=2, ruleset=Ruleset(min_players=2))
    assert t.json()["warnings"]
    r = scenario(catalog, players=3).attempt(c.Join(player="player-4"))
    assert isinstance(r, Rejected)


def test_starting_hand_is_announced(catalog):
    t = scenario(catalog, ruleset=Ruleset(starting_hand=2))
    from engine.game import new_game, apply
    s = new_game(1, Ruleset(starting_hand=2))
    for n in (1, 2, 3):
        s = apply(s, c.Join(player=f"player-{n}"), catalog).state
    r = apply(s, c.StartGame(player="player-1"), catalog)
    assert r.events[0].data["deal"] == {"door": 2, "treasure": 2}
    assert t.state.ruleset.starting_hand == 2


def test_hand_limit_option(catalog):
    t = scenario(catalog, ruleset=Ruleset(hand_limit=7)).next().next()
    assert t.json()["charity"]["hand_limit"] == 7
