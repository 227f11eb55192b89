"""Every ability printed on the base set's race and class cards, used at the table the way a group
would: the card's tap opens its menu, HELP (and RUN, when two are possible now) uses it, a token, an
item or a monster is tapped when it needs one. Each is used in the phase its card allows and refused
in one it does not, with a refusal that says when it can be used."""

from __future__ import annotations

import json
from pathlib import Path

from table.cli import main
from table.words import i18n
from tests.table.test_controller_edges import START, Driven



class Table(Driven):
    """The simulated table, driven one script line at a time (with the rules it is given)."""

    def last(self, script: str) -> str:
        """The words of the last message ``script`` came to."""
        said = [o.message.text for o in self.go(script) if o.message is not None]
        return str(said[-1])

    @property
    def combat(self):  # type: ignore[no-untyped-def]
        return self.ctl.state.combat

    def keys(self) -> dict[str, str]:
        return {k: str(v) for k, v in self.ctl.soft_keys().items()}


def test_berserk_in_a_fight_wins_the_tie_and_is_refused_outside_one(tmp_path: Path) -> None:
    t = Table(tmp_path)
    said = t.last(START + "tap warrior\ntap warrior\npress help\n")          # kick open the door: no fight
    assert said.startswith("Warrior has no ability to use now") and "Berserk: in a fight you are in" in said
    t.go("press undo\npress next\ntap flying-frogs\ntap warrior\n")           # level 1 against level 2
    assert t.keys()["help"] == "Berserk"
    t.go("press help\n")
    assert t.combat.bonuses == {"player-1": 1}
    t.go("press undo\npress next\nwait 3\n")                                   # 2 against 2: the warrior's tie
    assert t.combat is None and t.p(1).level == 2
    t.close()


def test_a_cleric_chases_off_the_wannabe_vampire_no_level_its_treasures(tmp_path: Path) -> None:
    t = Table(tmp_path)
    said = t.last(START + "tap cleric\ntap cleric\npress help\n")
    assert said.startswith("Cleric has no ability to use now") and "Chase off: in a fight against a monster whose card says so" in said
    t.go("press undo\npress next\ntap wannabe-vampire\ntap cleric\n")
    assert t.keys()["help"] == "Chase off" and t.keys()["run"] == ""
    t.go("press help\n")
    assert t.combat is None and t.p(1).level == 1 and t.ctl.state.treasures_to_draw == 3
    t.close()


