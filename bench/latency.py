"""Latency from a tag read or button edge to the frame that shows its result (target: p99 < 50 ms).

A full scripted 6-player game runs through the simulated drivers with the real
clock; each event's driver timestamp is compared with the moment the frame that
shows its result has been drawn (display.render returns after the flip).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import logging  # noqa: E402

from bench._games import long_script  # noqa: E402
from drivers.base import SystemClock  # noqa: E402
from drivers.sim import SimButtons, SimReader  # noqa: E402
from table.config import Config, StorageConfig  # noqa: E402
from table.display import Display  # noqa: E402
from table.script import parse_script  # noqa: E402
from table.view import build_view  # noqa: E402
from table.wiring import build_table  # noqa: E402


def run(size: tuple[int, int], actions: int) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        clock = SystemClock()
        table = build_table(Config(storage=StorageConfig(state_dir=tmp)), clock, seed_source=lambda: 1)
        ctl = table.controller
        display = Display(size)
        reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
        script = parse_script("\n".join(long_script(actions)), table.catalog)
        latencies = []
        for action in script[:actions]:
            if action.verb == "tap":
                reader.scan_card(action.arg)
            else:
                buttons.press(action.arg)
            for event in table.events.drain():
                if ctl.handle(event) is None:
                    continue
                display.render(build_view(ctl))
                latencies.append(clock.monotonic() - event.at)
        display.close()
        table.journal.close()
        return latencies


def main() -> None:
    logging.disable(logging.WARNING)
    if len(sys.argv) == 1:           # each size in a process of its own, so its memory figure is its own
        import subprocess

        for size in ("800x480", "1920x1080"):
            subprocess.run([sys.executable, __file__, size], check=True)
        return
    width, height = (int(n) for n in sys.argv[1].split("x"))
    for size in ((width, height),):
        lat = sorted(run(size, 600))
        p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000  # noqa: E731
        print(f"latency {size[0]}x{size[1]}: {len(lat)} events, p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, "
              f"max {lat[-1] * 1000:.1f} ms (target p99 < 50 ms)")
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"memory: peak resident set {peak:.0f} MB during the 6-player game at {width}x{height} (target < 120 MB)")


if __name__ == "__main__":
    main()
