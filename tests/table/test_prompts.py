"""Cards that need more than a tap get it from the table: a token, an item, a number, a sales basket."""

from __future__ import annotations

import json
from pathlib import Path

from table.cli import main

START = "tap player-1\ntap player-2\ntap player-3\npress next\n"


def run(tmp_path: Path, capsys, script: str) -> tuple[dict, str]:
    path = tmp_path / "s.txt"
    path.write_text(START + script)
    assert main(["simulate", str(path)]) == 0
    out = capsys.readouterr()
    return json.loads(out.out), out.err


def player(state: dict, pid: str) -> dict:
    return next(p for p in state["players"] if p["id"] == pid)


def test_cheat_asks_for_the_item_and_lets_a_non_elf_use_the_bow(tmp_path: Path, capsys) -> None:
    state, err = run(tmp_path, capsys, "tap bow-with-ribbons\ntap cheat\ntap bow-with-ribbons\n")
    assert err == ""
    assert player(state, "player-1")["equipped"] == ["bow-with-ribbons"]
    assert player(state, "player-1")["combat_strength"] == 5


def test_selling_goes_through_the_card_menu_basket(tmp_path: Path, capsys) -> None:
    state, err = run(tmp_path, capsys, "tap huge-rock\ntap boots-of-butt-kicking\ntap bow-with-ribbons\n"
                                       "tap boots-of-butt-kicking\npress help\ntap bow-with-ribbons\npress help\n"
                                       "press next\n")
    assert err == ""
    p1 = player(state, "player-1")
    assert p1["level"] == 2 and p1["equipped"] == ["huge-rock"] and p1["carried"] == []


def test_steal_a_level_asks_for_the_victims_token(tmp_path: Path, capsys) -> None:
    state, err = run(tmp_path, capsys, "tap player-2\ntap 1000-gold-pieces\ntap steal-a-level\ntap player-2\n")
    assert err == ""
    assert (player(state, "player-1")["level"], player(state, "player-2")["level"]) == (2, 1)


def test_loaded_die_number_is_chosen_with_roll_and_used_with_next(tmp_path: Path, capsys) -> None:
    fled = "tap player-2\ntap 1000-gold-pieces\ntap player-2\ntap boil-an-anthill\n" \
           "tap 1000-gold-pieces\ntap boil-an-anthill\ntap flying-frogs\ntap player-3\ntap enraged\n" \
           "press run\ndie 1\npress roll\n"
    caught, _ = run(tmp_path, capsys, fled)
    assert player(caught, "player-1")["level"] == 1                     # lost 2 levels, floor 1
    # Flying Frogs give -1 to run away: a 5 still fails, only a 6 escapes.
    # 6 is offered first; ROLL steps 6 → 1 → … → 5, NEXT uses the number shown.
    still_caught, err = run(tmp_path, capsys, fled + "tap loaded-die\n" + "press roll\n" * 5 + "press next\n")
    assert err == "" and player(still_caught, "player-1")["level"] == 1 and still_caught["last_roll"] == 5
    saved, err = run(tmp_path, capsys, fled + "tap loaded-die\n" + "press roll\n" * 6 + "press next\n")
    assert err == "" and player(saved, "player-1")["level"] == 3 and saved["last_roll"] == 6


def test_a_prompt_is_cancelled_by_undo_and_changes_nothing(tmp_path: Path, capsys) -> None:
    state, err = run(tmp_path, capsys, "tap steal-a-level\npress undo\ntap lame-goblin\n")
    assert err == "" and state["phase"] == "combat"


def test_a_tapped_token_opens_that_players_menu(tmp_path: Path, capsys) -> None:
    state, err = run(tmp_path, capsys, "tap player-2\npress roll\npress help\npress help\npress run\n")
    assert err == ""
    p2 = player(state, "player-2")
    assert (p2["sex"], p2["level"]) == ("female", 2)
    assert state["active_player"] == "player-1" and state["phase"] == "kick-open-the-door"


def test_leaving_from_the_menu_needs_a_second_next(tmp_path: Path, capsys) -> None:
    state, _ = run(tmp_path, capsys, "tap player-3\npress next\n")
    assert [p["id"] for p in state["players"]] == ["player-1", "player-2", "player-3"]
    state, err = run(tmp_path, capsys, "tap player-3\npress next\npress next\n")
    assert err == "" and [p["id"] for p in state["players"]] == ["player-1", "player-2"]


