"""Resume of a 2,000-action game from the journal (target: under 300 ms), and start to first frame.

Prints figures; asserts nothing.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from bench._games import long_script  # noqa: E402
from drivers.base import ManualClock  # noqa: E402
from table.config import Config, StorageConfig  # noqa: E402
from table.script import parse_script  # noqa: E402
from table.simulate import perform  # noqa: E402
from drivers.sim import SimButtons, SimReader  # noqa: E402
from table.wiring import build_table  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(storage=StorageConfig(state_dir=tmp))
        clock = ManualClock()
        table = build_table(config, clock, seed_source=lambda: 1)
        actions = parse_script("\n".join(long_script(3000)), table.catalog)
        reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
        for action in actions:
            perform(action, table, reader, buttons, clock)
            if table.controller.history_len >= 2000:
                break
        n = table.journal.count(table.controller.game.id)
        table.journal.close()
        times = []
        for _ in range(5):
            start = time.perf_counter()
            again = build_table(config, ManualClock())
            times.append(time.perf_counter() - start)
            again.journal.close()
        print(f"resume: {n} journaled actions replayed in median {statistics.median(times) * 1000:.0f} ms "
              f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}; target < 300 ms)")

        env = dict(os.environ, XDG_STATE_HOME=str(Path(tmp) / "fresh"), MUNCHKIN_EXIT_AFTER_FIRST_FRAME="1")
        starts = []
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "table", "run", "--sim"], env=env, check=True,
                           stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=Path(__file__).resolve().parents[1])
            starts.append(time.perf_counter() - start)
        print(f"start: process start to first frame (and exit) median {statistics.median(starts) * 1000:.0f} ms "
              f"(target < 2000 ms)")


if __name__ == "__main__":
    main()
