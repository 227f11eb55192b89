"""The Pi-class bench's game (bench/boot/pitime.py) replayed on this machine, tap by tap, through
the framebuffer path the booted box takes (``FbdevDisplay`` on SDL's dummy driver, a regular file
standing in for /dev/fb0): where a tap's time goes, in seconds before the ~8 minutes a guest run
takes. Not a figure of the design's: the fast loop of issue 48 ("Pi-class time").

Each tap is handled as the run loop handles it (the controller, the journal's commit on a real
disk, its sync on a thread beside ``build_view`` and ``render``, the push), timed on the wall clock and by this thread's CPU;
between taps the game's clock moves on the bench's 1.2 s (the tag rests 0.5 s and is off 0.7 s),
the loop's ticks and tidy run untimed. NEXT, which the guest's bench gives with ``simulate`` and a
restart, is a press here.

    ./go shell python bench/pitime_host.py [800x480|1920x1080] [--profile FILE] [--taps N] [--slowest N]

``--profile FILE``: cProfile over the timed taps alone (``python -m pstats FILE``), or over the taps
``--only a,b,c`` (numbered as ``--slowest`` prints them); ``--slowest``
prints the N slowest taps with the card tapped and the screen before and after.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame  # noqa: E402

from bench._report import disk_dir  # noqa: E402
from bench.boot.pitime import GAP_S, HOLD_S, tap_game  # noqa: E402
from drivers.base import ManualClock  # noqa: E402
from drivers.sim import SimButtons, SimReader  # noqa: E402
from table.app.heap import collect_while_idle, settle  # noqa: E402
from table.app.rehearsal import rehearse  # noqa: E402
from table.app.syncahead import SyncAhead  # noqa: E402
from table.config import parse_config  # noqa: E402
from table.control.assembly import build_table  # noqa: E402
from table.ui.fbdev import FbdevDisplay, Framebuffer  # noqa: E402
from table.ui.view import build_view  # noqa: E402


def fake_framebuffer(where: Path, size: tuple[int, int]) -> Framebuffer:
    """A regular file the size of an XRGB8888 framebuffer of ``size``, with its sysfs folder."""
    w, h = size
    device, sysfs = where / "fb0", where / "sys-fb0"
    sysfs.mkdir()
    (sysfs / "virtual_size").write_text(f"{w},{h}\n")
    (sysfs / "bits_per_pixel").write_text("32\n")
    (sysfs / "stride").write_text(f"{w * 4}\n")
    device.write_bytes(bytes(w * h * 4))
    return Framebuffer(device, sysfs)


class TimedFbdev(FbdevDisplay):
    """The framebuffer's Display, its last push timed (CPU seconds of this thread)."""

    pushed_s = 0.0

    def push(self, dirty: list[pygame.Rect] | None) -> None:
        started = time.thread_time()
        super().push(dirty)
        self.pushed_s = time.thread_time() - started


Tapped = tuple[float, float, str, str, float, float, float, float]


def replay(size: tuple[int, int], *, taps: int, profiler: cProfile.Profile | None,
           only: set[int] | None = None) -> list[Tapped]:
    """Long: the game, one timed tap at a time: (wall s, CPU s, the card, the phase shown, and the
    CPU seconds of its handling, build_view, render, of which the push) per tap."""
    state = disk_dir("pitime-host")
    scratch = Path(tempfile.mkdtemp(prefix="pitime-fb-"))
    try:
        config = parse_config({"display": {"width": size[0], "height": size[1], "sound": False}})
        clock = ManualClock()
        table = build_table(config, clock, state_dir=state, seed_source=lambda: 1)
        ctl = table.controller
        display = TimedFbdev(size, framebuffer=fake_framebuffer(scratch, size), clock=clock.monotonic)
        reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
        sync = SyncAhead(ctl)
        display.render(build_view(ctl))
        if rehearse(config, display, ctl.catalog, "en", lambda: False):     # as the run loop does before the first tap
            display.render(build_view(ctl))
        settle()
        joins, rest = tap_game()
        out: list[Tapped] = []
        actions = [("tap", c) for c in joins] + [("press", "next")] + [("tap", c) for c in rest[:taps]]
        for verb, arg in actions:
            clock.advance(HOLD_S + GAP_S)
            shown = ctl.revision
            ctl.tick()
            if ctl.revision != shown or display.wants_frame():
                display.render(build_view(ctl))
            if not display.wants_frame():
                display.tidy()
                collect_while_idle()
            if verb == "press":
                buttons.press(arg)
            else:
                reader.scan_card(arg)
            wall0, cpu0 = time.perf_counter(), time.thread_time()
            profiling = profiler is not None and verb == "tap" and (only is None or len(out) in only)
            if profiler is not None and profiling:
                profiler.enable()
            for event in table.events.drain():
                ctl.handle(event)
            ctl.tick()
            syncing = sync.start()          # the commit's sync beside the drawing, as in the run loop
            handled = time.thread_time()
            view = build_view(ctl)
            viewed = time.thread_time()
            display.render(view, ready=lambda: sync.settle(syncing))
            rendered = time.thread_time()
            if profiler is not None and profiling:
                profiler.disable()
            if verb == "tap":
                out.append((time.perf_counter() - wall0, rendered - cpu0, arg, str(ctl.state.phase).split(".")[-1].lower(),
                            handled - cpu0, viewed - handled, rendered - viewed, display.pushed_s))
        display.close()
        sync.close()
        table.journal.close()
        return out
    finally:
        shutil.rmtree(state, ignore_errors=True)
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench/pitime_host.py")
    parser.add_argument("size", nargs="?", default="800x480")
    parser.add_argument("--profile", type=Path)
    parser.add_argument("--taps", type=int, default=10_000)
    parser.add_argument("--slowest", type=int, default=0)
    parser.add_argument("--only", default="", help="with --profile: only these taps (numbers as --slowest prints them, a,b,c)")
    args = parser.parse_args(argv)
    w, h = (int(v) for v in args.size.split("x"))
    profiler = cProfile.Profile() if args.profile else None
    only = {int(n) for n in args.only.split(",")} if args.only else None
    taps = replay((w, h), taps=args.taps, profiler=profiler, only=only)
    if profiler is not None:
        profiler.dump_stats(args.profile)
    wall = sorted(t[0] for t in taps)
    cpu = sorted(t[1] for t in taps)

    def q(values: list[float], share: float) -> float:
        return values[min(len(values) - 1, int(share * len(values)))] * 1000

    print(f"{args.size}: {len(taps)} taps: wall p50 {q(wall, .5):.2f} ms, p99 {q(wall, .99):.2f} ms, "
          f"max {wall[-1] * 1000:.2f} ms; CPU p50 {q(cpu, .5):.2f} ms, p99 {q(cpu, .99):.2f} ms, "
          f"mean {statistics.mean(cpu) * 1000:.2f} ms")
    parts = [statistics.mean(t[i] for t in taps) * 1000 for i in (4, 5, 6, 7)]
    print("  CPU means: handling {:.2f} ms, build_view {:.2f} ms, render {:.2f} ms (its push {:.2f} ms)".format(*parts))
    for n, (wall_s, cpu_s, card, phase, *split) in sorted(enumerate(taps), key=lambda t: -t[1][1])[:args.slowest]:
        print(f"  tap {n:3d} {card:32s} -> {phase:18s} wall {wall_s * 1000:6.2f} ms, CPU {cpu_s * 1000:6.2f} ms: "
              + ", ".join(f"{v * 1000:.2f}" for v in split))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
