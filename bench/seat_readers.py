"""Six pads at one table (issue 26): the CPU of six idle readers polling, and tap -> frame beside one reader.

1. Poll CPU, no card on any pad, for WALL seconds: four MFRC522s on two SPI buses (two threads, each
   polling its bus's chips in turn) and two PN532s on ptys (a thread each), at the drivers' 10 Hz,
   through the real mfrc522 0.0.7 and pyserial code against the emulators, whose timers run out as the
   chips' do (the MFRC522's ~15.5 ms after an unanswered WUPA; the PN532, since 2026-12-07, answers
   InListPassiveTarget only when a card comes, so its reader thread sleeps on the line). The figure is the CPU time of the readers' own threads (per-thread, from /proc) over
   wall time; the MFRC522 emulator works inside those threads (it is the fake spidev), so its work is
   counted; the PN532 emulators' threads are not (they stand for the chip) and are shown beside.
   Baseline, in the same run: one MFRC522 reader (the single-reader box), measured the same way.
   Target: <= 2 % of a core.

2. Tap -> frame p99, 6 players with ~40 cards in play at 800x480 (SDL's dummy driver), from the
   moment a pad reports the tap to the end of the frame that shows it, as bench/latency.py times it.
   With six readers polling the emulated chips in the background, each tap comes from the acting
   player's seat pad (the seat routing included); the baseline, interleaved in blocks in the same run,
   has one reader polling and taps on the shared pad. The journal is on a real disk. Target: p99 within
   10 % of the one-reader p99.

    ./go shell python bench/seat_readers.py
"""

from __future__ import annotations

import os
import queue
import shutil
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import logging  # noqa: E402

from bench._games import long_script  # noqa: E402
from bench._report import disk_dir, figure, report, thread_cpu_ns  # noqa: E402
from drivers.base import ManualClock, SystemClock  # noqa: E402
from drivers.emulators.mfrc522 import Mfrc522Chip, install_fakes  # noqa: E402
from drivers.emulators.pn532 import Pn532Emulator  # noqa: E402
from drivers.seats import ReaderSet, ReaderSpec, open_readers  # noqa: E402
from drivers.sim import SimButtons, SimReader  # noqa: E402
from table.config import Config, StorageConfig  # noqa: E402
from table.control.assembly import build_table  # noqa: E402
from table.sim.script import parse_script  # noqa: E402
from table.ui.display import Display  # noqa: E402
from table.ui.view import build_view  # noqa: E402

WALL = 10.0                 # seconds per CPU measurement
CPU_TARGET = 2.0            # % of a core, six idle readers
LATENCY_TARGET = 1.10       # six readers' p99 / one reader's p99
ACTIONS = 1500
BLOCK = 50                  # taps per block; the blocks alternate six readers / one reader
CHIPS = ((0, 0, 25), (0, 1, 24), (1, 0, 23), (1, 1, 22))      # SPI bus, CE, reset pin: seats 1-4
ALONE = (2, 0, 27)          # the one-reader baseline's chip, on a bus of its own


class Bench:
    """The emulated chips: four MFRC522s and two PN532s for the six pads, one more MFRC522 for the baseline."""

    def __init__(self, directory: str) -> None:
        hw = install_fakes()
        hw.clear()
        for bus, device, reset in (*CHIPS, ALONE):
            hw.attach(Mfrc522Chip(reset_pin=reset), bus=bus, device=device)
        self.hw = hw
        self.pn532s = [Pn532Emulator(directory=directory) for _ in range(2)]
        for emu in self.pn532s:
            emu.plug()

    def six(self) -> list[ReaderSpec]:
        specs = [ReaderSpec("mfrc522", seat, bus, device, reset) for seat, (bus, device, reset) in enumerate(CHIPS, 1)]
        return specs + [ReaderSpec("pn532", 5 + i, port=emu.path) for i, emu in enumerate(self.pn532s)]

    @staticmethod
    def one() -> list[ReaderSpec]:
        bus, device, reset = ALONE
        return [ReaderSpec("mfrc522", None, bus, device, reset, name="pad")]

    def close(self) -> None:
        for emu in self.pn532s:
            emu.close()


def opened(specs: list[ReaderSpec], sink: queue.Queue) -> ReaderSet:  # type: ignore[type-arg]
    """The readers, started, once every one has reported online."""
    readers = open_readers(specs, sink, clock=SystemClock())
    readers.start()
    deadline, online = time.monotonic() + 10, set()
    while len(online) < len(specs):
        event = sink.get(timeout=max(0.01, deadline - time.monotonic()))
        if getattr(event, "online", False):
            online.add(event.reader)
    return readers


def reader_threads() -> tuple[set[int], set[int]]:
    """The native ids of the readers' polling threads, and of the PN532 emulators' threads."""
    readers = {t.native_id for t in threading.enumerate() if t.name.startswith(("spi", "pn532-seat", "mfrc522-"))
               and t.native_id is not None}
    chips = {t.native_id for t in threading.enumerate() if t.name == "pn532-emulator" and t.native_id is not None}
    return readers, chips


