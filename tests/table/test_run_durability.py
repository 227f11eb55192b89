"""`kill -9` of a running simulated table loses nothing it had accepted; a restart shows the same game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def env_for(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_STATE_HOME=str(tmp_path / "state"),
               PYTHONPATH=str(ROOT))
    return env


def start_table(tmp_path: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "table", "run", "--sim"], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env_for(tmp_path), cwd=ROOT)


def state(tmp_path: Path) -> dict:
    out = subprocess.run([sys.executable, "-m", "table", "state"], capture_output=True, text=True,
                         env=env_for(tmp_path), cwd=ROOT, timeout=30, check=True)
    return json.loads(out.stdout)


def wait_for(predicate, tmp_path: Path, timeout: float = 20.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        current = state(tmp_path)
        if predicate(current):
            return current
        if time.monotonic() > deadline:
            pytest.fail(f"table never reached the expected state; last: {json.dumps(current)[:400]}")
        time.sleep(0.2)


def send(proc: subprocess.Popen, text: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write(text.encode())
    proc.stdin.flush()


def test_kill_9_and_restart_shows_the_same_game(tmp_path: Path) -> None:
    proc = start_table(tmp_path)
    try:
        send(proc, "tap player-1\ntap player-2\ntap player-3\npress next\ntap boots-of-butt-kicking\n")
        before = wait_for(lambda s: s["players"] and s["players"][0]["equipped"] == ["boots-of-butt-kicking"],
                          tmp_path)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    assert state(tmp_path) == before

    again = start_table(tmp_path)
    try:
        send(again, "tap lame-goblin\n")
        after = wait_for(lambda s: s["phase"] == "combat", tmp_path)
        assert after["players"] == before["players"]
        assert after["combat"]["players_strength"] == 3
    finally:
        again.send_signal(signal.SIGKILL)
        again.wait(timeout=10)


def test_a_second_table_on_the_same_game_is_refused(tmp_path: Path) -> None:
    first = start_table(tmp_path)
    try:
        send(first, "tap player-1\n")
        wait_for(lambda s: len(s["players"]) == 1, tmp_path)
        second = subprocess.run([sys.executable, "-m", "table", "run", "--sim"], capture_output=True, text=True,
                                env=env_for(tmp_path), cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL)
        assert second.returncode == 2
        assert "already in use by pid" in second.stderr and "Traceback" not in second.stderr
        enroll = subprocess.run([sys.executable, "-m", "table", "enroll", "--sim"], capture_output=True, text=True,
                                env=env_for(tmp_path), cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL)
        assert enroll.returncode == 2 and "already in use" in enroll.stderr
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    # the lock dies with its process: the table starts again
    again = start_table(tmp_path)
    try:
        send(again, "tap player-2\n")
        wait_for(lambda s: len(s["players"]) == 2, tmp_path)
    finally:
        again.send_signal(signal.SIGKILL)
        again.wait(timeout=10)


def test_a_lock_file_made_by_another_user_still_locks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    from table.storage.paths import TableBusy, hold_table_lock

    state = tmp_path / "state"
    state.mkdir()
    (state / "table.lock").write_text("pid 1")

    def not_ours(path, mode="r", *args, **kwargs):       # as if root had made the lock file
        if "a" in mode or "w" in mode:
            raise PermissionError(13, "Permission denied", str(path))
        return builtins.open(path, mode, *args, **kwargs)

    monkeypatch.setattr("table.storage.paths.open", not_ours, raising=False)
    first = hold_table_lock(state)
    with pytest.raises(TableBusy, match="pid 1"):
        hold_table_lock(state)
    first.close()
    hold_table_lock(state).close()                      # released with its handle