def test_turning_against_undead_and_both_cleric_abilities_on_the_soft_keys(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.go(START + "tap cleric\npress next\ntap net-troll\ntap cleric\n")
    said = t.last("press help\n")                                                # no Undead here
    assert said == "Turning works only against Undead, and none is in this fight"
    t.go("press undo\npress undo\n")                                              # the menu shut; the troll taken back
    t.go("wait 3\ntap wannabe-vampire\ntap wandering-monster\ntap undead-horse\ntap cleric\n")
    assert t.keys()["help"] == "Turning" and t.keys()["run"] == "Chase off"
    t.go("press help\npress help\n")
    assert t.combat.bonuses == {"player-1": 6}                                 # +3 a discard
    t.go("press run\n")
    assert [m.card for m in t.combat.monsters] == ["undead-horse"]             # the Vampire is gone; the Horse stays
    assert t.keys()["run"] == ""
    t.close()


def test_charm_sends_the_chosen_monster_away_with_its_treasure_and_the_other_stays(tmp_path: Path) -> None:
    t = Table(tmp_path)
    said = t.last(START + "tap wizard\ntap wizard\npress help\n")
    assert said.startswith("Wizard has no ability to use now") and "Charm: in a fight you are in" in said
    t.go("press undo\npress next\ntap net-troll\ntap wandering-monster\ntap maul-rat\ntap wizard\npress help\n")
    assert t.ctl.prompt.kind == "monster"
    t.go("tap net-troll\n")
    assert [m.card for m in t.combat.monsters] == ["maul-rat"] and t.combat.charmed_treasures == 3
    assert t.combat.discards == {} and t.p(1).level == 1
    t.go("tap wizard\npress help\n")                                            # the last one: the fight ends
    assert t.combat is None and t.p(1).level == 1 and t.ctl.state.treasures_to_draw == 4
    t.close()


def test_flight_after_a_failed_run_away_roll_takes_the_roll_again_with_the_bonus(tmp_path: Path) -> None:
    t = Table(tmp_path)
    said = t.last(START + "tap wizard\npress next\ntap net-troll\ntap wizard\n")
    assert t.keys()["help"] == "Charm"                                          # in the fight: Charm, not Flight
    t.go("press undo\npress run\ndie 3\npress roll\n")
    assert t.ctl.state.flight.results[-1][3] is False                          # 3: caught
    t.go("tap wizard\n")
    assert t.keys()["help"] == "Flight"
    t.go("press help\n")
    assert t.ctl.state.flight.results[-1][3] is False                          # 3 + 1: still caught
    t.go("press help\n")
    assert t.ctl.state.flight.results[-1] == ("player-1", 0, 3, True)          # 3 + 2: away
    said = t.last("press help\n")
    assert said == "Player 1 has no run-away roll to cast the Flight Spell on"    # away: nothing to flee
    t.close()


def test_backstab_any_player_in_the_fight_once_per_victim(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.go(START + "tap player-3\ntap thief\ntap player-3\ntap thief\n")
    assert t.keys()["help"] == "Steal"                                          # out of combat: Steal only
    said = t.last("press help\n")                                              # nobody has an item to steal
    assert said.startswith("Thief has no ability to use now") and "Backstab: in a fight, against a player in it" in said
    t.go("press undo\nwait 10\npress next\ntap net-troll\npress help\ntap player-2\n")  # player-2 helps
    t.go("tap player-3\ntap thief\n")
    assert t.keys()["help"] == "Backstab" and t.keys()["run"] == ""
    t.go("press help\ntap player-2\n")                                          # the helper
    assert t.combat.backstabs == [("player-3", "player-2")]
    said = t.last("tap player-3\ntap thief\npress help\ntap player-2\n")
    assert said == "backstab: once per victim per combat"
    t.go("tap player-3\ntap thief\npress help\ntap player-1\n")                # the fighter
    assert t.combat.backstabs == [("player-3", "player-2"), ("player-3", "player-1")]
    t.close()


def test_steal_a_worn_small_item_victim_token_item_tap_roll(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.go(START + "tap thief\ntap player-2\ntap sneaky-bastard-sword\ntap player-1\ntap thief\n")
    assert t.p(2).equipped == ["sneaky-bastard-sword"] and t.keys()["help"] == "Steal"
    t.go("press help\ntap player-2\n")
    assert t.ctl.prompt.kind == "item"
    t.go("tap sneaky-bastard-sword\n")
    assert t.keys()["roll"] == "Roll"
    t.go("die 4\npress roll\n")
    assert t.p(1).carried == ["sneaky-bastard-sword"] and t.p(2).equipped == []
    t.close()


def test_a_failed_theft_costs_a_level_and_theft_is_refused_in_a_fight(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.go(START + "tap thief\ntap boil-an-anthill\ntap player-2\ntap sneaky-bastard-sword\n"
         "tap player-1\ntap thief\npress help\ntap player-2\ntap sneaky-bastard-sword\ndie 3\npress roll\n")
    assert t.p(1).level == 1 and t.p(2).equipped == ["sneaky-bastard-sword"]
    t.go("press next\ntap maul-rat\ntap thief\n")                             # in a fight: Backstab, no Steal
    assert t.keys()["help"] == "Backstab" and t.keys()["run"] == ""
    t.close()


def test_the_halfling_rolls_again_after_a_failed_run_away_on_the_later_printing(tmp_path: Path) -> None:
    t = Table(tmp_path, halfling_run_away="reroll")
    said = t.last(START + "tap halfling\ntap halfling\npress help\n")
    assert said.startswith("Halfling has no ability to use now") and "Reroll: right after a failed run-away roll" in said
    t.go("press undo\npress next\ntap net-troll\npress run\ndie 2\npress roll\ntap halfling\n")
    assert t.keys()["help"] == "Reroll"
    t.go("die 6\npress help\n")
    assert t.ctl.state.flight.results[-1][3] is True
    said = t.last("tap halfling\npress help\n")
    assert said == "Player 1's last run-away roll did not fail"                # it got away
    t.close()


def test_the_halfling_sells_one_item_at_double_price(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.go(START + "tap halfling\npress help\ntap horny-helmet\npress next\n")    # 600 gold, doubled: 1,200
    assert t.p(1).level == 2
    said = t.last("press help\ntap mace-of-sharpness\npress next\n")          # 600 more: double once a turn
    assert t.p(1).level == 2 and "1,000 gold per level" in said
    t.close()
    t = Table(tmp_path / "human")
    said = t.last(START + "press help\ntap horny-helmet\npress next\n")         # a human: 600 is 600
    assert t.p(1).level == 1 and "1,000 gold per level" in said
    t.close()


def test_the_elf_runs_with_plus_one_and_levels_for_a_helped_kill(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.go(START + "tap player-2\ntap elf\ntap boots-of-butt-kicking\ntap lame-goblin\npress help\ntap player-2\n"
         "press next\nwait 3\n")
    assert t.p(1).level == 2 and t.p(2).level == 2                            # the elf helper's level
    t.close()
    t = Table(tmp_path / "run")
    t.go(START + "tap elf\npress next\ntap net-troll\npress run\ndie 4\npress roll\n")
    assert t.ctl.state.flight.results[-1][3] is True                          # 4 + elf's 1: away
    t.close()


def test_the_dwarf_carries_any_number_of_big_items_and_keeps_six_cards(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.go(START + "tap huge-rock\n")
    said = t.last("tap chainsaw-of-bloody-dismemberment\n")                    # a human: one Big item
    assert "Big" in said and "chainsaw-of-bloody-dismemberment" not in t.p(1).equipped + t.p(1).carried
    t.go("tap dwarf\ntap chainsaw-of-bloody-dismemberment\n")
    assert set(t.p(1).equipped + t.p(1).carried) == {"huge-rock", "chainsaw-of-bloody-dismemberment"}
    t.go("press next\npress next\n")                                            # loot the room: charity
    assert t.ctl.state_json()["charity"]["hand_limit"] == 6
    t.close()


def test_a_hireling_and_go_up_a_level_in_a_fight(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.go(START + "tap net-troll\n")
    before = t.ctl.state_json()["combat"]["players_strength"]
    t.go("tap hireling\n")
    assert "hireling" in t.p(1).equipped + t.p(1).carried
    assert t.ctl.state_json()["combat"]["players_strength"] == before + 1   # the card's own +1, as printed
    t.go("tap boil-an-anthill\n")
    assert t.p(1).level == 2 and t.combat is not None
    said = t.last("tap helm-of-courage\n")                                      # any other item: fixed in a fight
    assert "equipment is fixed in a fight" in said
    t.close()


def test_race_and_class_names_in_the_tables_language(tmp_path: Path) -> None:
    t = Table(tmp_path)
    i18n.use_catalog_names(t.table.catalog)
    try:
        for lang, names in {"es": ["Elfo", "Enano", "Hobbit", "Guerrero", "Sacerdote", "Ladrón", "Mago", "Mestizo",
                                   "Super Munchkin"],
                            "zh": ["精灵", "矮人", "半身人", "军阀", "牧师", "盗贼", "法师", "混血", "超级孟克金"]}.items():
            i18n.set_language(lang)
            shown = [i18n.card_name(c, t.table.catalog[c].name) for c in
                     ("elf", "dwarf", "halfling", "warrior", "cleric", "thief", "wizard", "half-breed",
                      "super-munchkin")]
            assert shown == names
    finally:
        i18n.set_language("en")
        i18n.set_card_names({})
    t.close()


def test_a_game_with_every_ability_exports_and_simulates_to_the_same_state(tmp_path: Path, capsys) -> None:
    """The abilities that ask for a token, an item, a roll or a monster travel through export: the
    script it writes, simulated, comes back to the same game."""
    state_dir = tmp_path / "table"
    t = Table(state_dir)
    t.go(START + "tap thief\ntap player-2\ntap sneaky-bastard-sword\ntap player-1\ntap thief\npress help\n"
         "tap player-2\ntap sneaky-bastard-sword\ndie 5\npress roll\n"                     # Steal
         "wait 10\ntap player-2\ntap wizard\ntap player-3\ntap cleric\nwait 10\n"
         "press next\ntap net-troll\ntap wandering-monster\ntap maul-rat\npress help\ntap player-2\n"
         "tap player-1\ntap thief\npress help\ntap player-2\n"                             # Backstab the helper
         "tap player-2\ntap wizard\npress help\ntap maul-rat\n"                            # Charm one of two
         "wait 10\n")
    assert t.p(1).carried == ["sneaky-bastard-sword"] and t.combat.backstabs == [("player-1", "player-2")]
    assert [m.card for m in t.combat.monsters] == ["net-troll"]
    expected = t.ctl.state_json()
    t.close()
    config = tmp_path / "c.toml"
    config.write_text(f'[storage]\nstate_dir = "{state_dir}"\n')
    assert main(["export", "--config", str(config)]) == 0
    script = tmp_path / "game.txt"
    script.write_text(capsys.readouterr().out)
    assert main(["simulate", str(script)]) == 0
    got = json.loads(capsys.readouterr().out)
    assert {k: got[k] for k in ("players", "combat", "phase")} == {k: expected[k] for k in ("players", "combat", "phase")}
