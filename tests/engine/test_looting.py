"""Looting the body: one card each, highest level first, as far as the box can see the cards."""

from engine import commands as c
from engine.results import Rejected, RejectCode
from tests.engine.scenario import scenario


def dead_player_1(catalog, items=("helm-of-courage", "spiky-knees", "boots-of-butt-kicking"), **kw):
    """player-1 (level 6) dies to the Bullrog; player-3 (level 5) loots before player-2 (level 2)."""
    levels = kw.pop("levels", {1: 6, 2: 2, 3: 5})
    t = scenario(catalog, levels=levels, items={1: list(items), **kw.pop("items", {})}, **kw)
    t.play("bullrog").run().roll(1)
    assert not t.p(1).alive and t.state.looting["order"] == ["player-3", "player-2"]
    return t


def test_the_first_looter_takes_an_item_from_the_body(catalog):
    t = dead_player_1(catalog).play("helm-of-courage", "player-3")
    assert t.p(3).equipped == ["helm-of-courage"]
    assert t.state.looting["items"] == ["spiky-knees", "boots-of-butt-kicking"]
    assert t.state.looting["waiting"] == ["player-2"]
    assert any(e.name == "ItemTaken" and e.data["by"] == "looting" for e in t.events)


def test_each_looter_takes_one_card_only(catalog):
    t = dead_player_1(catalog).play("helm-of-courage", "player-3")
    result = t.attempt(c.PlayCard(player="player-3", card="spiky-knees"))
    assert isinstance(result, Rejected) and result.code is RejectCode.NOT_YOUR_TURN
    assert "Spiky Knees" in result.message and "Player 2" in result.message


def test_a_looter_who_took_from_the_hand_says_so_and_may_not_take_later(catalog):
    t = dead_player_1(catalog).do(c.LootFromHand(player="player-3"))     # player-3 took a hand card
    assert t.events[-1].name == "HandLooted" and t.state.looting["waiting"] == ["player-2"]
    assert isinstance(t.attempt(c.PlayCard(player="player-3", card="helm-of-courage")), Rejected)
    t.play("spiky-knees", "player-2")
    assert t.p(2).equipped == ["spiky-knees"]
    assert t.state.looting is None                                    # everyone has had a pick
    assert t.events[-1].data["discarded"] == ["helm-of-courage", "boots-of-butt-kicking"]


def test_the_last_looter_taking_from_the_hand_discards_the_rest(catalog):
    t = dead_player_1(catalog).play("helm-of-courage", "player-3").do(c.LootFromHand(player="player-2"))
    assert t.state.looting is None and t.events[-1].data["discarded"] == ["spiky-knees", "boots-of-butt-kicking"]


def test_only_the_looter_whose_pick_it_is_says_they_took_from_the_hand(catalog):
    result = dead_player_1(catalog).attempt(c.LootFromHand(player="player-2"))
    assert isinstance(result, Rejected) and result.code is RejectCode.NOT_YOUR_TURN
    assert "Player 3" in result.message


def test_the_body_and_the_dead_cannot_loot(catalog):
    t = dead_player_1(catalog)
    result = t.attempt(c.PlayCard(player="player-1", card="helm-of-courage"))
    assert isinstance(result, Rejected) and result.code is RejectCode.NOT_YOUR_TURN
    assert "Helm of Courage" in result.message and "Player 3" in result.message


def test_a_looter_cannot_take_a_second_big_item(catalog):
    t = scenario(catalog, levels={1: 6, 2: 2, 3: 5}, items={1: ["huge-rock", "spiky-knees"],
                                                             3: ["chainsaw-of-bloody-dismemberment"]})
    t.play("bullrog").run().roll(1)
    result = t.attempt(c.PlayCard(player="player-3", card="huge-rock"))
    assert isinstance(result, Rejected) and result.code is RejectCode.ILLEGAL_PLAY
    assert "Huge Rock" in result.message and "another card" in result.message
    t.play("spiky-knees", "player-3")
    assert "spiky-knees" in t.p(3).equipped


def test_loot_taken_during_a_run_away_is_carried(catalog):
    t = scenario(catalog, levels={1: 2, 2: 6, 3: 3}, races={1: ["elf"]}, items={1: ["helm-of-courage"]})
    t.next().play("squidzilla").help("player-2").run()
    t.roll(1)                                  # player-1 caught: dead; player-2 (level 6) still to roll
    assert t.state.phase.value == "run-away" and not t.p(1).alive
    t.play("helm-of-courage", "player-2")
    assert t.p(2).carried == ["helm-of-courage"] and t.p(2).equipped == []


def test_what_nobody_took_is_discarded_at_the_next_turn(catalog):
    t = dead_player_1(catalog).play("helm-of-courage", "player-3")
    t.next()
    assert t.state.looting is None and t.p(1).alive and t.p(1).equipped == []
