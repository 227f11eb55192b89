"""Start to first frame and `state` of a game of 100, 2,000 and 10,000 journaled actions.

Each game is played ahead through the simulated table (6 players, the scripted mix of taps and
presses) into a journal on a real disk; then ``munchkin-table run --sim`` is started on it and timed
until its first frame is shown (MUNCHKIN_EXIT_AFTER_FIRST_FRAME), median of 3. Baseline, in the
same run: the same start on an empty state directory. Also recorded: the in-process resume alone
(``build_table`` on the journal), median of 3.

Flatness (the journal's stored snapshots): start to first frame and ``munchkin-table state`` at
10,000 actions against the same at 100, each a median of 3 processes; target at most 1.5x.

The starts run under SDL's dummy driver, then again in a real X11 window through Xvfb (started
for the run; "skipped: no Xvfb" without it), where opening the window and the first frame cost
what they cost at the glass.

    ./go shell python bench/resume.py
"""

from __future__ import annotations

import logging
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from bench._games import long_script  # noqa: E402
from bench._report import disk_dir, figure, filesystem_of, report  # noqa: E402
from bench._xvfb import display_server, environment  # noqa: E402
from drivers.base import ManualClock  # noqa: E402
from drivers.sim import SimButtons, SimReader  # noqa: E402
from table.config import Config, StorageConfig  # noqa: E402
from table.sim.script import parse_script  # noqa: E402
from table.sim.harness import perform  # noqa: E402
from table.control.assembly import build_table  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LENGTHS = (100, 2_000, 10_000)
TARGET_MS = 1000
FLAT_RATIO = 1.5
RUNS = 3


def play(state: Path, actions: int) -> int:
    """A game of ``actions`` journaled actions in ``state``; returns how many the journal holds."""
    config = Config(storage=StorageConfig(state_dir=state))
    clock = ManualClock()
    table = build_table(config, clock, seed_source=lambda: 1)
    table.journal.db.execute("PRAGMA synchronous=OFF")     # playing ahead only; the timed start is as in use
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    for action in parse_script("\n".join(long_script(int(actions * 1.6) + 50)), table.catalog):
        perform(action, table, reader, buttons, clock)
        if table.controller.history_len >= actions:
            break
    record = table.journal.latest_game()
    n = table.journal.count(record.id) if record else 0
    table.journal.close()
    return n


def _config_for(state: Path) -> Path:
    config = state.parent / f"{state.name}.toml"
    config.write_text(f'[storage]\nstate_dir = "{state}"\n[display]\nsound = false\n')
    return config


def _median_process_ms(args: list[str], env: dict[str, str]) -> float:
    times = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "table", *args], env=env, check=True,
                       cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def start_ms(state: Path, base_env: dict[str, str] | None = None) -> float:
    """Median ms from process start to the first frame shown, of ``run --sim`` on ``state``."""
    env = dict(base_env or os.environ, MUNCHKIN_EXIT_AFTER_FIRST_FRAME="1")
    return _median_process_ms(["run", "--sim", "--config", str(_config_for(state))], env)


def state_ms(state: Path) -> float:
    """Median ms of a whole ``munchkin-table state`` process on ``state``."""
    return _median_process_ms(["state", "--config", str(_config_for(state))], dict(os.environ))


def resume_ms(state: Path) -> float:
    config = Config(storage=StorageConfig(state_dir=state))
    times = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        table = build_table(config, ManualClock())
        times.append(time.perf_counter() - t0)
        table.journal.close()
    return statistics.median(times) * 1000


def main() -> int:
    logging.disable(logging.WARNING)
    base = disk_dir("resume")
    try:
        fresh = base / "fresh"
        fresh.mkdir()
        baseline = start_ms(fresh)
        figures = []
        starts: dict[int, float] = {}
        states: dict[int, float] = {}
        for length in LENGTHS:
            state = base / f"game-{length}"
            state.mkdir()
            journaled = play(state, length)
            value = start_ms(state)
            starts[length], states[length] = value, state_ms(state)
            details = {"journaled_actions": journaled, "resume_in_process_ms": round(resume_ms(state), 1),
                       "state_command_ms": round(states[length], 1),
                       "state_filesystem": filesystem_of(state), "runs": RUNS}
            figures.append(figure(f"start -> first frame, {length:,}-action game", value, "ms", baseline=baseline,
                                  baseline_is="the same start on an empty state directory", target=f"<= {TARGET_MS} ms",
                                  met=value <= TARGET_MS, details=details))
        with display_server() as server:
            x11 = environment("x11", server)
            if x11 is None:
                print("start -> first frame, X11 through Xvfb: skipped: no Xvfb", flush=True)
            else:
                x11_baseline = start_ms(fresh, x11)
                for length in LENGTHS:
                    value = start_ms(base / f"game-{length}", x11)
                    figures.append(figure(f"start -> first frame, {length:,}-action game, X11 through Xvfb", value, "ms",
                                          baseline=x11_baseline, baseline_is="the same start on an empty state directory, X11",
                                          target=f"<= {TARGET_MS} ms", met=value <= TARGET_MS, details={"runs": RUNS}))
        short, long = LENGTHS[0], LENGTHS[-1]
        for what, times in (("start -> first frame", starts), ("munchkin-table state", states)):
            ratio = times[long] / times[short]
            figures.append(figure(f"{what}, {long:,} actions against {short}", times[long], "ms", baseline=times[short],
                                  baseline_is=f"the same at {short} actions", target=f"ratio <= {FLAT_RATIO}",
                                  met=ratio <= FLAT_RATIO))
        report("resume", figures)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
