"""Disk faults are not damage: a full disk or a read-only directory never moves or repairs anything;
the running table shows the fault, refuses actions, and carries on by itself once the disk works."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drivers.base import ManualClock
from drivers.events import Tap
from table.storage.faults import JournalFault
from table.storage.journal import Journal
from table.ui.view import build_view
from table.control.assembly import build_table

from tests.table.storage_helpers import (DISK_KINDS, READ_ONLY_KINDS, ReadOnlyDir, SmallDisk, as_json, cli,
                                         close_table, config_file, config_for, listing, play_game, state_out)


@pytest.fixture(params=DISK_KINDS)
def disk(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    d = SmallDisk(tmp_path / "disk", request.param)
    yield d
    d.close()


@pytest.fixture(params=READ_ONLY_KINDS)
def ro_dir(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    d = ReadOnlyDir(tmp_path / "ro", request.param)
    yield d
    d.close()


def tap(ctl, card: str):  # type: ignore[no-untyped-def]
    return ctl.handle(Tap("", 0.0, card=card))


def test_a_full_disk_at_start_keeps_the_game_and_recovers_by_itself(disk: SmallDisk, tmp_path: Path) -> None:
    table = play_game(disk.dir, 60)
    expected = as_json(table.controller.state, table.catalog)
    close_table(table)
    before = listing(disk.dir)
    disk.fill()
    try:
        # commands that only read still work
        code, out, err = cli("state", "--config", str(config_file(disk.dir, tmp_path / "cfg")))
        assert code == 0 and state_out(out) == expected
        # two starts in a row: nothing is moved, nothing is renamed, the game is shown
        for _ in range(2):
            clock = ManualClock()
            table = build_table(config_for(disk.dir), clock, retry_faults=True)
            ctl = table.controller
            assert as_json(ctl.state, table.catalog) == expected
            if ctl.storage_fault is not None:         # found at start (a full disk), else at the first write
                assert "full" in ctl.storage_fault
                assert ctl.message.kind == "refusal" and "full" in ctl.message.text
            ctl.prompt = None                         # (the resumed game's notice)
            out = ctl.handle_press("undo")            # an action the rules allow at any moment
            assert out is not None and not out.accepted and "full" in ctl.message.text
            assert ctl.storage_fault is not None and as_json(ctl.state, table.catalog) == expected
            ctl.say("reader back online")            # whatever else happens, the screen keeps the fault
            assert "full" in build_view(ctl).message and build_view(ctl).message_kind == "refusal"
            clock.advance(5)
            ctl.tick()                               # still full: still refused, still running
            assert ctl.storage_fault is not None
            close_table(table)
        after = listing(disk.dir)
        assert {k: v for k, v in after.items() if not k.endswith(("-wal", "-shm"))} == before
        assert after.get("journal.sqlite3-wal", b"") == b""       # at most SQLite's empty side files
        assert not list(disk.dir.glob("*damaged*"))
        if disk.kind == "tmpfs":       # opening for writing needs room for SQLite's side files
            with pytest.raises(JournalFault, match="full"):
                Journal(disk.dir / "journal.sqlite3")
        table = build_table(config_for(disk.dir), clock, retry_faults=True)
        ctl = table.controller
    finally:
        disk.free()
    clock.advance(ctl.RETRY_SECONDS + 0.1)
    ctl.tick()                                       # the disk has room again: the table carries on
    assert not ctl.journal_unwritable and ctl.storage_fault is None or disk.kind == "fsize"
    assert as_json(ctl.state, table.catalog) == expected
    n = ctl.history_len
    ctl.prompt = None                                # (the resumed game's notice)
    ctl.handle_press("undo")                         # (a fault found by a write clears with the next write)
    assert ctl.history_len == n - 1 and ctl.storage_fault is None
    close_table(table)


def test_a_disk_that_fills_during_play_refuses_actions_and_carries_on_after(disk: SmallDisk) -> None:
    clock = ManualClock()
    table = play_game(disk.dir, 30, clock=clock)
    ctl = table.controller
    n = ctl.history_len
    disk.fill()
    try:
        refused = 0
        for _ in range(40):                          # actions until the last free page is used up
            ctl.handle_press("next")
            if ctl.storage_fault is not None:
                refused += 1
                break
        assert refused, "the disk never filled"
        kept = ctl.history_len
        shown = as_json(ctl.state, table.catalog)
        out = ctl.handle_press("next")
        assert out is not None and not out.accepted and "full" in ctl.message.text
        assert as_json(ctl.state, table.catalog) == shown
    finally:
        disk.free()
    ctl.handle_press("next")
    assert ctl.history_len == kept + 1 and ctl.storage_fault is None
    close_table(table)
    again = build_table(config_for(disk.dir), ManualClock())
    assert again.controller.history_len == kept + 1 >= n
    assert again.journal.damage is None
    close_table(again)


def test_a_read_only_directory_is_reported_never_repaired(ro_dir: ReadOnlyDir, tmp_path: Path) -> None:
    table = play_game(ro_dir.dir, 40)
    expected = as_json(table.controller.state, table.catalog)
    close_table(table)
    ro_dir.lock()
    try:
        before = listing(ro_dir.dir)
        cfg = config_file(ro_dir.dir, tmp_path / "cfg")
        code, out, err = cli("state", "--config", str(cfg))
        assert code == 0 and state_out(out) == expected and not err
        clock = ManualClock()
        table = build_table(config_for(ro_dir.dir), clock, retry_faults=True)
        ctl = table.controller
        assert as_json(ctl.state, table.catalog) == expected
        assert ctl.storage_fault is not None and "cannot be written" in ctl.storage_fault
        ctl.prompt = None                            # (the resumed game's notice)
        out = ctl.handle_press("undo")
        assert out is not None and not out.accepted and "cannot be written" in ctl.message.text
        assert listing(ro_dir.dir) == before and not list(ro_dir.dir.glob("*damaged*"))
        code, out, err = cli("tags", "import", str(tmp_path / "none.csv"), "--config", str(cfg))
        assert code == 2 and len(err.strip().splitlines()) == 1
        code, out, err = cli("doctor", "--config", str(cfg))
        assert "read-only" in out or "cannot be written" in out
    finally:
        ro_dir.unlock()
    clock.advance(ctl.RETRY_SECONDS + 0.1)
    ctl.tick()
    assert ctl.storage_fault is None
    assert tap(ctl, "player-1") is not None
    close_table(table)


def test_a_journal_that_cannot_be_opened_is_one_line_and_exit_2(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    (directory / "journal.sqlite3").mkdir(parents=True)          # something that is not a file
    cfg = config_file(directory, tmp_path)
    code, out, err = cli("state", "--config", str(cfg))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "journal" in err and "Traceback" not in err
    assert (directory / "journal.sqlite3").is_dir()
    code, out, err = cli("restore", str(tmp_path / "cfg-none"), "--config", str(cfg))
    assert code == 2


def test_doctor_names_a_damaged_journal_and_a_kept_game(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    table = play_game(directory, 20)
    close_table(table)
    path = directory / "journal.sqlite3"
    data = bytearray(path.read_bytes())
    at = data.index(b'"player":"player-3"')
    data[at + 3] = ord("Z")
    path.write_bytes(bytes(data))
    cfg = config_file(directory, tmp_path)
    code, out, err = cli("doctor", "--config", str(cfg))
    assert "[FAIL] saved games" in out and "damaged" in out and "munchkin-table run" in out
    assert path.read_bytes() == bytes(data)


def test_run_on_a_read_only_directory_starts_and_shows_the_fault(ro_dir: ReadOnlyDir, tmp_path: Path) -> None:
    """The table process itself: no traceback, no exit into a restart loop; the first frame is drawn."""
    import os
    import subprocess
    import sys

    table = play_game(ro_dir.dir, 10)
    close_table(table)
    ro_dir.lock()
    cfg = config_file(ro_dir.dir, tmp_path / "cfg")
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", MUNCHKIN_EXIT_AFTER_FIRST_FRAME="1",
               PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-m", "table", "run", "--sim", "--config", str(cfg)], capture_output=True,
                         text=True, env=env, cwd=root, stdin=subprocess.DEVNULL, timeout=120)
    assert out.returncode == 0 and "Traceback" not in out.stderr
    assert "cannot be saved" in out.stderr and "cannot be written" in out.stderr
