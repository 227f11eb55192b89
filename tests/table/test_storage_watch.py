"""A journal deleted under a running table is noticed within a second (issue 44, item 2), while the
loop itself sleeps on as long as nothing is due: a watch thread looks (one ``stat``) and wakes it."""

from __future__ import annotations

import io
import sys
import threading
import time
from pathlib import Path

import pytest

from table.app import run as table_app
from table.app.wake import PUMP_S
from table.config import parse_config
from table.storage.journal import Journal


def test_a_journal_deleted_under_the_running_table_is_written_anew_within_a_second(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / "state"
    config = parse_config({"storage": {"state_dir": str(state)}, "display": {"sound": False}})
    monkeypatch.setattr(sys, "stdin", io.StringIO("tap player-1\ntap player-2\ntap player-3\npress next\n"))
    real = table_app.sleep_until_woken
    journal = state / "journal.sqlite3"
    times: dict[str, float] = {}
    sleeps: list[float] = []
    started = time.monotonic()

    def sleep(woken: threading.Event, timeout: float, pump_every: float | None = PUMP_S) -> bool:
        sleeps.append(timeout)
        if "deleted" in times and journal.exists():          # the pass after the wake wrote it anew
            times["back"] = time.monotonic()
            table_app.stop()
            return True
        if "deleted" not in times and len(sleeps) > 20:
            for extra in ("", "-wal", "-shm"):
                Path(f"{journal}{extra}").unlink(missing_ok=True)
            times["deleted"] = time.monotonic()
        was = real(woken, timeout if "deleted" in times else min(timeout, 0.02), pump_every)
        if time.monotonic() - started > 30:
            table_app.stop()
        return was

    monkeypatch.setattr(table_app, "sleep_until_woken", sleep)
    assert table_app.run(config, sim=True) == 0
    assert "back" in times, "the journal was never written again"
    assert times["back"] - times["deleted"] < 1.0 + 0.3             # within a second (and a pass to write it)
    assert sleeps[-2] == table_app.IDLE_S                            # the loop itself slept as it does when idle
    reopened = Journal(journal)                                      # the game is there: its players joined
    try:
        game = reopened.latest_game()
        assert game is not None and len(reopened.commands(game.id)) >= 3
    finally:
        reopened.close()
