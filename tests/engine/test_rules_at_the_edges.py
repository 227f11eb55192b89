"""Rules at the edges: the door kicked once, running from a won fight, items that can no longer be
carried or used, Half-Breed and Super Munchkin alone, Chicken on Your Head, Cheat! and slots,
giving, promising, selling from the hand, one-shots for either side."""

from engine import commands as c
from engine.results import Rejected, RejectCode
from tests.engine.scenario import scenario


# ---- 1. the door is kicked once a turn

def test_a_curse_on_the_kick_moves_the_turn_on(catalog):
    t = scenario(catalog, levels={1: 3}).play("curse-lose-a-level")
    assert t.p(1).level == 2 and t.state.phase.value == "look-for-trouble"


def test_a_second_curse_in_the_same_turn_is_not_a_door_card(catalog):
    t = scenario(catalog, levels={1: 4}).play("curse-lose-a-level")
    second = t.attempt(c.PlayCard(player="player-1", card="curse-duck-of-doom"))
    assert isinstance(second, Rejected) and second.code is RejectCode.ILLEGAL_TARGET
    assert t.p(1).level == 3
    t.play("curse-duck-of-doom", target="player-2")
    assert t.p(1).level == 3 and t.p(2).level == 1


def test_after_a_door_curse_the_player_may_look_for_trouble(catalog):
    t = scenario(catalog).play("curse-change-sex").play("lame-goblin")
    assert t.state.phase.value == "combat" and not t.state.combat.from_door


# ---- 2. running away is for a fight the players cannot win

def test_run_while_winning_is_refused(catalog):
    t = scenario(catalog, levels={1: 5}, monster="lame-goblin")
    refused = t.attempt(c.RunAway(player="player-1"))
    assert isinstance(refused, Rejected) and "players win" in refused.message
    assert t.state.phase.value == "combat" and t.state.flight is None


def test_run_once_the_fight_turns(catalog):
    t = scenario(catalog, levels={1: 5}, monster="lame-goblin")
    t.play("ancient", "player-2")
    t.do(c.RunAway(player="player-1"))
    assert t.state.phase.value == "run-away"


# ---- 5. Half-Breed / Super Munchkin with a single race / class

def test_lone_half_breed_elf_gets_no_monster_bonus_against_it(catalog):
    plain = scenario(catalog, races={1: ["elf"]}, monster="drooling-slime")
    assert plain.strengths()[1] == 5
    t = scenario(catalog, races={1: ["elf"]}).play("half-breed").play("drooling-slime")
    assert t.strengths()[1] == 1


def test_half_breed_with_two_races_keeps_both_disadvantages(catalog):
    t = scenario(catalog, races={1: ["elf"]}).play("half-breed").play("dwarf").play("drooling-slime")
    assert t.p(1).races == ["elf", "dwarf"] and t.strengths()[1] == 5


def test_lone_super_munchkin_warrior_gets_no_monster_bonus_and_may_wear_pantyhose(catalog):
    plain = scenario(catalog, classes={1: ["warrior"]}, items={1: ["pantyhose-of-giant-strength"]})
    assert plain.p(1).equipped == []
    t = scenario(catalog, classes={1: ["warrior"]}).play("super-munchkin")
    t.play("pantyhose-of-giant-strength")
    assert t.p(1).equipped == ["pantyhose-of-giant-strength"]
    t.next().play("shrieking-geek")
    assert t.strengths()[1] == 6          # no +6 vs warrior


# ---- 7/8. Chicken on Your Head goes with the headgear

def test_losing_the_headgear_to_a_curse_takes_the_chicken(catalog):
    t = scenario(catalog, items={1: ["helm-of-courage"]})
    t.play("curse-chicken-on-your-head", "player-2", target="player-1")
    assert t.p(1).curses == ["curse-chicken-on-your-head"]
    t.play("curse-lose-the-headgear-you-are-wearing", "player-2", target="player-1")
    assert t.p(1).curses == [] and t.p(1).equipped == []


def test_bad_stuff_that_takes_the_headgear_takes_the_chicken(catalog):
    t = scenario(catalog, levels={1: 2}, items={1: ["helm-of-courage"]})
    t.play("curse-chicken-on-your-head", "player-2", target="player-1")
    t.next().play("bigfoot").run().roll(1)
    assert "helm-of-courage" not in t.p(1).equipped and t.p(1).curses == []


