"""Idle CPU of ``munchkin-table run --sim`` against a plain ``clock.tick(60)`` pygame loop, side by side.

Four processes run at the same time, each with its own state directory
on a real disk: a table just started (fresh), a table after a die roll (three players joined, ROLL
picks who starts), a table after an interference window closed (the game started and a monster
played: its window runs out), and the plain loop (the baseline). After they settle, each one's CPU
time is read per thread from /proc/PID/task/TID/schedstat at the start and the end of the same
window (30 s unless given), so all four see the same neighbours on the CPU.

It runs twice: under SDL's dummy driver, then in real X11 windows through Xvfb (started for the
run; "skipped: no Xvfb" without it). There the plain loop gets the same framebuffer as the table
(``SDL_FRAMEBUFFER_ACCELERATION=0``, what the Display sets under X11), so it is not slowed by a
GL texture the table does not use. The server's own CPU is in neither figure.

    ./go shell python bench/display_idle.py [SECONDS]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._report import Figure, disk_dir, figure, report, thread_cpu_ns, thread_names  # noqa: E402
from bench._xvfb import each_display, stop  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TARGET_RATIO = 20
SETTLE_S = 8.0                 # start-up, the first frame, the die's tumble, a 2.6 s interference window

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

SCENES = {
    "fresh": "",
    "after a roll": "tap player-1\ntap player-2\ntap player-3\npress roll\n",
    "after an interference window closed": "tap player-1\ntap player-2\ntap player-3\npress next\ntap net-troll\n",
}


def start(cmd: list[str], env: dict[str, str], script: str) -> subprocess.Popen:
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, text=True)
    assert proc.stdin is not None
    proc.stdin.write(script)
    proc.stdin.flush()                     # left open: the table reads piped script lines as taps
    return proc


def share(before: dict[int, int], after: dict[int, int], seconds: float) -> tuple[float, dict[int, float]]:
    """Percent of one core over the window, in all and per thread (threads alive at its end)."""
    per = {tid: 100 * (ns - before.get(tid, 0)) / (seconds * 1e9) for tid, ns in after.items()}
    return sum(per.values()), per


def measure(driver: str, env: dict[str, str], seconds: float) -> list[Figure]:
    """The four processes under ``env`` side by side; one figure per scene."""
    dirs = []
    procs: dict[str, subprocess.Popen] = {}
    try:
        for name, script in SCENES.items():
            state = disk_dir("idle")
            dirs.append(state)
            config = state / "config.toml"
            config.write_text(f'[storage]\nstate_dir = "{state}/state"\n[display]\nsound = false\n')
            procs[name] = start([sys.executable, "-m", "table", "run", "--sim", "--config", str(config)], env, script)
        plain_env = dict(env, SDL_FRAMEBUFFER_ACCELERATION="0") if driver == "x11" else env
        procs["plain"] = start([sys.executable, "-c", PLAIN_LOOP], plain_env, "")
        time.sleep(SETTLE_S)
        for name, proc in procs.items():
            if proc.poll() is not None:
                raise SystemExit(f"{name}: exited early with {proc.returncode}")
        before = {name: thread_cpu_ns(p.pid) for name, p in procs.items()}
        names = {name: thread_names(p.pid) for name, p in procs.items()}
        t0 = time.monotonic()
        time.sleep(seconds)
        after = {name: thread_cpu_ns(p.pid) for name, p in procs.items()}
        elapsed = time.monotonic() - t0
    finally:
        for proc in procs.values():
            stop(proc)
        for d in dirs:
            shutil.rmtree(d, ignore_errors=True)
    plain, plain_threads = share(before["plain"], after["plain"], elapsed)
    print(f"idle CPU over {elapsed:.0f} s, per-thread schedstat, {driver}, 800x480, side by side:")
    figures = []
    for name in SCENES:
        value, threads = share(before[name], after[name], elapsed)
        details = {"threads": {f"{names[name].get(tid, '?')} ({tid})": round(v, 4) for tid, v in threads.items()},
                   "seconds": round(elapsed, 1), "driver": driver}
        figures.append(figure(f"idle CPU of run --sim, {name}, {driver}", value, "% of a core", baseline=plain,
                              baseline_is="a plain clock.tick(60) pygame loop, measured alongside",
                              target=f"baseline / value >= {TARGET_RATIO}", ratio_is="baseline / value",
                              met=value * TARGET_RATIO <= plain, details=details))
    return figures


def main() -> int:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 30.0
    figures: list[Figure] = []
    for driver, env in each_display("idle CPU"):
        figures += measure(driver, env, seconds)
    report("display_idle", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
