"""Five rules the seed rulebooks state, and the die at the table: each test says the seed's words.

es = the Spanish seed (../shared/seeds/000_…), zh = the Chinese seed (001_…).
"""

from engine import commands as c
from engine.results import Rejected, RejectCode
from engine.rules import Ruleset
from tests.engine.scenario import scenario

FAST = Ruleset(interference_seconds=0)


def dead_player_1(catalog):
    """player-1 (level 6) dies to the Bullrog; player-3 (level 5) is higher than player-2 (level 2)."""
    t = scenario(catalog, levels={1: 6, 2: 2, 3: 5}, items={1: ["helm-of-courage", "spiky-knees"]})
    t.play("bullrog").run().roll(1)
    assert not t.p(1).alive and t.state.looting["order"] == ["player-3", "player-2"]
    return t


def test_looting_the_body_starts_with_the_player_of_the_highest_level(catalog):
    """es "Muerte": "Empezando por el jugador con el nivel más alto, cada jugador recibirá una de sus
    cartas." zh "死亡": "每个玩家选择一张牌，从等级最高的玩家开始。" """
    t = dead_player_1(catalog)
    before = t.state.clone()
    result = t.attempt(c.PlayCard(player="player-2", card="helm-of-courage"))
    assert isinstance(result, Rejected) and result.code is RejectCode.NOT_YOUR_TURN
    assert "Player 3 picks before Player 2" in result.message and "highest level" in result.message
    assert t.state == before and t.p(2).equipped == []
    t.play("spiky-knees", "player-3").play("helm-of-courage", "player-2")      # in order: both taken
    assert t.p(3).equipped == ["spiky-knees"] and t.p(2).equipped == ["helm-of-courage"]


def drooling_slime_and_crabs(catalog):
    """player-1 (level 3) wears armor and footgear and flees the Drooling Slime and the Crabs together."""
    t = scenario(catalog, levels={1: 3}, items={1: ["leather-armor", "boots-of-butt-kicking"]}, monster="drooling-slime")
    t.play("wandering-monster", "player-2").play("crabs", "player-2")
    return t.run()


def test_fleeing_several_monsters_the_player_chooses_the_order_of_the_bad_stuff(catalog):
    """zh "奔向远方": "当逃离几个怪物时，分别为每个怪物掷骰子。 你可以选择坏事的顺序。" The Slime first: it
    takes the footgear; the Crabs then take the armor. Nothing is lost before the player chooses."""
    t = drooling_slime_and_crabs(catalog)
    assert t.p(1).equipped == ["leather-armor", "boots-of-butt-kicking"] and t.p(1).level == 3
    assert not any(e.name == "RunAwayFailed" for e in t.events)
    t.do(c.Roll(player="player-1", forced=1, monster=0))          # the Slime's roll: caught
    lost = [e.cards for e in t.events if e.name == "ItemsLost" and e.cards]
    assert lost == [("boots-of-butt-kicking",), ("leather-armor",)]     # the Slime's, then the Crabs'
    assert t.state.phase.value == "charity" and t.p(1).equipped == [] and t.p(1).level == 3


def test_fleeing_the_crabs_first_is_the_players_choice_too(catalog):
    t = drooling_slime_and_crabs(catalog)
    t.do(c.Roll(player="player-1", monster=1))                    # the Crabs first: no die for them
    assert t.p(1).equipped == [] and t.state.rolls == 0 and t.state.phase.value == "run-away"
    t.roll(1)                                                     # the Slime finds no footgear: a level
    assert t.state.phase.value == "charity" and t.p(1).level == 2


def test_two_monsters_that_cannot_be_outrun_wait_for_the_players_choice(catalog):
    t = scenario(catalog, levels={1: 5}, items={1: ["leather-armor"]}, monster="crabs")
    t.play("wandering-monster", "player-2").play("floating-nose", "player-2").run()
    assert t.p(1).equipped == ["leather-armor"] and t.p(1).level == 5
    assert t.json()["prompt"]["kind"] == "flee-order"
    result = t.attempt(c.Roll(player="player-1"))
    assert isinstance(result, Rejected) and "Crabs" in result.message and "Floating Nose" in result.message
    t.do(c.Roll(player="player-1", monster=1))                    # the Nose first: 3 levels, then the Crabs
    caught_by = [e.monster for e in t.events if e.name == "RunAwayFailed"]
    assert caught_by == ["floating-nose", "crabs"] and t.state.rolls == 0
    assert t.p(1).level == 2 and t.p(1).equipped == [] and t.state.phase.value == "charity"