def test_a_chicken_without_headgear_stays(catalog):
    t = scenario(catalog, items={1: ["leather-armor"]})
    t.play("curse-chicken-on-your-head", "player-2", target="player-1")
    t.play("curse-lose-the-armor-you-are-wearing", "player-2", target="player-1")
    assert t.p(1).curses == ["curse-chicken-on-your-head"]


def test_choosing_the_headgear_as_the_item_to_lose_takes_the_chicken(catalog):
    t = scenario(catalog, items={1: ["helm-of-courage", "leather-armor"]})
    t.play("curse-chicken-on-your-head", "player-2", target="player-1")
    t.play("curse-lose-1-small-item", "player-2", target="player-1")
    t.do(c.LoseItem(player="player-1", card="helm-of-courage"))
    assert t.p(1).curses == []


# ---- 9. an item its wearer can no longer use is carried

def test_after_change_sex_the_male_only_club_is_carried_and_frees_the_hand(catalog):
    t = scenario(catalog, items={1: ["gentlemen-s-club", "dagger-of-treachery"]}, classes={1: ["thief"]})
    assert t.p(1).equipped == ["gentlemen-s-club", "dagger-of-treachery"]
    t.play("curse-change-sex", "player-2", target="player-1")
    assert t.p(1).equipped == ["dagger-of-treachery"] and t.p(1).carried == ["gentlemen-s-club"]
    t.play("sneaky-bastard-sword")                    # the hand the club filled is free again
    assert "sneaky-bastard-sword" in t.p(1).equipped


def test_losing_the_race_moves_its_items_to_the_carried_pile(catalog):
    t = scenario(catalog, races={1: ["dwarf"]}, items={1: ["hammer-of-kneecapping"]})
    assert t.p(1).equipped == ["hammer-of-kneecapping"]
    t.play("curse-lose-your-race", "player-2", target="player-1")
    assert t.p(1).equipped == [] and t.p(1).carried == ["hammer-of-kneecapping"]


# ---- 10. Cheat! lifts the slot limit

def test_cheat_wears_a_second_armor(catalog):
    t = scenario(catalog, items={1: ["leather-armor", "flaming-armor"]})
    assert t.p(1).equipped == ["leather-armor"] and t.p(1).carried == ["flaming-armor"]
    t.play("cheat", item="flaming-armor")
    assert t.p(1).equipped == ["leather-armor", "flaming-armor"]
    assert t.json()["players"][0]["combat_strength"] == 1 + 1 + 2


def test_cheat_on_an_extra_hand_item(catalog):
    t = scenario(catalog, items={1: ["chainsaw-of-bloody-dismemberment", "sneaky-bastard-sword"]})
    assert t.p(1).carried == ["sneaky-bastard-sword"]
    t.play("cheat", item="sneaky-bastard-sword")
    assert set(t.p(1).equipped) == {"chainsaw-of-bloody-dismemberment", "sneaky-bastard-sword"}


def test_without_cheat_the_extra_armor_goes_back_to_carried(catalog):
    t = scenario(catalog, items={1: ["leather-armor", "flaming-armor"]}).play("cheat", item="flaming-armor")
    t.use("cheat", "discard")
    assert t.p(1).equipped == ["leather-armor"] and t.p(1).carried == ["flaming-armor"]


# ---- 12. giving, trading, promising

def test_trade_is_two_gives_outside_combat(catalog):
    t = scenario(catalog, items={1: ["helm-of-courage"], 2: ["leather-armor"]})
    t.use("helm-of-courage", "give", target="player-2").use("leather-armor", "give", "player-2", target="player-1")
    assert t.p(1).equipped == ["leather-armor"] and t.p(2).equipped == ["helm-of-courage"]


def test_an_item_promised_to_the_helper_changes_hands_when_the_fight_is_won(catalog):
    t = scenario(catalog, levels={1: 3, 2: 7}, items={1: ["helm-of-courage"]}).next().play("net-troll")
    t.use("helm-of-courage", "promise", target="player-2")
    assert t.p(1).equipped == ["helm-of-courage"]          # not yet
    t.help("player-2").win_fight()
    assert t.p(2).equipped == ["helm-of-courage"] and t.p(1).equipped == []