def idle_cpu(specs: list[ReaderSpec]) -> tuple[float, float]:
    """(the readers' threads, the PN532 emulators' threads) as % of a core, over WALL seconds idle."""
    sink: queue.Queue = queue.Queue()  # type: ignore[type-arg]
    readers = opened(specs, sink)
    time.sleep(1.0)                                 # past the start-up
    ours, chips = reader_threads()
    before, wall0 = thread_cpu_ns(os.getpid()), time.monotonic()
    time.sleep(WALL)
    after, wall = thread_cpu_ns(os.getpid()), time.monotonic() - wall0
    readers.close()

    def share(ids: set[int]) -> float:
        return 100 * sum(after.get(i, 0) - before.get(i, 0) for i in ids) / 1e9 / wall

    return share(ours), share(chips)


def p99(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(0.99 * len(values)))]


def tap_to_frame(bench: Bench) -> dict[str, list[float]]:
    """Tap -> frame, seconds, for each tap of the game after the deal: "six" (six readers polling, seat pads)
    and "one" (one reader polling, the shared pad), alternating in blocks of BLOCK taps."""
    state = disk_dir("seats")
    try:
        clock = ManualClock()
        table = build_table(Config(storage=StorageConfig(state_dir=str(state))), clock, seed_source=lambda: 1)
        ctl = table.controller
        display = Display((800, 480), clock=clock.monotonic)
        buttons = SimButtons(table.events, clock=clock)
        script = parse_script("\n".join(long_script(ACTIONS, geared=True)), table.catalog)
        ctl.seats = {seat: f"player-{seat}" for seat in range(1, 7)}   # each player at the seat of their number
        shared = SimReader(table.events, clock=clock)
        pads = {seat: SimReader(table.events, clock=clock, name=f"seat-{seat}", seat=seat) for seat in range(1, 7)}
        display.render(build_view(ctl))
        times: dict[str, list[float]] = {"six": [], "one": []}
        polling: dict[str, ReaderSet] = {}
        background: queue.Queue = queue.Queue()  # type: ignore[type-arg]   # the polling readers' statuses
        taps = 0
        for action in script:
            mode = "six" if (taps // BLOCK) % 2 == 0 else "one"
            if mode not in polling:
                for readers in polling.values():
                    readers.close()
                polling = {mode: opened(bench.six() if mode == "six" else bench.one(), background)}
            clock.advance(3.0)
            shown = ctl.revision
            ctl.tick()
            if ctl.revision != shown or display.wants_frame():
                display.render(build_view(ctl))
            t0 = time.perf_counter()
            if action.verb == "tap":
                seat = next((s for s, p in ctl.seats.items() if p == ctl.acting_player()), None)
                pad = pads[seat] if mode == "six" and seat is not None else shared
                if action.arg.startswith("uid:"):
                    pad.scan(action.arg[4:])
                else:
                    pad.scan_card(action.arg)
                taps += 1
            elif action.verb == "press":
                buttons.press(action.arg)
            else:
                continue
            for event in table.events.drain():
                if ctl.handle(event) is None:
                    continue
                display.render(build_view(ctl))
                if action.verb == "tap":
                    times[mode].append(time.perf_counter() - t0)
        for readers in polling.values():
            readers.close()
        display.close()
        table.journal.close()
        return times
    finally:
        shutil.rmtree(state, ignore_errors=True)


def main() -> None:
    logging.disable(logging.WARNING)
    directory = disk_dir("seat-ptys")
    bench = Bench(str(directory))
    try:
        print(f"six pads: poll CPU, no card, {WALL:.0f} s each, the readers' own threads (the chips' real timers)")
        six, six_chips = idle_cpu(bench.six())
        one, _ = idle_cpu(bench.one())
        cpu = figure("poll CPU of six idle readers (4 MFRC522 on 2 SPI buses, 2 PN532), 10 Hz", six, "% of a core",
                     baseline=one, baseline_is="one idle MFRC522 reader, measured the same way",
                     target=f"<= {CPU_TARGET:g} % of a core", met=six <= CPU_TARGET,
                     details={"pn532_emulator_threads_percent": round(six_chips, 3), "seconds": WALL})
        print("six pads: tap -> frame, 6 players, ~40 cards in play, 800x480, dummy driver")
        times = tap_to_frame(bench)
        six_p99, one_p99 = 1000 * p99(times["six"]), 1000 * p99(times["one"])
        latency = figure("tap -> frame p99 with six readers polling (seat pads), 800x480 dummy", six_p99, "ms",
                         baseline=one_p99, baseline_is="one reader polling, the shared pad, interleaved in blocks",
                         target=f"ratio <= {LATENCY_TARGET:g}", met=six_p99 <= LATENCY_TARGET * one_p99,
                         details={"taps": {k: len(v) for k, v in times.items()},
                                  "median_ms": {k: round(1000 * sorted(v)[len(v) // 2], 2) for k, v in times.items()}})
        report("seat_readers", [cpu, latency])
    finally:
        bench.close()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
