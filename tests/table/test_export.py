"""A game exported as a table script replays, through ``simulate``, to the same state JSON; the seed and
ruleset travel in the script's first lines; ``simulate --seed`` picks the die."""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path

import pytest

from cards.loader import load_catalog
from drivers.base import ManualClock
from engine.rules import Ruleset
from engine.serialize import standing_prompt_json, state_to_json
from table.cli import main
from table.config import Config, StorageConfig
from table.sim.script import read_settings
from table.control.assembly import build_table
from tests.table.test_fuzz_controller import random_input

CATALOG = load_catalog()


def play_random_game(state_dir: Path, seed: int, steps: int = 150, ruleset: Ruleset | None = None):
    """Random taps, presses and waits on a table in ``state_dir``; the state it ends in."""
    rng = random.Random(seed)
    clock = ManualClock(1000.0 + seed)              # a clock that is not the simulation's
    config = Config(storage=StorageConfig(state_dir=str(state_dir)), rules=ruleset or Ruleset())
    table = build_table(config, clock, catalog=CATALOG, seed_source=lambda: 7000 + seed)
    logging.disable(logging.CRITICAL)
    try:
        for _ in range(steps):
            step, event = random_input(rng, clock)
            if event is None:
                clock.advance(float(step[1]))       # type: ignore[arg-type]
                table.controller.tick()
            else:
                table.controller.handle(event)
        return table.controller.state
    finally:
        logging.disable(logging.NOTSET)
        table.controller.records.close()
        table.journal.close()


def export(tmp_path: Path, state_dir: Path, capsys, *extra: str) -> str:
    config = tmp_path / "c.toml"
    config.write_text(f'[storage]\nstate_dir = "{state_dir}"\n')
    assert main(["export", "--config", str(config), *extra]) == 0
    return capsys.readouterr().out


def simulate(tmp_path: Path, text: str, capsys, *extra: str) -> dict:
    script = tmp_path / "game.txt"
    script.write_text(text)
    assert main(["simulate", str(script), *extra]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("seed", range(12))
def test_a_random_game_round_trips_through_export_and_simulate(tmp_path: Path, capsys, seed: int) -> None:
    state_dir = tmp_path / "table"
    state = play_random_game(state_dir, seed)
    text = export(tmp_path, state_dir, capsys)
    assert read_settings(text).seed == state.seed
    got = simulate(tmp_path, text, capsys)
    expected = state_to_json(state, CATALOG)
    can = got.pop("can")                # what can be done now, derived from the rest (tests/table/test_explain.py)
    assert all(item["how"].startswith(("press ", "tap ")) and item["what"] for item in can)
    assert got == {**expected, "prompt": standing_prompt_json(state, CATALOG)}


def test_the_ruleset_and_player_names_travel_with_the_script(tmp_path: Path, capsys) -> None:
    state_dir = tmp_path / "table"
    rules = Ruleset(starting_hand=2, interference_seconds=4.0, death_keeps_race_and_class=False)
    state = play_random_game(state_dir, 3, ruleset=rules)
    text = export(tmp_path, state_dir, capsys)
    settings = read_settings(text)
    assert settings.ruleset == rules and settings.seed == state.seed
    got = simulate(tmp_path, text, capsys)
    assert got["ruleset"] == rules.to_dict() and got["players"] == state_to_json(state, CATALOG)["players"]


def test_export_of_an_earlier_game_by_id(tmp_path: Path, capsys) -> None:
    state_dir = tmp_path / "table"
    first = play_random_game(state_dir, 1, steps=60)
    clock = ManualClock()
    table = build_table(Config(storage=StorageConfig(state_dir=str(state_dir))), clock, catalog=CATALOG)
    table.controller.start_new_game()                 # the live game is now game 2
    table.controller.records.close()
    table.journal.close()
    text = export(tmp_path, state_dir, capsys, "--game", "1")
    assert "of game 1" in text.splitlines()[0]
    assert simulate(tmp_path, text, capsys)["players"] == state_to_json(first, CATALOG)["players"]
    assert "0 actions" in export(tmp_path, state_dir, capsys).splitlines()[0]


def test_export_says_what_is_missing(tmp_path: Path, capsys) -> None:
    config = tmp_path / "c.toml"
    config.write_text(f'[storage]\nstate_dir = "{tmp_path / "empty"}"\n')
    assert main(["export", "--config", str(config)]) == 2
    assert "no game to export" in capsys.readouterr().err
    play_random_game(tmp_path / "empty", 2, steps=20)
    assert main(["export", "--config", str(config), "--game", "99"]) == 2
    assert "no game 99" in capsys.readouterr().err


SCRIPT = "tap player-1\ntap player-2\ntap player-3\npress next\ntap net-troll\npress run\npress roll\n"


def test_simulate_seed_chooses_the_die(tmp_path: Path, capsys) -> None:
    rolls = {simulate(tmp_path, SCRIPT, capsys, "--seed", str(n))["last_roll"] for n in range(12)}
    assert len(rolls) > 1                                               # the seed decides the die
    again = simulate(tmp_path, SCRIPT, capsys, "--seed", "5")
    assert again == simulate(tmp_path, SCRIPT, capsys, "--seed", "5")     # and the same seed, the same game
    assert simulate(tmp_path, "# seed: 5\n" + SCRIPT, capsys) == again   # a script may name its seed


def test_a_bad_seed_or_header_is_one_clear_line(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.txt"
    script.write_text(SCRIPT)
    assert main(["simulate", str(script), "--seed", "-1"]) == 2
    assert "seed" in capsys.readouterr().err
    script.write_text('# ruleset: {"winning": 3}\n' + SCRIPT)
    assert main(["simulate", str(script)]) == 2
    err = capsys.readouterr().err
    assert "s.txt:1" in err and "winning" in err and "Traceback" not in err


def test_a_game_whose_clock_went_back_at_a_restart_still_exports(tmp_path: Path, capsys) -> None:
    from engine import commands as c
    from table.sim.export import export_script

    commands = [c.Join(player=p, at=500.0) for p in ("player-1", "player-2", "player-3")]
    commands += [c.StartGame(player="", at=501.0), c.AdjustLevel(player="player-1", delta=1, at=502.0),
                 # the box restarted: its clock begins again near 0
                 c.PlayCard(player="player-1", card="lame-goblin", at=3.0), c.Fight(player="player-1", at=4.0),
                 c.ResolveCombat(player="player-1", at=6.6)]
    text = export_script(Config(), 11, Ruleset(), commands)
    got = simulate(tmp_path, text, capsys)
    assert got["players"][0]["level"] == 3 and got["combat"] is None and got["phase"] == "charity"
