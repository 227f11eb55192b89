"""Tap or press to the frame that shows it, p99, and peak memory: 6 players with ~40 cards in play.

A scripted 6-player game runs through the simulated drivers, with its journal on a real disk, as
the run loop runs it: the scratch game rehearsed off the glass before the first tap
(table/app/rehearsal.py), and each accepted action committed, then synced by one fdatasync of the WAL
on a thread of its own while its frame is drawn, the frame pushed once that sync has returned
(table/app/syncahead.py). After the deal (every race
and class and most items dealt round the table, ~40 cards in play), each tap or press is timed on
the wall clock from the moment the driver reports it to the end of the flip of the frame that
shows it. The game's own clock (interference windows, the die's tumble) moves on
SECONDS_BETWEEN_TAPS between taps, as at a table where taps come seconds apart; the frames that
ticking brings (a window closing) are drawn untimed, as the main loop draws them.

Baseline, in the same run and interleaved: each tap is drawn either way at random (seeded), kept
panels pushed as the rectangles they drew (under X11 the whole window when those would cost the
server more: ``Display.push``), or every panel drawn and the whole window flipped, so
both halves have the same mix of taps and see the same disk and the same neighbours on the CPU.
Each size is played PASSES times, each game in a process of its own, and the timed taps of the
games are pooled (~1,700 each way: the p99 is the 17th slowest, which a few stalls move less); the
memory figure is the higher of the games' peaks, each its own.

Every size runs twice: under SDL's dummy driver (where pushing a frame costs nothing) and at the
glass, through a real display server (Xvfb started for the run, ``SDL_VIDEODRIVER=x11``); without
Xvfb that half says "skipped: no Xvfb". The panel cache's hits, misses and repaints (kept panels
drawn again inside an overlay's rectangle: counted against the hit rate) are per timed tap; of the
hits, those blitted from the panel store (a panel that had left the screen, back showing the same)
are also counted on their own, and so are the screens put back as they were left (a kept scene).
The way the frame puts flat colour down on this machine (``Solids``: SDL's fill or blits from a band,
measured on the first frames) is printed with the rest. Beside the disk's own fdatasync, the journal's commit of each accepted action of the timed taps
(``Journal.append``: the action and its facts, committed; their sync runs beside the drawing) is
printed as p50 and p99.

    ./go shell python bench/latency.py                  # both sizes, both drivers
    ./go shell python bench/latency.py 1920x1080        # one size, in this process's driver
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import logging  # noqa: E402

import pygame  # noqa: E402

from bench._games import geared_script, long_script  # noqa: E402
from bench._report import disk_dir, figure, filesystem_of, report  # noqa: E402
from bench._xvfb import each_display  # noqa: E402
from drivers.base import ManualClock  # noqa: E402
from drivers.sim import SimButtons, SimReader  # noqa: E402
from table.config import Config, StorageConfig  # noqa: E402
from table.ui.display import Display, merged  # noqa: E402
from table.sim.script import parse_script  # noqa: E402
from table.ui.view import build_view  # noqa: E402
from table.control.assembly import build_table  # noqa: E402
from table.app.heap import collect_while_idle, settle  # noqa: E402
from table.app.rehearsal import rehearse  # noqa: E402
from table.app.syncahead import SyncAhead  # noqa: E402

ACTIONS = 1800                # ~850 timed taps each way (437 at 900): a p99 that one fsync stall moves less
SECONDS_BETWEEN_TAPS = 3.0    # past the 2.6 s interference window and the die's 0.6 s
TARGETS_MS = {(1920, 1080): 16.7, (800, 480): 8.0}
RATIO_TARGET = {(1920, 1080): 0.5}           # to the full-flip baseline, at the glass
MEMORY_TARGET_MB = {"dummy": 80, "x11": 100}
HIT_RATE_TARGET = 0.8
PASSES = 2                    # games per size, each in a process of its own, their timed taps pooled
POOLED = ("kept", "full", "cpu", "pushed", "redrawn", "syncs", "commits", "drawn_kept", "drawn_full")
SUMMED = ("hits", "misses", "repaints", "moves", "scenes", "accepted", "refused")


def p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def rss_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def disk_sync_ms(where: Path, n: int = 200) -> list[float]:
    """The disk's own fdatasync of one 4 KB write, ``n`` times 5 ms apart, in ms: what a journaled tap
    waits for at least, measured where the journal lies, before the game."""
    path = where / "sync-probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    out = []
    try:
        for _ in range(n):
            os.write(fd, b"x" * 4096)
            t = time.perf_counter()
            os.fdatasync(fd)
            out.append((time.perf_counter() - t) * 1000)
            time.sleep(0.005)
    finally:
        os.close(fd)
        path.unlink()
    return out


def run(size: tuple[int, int]) -> dict[str, object]:
    state = disk_dir("latency")
    try:
        syncs = disk_sync_ms(Path(state))
        clock = ManualClock()
        table = build_table(Config(storage=StorageConfig(state_dir=str(state))), clock, seed_source=lambda: 1)
        ctl = table.controller
        commits: list[float] = []           # the journal's own commit of each action a timed tap made, s
        timing = [False]                    # inside a timed tap's handling (not the loop's ticks, not the deal)
        journal_append = table.journal.append

        def timed_append(*args: Any, **kw: Any) -> None:
            started = time.perf_counter()
            journal_append(*args, **kw)
            if timing[0]:
                commits.append(time.perf_counter() - started)

        table.journal.append = timed_append              # type: ignore[method-assign]
        display = Display(size, clock=clock.monotonic)
        reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
        script = parse_script("\n".join(long_script(ACTIONS, geared=True)), table.catalog)
        deal = len(parse_script("\n".join(geared_script()), table.catalog))
        display.render(build_view(ctl))
        if rehearse(table.config, display, ctl.catalog, "en", lambda: False):    # as the running table does
            display.render(build_view(ctl))
        sync = SyncAhead(ctl)                            # the commit's sync beside the frame, as in the run loop
        settle()                                         # as the running table does once it has started
        start_rss = rss_mb()
        kept: list[float] = []
        full: list[float] = []
        cpu: list[float] = []
        cache = [0, 0, 0, 0, 0]           # hits, misses, repaints, moves, scenes over the timed kept taps
        pushed: list[float] = []          # the share of the window each timed kept tap pushed
        redrawn: list[float] = []         # and the share it drew afresh or put back (its dirty rectangles)
        drawing: dict[bool, list[float]] = {True: [], False: []}   # the render and push alone, kept / full
        area = display.window.get_width() * display.window.get_height()
        accepted = refused = 0
        pick = random.Random(7)
        for n, action in enumerate(script):
            clock.advance(SECONDS_BETWEEN_TAPS)
            shown = ctl.revision
            display.cache_enabled = True                 # the loop's own frames keep panels, as the app's do
            ctl.tick()
            if ctl.revision != shown or display.wants_frame():
                display.render(build_view(ctl))          # what the loop draws between taps, untimed
            if not display.wants_frame():
                display.tidy()                           # what the loop does before it sleeps, untimed
                collect_while_idle()
            t0 = time.perf_counter()
            if action.verb == "tap":
                reader.scan_card(action.arg)
            elif action.verb == "press":
                buttons.press(action.arg)
            else:
                continue                                 # waits: the real clock runs on its own
            for event in table.events.drain():
                measured = n >= deal
                display.cache_enabled = not measured or pick.random() < 0.5
                cpu0 = time.thread_time()
                journaled = ctl.history_len
                timing[0] = measured
                handled = ctl.handle(event)
                timing[0] = False
                if handled is None:
                    continue
                before = (display.cache_hits, display.cache_misses, display.cache_repaints, display.cache_moves,
                          display.cache_scenes)
                syncing = sync.start()
                view = build_view(ctl)
                t1 = time.perf_counter()
                display.render(view, ready=lambda: sync.settle(syncing))
                done = time.perf_counter()
                if measured:
                    (kept if display.cache_enabled else full).append(done - t0)
                    drawing[display.cache_enabled].append(done - t1)
                    accepted += ctl.history_len != journaled
                    refused += ctl.history_len == journaled
                    if display.cache_enabled:
                        cpu.append(time.thread_time() - cpu0)
                        now = (display.cache_hits, display.cache_misses, display.cache_repaints, display.cache_moves,
                               display.cache_scenes)
                        cache = [c + n - b for c, n, b in zip(cache, now, before)]
                        rects = display.pushed
                        pushed.append(1.0 if rects is None else sum(r.w * r.h for r in rects) / area)
                        dirty = display.frame.dirty
                        redrawn.append(1.0 if dirty is None else sum(r.w * r.h for r in merged(dirty)) / area)
        cards = sum(len(pl.equipped) + len(pl.carried) + len(pl.curses) + len(pl.races) + len(pl.classes)
                    for pl in ctl.state.players)
        driver = pygame.display.get_driver()
        solids = display.frame.solids.way
        display.close()
        sync.close()
        table.journal.close()
        return {"kept": kept, "full": full, "cpu": cpu, "start_rss": start_rss, "cards": cards, "state": str(state),
                "filesystem": filesystem_of(state), "hits": cache[0], "misses": cache[1], "repaints": cache[2], "moves": cache[3],
                "scenes": cache[4],
                "pushed": pushed, "redrawn": redrawn, "drawing": drawing, "accepted": accepted, "refused": refused, "driver": driver,
                "syncs": syncs, "commits": commits, "solids": solids}
    finally:
        shutil.rmtree(state, ignore_errors=True)


def one_game(size: tuple[int, int], out: Path) -> None:
    """Play the game once at ``size`` and write what it measured (and this process's peak) to ``out``."""
    r = run(size)
    drawing: dict[bool, list[float]] = r.pop("drawing")   # type: ignore[assignment]
    r["drawn_kept"], r["drawn_full"] = drawing[True], drawing[False]
    r["peak_rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.write_text(json.dumps(r))


def pooled(arg: str) -> dict[str, Any]:
    """The game played PASSES times at ``arg`` (WxH), each in a process of its own (this one's
    driver and display), their timed taps pooled, their counts summed, the higher peak kept."""
    games = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(PASSES):
            out = Path(tmp) / f"game-{n}.json"
            subprocess.run([sys.executable, __file__, arg, "--game", str(out)], check=True)
            games.append(json.loads(out.read_text()))
    r = dict(games[0])
    for key in POOLED:
        r[key] = [x for g in games for x in g[key]]
    for key in SUMMED:
        r[key] = sum(g[key] for g in games)
    r["peak_rss"] = max(g["peak_rss"] for g in games)
    r["start_rss"] = max(g["start_rss"] for g in games)
    r["drawing"] = {True: r.pop("drawn_kept"), False: r.pop("drawn_full")}
    return r


def main() -> None:
    logging.disable(logging.WARNING)
    if len(sys.argv) == 1:           # each size on its own, its games in processes of their own
        for _driver, env in each_display("latency"):
            for arg in ("800x480", "1920x1080"):
                subprocess.run([sys.executable, __file__, arg], check=True, env=env)
        return
    width, height = (int(n) for n in sys.argv[1].split("x"))
    size = (width, height)
    if sys.argv[2:3] == ["--game"]:
        one_game(size, Path(sys.argv[3]))
        return
    r = pooled(sys.argv[1])
    driver = str(r["driver"])
    kept, full = [x * 1000 for x in r["kept"]], [x * 1000 for x in r["full"]]
    target = TARGETS_MS[size]
    value, base = p(kept, 0.99), p(full, 0.99)
    hits, misses, repaints = int(r["hits"]), int(r["misses"]), int(r["repaints"])
    moves = int(r["moves"])
    drawn = hits + misses
    rate = (hits - repaints) / drawn if drawn else 0.0
    pushed: list[float] = r["pushed"]
    details = {"driver": driver, "taps": len(kept), "baseline_taps": len(full), "p50_ms": p(kept, 0.5),
               "baseline_p50_ms": p(full, 0.5),
               "max_ms": max(kept), "cpu_p99_ms": p([c * 1000 for c in r["cpu"]], 0.99),
               "cards_in_play": r["cards"], "players": 6, "state_filesystem": r["filesystem"],
               "journaled_taps": r["accepted"], "taps_not_journaled": r["refused"],
               "panel_cache_hits_per_tap": hits / len(kept), "panel_cache_misses_per_tap": misses / len(kept),
               "panel_cache_repaints_per_tap": repaints / len(kept), "panel_cache_hit_rate": rate,
               "panel_cache_blitted_from_store_per_tap": moves / len(kept),
               "screens_put_back_as_left_per_tap": int(r["scenes"]) / len(kept),
               "window_share_pushed_p50": p(pushed, 0.5),
               "window_share_drawn_p50": p(r["redrawn"], 0.5),
               "render_and_push_p99_ms": p([x * 1000 for x in r["drawing"][True]], 0.99),
               "baseline_render_and_push_p99_ms": p([x * 1000 for x in r["drawing"][False]], 0.99),
               "taps_flipped_in_full": sum(x >= 1.0 for x in pushed),
               "flat_colour_by": r["solids"],
               "disk_fdatasync_p50_ms": p(r["syncs"], 0.5), "disk_fdatasync_p99_ms": p(r["syncs"], 0.99),
               "journal_commit_p50_ms": p([x * 1000 for x in r["commits"]], 0.5),
               "journal_commit_p99_ms": p([x * 1000 for x in r["commits"]], 0.99)}
    label = f"{width}x{height}, {driver}"
    print(f"latency {label}: 6 players, {r['cards']} cards in play, journal on {r['filesystem']}, "
          f"{len(kept)} + {len(full)} taps; drawing and pushing alone p99 {details['render_and_push_p99_ms']:.2f} ms "
          f"(full: {details['baseline_render_and_push_p99_ms']:.2f} ms), flat colour by {r['solids']}, p50 share of the window pushed "
          f"{details['window_share_pushed_p50']:.2f} (drawn {details['window_share_drawn_p50']:.2f}); the disk's own fdatasync p50 {details['disk_fdatasync_p50_ms']:.2f}, "
          f"p99 {details['disk_fdatasync_p99_ms']:.2f} ms; the journal's commit of an action p50 "
          f"{details['journal_commit_p50_ms']:.2f}, p99 {details['journal_commit_p99_ms']:.2f} ms")
    ratio_target = RATIO_TARGET.get(size) if driver == "x11" else None
    met = value <= target and (ratio_target is None or value <= ratio_target * base)
    figures = [figure(f"tap -> frame p99, {label}", value, "ms", baseline=base,
                      baseline_is="the same game, every panel drawn and the window flipped in full, on taps picked at random",
                      target=f"<= {target} ms" + (f", ratio <= {ratio_target}" if ratio_target else ""),
                      met=met, details=details),
               figure(f"panel cache hit rate, {label}", rate * 100, "%", baseline=100.0 * misses / drawn if drawn else 0.0,
                      baseline_is="misses, % of the panels drawn; repaints under an overlay count against hits",
                      target=f">= {HIT_RATE_TARGET:.0%}", met=rate >= HIT_RATE_TARGET,
                      details={"hits_per_tap": round(hits / len(kept), 2), "misses_per_tap": round(misses / len(kept), 2),
                               "repaints_per_tap": round(repaints / len(kept), 2),
                               "of_the_hits_blitted_from_the_store_per_tap": round(moves / len(kept), 2)})]
    peak = float(r["peak_rss"])
    if size == (1920, 1080):
        memory = MEMORY_TARGET_MB.get(driver, 80)
        figures.append(figure(f"peak RSS, {label}", peak, "MB", baseline=float(r["start_rss"]),
                              baseline_is="resident after start and first frame", target=f"<= {memory} MB",
                              met=peak <= memory))
    else:
        details["peak_rss_mb"] = peak
    report(f"latency-{width}x{height}-{driver}", figures, command="./go shell python bench/latency.py")


if __name__ == "__main__":
    main()