def test_no_looking_for_trouble_after_the_doors_monster_left_by_a_friendship_potion(catalog):
    """es "Paso 2": "Si al abrir la puerta no has dado con un monstruo, puedes provocar a un monstruo…"
    zh: "如果你在上一阶段不得不与一只怪兽战斗，则进入第三阶段。" """
    t = scenario(catalog, monster="net-troll")                  # the door's monster
    t.play("friendship-potion")
    assert t.state.phase.value == "charity" and any(e.name == "RoomLooted" for e in t.events)
    result = t.attempt(c.PlayCard(player="player-1", card="lame-goblin"))
    assert isinstance(result, Rejected) and result.code is RejectCode.WRONG_PHASE
    assert t.state.combat is None


def test_a_caught_player_loses_every_class_to_the_amazon(catalog):
    """es "Desaparecer": "Se te aplica el desafortunado incidente indicado en la carta." Amazon: "lose
    your class(es)": a Warrior and Wizard by Super Munchkin loses both."""
    t = scenario(catalog, classes={1: ["warrior", "super-munchkin", "wizard"]}, monster="amazon")
    assert t.p(1).classes == ["warrior", "wizard"]
    t.run().roll(1)
    assert t.p(1).classes == [] and "super-munchkin" not in t.p(1).specials and t.p(1).level == 1


def test_lose_your_class_takes_one_class_the_victim_chooses_and_no_class_costs_levels(catalog):
    t = scenario(catalog, classes={1: ["warrior", "super-munchkin", "wizard"]})
    t.play("curse-lose-your-class", "player-2", target="player-1")
    assert t.p(1).classes == ["warrior", "wizard"] and t.state.pending_loss.kind == "class"      # never a guess
    refused = t.attempt(c.LoseItem(player="player-1", card="thief"))
    assert isinstance(refused, Rejected) and "class card" in refused.message
    t.do(c.LoseItem(player="player-1", card="warrior"))
    assert t.p(1).classes == ["wizard"] and t.state.pending_loss is None
    t = scenario(catalog, levels={1: 5}, monster="amazon").run().roll(1)
    assert t.p(1).level == 2


def test_pukachu_gives_its_extra_level_only_without_help_or_bonuses(catalog):
    """zh "仔细阅读怪物卡片，因为有些怪物有特殊的能力": Pukachu, "without help or bonuses": the Helm of
    Courage's +1 is a bonus."""
    t = scenario(catalog, levels={1: 6}, items={1: ["helm-of-courage"]}, ruleset=FAST, monster="pukachu").fight()
    assert t.p(1).level == 7
    t = scenario(catalog, levels={1: 7}, ruleset=FAST, monster="pukachu").fight()
    assert t.p(1).level == 9


def test_the_orcs_bad_stuff_is_rolled_on_the_tables_die(catalog):
    """3,872 Orcs: the roll of the Bad Stuff comes from the die at the table, like every roll."""
    for seed in (1, 2, 3):
        t = scenario(catalog, levels={1: 9}, monster="3872-orcs", seed=seed).run().roll(1)
        assert t.p(1).level == 9 and t.state.pending_roll is not None
        assert t.json()["prompt"] == {"kind": "bad-stuff-roll", "player": "player-1", "card": "3872-orcs",
                                      "expects": "roll"}
        refused = t.attempt(c.EndPhase(player="player-1"))
        assert isinstance(refused, Rejected)
        t.roll(5)
        assert t.p(1).level == 4 and t.state.phase.value == "charity"


def test_snails_on_speed_with_no_items_takes_the_roll_from_the_hand(catalog):
    t = scenario(catalog, monster="snails-on-speed").run().roll(1).roll(3)
    loss = t.state.pending_loss
    assert (loss.count, loss.source) == (3, "snails-on-speed")
    t.do(c.LoseItem(player="player-1"))
    assert t.events[0].name == "RestFromHand" and t.events[0].count == 3 and t.state.phase.value == "charity"


def test_looters_at_the_same_level_roll_the_tables_die_for_who_picks_first(catalog):
    """zh "死亡": "如果玩家的等级相同，就掷骰子决定谁先出牌。" The die at the table, one ROLL each; equal
    rolls roll again."""
    t = scenario(catalog, players=4, levels={1: 6, 2: 3, 3: 3, 4: 5}, items={1: ["helm-of-courage", "spiky-knees"]})
    t.play("bullrog").run().roll(1)
    assert t.state.looting["to_roll"] == ["player-2", "player-3"]
    assert t.json()["prompt"]["kind"] == "loot-roll" and t.json()["prompt"]["player"] == "player-2"
    refused = t.attempt(c.PlayCard(player="player-4", card="helm-of-courage"))
    assert isinstance(refused, Rejected) and "ROLL" in refused.message
    t.roll(4).roll(4)                                              # equal: both roll again
    assert t.state.looting["to_roll"] == ["player-2", "player-3"]
    t.roll(2).roll(5)
    assert t.state.looting["waiting"] == ["player-4", "player-3", "player-2"]
    assert [e.roll for e in t.events if e.name == "LootOrderRolled"] == [5]
    t.play("helm-of-courage", "player-4").play("spiky-knees", "player-3")
    assert t.p(3).equipped == ["spiky-knees"]
