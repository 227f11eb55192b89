"""Rule sentences of the seed rulebooks played at the table (buttons and taps through the simulated
table), for rows of docs/rules-coverage.md that only had engine tests."""

from __future__ import annotations

from pathlib import Path

from tests.table.test_controller_abilities import START, Table


def test_only_one_helper_and_their_strength_adds(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.go(START + "press next\ntap net-troll\n")
    alone = t.ctl.state_json()["combat"]["players_strength"]
    t.go("press help\ntap player-2\n")
    assert t.combat.helper == "player-2" and t.ctl.state_json()["combat"]["players_strength"] == alone + 1
    refused = t.go("press help\n")                                               # a second helper: no
    assert not refused[0].accepted and str(refused[0].message.text) == "Player 2 is already helping"
    assert t.combat.helper == "player-2"
    t.close()


def test_a_race_and_a_class_are_discarded_at_any_time_even_in_a_fight(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.go(START + "tap elf\ntap warrior\npress next\ntap net-troll\n")
    assert t.combat is not None
    t.go("tap elf\npress next\ntap warrior\npress next\n")                     # each card's menu: NEXT discards
    assert t.p(1).races == [] and t.p(1).classes == [] and t.combat is not None
    t.close()


def test_a_second_class_needs_super_munchkin_and_a_second_race_half_breed(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.go(START + "tap warrior\ntap wizard\ntap elf\ntap dwarf\n")
    assert t.p(1).classes == ["wizard"] and t.p(1).races == ["dwarf"]           # the new one replaces the old
    t.go("tap super-munchkin\ntap warrior\ntap half-breed\ntap elf\n")
    assert sorted(t.p(1).classes) == ["warrior", "wizard"] and sorted(t.p(1).races) == ["dwarf", "elf"]
    t.close()


def test_running_away_from_a_fight_the_players_win_is_refused(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.go(START + "tap helm-of-courage\npress next\ntap maul-rat\n")           # 2 against 1
    said = t.last("press run\n")
    assert "no need to run" in said and t.ctl.state.phase.value == "combat"
    t.close()


def test_one_headgear_is_worn_a_second_is_carried(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.go(START + "tap helm-of-courage\ntap horny-helmet\n")
    assert t.p(1).equipped == ["helm-of-courage"] and t.p(1).carried == ["horny-helmet"]
    t.close()


def test_a_game_needs_three_players(tmp_path: Path) -> None:
    t = Table(tmp_path)
    refused = t.go("tap player-1\ntap player-2\npress next\n")
    assert not refused[-1].accepted and t.ctl.state.phase.value == "setup"     # two are not enough
    t.go("tap player-3\npress next\n")
    assert t.ctl.state.phase.value == "kick-open-the-door"
    t.close()


def test_a_carried_item_gives_no_bonus(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.go(START + "tap helm-of-courage\ntap horny-helmet\n")
    assert t.ctl.state_json()["players"][0]["combat_strength"] == 2             # level 1 + the helm's 1 only
    t.close()