def test_a_promise_lapses_when_the_fight_is_lost(catalog):
    t = scenario(catalog, levels={1: 3, 2: 2}, items={1: ["helm-of-courage"]}).next().play("net-troll")
    t.use("helm-of-courage", "promise", target="player-2").help("player-2").run().roll(6).roll(6)
    assert t.p(1).equipped == ["helm-of-courage"] and t.p(2).equipped == []


def test_only_the_fighter_promises_and_only_in_combat(catalog):
    t = scenario(catalog, items={1: ["helm-of-courage"], 3: ["leather-armor"]})
    outside = t.attempt(c.UseCard(player="player-1", card="helm-of-courage", action="promise", target="player-2"))
    assert isinstance(outside, Rejected) and outside.code is RejectCode.WRONG_PHASE
    t.next().play("net-troll")
    other = t.attempt(c.UseCard(player="player-3", card="leather-armor", action="promise", target="player-2"))
    assert isinstance(other, Rejected) and other.code is RejectCode.NOT_YOUR_TURN
    given = t.attempt(c.UseCard(player="player-1", card="helm-of-courage", action="give", target="player-2"))
    assert isinstance(given, Rejected) and given.code is RejectCode.WRONG_PHASE


# ---- 13. selling from the hand

def test_selling_cards_from_the_hand(catalog):
    t = scenario(catalog)
    t.do(c.Sell(player="player-1", cards=("boots-of-butt-kicking", "flaming-armor", "helm-of-courage")))
    assert t.p(1).level == 2 and t.p(1).equipped == []


# ---- 14. a one-shot from outside the fight helps the side its player chooses

def test_a_one_shot_from_outside_the_fight_can_help_the_players(catalog):
    t = scenario(catalog, monster="lame-goblin")
    t.play("magic-missile", "player-3", side="players")
    assert t.strengths() == (6, 1)
    t.play("magic-missile", "player-2", side="monsters")
    assert t.strengths() == (6, 6)


# ---- sentences of the seed rulebooks that no other test spelled out

def test_no_second_copy_of_a_race_or_class(catalog):
    t = scenario(catalog, races={1: ["elf"]}, classes={1: ["wizard"]}).play("half-breed").play("super-munchkin")
    for card in ("elf", "wizard"):
        again = t.attempt(c.PlayCard(player="player-1", card=card))
        assert isinstance(again, Rejected) and "already a" in again.message


def test_only_items_on_the_table_are_given_not_cards_from_the_hand(catalog):
    t = scenario(catalog)
    hand = t.attempt(c.UseCard(player="player-1", card="helm-of-courage", action="give", target="player-2"))
    assert isinstance(hand, Rejected) and hand.code is RejectCode.NOT_IN_HAND
    t.play("elf")
    race = t.attempt(c.UseCard(player="player-1", card="elf", action="give", target="player-2"))
    assert isinstance(race, Rejected) and "only items" in race.message


def test_a_card_in_play_does_not_go_back_to_the_hand(catalog):
    t = scenario(catalog, items={1: ["helm-of-courage"]})
    back = t.attempt(c.UseCard(player="player-1", card="helm-of-courage", action="return"))
    assert isinstance(back, Rejected) and t.p(1).equipped == ["helm-of-courage"]


def test_treasure_is_drawn_face_down_alone_and_face_up_with_help(catalog):
    alone = scenario(catalog, levels={1: 3}, monster="lame-goblin").win_fight()
    assert alone.state.treasures_to_draw == 1 and not alone.state.treasures_face_up
    helped = scenario(catalog, levels={1: 1, 2: 2}, monster="lame-goblin").help("player-2").win_fight()
    assert helped.state.treasures_face_up and helped.p(2).level == 2       # the helper gains nothing


def test_fleeing_gives_no_level_no_treasure_and_no_loot(catalog):
    t = scenario(catalog, levels={1: 2}, monster="net-troll").run().roll(6)
    assert t.p(1).level == 2 and t.state.treasures_to_draw == 0 and t.state.phase.value == "charity"


