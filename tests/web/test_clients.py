"""Thirty phones follow a 600-action game on a real table: none misses the final state."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time

from bench._games import long_script
from tests.web.conftest import KEY, ROOT


class Follower(threading.Thread):
    """One event-stream client in a thread: keeps the newest event it has read."""

    def __init__(self, url: str, phone: int = 0) -> None:
        super().__init__(daemon=True)
        host, port = url.removeprefix("http://").rstrip("/").split(":")
        # each phone from its own loopback address, as phones on the network are (one device holds 4 streams)
        self.sock = socket.create_connection((host, int(port)), timeout=60, source_address=(f"127.0.1.{phone + 1}", 0))
        self.sock.sendall(f"GET /events?key={KEY} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        self.last: dict | None = None
        self.count = 0
        self.error = ""
        self.stop = False

    def run(self) -> None:
        buffer = b""
        try:
            while not self.stop:
                chunk = self.sock.recv(1 << 16)
                if not chunk:
                    self.error = "stream closed"
                    return
                *blocks, buffer = (buffer + chunk).split(b"\n\n")
                for block in blocks:
                    for line in block.split(b"\n"):
                        if line.startswith(b"data: "):
                            self.last = json.loads(line[6:])
                            self.count += 1
        except OSError as exc:
            if not self.stop:
                self.error = str(exc)


def test_thirty_clients_follow_a_600_action_game_and_all_see_the_final_state(running_table) -> None:
    table = running_table()
    followers = [Follower(table.url, n) for n in range(30)]
    for f in followers:
        f.start()
    script = long_script(600)
    for line in script:                   # a brisk table: a tap or press every 10 ms
        table.send(line)
        time.sleep(0.01)
    table.wait_state(lambda s: s["turn"] > 20, timeout=120)
    # the table is done when its state stops changing
    previous, stable_since = None, time.monotonic()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        current = table.state()
        if current != previous:
            previous, stable_since = current, time.monotonic()
        elif time.monotonic() - stable_since > 2.0:
            break
        time.sleep(0.2)
    final = previous
    assert final is not None and final["turn"] > 20, "the game did not get far"
    wait_until = time.monotonic() + 10
    while time.monotonic() < wait_until and not all(
            f.last is not None and {k: v for k, v in f.last.items() if k != "board"} == final for f in followers):
        time.sleep(0.1)
    for n, f in enumerate(followers):
        assert not f.error, (n, f.error)
        assert f.last is not None and {k: v for k, v in f.last.items() if k != "board"} == final, n
        assert f.count >= 20                # it followed the game, not only its start and end
    for f in followers:
        f.stop = True
        f.sock.close()
    # ... and the final board is what `munchkin-table state` says once the table has stopped
    assert table.stop() == 0
    out = subprocess.run([sys.executable, "-m", "table", "state", "--config", str(table.config)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60,
                         env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert out.returncode == 0, out.stderr
    cli = json.loads(out.stdout)
    assert cli == final


def test_a_busy_port_leaves_the_table_playing_and_says_why(tmp_path) -> None:
    import signal

    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    port = holder.getsockname()[1]
    config = tmp_path / "busy.toml"
    config.write_text(f'[storage]\nstate_dir = "{tmp_path / "state"}"\n[display]\nsound = false\n'
                      f'[web]\nenabled = true\nbind = "127.0.0.1"\nport = {port}\nkey = "{KEY}"\n')
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "table", "run", "--sim", "--config", str(config)], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=env)
    try:
        lines = []
        for line in proc.stderr:  # type: ignore[union-attr]
            lines.append(line)
            if "web view not started" in line:
                break
        assert "web view not started" in "".join(lines), "".join(lines)
        proc.stdin.write("tap player-1\ntap player-2\ntap player-3\npress next\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]
        time.sleep(3)
        assert proc.poll() is None                          # still playing
    finally:
        holder.close()
        proc.send_signal(signal.SIGINT)
        rest = proc.communicate(timeout=30)[1]
    assert "Traceback" not in "".join(lines) + rest
    out = subprocess.run([sys.executable, "-m", "table", "state", "--config", str(config)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, env=env)
    assert json.loads(out.stdout)["phase"] == "kick-open-the-door"


def test_stopping_the_table_ends_every_stream_cleanly(running_table) -> None:
    table = running_table()
    followers = [Follower(table.url) for _ in range(3)]
    for f in followers:
        f.start()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not all(f.count for f in followers):
        time.sleep(0.05)
    assert table.stop() == 0
    for f in followers:
        f.join(10)
        assert f.error == "stream closed" and not f.is_alive()
    log = "".join(table.lines)
    assert "Traceback" not in log and " ERROR " not in log, log[-2000:]
