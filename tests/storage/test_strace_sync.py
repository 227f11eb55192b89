"""Case 4 with a real failing system call: strace's fault injection makes the journal's first
fsync/fdatasync in a child table return EIO (the WAL frame is already written, as when a disk fails
its flush). What the child then shows is what a restart of the table finds. Skipped without strace."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.storage.test_fault_syncs import restarted
from tests.table.storage_helpers import close_table, play_game

ROOT = Path(__file__).resolve().parents[2]
CHILD = """
import sys
from drivers.base import ManualClock
from table.control.assembly import build_table
from tests.storage.test_fault_syncs import a_legal_command
from tests.table.storage_helpers import as_json, config_for
table = build_table(config_for(__import__("pathlib").Path(sys.argv[1])), ManualClock(), seed_source=lambda: 1,
                    retry_faults=True)
session = table.controller.session
result = session.submit(a_legal_command(table))
print(type(result).__name__, len(session.history))
print(as_json(session.state, table.catalog))
"""


@pytest.mark.skipif(shutil.which("strace") is None, reason="skipped: no strace")
@pytest.mark.parametrize("when", [1, 2])
def test_a_real_failing_fsync_refuses_only_what_a_restart_does_not_find(tmp_path: Path, when: int) -> None:
    state = tmp_path / "state"
    table = play_game(state, 20)
    catalog = table.catalog
    close_table(table)
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    run = subprocess.run(["strace", "-f", "-qq", "-o", str(tmp_path / "strace.log"), "-e", "trace=fsync,fdatasync",
                          "-e", f"inject=fsync,fdatasync:error=EIO:when={when}", sys.executable, "-c", CHILD,
                          str(state)], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    if run.returncode != 0 and "PTRACE" in run.stderr.upper():
        pytest.skip("skipped: strace may not trace here")
    assert run.returncode == 0, run.stderr[-2000:]
    assert "EIO" in (tmp_path / "strace.log").read_text(), "the injected fault never fired"
    outcome, shown, board = run.stdout.split("\n")[0].split()[0], int(run.stdout.split()[1]), run.stdout.split("\n")[1]
    assert outcome in ("Saved", "NotSaved")
    assert shown == (21 if outcome == "Saved" else 20)
    assert restarted(state, catalog) == (shown, board)


LATER_CHILD = """
import sys
from drivers.base import ManualClock
from table.control.assembly import build_table
from tests.storage.test_fault_syncs import a_legal_command
from tests.table.storage_helpers import as_json, config_for
table = build_table(config_for(__import__("pathlib").Path(sys.argv[1])), ManualClock(), seed_source=lambda: 1,
                    retry_faults=True)
ctl = table.controller
session = ctl.session
session.journal.sync_later = True            # as the run loop has it: the WAL synced beside the frame
result = session.submit(a_legal_command(table))
job = session.journal.sync_job()
try:
    job()
    kept = "synced"
except OSError as exc:
    kept = "kept" if ctl.sync_failed(exc) else "taken-back"
print(type(result).__name__, len(session.history), kept)
print(as_json(session.state, table.catalog))
"""


@pytest.mark.skipif(shutil.which("strace") is None, reason="skipped: no strace")
def test_a_real_failing_sync_beside_the_frame_shows_what_a_restart_finds(tmp_path: Path) -> None:
    """The run loop's sync of the WAL (``Journal.sync_job``) fails with EIO: the table shows what
    the file holds, which is what a restart of the table finds."""
    state = tmp_path / "state"
    table = play_game(state, 20)
    catalog = table.catalog
    close_table(table)
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    log = tmp_path / "strace.log"
    wal = state / "journal.sqlite3-wal"        # its syncs: SQLite's at the start (a FULL commit), then the job's
    run = subprocess.run(["strace", "-f", "-qq", "-y", "-P", str(wal), "-o", str(log), "-e", "trace=fsync,fdatasync",
                          "-e", "inject=fsync,fdatasync:error=EIO:when=2", sys.executable, "-c", LATER_CHILD,
                          str(state)], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    if run.returncode != 0 and "PTRACE" in run.stderr.upper():
        pytest.skip("skipped: strace may not trace here")
    assert run.returncode == 0, run.stderr[-2000:]
    failed = [line for line in log.read_text().splitlines() if "EIO" in line]
    assert failed and "journal.sqlite3-wal" in failed[0], log.read_text()[-2000:]   # it was the WAL's sync that failed
    outcome, shown, kept = run.stdout.split("\n")[0].split()
    board = run.stdout.split("\n")[1]
    assert outcome == "Saved" and kept in ("kept", "taken-back"), run.stdout     # the job's own sync failed
    assert restarted(state, catalog) == (int(shown), board)
