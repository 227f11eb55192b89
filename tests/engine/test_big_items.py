"""A Dwarf who stops being a Dwarf keeps only as many Big items as anybody may carry; they choose which."""

from engine import commands as c
from engine.results import Rejected, RejectCode
from tests.engine.scenario import scenario

BIGS = ["chainsaw-of-bloody-dismemberment", "huge-rock", "tuba-of-charm"]


def dwarf_with_three_big_items(catalog, **kw):
    t = scenario(catalog, races={1: ["dwarf"]}, items={1: list(BIGS)}, **kw)
    assert t.state.pending_loss is None
    return t


def test_a_dwarf_cursed_out_of_the_race_must_give_up_the_extra_big_items(catalog):
    t = dwarf_with_three_big_items(catalog)
    t.play("curse-lose-your-race", "player-2", target="player-1")
    loss = t.state.pending_loss
    assert loss is not None and (loss.player, loss.kind, loss.count) == ("player-1", "big", 2)
    tied = t.attempt(c.LoseItem(player="player-1", card="huge-rock"))
    assert isinstance(tied, Rejected) and "Player 2, Player 3" in tied.message     # who takes it?
    t.do(c.LoseItem(player="player-1", card="huge-rock", target="player-2"))
    assert t.state.pending_loss.count == 1
    t.do(c.LoseItem(player="player-1", card="chainsaw-of-bloody-dismemberment"))   # only Player 3 can carry it
    assert t.state.pending_loss is None
    assert [*t.p(1).equipped, *t.p(1).carried] == ["tuba-of-charm"]      # the one the player kept
    # never just discarded: the lowest-level players who can carry them took them
    assert "huge-rock" in t.p(2).equipped + t.p(2).carried
    assert "chainsaw-of-bloody-dismemberment" in t.p(3).equipped + t.p(3).carried


def test_an_item_no_longer_carried_goes_to_the_lowest_level_player(catalog):
    t = scenario(catalog, levels={2: 4, 3: 2}, races={1: ["dwarf"]}, items={1: ["huge-rock", "tuba-of-charm"]})
    t.play("curse-lose-your-race", "player-2", target="player-1")
    wrong = t.attempt(c.LoseItem(player="player-1", card="huge-rock", target="player-2"))
    assert isinstance(wrong, Rejected) and "Player 3" in wrong.message
    t.do(c.LoseItem(player="player-1", card="huge-rock"))
    assert "huge-rock" in t.p(3).equipped + t.p(3).carried and t.state.pending_loss is None


def test_an_item_no_longer_carried_may_be_sold_on_the_own_turn(catalog):
    t = scenario(catalog, races={1: ["dwarf"]}, items={1: ["huge-rock", "chainsaw-of-bloody-dismemberment",
                                                          "boots-of-butt-kicking"]})
    t.play("curse-lose-your-race", "player-2", target="player-1")
    assert t.state.pending_loss.count == 1
    t.do(c.Sell(player="player-1", cards=("chainsaw-of-bloody-dismemberment", "boots-of-butt-kicking")))
    assert t.state.pending_loss is None and t.p(1).level == 2


def test_a_big_item_is_not_discarded_to_make_room_for_another(catalog):
    t = scenario(catalog, items={1: ["huge-rock"]})
    t.use("huge-rock", "discard")
    refused = t.attempt(c.PlayCard(player="player-1", card="tuba-of-charm"))
    assert isinstance(refused, Rejected) and "not discarded to make room" in refused.message
    assert "tuba-of-charm" not in t.p(1).equipped + t.p(1).carried
    t.end_turn()
    t.end_turn().end_turn()
    t.play("tuba-of-charm")                  # a later turn: nothing was discarded to make room now
    assert "tuba-of-charm" in t.p(1).equipped + t.p(1).carried


def test_a_big_item_given_away_makes_room(catalog):
    t = scenario(catalog, items={1: ["huge-rock"]})
    t.use("huge-rock", "give", target="player-2").play("tuba-of-charm")
    assert "tuba-of-charm" in t.p(1).equipped + t.p(1).carried


def test_the_big_item_limit_must_be_met_before_the_turn_goes_on(catalog):
    t = dwarf_with_three_big_items(catalog)
    t.play("curse-lose-your-race", "player-2", target="player-1")
    result = t.attempt(c.EndPhase(player="player-1"))
    assert isinstance(result, Rejected) and result.code is RejectCode.ILLEGAL_PLAY
    result = t.attempt(c.LoseItem(player="player-1"))
    assert isinstance(result, Rejected) and "Big" in result.message


def test_a_small_item_does_not_count_towards_the_excess(catalog):
    t = scenario(catalog, races={1: ["dwarf"]}, items={1: ["huge-rock", "tuba-of-charm", "helm-of-courage"]})
    t.play("curse-lose-your-race", "player-2", target="player-1")
    result = t.attempt(c.LoseItem(player="player-1", card="helm-of-courage"))
    assert isinstance(result, Rejected) and result.code is RejectCode.ILLEGAL_TARGET
    assert "Helm of Courage" in result.message


def test_giving_the_extra_big_item_away_settles_it(catalog):
    t = scenario(catalog, races={1: ["dwarf"]}, items={1: ["huge-rock", "tuba-of-charm"]})
    t.play("curse-lose-your-race", "player-2", target="player-1")
    assert t.state.pending_loss.count == 1
    t.use("huge-rock", "give", target="player-2")
    assert t.state.pending_loss is None and t.p(2).equipped == ["huge-rock"]


def test_the_shrieking_geek_takes_the_race_and_then_the_big_items(catalog):
    t = dwarf_with_three_big_items(catalog, levels={1: 1})
    t.next().play("shrieking-geek").run().roll(1)
    assert t.p(1).races == [] and t.state.phase.value == "charity"
    assert t.state.pending_loss.count == 2 and t.state.pending_loss.kind == "big"


def test_a_dwarf_who_becomes_an_elf_keeps_one_big_item(catalog):
    t = dwarf_with_three_big_items(catalog).play("elf")
    assert t.p(1).races == ["elf"] and t.state.pending_loss.count == 2


def test_a_dwarf_keeps_the_big_items_while_still_a_dwarf(catalog):
    t = scenario(catalog, races={1: ["dwarf"]}, items={1: list(BIGS)}).play("half-breed").play("elf")
    t.play("curse-change-sex", "player-2", target="player-1")
    assert t.p(1).races == ["dwarf", "elf"] and t.state.pending_loss is None


def test_the_hireling_carries_one_more(catalog):
    t = scenario(catalog, races={1: ["dwarf"]}, items={1: ["hireling", "huge-rock", "tuba-of-charm"]})
    t.play("curse-lose-your-race", "player-2", target="player-1")
    assert t.state.pending_loss is None


def test_a_dwarf_who_discards_a_big_item_made_no_room_and_may_play_another(catalog):
    t = scenario(catalog, races={1: ["dwarf"]}, items={1: ["huge-rock"]})
    t.use("huge-rock", "discard").play("tuba-of-charm")
    assert "tuba-of-charm" in t.p(1).equipped + t.p(1).carried


def test_with_a_hireling_one_big_item_discarded_from_two_made_room(catalog):
    t = scenario(catalog, items={1: ["hireling", "huge-rock", "chainsaw-of-bloody-dismemberment"]})
    t.use("huge-rock", "discard")
    refused = t.attempt(c.PlayCard(player="player-1", card="tuba-of-charm"))
    assert isinstance(refused, Rejected) and "make room" in refused.message
