"""The table at the rules' edges: a player's own card, UNDO of a kill, the prompt in the state JSON,
giving and promising from the card menu, selling from the hand, one-shots for either side."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from drivers.base import ManualClock
from drivers.sim import SimButtons, SimReader
from engine.rules import Ruleset
from table.config import Config, StorageConfig
from table.sim.script import parse_script
from table.sim.harness import perform
from table.control.assembly import build_table

START = "tap player-1\ntap player-2\ntap player-3\npress next\n"


class Driven:
    """The simulated table, driven one script line at a time."""

    def __init__(self, tmp_path: Path, **rules: object) -> None:
        self.clock = ManualClock()
        config = Config(storage=StorageConfig(state_dir=str(tmp_path)), rules=replace(Ruleset(), **rules))
        self.table = build_table(config, self.clock, seed_source=lambda: 1)
        self.ctl = self.table.controller
        self.reader = SimReader(self.table.events, clock=self.clock)
        self.buttons = SimButtons(self.table.events, clock=self.clock)

    def go(self, script: str) -> list:
        outcomes = []
        for action in parse_script(script, self.table.catalog):
            outcomes += perform(action, self.table, self.reader, self.buttons, self.clock)
        return outcomes

    def p(self, n: int):  # type: ignore[no-untyped-def]
        return self.ctl.state.player(f"player-{n}")

    @property
    def json(self) -> dict:
        return self.ctl.state_json()

    def close(self) -> None:
        self.ctl.records.close()
        self.table.journal.close()


def test_the_second_warrior_reaches_their_own_card(tmp_path: Path) -> None:
    t = Driven(tmp_path)
    t.go(START + "tap warrior\ntap player-2\ntap warrior\n")
    assert t.p(1).classes == ["warrior"] and t.p(2).classes == ["warrior"]
    t.go("press next\ntap net-troll\n")                                  # a fight for player-1; not winnable
    t.go("press help\ntap player-2\n")
    assert t.ctl.state.combat.helper == "player-2"
    t.go("tap player-2\ntap warrior\n")                                  # player-2's own Warrior: the menu
    assert t.ctl.prompt.kind == "card-menu" and t.ctl.prompt.player == "player-2"
    t.go("press help\n")                                                 # Berserk, for player-2
    assert t.ctl.state.combat.bonuses == {"player-2": 1}
    t.close()


def test_undo_of_a_kill_reopens_the_window_in_full_and_walks_back(tmp_path: Path) -> None:
    t = Driven(tmp_path)
    t.go(START + "tap boil-an-anthill\ntap lame-goblin\npress next\nwait 3\n")
    assert t.ctl.state.combat is None and t.p(1).level == 3                   # killed
    t.go("press undo\n")
    combat = t.ctl.state.combat
    assert combat is not None and combat.window_until == t.clock.monotonic() + 2.6
    t.go("wait 1\n")
    assert t.ctl.state.combat is not None                                     # the window still runs
    t.go("press undo\n")                                                      # takes back the Fight
    assert t.ctl.state.combat is not None and t.ctl.state.combat.window_until is None
    t.go("wait 5\npress undo\n")                                              # and the monster
    assert t.ctl.state.combat is None and t.ctl.state.phase.value == "kick-open-the-door"
    t.go("wait 5\n")
    assert t.p(1).level == 2
    t.close()


def test_undo_of_a_kill_then_interference_in_the_reopened_window(tmp_path: Path) -> None:
    t = Driven(tmp_path)
    t.go(START + "tap boil-an-anthill\ntap lame-goblin\npress next\nwait 3\npress undo\nwait 1\n"
         "tap player-2\ntap ancient\n")
    assert t.ctl.state.combat is not None and not t.json["combat"]["players_winning"]
    t.close()


def test_the_curse_prompt_is_in_the_state_json_and_closed_by_an_unrelated_action(tmp_path: Path) -> None:
    t = Driven(tmp_path)
    t.go(START + "press next\ntap curse-lose-a-level\n")
    prompt = t.json["prompt"]
    assert prompt == {"kind": "victim", "player": "player-1", "card": "curse-lose-a-level",
                      "expects": "player-token", "text": "Curse! Lose a Level: tap the victim's token"}
    t.go("tap lame-goblin\n")                                   # a monster is fought instead
    assert t.ctl.state.phase.value == "combat" and t.json["prompt"] is None
    assert "no longer waiting" in t.ctl.message.text
    t.go("tap player-2\n")                                      # "this player acts", not a victim
    assert t.p(2).level == 1 and t.ctl.prompt.kind == "player-menu"
    t.close()


def test_the_state_json_names_what_the_game_waits_for(tmp_path: Path) -> None:
    t = Driven(tmp_path)
    t.go(START + "tap helm-of-courage\ntap player-2\ntap curse-lose-1-small-item\ntap player-1\n")
    assert t.json["prompt"]["kind"] == "lose-item" and t.json["prompt"]["player"] == "player-1"
    assert t.json["prompt"]["expects"] == "item"
    t.go("tap helm-of-courage\n")
    assert t.json["prompt"] is None
    t.close()


def test_give_from_the_card_menu_then_the_receivers_token(tmp_path: Path) -> None:
    t = Driven(tmp_path)
    t.go(START + "tap helm-of-courage\ntap helm-of-courage\n")
    assert t.ctl.soft_keys()["run"] == "Give"
    t.go("press run\n")
    assert t.json["prompt"]["kind"] == "give" and t.json["prompt"]["expects"] == "player-token"
    t.go("tap player-3\n")
    assert t.p(3).equipped == ["helm-of-courage"] and t.p(1).equipped == []
    t.close()


def test_trade_two_items_through_the_card_menus(tmp_path: Path) -> None:
    t = Driven(tmp_path)
    t.go(START + "tap helm-of-courage\ntap player-2\ntap leather-armor\n"
         "tap helm-of-courage\npress run\ntap player-2\ntap player-2\ntap leather-armor\npress run\ntap player-1\n")
    assert t.p(1).equipped == ["leather-armor"] and t.p(2).equipped == ["helm-of-courage"]
    t.close()


def test_promise_to_the_helper_changes_hands_when_the_fight_is_won(tmp_path: Path) -> None:
    t = Driven(tmp_path)
    t.go(START + "tap helm-of-courage\npress next\ntap player-2\ntap 1000-gold-pieces\ntap player-2\n"
         "tap boil-an-anthill\ntap player-2\ntap bribe-gm-with-food\ntap gelatinous-octahedron\nwait 9\n")
    t.go("tap helm-of-courage\n")
    assert t.ctl.soft_keys()["run"] == "Promise"
    t.go("press run\ntap player-2\npress help\ntap player-2\npress next\nwait 3\n")
    assert t.ctl.state.combat is None and t.p(2).equipped == ["helm-of-courage"]
    t.close()


def test_selling_from_the_hand(tmp_path: Path) -> None:
    t = Driven(tmp_path)
    t.go(START + "tap helm-of-courage\n")
    assert t.ctl.soft_keys()["help"] == "Sell"
    t.go("press help\ntap helm-of-courage\ntap boots-of-butt-kicking\ntap leather-armor\n")
    assert t.json["prompt"]["kind"] == "sell" and t.json["prompt"]["basket"] == [
        "helm-of-courage", "boots-of-butt-kicking", "leather-armor"]
    t.go("tap leather-armor\ntap flaming-armor\n")                     # out again; another from the hand
    refused = t.go("tap 1000-gold-pieces\n")                            # no price: not a sale
    assert not refused[0].accepted and "no price" in refused[0].message.text
    t.go("press next\n")
    assert t.p(1).level == 2 and t.p(1).equipped == []                 # 1,000 gold: one level
    assert t.ctl.basket == [] and t.json["prompt"] is None
    t.close()


def test_selling_mode_is_cancelled_by_undo(tmp_path: Path) -> None:
    t = Driven(tmp_path)
    t.go(START + "press help\ntap 1000-gold-pieces\npress undo\n")
    assert t.ctl.basket == [] and t.ctl.prompt is None and t.p(1).level == 1
    t.close()


def test_a_one_shot_from_outside_the_fight_asks_for_a_side(tmp_path: Path) -> None:
    t = Driven(tmp_path)
    t.go(START + "tap net-troll\ntap player-2\ntap magic-missile\n")
    assert t.json["prompt"]["kind"] == "side" and t.json["prompt"]["player"] == "player-2"
    t.go("press roll\n")
    assert t.json["combat"]["players_strength"] == 6
    t.go("tap player-3\ntap magic-missile\npress run\n")
    assert t.json["combat"]["monsters_strength"] == 15
    t.go("tap player-3\ntap flaming-poison-potion\ntap player-1\n")       # a fighter's token: the players
    assert t.json["combat"]["players_strength"] == 9
    t.go("tap player-2\ntap sleep-potion\ntap net-troll\n")               # a monster: the monsters
    assert t.json["combat"]["monsters_strength"] == 17
    t.close()


def test_the_fighter_plays_a_one_shot_for_the_players_without_being_asked(tmp_path: Path) -> None:
    t = Driven(tmp_path)
    t.go(START + "tap net-troll\ntap magic-missile\n")
    assert t.json["prompt"] is None and t.json["combat"]["players_strength"] == 6
    t.close()


def test_a_tap_of_a_monster_chooses_which_one_the_next_roll_is_against(tmp_path: Path) -> None:
    t = Driven(tmp_path)
    t.go(START + "tap net-troll\ntap player-2\ntap wandering-monster\ntap player-2\ntap bigfoot\npress run\n")
    assert t.ctl.state.phase.value == "run-away"
    t.go("tap bigfoot\ndie 6\npress roll\n")
    assert t.ctl.state.flight.results[0][:2] == ("player-1", 1)
    assert [i for _, i in t.ctl.state.flight.pending] == [0]
    t.close()


def test_an_item_no_longer_carried_is_sold_through_the_basket_on_the_own_turn(tmp_path: Path) -> None:
    t = Driven(tmp_path)
    t.go(START + "tap dwarf\ntap huge-rock\ntap chainsaw-of-bloody-dismemberment\ntap boots-of-butt-kicking\n"
         "tap player-2\ntap curse-lose-your-race\ntap player-1\n")
    assert t.json["prompt"]["kind"] == "give-up-big-item"
    t.go("press help\ntap chainsaw-of-bloody-dismemberment\ntap boots-of-butt-kicking\npress next\n")
    assert t.p(1).level == 2 and t.json["prompt"] is None
    assert t.p(1).equipped + t.p(1).carried == ["huge-rock"]
    t.close()
