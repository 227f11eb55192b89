"""The table asks what the seeds' rules need (the die for the Bad Stuff, the monster that catches first,
the looter whose pick it is), and a game of them round-trips through export and simulate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from table.cli import main
from table.config import Config
from table.sim.harness import SimTable
from table.words import i18n

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "seed_rules_at_the_table.txt"
START = "tap player-1\ntap player-2\ntap player-3\npress next\n"


def render(value: object, language: str) -> str:
    i18n.set_language(language)
    try:
        return i18n.text(value)
    finally:
        i18n.set_language("en")


def play(sim: SimTable, text: str) -> None:
    for action in sim.parse(text):
        sim.perform(action)


def test_the_orcs_wait_for_the_die_at_the_table_and_roll_takes_it(tmp_path: Path) -> None:
    with SimTable(Config(), tmp_path, seed=7) as sim:
        play(sim, START + "tap player-1\n" + "press help\n" * 5 + "tap 3872-orcs\npress run\ndie 1\npress roll\n")
        ctl = sim.controller
        kind, text = ctl.standing_prompt()
        assert kind == "roll" and "ROLL" in render(text, "en") and "3,872 Orcs" in render(text, "en")
        assert ctl.state.player("player-1").level == 6
        play(sim, "die 3\npress roll\n")
        assert ctl.state.player("player-1").level == 3 and ctl.state.phase.value == "charity"


def test_two_monsters_that_cannot_be_outrun_ask_which_catches_first(tmp_path: Path) -> None:
    with SimTable(Config(), tmp_path, seed=7) as sim:
        play(sim, START + "tap player-1\n" + "press help\n" * 4 + "tap leather-armor\ntap crabs\n"
             "tap player-2\ntap wandering-monster\ntap player-2\ntap floating-nose\npress run\n")
        ctl = sim.controller
        kind, text = ctl.standing_prompt()
        assert kind == "flee" and "Floating Nose" in render(text, "en") and "Crabs" in render(text, "en")
        outcomes = sim.perform(sim.parse("press roll")[0])
        assert not outcomes[-1].accepted                     # ROLL alone would be a guess
        play(sim, "tap floating-nose\npress roll\n")         # the Nose first: 3 levels, then the Crabs
        p1 = ctl.state.player("player-1")
        assert p1.level == 2 and p1.equipped == [] and ctl.state.phase.value == "charity"


def test_the_bodys_token_stands_for_a_card_from_its_hand(tmp_path: Path) -> None:
    with SimTable(Config(), tmp_path, seed=7) as sim:
        play(sim, START + "tap player-3\npress help\ntap player-1\n" + "press help\n" * 4 + "tap helm-of-courage\n"
             "press next\ntap bullrog\npress run\ndie 1\npress roll\n")
        ctl = sim.controller
        assert ctl.state.looting is not None and ctl.state.looting["waiting"] == ["player-3", "player-2"]
        kind, text = ctl.standing_prompt()
        assert kind == "looting" and "Player 3" in render(text, "en")
        play(sim, "tap player-1\n")                         # player-3 takes a card from the hand
        assert ctl.state.looting["waiting"] == ["player-2"]
        play(sim, "tap player-2\ntap helm-of-courage\n")
        assert ctl.state.player("player-2").equipped == ["helm-of-courage"]


@pytest.mark.parametrize("language", ["es", "zh"])
def test_the_new_prompts_are_translated(tmp_path: Path, language: str) -> None:
    with SimTable(Config(), tmp_path, seed=7) as sim:
        play(sim, START + "tap player-1\n" + "press help\n" * 5 + "tap 3872-orcs\npress run\ndie 1\npress roll\n")
        _, text = sim.controller.standing_prompt()
        assert "press ROLL for the Bad Stuff" not in render(text, language)


def test_a_game_of_the_seeds_rules_round_trips_through_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state_dir = tmp_path / "table"
    config = tmp_path / "c.toml"
    config.write_text(f'[storage]\nstate_dir = "{state_dir}"\n')
    assert main(["simulate", str(GOLDEN), "--config", str(config)]) == 0
    played = json.loads(capsys.readouterr().out)
    assert main(["export", "--config", str(config)]) == 0
    script = tmp_path / "again.txt"
    script.write_text(capsys.readouterr().out)
    assert "tap player-1" in script.read_text()
    assert main(["simulate", str(script)]) == 0
    assert json.loads(capsys.readouterr().out) == played


def test_looters_tied_at_a_level_press_roll_for_who_picks_first(tmp_path: Path) -> None:
    with SimTable(Config(), tmp_path, seed=7) as sim:
        play(sim, "tap player-1\ntap player-2\ntap player-3\ntap player-4\npress next\n"
             "tap player-2\npress help\npress help\ntap player-3\npress help\npress help\n"
             "tap player-1\n" + "press help\n" * 5 + "tap helm-of-courage\npress next\n"
             "tap bullrog\npress run\ndie 1\npress roll\n")
        ctl = sim.controller
        assert ctl.state.looting is not None and ctl.state.looting["to_roll"] == ["player-2", "player-3"]
        kind, text = ctl.standing_prompt()
        assert kind == "looting" and "ROLL" in render(text, "en") and "ROLL" not in render(text, "zh")
        play(sim, "die 2\npress roll\ndie 5\npress roll\n")
        assert ctl.state.looting["waiting"] == ["player-3", "player-2", "player-4"]


def test_lose_your_class_asks_which_of_two_classes(tmp_path: Path) -> None:
    with SimTable(Config(), tmp_path, seed=7) as sim:
        play(sim, START + "tap warrior\ntap super-munchkin\ntap wizard\n"
             "tap player-2\ntap curse-lose-your-class\ntap player-1\n")
        ctl = sim.controller
        kind, text = ctl.standing_prompt()
        assert kind == "loss" and "class card" in render(text, "en") and "class card" not in render(text, "es")
        assert ctl.state.player("player-1").classes == ["warrior", "wizard"]
        play(sim, "tap warrior\n")
        assert ctl.state.player("player-1").classes == ["wizard"] and ctl.state.pending_loss is None


def test_the_screen_says_what_the_game_waits_for_on_the_message_line(tmp_path: Path) -> None:
    from table.ui.screens.kit import LINE_PROMPTS      # pygame's layer: only this test needs it
    from table.ui.view import build_view                # pygame's layer: only this test needs it

    with SimTable(Config(), tmp_path, seed=7) as sim:
        play(sim, START + "tap player-1\n" + "press help\n" * 5 + "tap 3872-orcs\npress run\ndie 1\npress roll\n")
        i18n.set_language("es")
        try:
            view = build_view(sim.controller, language="es")
        finally:
            i18n.set_language("en")
        assert view.prompt_kind in LINE_PROMPTS and "TIRAR" in view.prompt and "3,872" in view.prompt
        assert view.soft_keys["roll"]


def test_every_monsters_bad_stuff_is_in_words_not_the_engines_op_names() -> None:
    from cards.loader import load_catalog
    from engine.cards import Kind
    from table.ui.view import EFFECT_WORDS, describe_effect       # pygame's layer: only this test needs it

    catalog = load_catalog()
    for card in catalog.values():
        if card.kind is Kind.MONSTER:
            for effect in card.bad_stuff:
                assert effect.op in EFFECT_WORDS and describe_effect(effect, catalog), (card.id, effect.op)
    i18n.set_language("zh")
    try:
        assert describe_effect(catalog["drooling-slime"].bad_stuff[0], catalog) == "失去你的鞋子；若没有，则降 1 级"
    finally:
        i18n.set_language("en")


def test_running_from_several_monsters_says_a_tap_chooses_which_comes_first(tmp_path: Path) -> None:
    with SimTable(Config(), tmp_path, seed=7) as sim:
        play(sim, START + "tap drooling-slime\ntap player-2\ntap wandering-monster\ntap player-2\ntap crabs\n"
             "tap player-2\ntap enraged\npress next\npress run\n")
        message = sim.controller.message
        assert message is not None and "tap a monster to face it first" in render(message.text, "en")
        assert "toca un monstruo" in render(message.text, "es")
