from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from tests.storage import faulty


@pytest.fixture
def faults(monkeypatch: pytest.MonkeyPatch) -> Iterator[faulty.Faults]:
    """Every connection opened in the test fails the calls this plan names (none until told)."""
    plan = faulty.Faults()
    monkeypatch.setattr(faulty, "FAULTS", plan)
    monkeypatch.setattr(sqlite3, "connect", faulty.faulty_connect)
    yield plan
