"""Every event the engine reports to the players has words on the message line."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AUTOMATIC = {"CharityDue", "CombatEnded", "PlayerRevived", "TurnStarted", "WindowClosed", "WindowRestarted"}


def test_every_engine_event_is_described() -> None:
    emitted = set()
    for path in (ROOT / "engine").glob("*.py"):
        emitted |= set(re.findall(r'Event\(\s*"([A-Za-z]+)"', path.read_text()))
    described = set(re.findall(r'"([A-Z][A-Za-z]+)"', " ".join(
        line for line in (ROOT / "table" / "session" / "describe.py").read_text().splitlines() if "case " in line)))
    assert len(emitted) > 40                     # the scan found the engine's events
    assert sorted(emitted - AUTOMATIC - described) == []
