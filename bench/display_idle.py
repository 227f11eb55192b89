"""Idle CPU of the table's run loop against a plain ``clock.tick(60)`` pygame loop.

Starts ``munchkin-table run --sim`` (SDL dummy driver, a throw-away state directory),
lets it settle, then reads its CPU time from /proc over a few seconds; does the same
for a loop that redraws at 60 fps.

    .venv/bin/python bench/display_idle.py [SECONDS]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")

PLAIN_LOOP = """
import pygame
pygame.display.init()
screen = pygame.display.set_mode((800, 480))
clock = pygame.time.Clock()
while True:
    for event in pygame.event.get():
        if event.type == pygame.QUIT:      # SIGTERM arrives as QUIT
            raise SystemExit
    screen.fill((14, 16, 22))
    pygame.display.flip()
    clock.tick(60)
"""


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def measure(cmd: list[str], seconds: float, env: dict[str, str]) -> float:
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        time.sleep(2.0)                        # start-up and first frame
        if proc.poll() is not None:
            raise SystemExit(f"{cmd} exited early with {proc.returncode}")
        start_cpu, start = cpu_seconds(proc.pid), time.monotonic()
        time.sleep(seconds)
        used = cpu_seconds(proc.pid) - start_cpu
        return 100 * used / (time.monotonic() - start)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main() -> int:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "config.toml"
        config.write_text(f'[storage]\nstate_dir = "{tmp}/state"\n[display]\nsound = false\n')
        table = measure([sys.executable, "-m", "table", "run", "--sim", "--config", str(config)], seconds, env)
    plain = measure([sys.executable, "-c", PLAIN_LOOP], seconds, env)
    print(f"idle CPU over {seconds:g} s (SDL dummy driver, 800x480):")
    print(f"  munchkin-table run --sim : {table:6.2f} % of a core")
    print(f"  plain clock.tick(60) loop: {plain:6.2f} % of a core")
    return 0


if __name__ == "__main__":
    sys.exit(main())
