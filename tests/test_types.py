"""Our code type-checks under ``mypy --strict`` (settings in pyproject.toml): an event ``describe``
forgets, a rule called with the wrong types, an ``Any`` leaking out of a layer, each fails here
rather than at the table."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _mypy(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy-cache"), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def have_mypy() -> None:
    if subprocess.run([sys.executable, "-m", "mypy", "--version"], capture_output=True).returncode != 0:
        pytest.fail("mypy is not installed: it is in the dev extra (./go installs it)")


def test_the_engine_is_clean_under_mypy_strict_on_its_own(have_mypy: None, tmp_path: Path) -> None:
    done = _mypy(tmp_path, "--strict", "engine")
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_package_is_clean_under_mypy_strict(have_mypy: None, tmp_path: Path) -> None:
    done = _mypy(tmp_path, "--strict", "engine", "cards", "drivers", "table")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues found in" in done.stdout and " 1 source file" not in done.stdout


def test_an_unhandled_event_fails_type_checking(have_mypy: None, tmp_path: Path) -> None:
    """The exhaustive match is what catches a new event without words: prove it does."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from typing import assert_never\n"
        "from engine.events import GameEvent, LevelGained\n\n\n"
        "def words(event: GameEvent) -> str:\n"
        "    match event:\n"
        "        case LevelGained():\n"
        "            return 'up'\n"
        "        case _:\n"
        "            assert_never(event)\n")
    done = _mypy(tmp_path, "--strict", str(probe))
    assert done.returncode == 1 and "assert_never" in done.stdout, done.stdout + done.stderr


def test_every_type_ignore_says_why_on_its_line() -> None:
    """``# type: ignore[code]`` must be followed on the same line by ``# the reason``."""
    pattern = re.compile(r"type:\s*ignore(\[[^\]]*\])?(?P<rest>.*)$")
    bare = []
    for package in ("engine", "cards", "drivers", "table"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                found = pattern.search(line)
                if found and (not found.group(1) or not re.match(r"\s+#\s*\S", found.group("rest"))):
                    bare.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert bare == []