def test_the_menu_closes_by_itself_and_buttons_act_as_usual_again(tmp_path: Path, capsys) -> None:
    state, err = run(tmp_path, capsys, "tap player-2\nwait 9\npress next\n")
    assert err == "" and state["phase"] == "look-for-trouble"
    assert player(state, "player-2")["level"] == 1


def test_an_enhancer_goes_on_the_monster_that_is_tapped(tmp_path: Path, capsys) -> None:
    fight = "tap lame-goblin\ntap wandering-monster\ntap maul-rat\ntap player-2\ntap enraged\n"
    state, err = run(tmp_path, capsys, fight + "tap lame-goblin\n")
    assert err == ""
    assert [(m["card"], m["enhancers"]) for m in state["combat"]["monsters"]] == [
        ("lame-goblin", ["enraged"]), ("maul-rat", [])]


def test_roll_and_next_choose_the_monster_too(tmp_path: Path, capsys) -> None:
    fight = "tap lame-goblin\ntap wandering-monster\ntap maul-rat\ntap player-2\ntap baby\n"
    # the last monster is offered first; two ROLLs go round (first, then last again)
    state, err = run(tmp_path, capsys, fight + "press roll\npress roll\npress next\n")
    assert err == ""
    assert [m["enhancers"] for m in state["combat"]["monsters"]] == [[], ["baby"]]


def test_a_second_copy_of_a_card_in_play_is_played_for_another_player(tmp_path: Path, capsys) -> None:
    state, err = run(tmp_path, capsys, "tap elf\ntap player-2\ntap elf\n")
    assert err == ""
    assert player(state, "player-1")["races"] == ["elf"] and player(state, "player-2")["races"] == ["elf"]


def test_the_holders_own_tap_still_opens_the_card_menu(tmp_path: Path, capsys) -> None:
    state, err = run(tmp_path, capsys, "tap elf\ntap elf\npress next\n")   # menu, NEXT discards
    assert err == "" and player(state, "player-1")["races"] == []


def test_the_screen_keeps_asking_for_the_item_to_lose_until_it_is_tapped(tmp_path: Path) -> None:
    from drivers.base import ManualClock
    from drivers.sim import SimButtons, SimReader
    from table.config import Config, StorageConfig
    from table.sim.script import parse_script
    from table.sim.harness import perform
    from table.ui.view import build_view
    from table.control.assembly import build_table

    clock = ManualClock()
    table = build_table(Config(storage=StorageConfig(state_dir=str(tmp_path))), clock, seed_source=lambda: 1)
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    script = START + "tap dwarf\ntap huge-rock\ntap chainsaw-of-bloody-dismemberment\ntap curse-lose-your-race\n"
    for action in parse_script(script, table.catalog):
        perform(action, table, reader, buttons, clock)
    clock.advance(30)                                   # long after any message would have gone
    view = build_view(table.controller)
    assert view.prompt_kind == "loss" and view.prompt == ("Player 1 has too many Big items: tap the one that goes to the lowest-level player, "
                                                     "or sell it")
    perform(parse_script("tap huge-rock\n", table.catalog)[0], table, reader, buttons, clock)
    view = build_view(table.controller)      # never just discarded: it goes to a lowest-level player, who?
    assert view.prompt_kind == "receiver" and "Player 2, Player 3" in view.prompt
    assert table.controller.state_json()["prompt"]["expects"] == "player-token"
    perform(parse_script("tap player-3\n", table.catalog)[0], table, reader, buttons, clock)
    view = build_view(table.controller)
    p1 = table.controller.state.player("player-1")
    assert view.prompt_kind == "" and (p1.equipped, p1.carried) == ([], ["chainsaw-of-bloody-dismemberment"])
    assert table.controller.state.player("player-3").equipped == ["huge-rock"]


def test_roll_while_the_run_away_waits_for_an_item_says_what_it_waits_for(tmp_path: Path, capsys) -> None:
    # found by the controller fuzz: ROLL with no roll left raised an IndexError
    script = ("tap helm-of-courage\ntap leather-armor\ntap boots-of-butt-kicking\n"
              "tap insurance-salesman\npress run\ndie 1\npress roll\npress roll\n")
    state, err = run(tmp_path, capsys, script)
    assert state["phase"] == "run-away" and state["pending_loss"] is not None
    assert err.strip().splitlines()[-1].startswith("rejected: 12: Player 1: tap the item to lose")
