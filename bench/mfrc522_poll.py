"""CPU cost of polling an MFRC522 with no card (target <= 1 % of a core), and the delay from a card
entering the field to its Tap.

Everything runs the real mfrc522 0.0.7 code against the register-level emulator
(drivers.emulators.mfrc522), whose timer runs out as the chip's does (about 15.5 ms after an
unanswered frame with MFRC522_Init's set-up), so the figures count Python work per SPI transfer
on this machine, not the bus time of a real 1 MHz SPI link; the emulator's own work is inside
them. Baseline, in the same run: a thread that only wakes at the same 10 Hz (the floor of any
poll loop). The library's own MFRC522_Request() at 10 Hz is recorded beside it.

    ./go shell python bench/mfrc522_poll.py
"""

from __future__ import annotations

import os
import queue
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench._report import figure, report  # noqa: E402
from drivers.emulators.mfrc522 import Card, Mfrc522Chip, install_fakes  # noqa: E402
from drivers.mfrc522_spi import Mfrc522Reader  # noqa: E402

WALL = 10.0  # seconds per CPU measurement
TARGET = 1.0  # % of a core


def cpu_share(run, seconds=WALL):
    """Run ``run(deadline)``; return (CPU seconds / wall seconds, its result)."""
    wall0, cpu0 = time.monotonic(), time.process_time()
    result = run(wall0 + seconds)
    wall, cpu = time.monotonic() - wall0, time.process_time() - cpu0
    return cpu / wall, result


def fresh_chip():
    hw = install_fakes()
    hw.clear()
    return hw, hw.attach(Mfrc522Chip(reset_pin=25))


def ours_idle():
    _, chip = fresh_chip()
    reader = Mfrc522Reader(queue.Queue())

    def run(deadline):
        reader.start()
        time.sleep(max(deadline - time.monotonic(), 0))
        reader.close()

    start = chip.transfers
    share, _ = cpu_share(run)
    polls = WALL / reader.poll_interval
    return share, (chip.transfers - start) / polls


def library_request_at_10hz():
    _, chip = fresh_chip()
    import RPi.GPIO as GPIO
    from mfrc522 import MFRC522

    GPIO.setmode(GPIO.BCM)
    lib = MFRC522(pin_rst=25)

    def run(deadline):
        n = 0
        while time.monotonic() < deadline:
            lib.MFRC522_Request(lib.PICC_REQIDL)
            n += 1
            time.sleep(0.1)
        return n

    start = chip.transfers
    share, n = cpu_share(run)
    return share, (chip.transfers - start) / n


def floor_at_10hz():
    """A thread that wakes at 10 Hz and does nothing: what any 10 Hz poll loop costs at least."""
    stop = threading.Event()

    def loop():
        while not stop.wait(0.1):
            pass

    def run(deadline):
        thread = threading.Thread(target=loop, daemon=True)
        thread.start()
        time.sleep(max(deadline - time.monotonic(), 0))
        stop.set()
        thread.join()

    share, _ = cpu_share(run)
    return share


def latency(trials=12):
    _, chip = fresh_chip()
    sink = queue.Queue()
    delays = []
    with Mfrc522Reader(sink) as reader:
        assert sink.get(timeout=5).online
        for i in range(trials):
            time.sleep(0.137 * (i % 5) / 5 + 0.05)  # enter at different points of the poll cycle
            card = Card(f"04{i:02X}B2C3D4E5F6")
            entered = time.monotonic()
            chip.present(card)
            tap = sink.get(timeout=5)
            delays.append(time.monotonic() - entered)
            assert tap.uid == card.uid.hex().upper()
            chip.present(None)
            time.sleep(reader.presence.removal_time + 0.15)
    return delays


def main():
    print(f"MFRC522 poll, no card, {WALL:.0f} s each, CPU time / wall time of this process (the chip's 15 ms timer)")
    share, per_poll = ours_idle()
    floor = floor_at_10hz()
    library, library_per_poll = library_request_at_10hz()
    ms = [d * 1000 for d in latency()]
    details = {"spi_transfers_per_poll": round(per_poll, 1), "library_request_10hz_percent": round(100 * library, 3),
               "library_spi_transfers_per_poll": round(library_per_poll, 1),
               "card_to_tap_ms": {"median": round(statistics.median(ms)), "mean": round(statistics.mean(ms)),
                                  "max": round(max(ms)), "trials": len(ms)}}
    report("mfrc522_poll", [figure("MFRC522 poll CPU, no card, 10 Hz, the chip's ~15 ms timer", 100 * share, "% of a core",
                                   baseline=100 * floor, baseline_is="a thread waking at 10 Hz doing nothing",
                                   target=f"<= {TARGET:g} % of a core", met=100 * share <= TARGET, details=details)])
    print(f"  (0.0.7's MFRC522_Request() at 10 Hz: {100 * library:.2f} % of a core; card entering the field -> Tap: "
          f"median {statistics.median(ms):.0f} ms, max {max(ms):.0f} ms)")


if __name__ == "__main__":
    main()
