"""Golden replays: whole games as table scripts must end in their recorded state JSON."""

import json
from pathlib import Path

import pytest

from table.cli import main

HERE = Path(__file__).parent
SCRIPTS = sorted(HERE.glob("*.txt"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_golden_replay(script: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", str(script)]) == 0
    got = json.loads(capsys.readouterr().out)
    expected = json.loads(script.with_suffix(".json").read_text())
    assert got == expected
