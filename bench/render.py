"""Render time per frame at 800x480 and 1920x1080 (SDL dummy driver), busiest screens.

    .venv/bin/python bench/render.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

from drivers.base import ManualClock  # noqa: E402
from drivers.sim import SimButtons, SimReader  # noqa: E402
from table.config import parse_config  # noqa: E402
from table.display import Display  # noqa: E402
from table.scenes import SCENES  # noqa: E402
from table.script import parse_script  # noqa: E402
from table.simulate import perform  # noqa: E402
from table.view import build_view  # noqa: E402
from table.wiring import build_table  # noqa: E402

FRAMES = 60


def bench(scene: str, size: tuple[int, int], language: str) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        config = parse_config({"display": {"width": size[0], "height": size[1], "language": language}})
        clock = ManualClock()
        table = build_table(config, clock, state_dir=Path(tmp), seed_source=lambda: 1)
        reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
        for action in parse_script(SCENES[scene], table.catalog):
            perform(action, table, reader, buttons, clock)
        display = Display(size, language=language)
        t0 = time.perf_counter()
        display.render(build_view(table.controller, language=language))       # cold text cache
        cold = time.perf_counter() - t0
        times = []
        for _ in range(FRAMES):
            t0 = time.perf_counter()
            view = build_view(table.controller, language=language)
            t1 = time.perf_counter()
            display.render(view)
            times.append((t1 - t0, time.perf_counter() - t1))
        display.close()
        table.journal.close()
    view_ms = 1000 * sorted(t[0] for t in times)[FRAMES // 2]
    render_ms = 1000 * sorted(t[1] for t in times)[FRAMES // 2]
    return cold * 1000, view_ms, render_ms


def main() -> int:
    print(f"{'screen':<14}{'lang':<6}{'size':<11}{'first frame':>12}{'build_view':>12}{'render':>10}   (median of {FRAMES}, ms)")
    for size in [(800, 480), (1920, 1080)]:
        for scene in ["table", "combat", "run-away", "game-over"]:
            for language in ["en", "zh"]:
                cold, view_ms, render_ms = bench(scene, size, language)
                print(f"{scene:<14}{language:<6}{size[0]}x{size[1]:<6}{cold:>12.1f}{view_ms:>12.2f}{render_ms:>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
