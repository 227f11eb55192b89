"""The journal's sync beside the frame (table/app/syncahead.py): the run loop's commits are left
unsynced in the WAL, one fsync of the WAL makes them durable on a thread of its own while the frame
is drawn, and the frame goes on the glass only after it; a failed sync shows what the file holds."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path

import pytest

import table.app.run as app_run
from table.config import parse_config
from table.storage import writing
from table.ui.display import Display
from tests.table.loop_helpers import made_loops
from tests.storage.test_fault_syncs import a_legal_command, restarted
from tests.table.storage_helpers import as_json, close_table, play_game


def synchronous(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA synchronous").fetchone()[0])


def test_a_journal_syncs_each_commit_unless_told_to_leave_it_to_its_sync_job(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    table = play_game(tmp_path / "state", 3)
    try:
        session = table.controller.session
        journal = session.journal
        assert session.submit(a_legal_command(table)).__class__.__name__ == "Saved"
        assert synchronous(journal.db) == 2 and journal.sync_job() is None      # FULL: SQLite synced it
        journal.sync_later = True
        assert session.submit(a_legal_command(table)).__class__.__name__ == "Saved"
        assert synchronous(journal.db) == 1                                      # NORMAL: left to the job
        job = journal.sync_job()
        assert job is not None
        synced: list[str] = []
        real_sync = os.fdatasync
        monkeypatch.setattr(os, "fdatasync", lambda fd: synced.append(os.readlink(f"/proc/self/fd/{fd}")) or real_sync(fd))
        job()                                                                    # (the loop runs it on its thread)
        assert synced == [str(journal.path) + "-wal"]
        assert journal.sync_job() is None                                        # nothing written since
        session.undo()
        assert journal.sync_job() is not None                                    # an undo is a write too
    finally:
        close_table(table)


def test_the_running_table_shows_a_frame_only_after_its_commits_are_synced(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The sync is slowed to 0.15 s: every frame that shows a new action is pushed after a sync
    that ended after that action was committed, and the frame was drawn while the sync ran."""
    order: list[tuple[str, int]] = []
    real_sync, real_push, real_compose = writing.sync_file, Display.push, Display.compose

    def slow_sync(path: Path) -> None:
        order.append(("sync", 0))
        time.sleep(0.15)
        real_sync(path)
        order.append(("synced", 0))

    def push(self: Display, dirty: object) -> None:
        order.append(("push", loops[0].ctl.history_len if loops else -1))
        real_push(self, dirty)

    def compose(self: Display, f: object, view: object) -> None:
        order.append(("draw", 0))
        real_compose(self, f, view)

    monkeypatch.setattr(writing, "sync_file", slow_sync)
    monkeypatch.setattr(Display, "push", push)
    monkeypatch.setattr(Display, "compose", compose)
    loops = made_loops(monkeypatch)
    failures: list[str] = []

    def play() -> None:
        try:
            deadline = time.monotonic() + 20
            while not loops and time.monotonic() < deadline:
                time.sleep(0.02)
            loop = loops[0]
            for card in ("player-1", "player-2", "player-3"):
                before = loop.ctl.history_len
                loop.keyboard.scan_card(card)
                while not any(kind == "push" and shown > before for kind, shown in order) and time.monotonic() < deadline:
                    time.sleep(0.02)
                time.sleep(0.4)
        except Exception as exc:  # pragma: no cover - reported by the test
            failures.append(repr(exc))
        finally:
            app_run.stop()

    threading.Thread(target=play, daemon=True).start()
    assert app_run.run(parse_config({"storage": {"state_dir": str(tmp_path)}}), sim=True) == 0
    assert failures == []
    shown_before, pushed_at, new_frames = 0, 0, 0
    for at, (kind, shown) in enumerate(order):
        if kind != "push":
            continue
        if shown > shown_before:
            new_frames += 1
            began = max(i for i, (k, _) in enumerate(order[:at]) if k == "sync")
            assert ("synced", 0) in order[began:at], "a frame showed an action before its sync returned"
            synced = began + order[began:at].index(("synced", 0))
            assert ("draw", 0) in order[pushed_at:synced], "the frame was not drawn while the sync ran"
            shown_before = shown
        pushed_at = at
    assert new_frames == 3


def test_a_failed_sync_shows_the_game_the_file_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kept when the file, looked at afresh, holds the action; else the game goes back to what it
    holds and the table says the action is not done. Either way it is what a restart finds."""
    state = tmp_path / "state"
    table = play_game(state, 4)
    catalog = table.catalog
    try:
        ctl = table.controller
        ctl.session.journal.sync_later = True

        def failing(_path: Path) -> None:
            raise OSError(5, "Input/output error")

        monkeypatch.setattr(writing, "sync_file", failing)
        assert ctl.session.submit(a_legal_command(table)).__class__.__name__ == "Saved"
        job = ctl.session.journal.sync_job()
        assert job is not None
        with pytest.raises(OSError) as failed:
            job()
        assert ctl.sync_failed(failed.value) is True                           # the WAL holds it: kept
        assert len(ctl.session.history) == 5

        assert ctl.session.submit(a_legal_command(table)).__class__.__name__ == "Saved"
        assert len(ctl.session.history) == 6
        with sqlite3.connect(ctl.session.journal.path) as other:                 # the disk lost the last write
            other.execute("DELETE FROM command WHERE seq = 6")
        assert ctl.sync_failed(OSError(5, "Input/output error")) is False
        assert len(ctl.session.history) == 5 and ctl.session.journal.sync_later
        assert ctl.message is not None and ctl.message.kind == "refusal"
        shown = (len(ctl.session.history), as_json(ctl.session.state, catalog))
    finally:
        close_table(table)
    assert restarted(state, catalog) == shown
