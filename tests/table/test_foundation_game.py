"""A whole scripted game through simulate: the walking skeleton's acceptance test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from table.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"


def simulate(script: Path, capsys, *extra: str) -> tuple[int, dict | None, str]:
    code = main(["simulate", str(script), *extra])
    out = capsys.readouterr()
    return code, (json.loads(out.out) if code == 0 else None), out.err


def test_three_player_game_with_kill_failed_run_go_up_and_undo(capsys) -> None:
    code, state, err = simulate(DATA / "foundation-game.txt", capsys)
    assert code == 0 and err == ""
    levels = {p["id"]: p["level"] for p in state["players"]}
    # player-1 killed the Lame Goblin (+1); player-2 fled the Net Troll and was caught;
    # player-3 played two Go Up a Level cards and undid the second.
    assert levels == {"player-1": 2, "player-2": 1, "player-3": 2}
    assert state["players"][0]["equipped"] == ["boots-of-butt-kicking"]
    assert state["players"][0]["combat_strength"] == 4
    assert state["phase"] == "kick-open-the-door" and state["turn"] == 3 and state["active_player"] == "player-3"
    assert state["combat"] is None and state["winners"] == []


def test_rejected_actions_are_named_on_stderr_and_change_nothing(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.txt"
    script.write_text("tap player-1\ntap player-2\ntap player-3\npress next\n"
                      "tap lame-goblin\npress next   # a tie: the monster wins\ntap uid:04A1B2C3\n")
    code, state, err = simulate(script, capsys)
    assert code == 0
    lines = err.strip().splitlines()
    assert lines[0].startswith("rejected: 6: ") and "1 vs monsters 1" in lines[0]
    assert lines[1].startswith("rejected: 7: unknown tag 04A1B2C3")
    assert state["phase"] == "combat" and state["combat"]["players_winning"] is False


@pytest.mark.parametrize("line, why", [("dance", "unknown action"), ("tap no-such-card", "no card"),
                                       ("press jump", "no button"), ("die 7", "1 to 6"), ("wait soon", "seconds")])
def test_a_script_error_names_the_file_and_line_and_exits_2(tmp_path: Path, capsys, line: str, why: str) -> None:
    script = tmp_path / "bad.txt"
    script.write_text(f"tap player-1\n{line}\n")
    code, _, err = simulate(script, capsys)
    assert code == 2
    assert f"{script}:2:" in err and why in err


def test_screenshot_dir_gets_one_png_per_action(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.txt"
    script.write_text("tap player-1\ntap player-2\ntap player-3\npress next\n")
    code, _, _ = simulate(script, capsys, "--screenshot", str(tmp_path / "shots"))
    assert code == 0
    shots = sorted((tmp_path / "shots").glob("*.png"))
    assert len(shots) == 4 and all(s.stat().st_size > 1000 for s in shots)


def test_simulate_never_touches_the_tables_own_game(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.txt"
    script.write_text("tap player-1\n")
    assert simulate(script, capsys)[0] == 0
    assert main(["state"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == []


def test_state_with_no_game_yet_creates_nothing(tmp_path: Path, capsys) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\nstate_dir = "{tmp_path / "state"}"\n')
    assert main(["state", "--config", str(config)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["phase"] == "setup" and state["players"] == []
    assert not (tmp_path / "state").exists()