def test_a_next_combat_curse_played_during_the_combat_counts_in_it(catalog):
    t = scenario(catalog, levels={1: 8}, monster="lame-goblin")
    assert t.strengths()[0] == 8
    t.play("curse-change-sex", "player-2", target="player-1")
    assert t.strengths()[0] == 3


def test_no_theft_while_anyone_is_in_combat(catalog):
    t = scenario(catalog, classes={2: ["thief"]}, items={1: ["helm-of-courage"]}, monster="net-troll")
    theft = t.attempt(c.UseAbility(player="player-2", ability="theft", target="player-1", card="helm-of-courage"))
    assert isinstance(theft, Rejected) and theft.code is RejectCode.WRONG_PHASE


def test_defeating_without_killing_gives_no_level(catalog):
    t = scenario(catalog, monster="net-troll").play("friendship-potion")
    assert t.p(1).level == 1 and t.state.combat is None


def test_combat_strength_may_be_negative_but_the_level_not(catalog):
    t = scenario(catalog, monster="lame-goblin")
    t.play("curse-change-sex", "player-2", target="player-1")
    assert t.strengths()[0] == -4 and t.p(1).level == 1


def test_the_fleeing_player_chooses_the_order_of_the_monsters(catalog):
    t = scenario(catalog, levels={1: 2}, monster="net-troll")
    t.play("wandering-monster", "player-2").play("bigfoot", "player-2").run()
    assert [i for _, i in t.state.flight.pending] == [0, 1]
    t.do(c.Roll(player="player-1", forced=1, monster=1))          # Bigfoot first: it takes the headgear
    assert t.state.flight.results[0][1] == 1 and [i for _, i in t.state.flight.pending] == [0]
    wrong = t.attempt(c.Roll(player="player-1", forced=6, monster=1))
    assert isinstance(wrong, Rejected) and "no roll left" in wrong.message


def test_a_big_item_under_cheat_leaves_room_for_another(catalog):
    t = scenario(catalog, items={1: ["huge-rock"]})
    refused = t.attempt(c.PlayCard(player="player-1", card="tuba-of-charm"))
    assert isinstance(refused, Rejected) and "Big item" in refused.message
    t.play("cheat", item="huge-rock").play("tuba-of-charm")
    assert "tuba-of-charm" in t.p(1).equipped + t.p(1).carried and t.state.pending_loss is None


def test_the_run_button_is_offered_only_when_the_players_cannot_win(catalog):
    from engine.game import legal_buttons

    t = scenario(catalog, levels={1: 5}, monster="lame-goblin")
    assert legal_buttons(t.state, catalog)["run"] == "" and legal_buttons(t.state, catalog)["next"] == "Fight!"
    t.play("ancient", "player-2")
    assert legal_buttons(t.state, catalog)["run"] == "Run away" and legal_buttons(t.state, catalog)["next"] == ""


# ---- abilities as printed

def test_theft_takes_a_worn_small_item_every_item_in_play_is_carried(catalog):
    t = scenario(catalog, classes={1: ["thief"]}, items={2: ["sneaky-bastard-sword"]})
    assert t.p(2).equipped == ["sneaky-bastard-sword"]
    t.ability("theft", target="player-2", card="sneaky-bastard-sword", forced=4)
    assert t.p(1).carried == ["sneaky-bastard-sword"] and t.p(2).equipped == []


def test_flight_after_the_failed_roll_takes_it_again_with_the_bonus(catalog):
    t = scenario(catalog, classes={1: ["wizard"]}, monster="net-troll").run().roll(3)
    assert t.state.flight.results[-1][3] is False
    t.ability("flight", count=2)
    assert t.state.flight.results[-1] == ("player-1", 0, 3, True)
    assert isinstance(t.attempt(c.UseAbility(player="player-1", ability="flight", count=2)), Rejected)  # away: no roll left to cast it on


def test_the_hireling_comes_into_play_in_a_fight_other_items_do_not(catalog):
    t = scenario(catalog, monster="net-troll")
    t.play("hireling")
    assert "hireling" in t.p(1).equipped
    assert isinstance(t.attempt(c.PlayCard(player="player-1", card="helm-of-courage")), Rejected)
