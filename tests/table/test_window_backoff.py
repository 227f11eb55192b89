"""A disk that refuses the interference window's close is tried again on the fault's 2 s backoff.

Before, every tick after the window's end tried to store the kill again at once: thousands of
failed writes a second, a log line each, and a core kept busy (issue 23, item 6).
"""

from __future__ import annotations

from pathlib import Path

from drivers.base import ManualClock
from table.session.game import RETRY_SECONDS
from table.storage.faults import JournalFault
from tests.table.storage_helpers import close_table
from tests.table.test_storage_resume import won_fight


def test_a_refused_window_close_is_retried_on_the_backoff_then_resolves(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    clock = ManualClock()
    table = won_fight(tmp_path / "state", clock)
    ctl = table.controller
    journal = ctl.session.journal
    real_append = journal.append
    tries: list[float] = []

    def refusing(*args, **kwargs):  # type: ignore[no-untyped-def]
        tries.append(clock.monotonic())
        raise JournalFault("input/output error: the disk refused the write")

    try:
        monkeypatch.setattr(journal, "append", refusing)
        window = ctl.state.combat.window_until
        clock.advance(window - clock.monotonic() + 0.01)
        for _ in range(300):                            # the loop ticks far more often than the backoff
            ctl.tick()
            clock.advance(0.01)
        assert len(tries) == 2, tries                   # at the window's end, and once 2 s later
        assert tries[1] - tries[0] >= RETRY_SECONDS - 0.02
        assert ctl.state.combat is not None             # nothing shown as done that was not stored
        assert ctl.deadline() is not None and ctl.deadline() >= tries[-1] + RETRY_SECONDS - 1e-6
        monkeypatch.setattr(journal, "append", real_append)     # the disk works again
        clock.advance(RETRY_SECONDS)
        ctl.tick()
        assert ctl.state.combat is None and ctl.window_retry_at is None    # the fight resolved once
    finally:
        close_table(table)
