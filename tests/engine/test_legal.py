"""engine.legal: the questions a table asks before it builds a command, answered by the engine."""

from engine import commands as c
from engine.game import apply
from engine.legal import (Need, ability_card, ability_command, ability_of, card_needs, give_action, is_legal,
                          legal_commands, may_sell, sellable, usable_abilities, why_not)
from engine.results import Accepted, Rejected
from engine.state import Phase

from tests.engine.scenario import scenario


# ---- abilities

def test_ability_of_a_card_depends_on_the_phase():
    assert ability_of("wizard", Phase.COMBAT) == "charm"
    assert ability_of("wizard", Phase.RUN_AWAY) == "flight"
    assert ability_of("halfling", Phase.CHARITY) == "reroll"
    assert ability_of("warrior", Phase.CHARITY) is None
    assert ability_of("elf", Phase.COMBAT) is None
    assert ability_card("backstab") == "thief" and ability_card("no-such") is None


def test_usable_abilities_follow_the_players_cards_and_the_phase(catalog):
    t = scenario(catalog, classes={1: ["warrior"], 2: ["wizard"]}, monster="net-troll")
    assert t.state.phase is Phase.COMBAT
    assert usable_abilities(t.state, "player-1") == ("berserk",)
    assert usable_abilities(t.state, "player-2") == ("charm",)
    assert usable_abilities(t.state, "player-3") == ()
    assert usable_abilities(t.state, "player-9") == ()


def test_ability_command_is_accepted_by_the_engine(catalog):
    t = scenario(catalog, classes={1: ["warrior"], 2: ["thief"]}, monster="net-troll")
    berserk = ability_command(t.state, "player-1", "warrior", 1.0)
    assert berserk == c.UseAbility(player="player-1", ability="berserk", count=1, target="", at=1.0)
    assert isinstance(apply(t.state, berserk, catalog), Accepted)
    backstab = ability_command(t.state, "player-2", "thief", 1.0)
    assert backstab is not None and backstab.target == "player-1"       # the fighter is the one stabbed
    assert ability_command(t.state, "player-1", "elf", 1.0) is None


# ---- what a card needs

def test_a_curse_needs_a_victim_unless_drawn_on_the_kick(catalog):
    t = scenario(catalog)
    assert card_needs(t.state, catalog, "player-1", "curse-lose-a-level") is Need.NOTHING
    assert card_needs(t.state, catalog, "player-2", "curse-lose-a-level") is Need.VICTIM
    t.next()
    assert card_needs(t.state, catalog, "player-1", "curse-lose-a-level") is Need.VICTIM


def test_cards_that_need_a_token_an_item_or_a_number(catalog):
    t = scenario(catalog)
    assert card_needs(t.state, catalog, "player-1", "steal-a-level") is Need.TARGET
    assert card_needs(t.state, catalog, "player-1", "transferral-potion") is Need.TARGET
    assert card_needs(t.state, catalog, "player-1", "help-me-out-here") is Need.ITEM
    assert card_needs(t.state, catalog, "player-1", "cheat") is Need.ITEM
    assert card_needs(t.state, catalog, "player-1", "loaded-die") is Need.VALUE
    assert card_needs(t.state, catalog, "player-1", "net-troll") is Need.NOTHING


def test_a_monster_enhancer_needs_a_monster_only_when_there_are_several(catalog):
    t = scenario(catalog, monster="net-troll")
    assert card_needs(t.state, catalog, "player-1", "ancient") is Need.NOTHING
    t.play("wandering-monster").play("lame-goblin")
    assert len(t.state.combat.monsters) == 2
    assert card_needs(t.state, catalog, "player-1", "ancient") is Need.MONSTER
    assert card_needs(t.state, catalog, "player-2", "mate") is Need.MONSTER


def test_a_one_shot_from_outside_the_fight_needs_a_side(catalog):
    t = scenario(catalog, monster="net-troll")
    assert card_needs(t.state, catalog, "player-2", "magic-missile") is Need.SIDE
    assert card_needs(t.state, catalog, "player-1", "magic-missile") is Need.NOTHING     # the fighter's own side
    t.help("player-2")
    assert card_needs(t.state, catalog, "player-2", "magic-missile") is Need.NOTHING     # a helper fights too
    assert Need.SIDE == "side"                                                            # the prompt's kind


# ---- selling and giving

def test_may_sell_only_on_ones_own_turn_out_of_combat(catalog):
    t = scenario(catalog)
    assert may_sell(t.state, "player-1") and not may_sell(t.state, "player-2") and not may_sell(t.state, "")
    t.play("net-troll")
    assert t.state.phase is Phase.COMBAT and not may_sell(t.state, "player-1")


def test_may_sell_agrees_with_the_engine(catalog):
    t = scenario(catalog, items={1: ["boots-of-butt-kicking", "bow-with-ribbons"]})
    sale = c.Sell(player="player-1", cards=("boots-of-butt-kicking", "bow-with-ribbons"))
    assert may_sell(t.state, "player-1") and is_legal(t.state, catalog, sale)
    t.play("net-troll")
    assert not may_sell(t.state, "player-1") and not is_legal(t.state, catalog, sale)


