"""The league's fixtures: a real Mosquitto per test (skipped, and said, only where it is not installed)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.league.broker import Mosquitto, missing

USERS = {"table-a": "pw-a", "table-b": "pw-b", "table-c": "pw-c", "board": "pw-board"}


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    why = missing()
    if why:
        pytest.skip(why)
    b = Mosquitto(tmp_path / "broker", USERS).start()
    try:
        yield b
    finally:
        b.stop()
