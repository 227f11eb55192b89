"""The simulated table that simulate and export share, and the script header both speak."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.rules import Ruleset
from table.config import Config
from table.sim.harness import SimTable
from table.sim.script import ScriptError, ScriptSettings, check_seed, read_settings, script_header


def test_a_sim_table_plays_script_lines_and_keeps_them_in_its_journal(tmp_path: Path) -> None:
    with SimTable(Config(), tmp_path, seed=7) as sim:
        for action in sim.parse("tap player-1\ntap player-2\ntap player-3\npress next\n"):
            assert all(o.accepted for o in sim.perform(action))
        assert sim.controller.state.phase.value == "kick-open-the-door"
        assert sim.controller.state.seed == 7
        refused = sim.perform(sim.parse("press run")[0])
        assert refused and not refused[-1].accepted          # nothing to run from: a refusal, not silence
        assert len(sim.controller.history.commands) == 4
    with SimTable(Config(), tmp_path, seed=7) as again:    # the same directory: the game resumes
        assert [p.id for p in again.controller.state.players] == ["player-1", "player-2", "player-3"]


def test_a_wait_moves_the_simulated_clock_only(tmp_path: Path) -> None:
    with SimTable(Config(), tmp_path, seed=1, wall_start=1_000_000.0) as sim:
        sim.perform(sim.parse("wait 2.5")[0])
        assert sim.clock.monotonic() == pytest.approx(2.5)


def test_the_header_read_back_is_the_header_written() -> None:
    settings = ScriptSettings(seed=1234, ruleset=Ruleset(starting_hand=2),
                              players={"player-1": ("Ann", "female"), "player-2": ("Bo", "male")})
    lines = script_header("munchkin-table export of game 3: 9 actions", settings)
    assert lines[0] == "# munchkin-table export of game 3: 9 actions"
    assert lines[1] == "# seed: 1234"
    assert read_settings("\n".join([*lines, "tap player-1", "# seed: 99"]) + "\n") == settings
    assert read_settings("tap player-1\n") == ScriptSettings()     # no header: nothing set


@pytest.mark.parametrize("line, why", [("# seed: -1", "a seed is a whole number"),
                                       ("# seed: x", "bad 'seed' line"),
                                       ('# players: {"player-1": ["Ann"]}', "bad 'players' line"),
                                       ('# ruleset: [1]', "the ruleset is a JSON object")])
def test_a_bad_header_line_is_named_by_file_and_line(line: str, why: str) -> None:
    with pytest.raises(ScriptError, match=f"game.txt:2: .*{why}"):
        read_settings(f"# munchkin-table export\n{line}\n", source="game.txt")


def test_a_seed_out_of_the_journals_range_is_refused() -> None:
    assert check_seed(0) == 0 and check_seed(2**63 - 1) == 2**63 - 1
    with pytest.raises(ScriptError):
        check_seed(2**63)
