"""table/app/journalwatch.py: the journal deleted or replaced under the table is noticed at once, by the
kernel's word (inotify), and the idle table is not woken to look for it."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

import table.app.journalwatch as journalwatch
from table.app.journalwatch import JournalWatch

pytest.importorskip("inotify_simple", reason="inotify_simple (Linux) is the table's own dependency there")


def watched(path: Path) -> tuple[JournalWatch, threading.Event]:
    path.write_bytes(b"journal")
    st = path.stat()
    identity = (st.st_dev, st.st_ino)

    def in_place() -> bool:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return False
        return (st.st_dev, st.st_ino) == identity

    moved = threading.Event()
    return JournalWatch(lambda: path, in_place, moved.set).start(), moved


@pytest.fixture
def no_polling(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journalwatch, "POLL_S", 3600.0)        # were it looking by itself, it would not be now


@pytest.mark.parametrize("how", ["deleted", "replaced", "folder removed"])
def test_the_kernel_says_at_once_when_the_journal_goes(tmp_path: Path, no_polling: None, how: str) -> None:
    path = tmp_path / "state" / "journal.sqlite3"
    path.parent.mkdir()
    watch, moved = watched(path)
    try:
        assert watch.kernel
        (path.parent / "journal.sqlite3-wal").write_bytes(b"x")     # its neighbours' comings and goings ...
        (path.parent / "journal.sqlite3-wal").unlink()
        assert not moved.wait(0.3)                                  # ... are not the journal going
        if how == "deleted":
            path.unlink()
        elif how == "replaced":
            other = path.parent / "other"
            other.write_bytes(b"someone else's")
            os.replace(other, path)
        else:
            shutil.rmtree(path.parent)
        assert moved.wait(2.0), f"the journal {how} was not noticed"
    finally:
        watch.stop()


def test_the_idle_table_is_not_woken_to_look(tmp_path: Path, no_polling: None) -> None:
    watch, moved = watched(tmp_path / "journal.sqlite3")
    try:
        time.sleep(1.5)
        assert watch.wakes == 0 and not moved.is_set()
    finally:
        watch.stop()


def test_without_inotify_it_looks_with_a_stat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journalwatch, "_inotify", lambda: None)
    monkeypatch.setattr(journalwatch, "POLL_S", 0.05)
    path = tmp_path / "journal.sqlite3"
    watch, moved = watched(path)
    try:
        assert not watch.kernel
        path.unlink()
        assert moved.wait(2.0)
        assert watch.wakes >= 1
    finally:
        watch.stop()


def test_stop_ends_the_thread_at_its_next_wake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journalwatch, "QUIET_S", 0.1)
    watch, _moved = watched(tmp_path / "journal.sqlite3")
    watch.stop()
    watch._thread.join(2.0)
    assert not watch._thread.is_alive()


def test_the_loop_is_told_to_look_once_per_move_and_always_without_a_running_watch(tmp_path: Path,
                                                                                 no_polling: None) -> None:
    """The run loop stats the journal only when its watch saw it move (each commit still looks for
    itself), so an idle pass does no I/O of its own; with no watch running it looks every pass."""
    path = tmp_path / "journal.sqlite3"
    watch, moved = watched(path)
    try:
        assert not watch.take()
        path.unlink()
        assert moved.wait(2.0)
        assert watch.take() and not watch.take()                   # once per move
    finally:
        watch.stop()
    unstarted = JournalWatch(lambda: path, lambda: True, lambda: None)
    assert unstarted.take() and unstarted.take()


def test_the_running_tables_idle_passes_leave_the_journal_alone_until_it_moves(
        tmp_path: Path, no_polling: None, monkeypatch: pytest.MonkeyPatch) -> None:
    import table.app.run as app_run
    from table.config import parse_config

    looked: list[float] = []
    real = app_run.watch_journal
    monkeypatch.setattr(app_run, "watch_journal", lambda ctl: (looked.append(time.monotonic()), real(ctl))[1])
    monkeypatch.setattr(app_run, "IDLE_S", 0.02)                  # many idle passes
    monkeypatch.setattr(app_run, "stdin_lines", lambda: None)
    state = tmp_path / "state"
    outcome: dict[str, object] = {}

    def later() -> None:
        time.sleep(1.0)
        outcome["idle"] = len(looked)
        (state / "journal.sqlite3").unlink()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not (state / "journal.sqlite3").exists():
            time.sleep(0.05)
        outcome["back"] = (state / "journal.sqlite3").exists()
        outcome["after"] = len(looked)
        app_run.stop()

    threading.Thread(target=later, daemon=True).start()
    assert app_run.run(parse_config({"storage": {"state_dir": str(state)}}), sim=True) == 0
    assert outcome["idle"] == 0                                   # ~50 idle passes, no stat of their own
    assert outcome["back"] and outcome["after"] >= 1              # the move seen, the journal written anew
