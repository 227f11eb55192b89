"""The unit passes systemd's own offline checks, and the example config is a valid config."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from table.config import load_config

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "munchkin-table.service"
needs_systemd = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")


def unit_copy(tmp_path: Path) -> Path:
    # verify checks that ExecStart exists; point it at a binary this machine has.
    text = UNIT.read_text().replace("/opt/munchkin-table/.venv/bin/munchkin-table run", "/bin/true")
    path = tmp_path / "munchkin-table.service"
    path.write_text(text)
    return path


@needs_systemd
def test_unit_verifies_without_a_single_warning(tmp_path: Path) -> None:
    out = subprocess.run(["systemd-analyze", "verify", str(unit_copy(tmp_path))], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout + out.stderr == ""


@needs_systemd
def test_unit_exposure_is_2_0_or_lower(tmp_path: Path) -> None:
    out = subprocess.run(["systemd-analyze", "security", "--offline=true", "--threshold=20",
                          str(unit_copy(tmp_path))], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-500:]


def test_example_config_is_valid_and_matches_the_defaults() -> None:
    config = load_config(ROOT / "systemd" / "config.example.toml")
    assert config.reader.type == "" and config.buttons.pins() == {
        "roll": 5, "help": 6, "run": 13, "next": 19, "undo": 26}
