"""One writer by a lock nothing can delete (issue 44, item 3).

A running table holds ``table.lock``, the state directory and the journal file itself. Deleting
``table.lock`` (or never having one) leaves the others held: a second table refuses, naming the
first by its pid and since when.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from table.storage.journal import Journal
from table.storage.paths import LOCK_FILE, TableBusy, hold_table_lock, table_running

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import sys
from pathlib import Path
from table.storage.journal import Journal
from table.storage.paths import hold_table_lock
state = Path(sys.argv[1])
lock = hold_table_lock(state) if sys.argv[2] == "run" else None
journal = Journal(state / "journal.sqlite3")
print("ready", flush=True)
sys.stdin.read()
"""


@contextmanager
def first_table(state: Path, how: str) -> Iterator[int]:
    """A table in another process holding ``state`` (``run``: as ``run`` does; ``journal``: only its
    journal open for writing); its pid."""
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(state), how], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        yield proc.pid
    finally:
        proc.communicate("", timeout=30)


def test_a_second_table_refuses_with_table_lock_deleted_naming_the_first(tmp_path: Path) -> None:
    with first_table(tmp_path, "run") as pid:
        (tmp_path / LOCK_FILE).unlink()              # what broke: the lock file removed under a running table
        assert table_running(tmp_path)
        with pytest.raises(TableBusy, match=rf"pid {pid} since \d{{4}}-\d\d-\d\d \d\d:\d\d:\d\d"):
            hold_table_lock(tmp_path)
    hold_table_lock(tmp_path).close()                # let go when the first table ends


def test_a_second_writer_refuses_on_the_journal_file_alone(tmp_path: Path) -> None:
    with first_table(tmp_path, "journal") as pid:
        assert not (tmp_path / LOCK_FILE).exists()    # no table.lock at all
        with pytest.raises(TableBusy, match=rf"pid {pid} since .*journal\.sqlite3"):
            Journal(tmp_path / "journal.sqlite3")
        looking = Journal(tmp_path / "journal.sqlite3", read_only=True)    # looking is still allowed
        looking.close()
    Journal(tmp_path / "journal.sqlite3").close()


def test_the_lock_file_names_its_holder_and_since_when(tmp_path: Path) -> None:
    lock = hold_table_lock(tmp_path)
    assert lock is not None
    text = (tmp_path / LOCK_FILE).read_text()
    assert text.startswith(f"pid {os.getpid()} since ")
    with pytest.raises(TableBusy, match=f"pid {os.getpid()}"):
        hold_table_lock(tmp_path)                       # a second hold in this process refuses too
    lock.close()
