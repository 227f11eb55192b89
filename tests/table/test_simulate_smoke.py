import json
from pathlib import Path

from table.cli import main


def test_simulate_prints_state_json(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.txt"
    script.write_text("tap player-1\ntap player-2\ntap player-3\npress next\n")
    assert main(["simulate", str(script)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["phase"] == "kick-open-the-door"
    assert [p["id"] for p in state["players"]] == ["player-1", "player-2", "player-3"]