def test_sellable_cards_have_a_price(catalog):
    assert sellable(catalog["boots-of-butt-kicking"]) and sellable(catalog["magic-missile"])
    assert not sellable(catalog["net-troll"]) and not sellable(catalog["warrior"])


def test_give_or_promise(catalog):
    t = scenario(catalog)
    assert give_action(t.state, "player-1") == "give"
    t.play("net-troll")
    assert give_action(t.state, "player-1") == "promise" and give_action(t.state, "player-2") == "give"


# ---- the engine's own apply as a dry run

def test_is_legal_is_a_dry_run(catalog):
    t = scenario(catalog)
    before = t.json()
    assert is_legal(t.state, catalog, c.EndPhase(player="player-1"))
    assert not is_legal(t.state, catalog, c.EndPhase(player="player-2"))
    assert t.json() == before                                        # nothing changed
    refused = why_not(t.state, catalog, c.Fight(player="player-1"))
    assert isinstance(refused, Rejected) and refused.message
    assert why_not(t.state, catalog, c.EndPhase(player="player-1")) is None


def test_legal_commands_are_each_accepted(catalog):
    t = scenario(catalog)
    found = legal_commands(t.state, catalog, "player-1", 0.0, cards=("net-troll", "steal-a-level", "no-such-card"))
    assert c.EndPhase(player="player-1", at=0.0) in found
    assert c.PlayCard(player="player-1", card="net-troll", at=0.0) in found
    assert all(isinstance(apply(t.state, cmd, catalog), Accepted) for cmd in found)
    assert not any(isinstance(cmd, c.PlayCard) and cmd.card == "steal-a-level" for cmd in found)   # needs a token
    t.play("net-troll")
    fighting = legal_commands(t.state, catalog, "player-1", 0.0)
    assert c.RunAway(player="player-1", at=0.0) in fighting
    assert not any(isinstance(cmd, c.EndPhase) for cmd in fighting)


# ---- the card menu

def test_menu_holder_prefers_the_acting_players_copy_and_plays_other_copies(catalog):
    from engine.legal import menu_holder

    t = scenario(catalog, classes={1: ["warrior"], 2: ["warrior"]}, items={2: ["boots-of-butt-kicking"]})
    assert menu_holder(t.state, catalog, "player-2", "warrior") == "player-2"
    assert menu_holder(t.state, catalog, "player-1", "warrior") == "player-1"
    assert menu_holder(t.state, catalog, "player-3", "boots-of-butt-kicking") == "player-2"     # one copy: its menu
    assert menu_holder(t.state, catalog, "player-1", "net-troll") is None                       # not in play: played
    assert catalog["warrior"].copies > 1 and menu_holder(t.state, catalog, "player-3", "warrior") is None


def test_menu_actions_follow_the_card_and_the_moment(catalog):
    from engine.legal import menu_actions

    t = scenario(catalog, classes={1: ["wizard"]}, items={1: ["boots-of-butt-kicking"]})
    boots = menu_actions(t.state, catalog, "player-1", "boots-of-butt-kicking")
    assert boots.toggle == "unequip" and boots.for_sale and boots.hand_over == "give" and not boots.abilities
    wizard = menu_actions(t.state, catalog, "player-1", "wizard")
    assert wizard.abilities and wizard.ability is None and not wizard.for_sale and wizard.hand_over == ""
    t.play("net-troll")
    assert menu_actions(t.state, catalog, "player-1", "wizard").ability == "charm"
    assert menu_actions(t.state, catalog, "player-1", "boots-of-butt-kicking").hand_over == "promise"


# ---- every ability of a card, and which the engine would accept now

def test_abilities_of_a_card_in_a_phase_in_menu_order():
    from engine.legal import abilities_of
    assert abilities_of("cleric", Phase.COMBAT) == ("turning", "chase")
    assert abilities_of("thief", Phase.COMBAT) == ("backstab",)
    assert abilities_of("thief", Phase.CHARITY) == ("theft",)
    assert abilities_of("wizard", Phase.RUN_AWAY) == ("flight",)
    assert abilities_of("elf", Phase.COMBAT) == () and abilities_of("cleric", Phase.SETUP) == ()


def test_abilities_now_are_the_ones_the_engine_accepts(catalog):
    from engine.legal import abilities_now
    t = scenario(catalog, classes={1: ["cleric"]}, monster="wannabe-vampire")
    assert abilities_now(t.state, catalog, "player-1", "cleric", 1.0) == ("chase",)   # no Undead: no Turning
    t = scenario(catalog, classes={1: ["thief"]}, items={2: ["sneaky-bastard-sword"]})
    assert abilities_now(t.state, catalog, "player-1", "thief", 1.0) == ("theft",)
    t = scenario(catalog, classes={1: ["thief"]})
    assert abilities_now(t.state, catalog, "player-1", "thief", 1.0) == ()             # nothing to steal
