"""CPU cost of polling an MFRC522 with no card, and the delay from a card entering the field to its Tap.

Everything runs the real mfrc522 0.0.7 code against the register-level emulator
(drivers.emulators.mfrc522), so the figures count Python work per SPI transfer
on this machine, not the bus time of a real 1 MHz SPI link; the emulator's own
work is inside them. Compare the rows with each other, not with a Pi.

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

from drivers.emulators.mfrc522 import Card, Mfrc522Chip, install_fakes  # noqa: E402
from drivers.mfrc522_spi import Mfrc522Reader  # noqa: E402

WALL = 3.0  # seconds per CPU measurement


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


def simple_read_loop():
    """SimpleMFRC522.read()'s loop, bounded: read_no_block() back to back until the deadline."""
    hw, chip = fresh_chip()  # RPi.GPIO mode unset: 0.0.7 picks BOARD, reset = BOARD 22 = BCM 25
    from mfrc522 import SimpleMFRC522

    simple = SimpleMFRC522()

    def run(deadline):
        n = 0
        while time.monotonic() < deadline:
            simple.read_no_block()
            n += 1
        return n

    start = chip.transfers
    share, n = cpu_share(run)
    return share, (chip.transfers - start) / n, n


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
    print(f"MFRC522 poll, no card, {WALL:.0f} s each, CPU time / wall time of this process (1.00 = one core busy)")
    share, per_poll = ours_idle()
    print(f"  ours: Mfrc522Reader thread at 10 Hz           CPU {share:6.1%}   {per_poll:7.0f} SPI transfers per poll")
    share, per_poll = library_request_at_10hz()
    print(f"  0.0.7 MFRC522_Request() at 10 Hz              CPU {share:6.1%}   {per_poll:7.0f} SPI transfers per poll")
    share, per_call, n = simple_read_loop()
    print(f"  SimpleMFRC522.read() loop (read_no_block)     CPU {share:6.1%}   {per_call:7.0f} SPI transfers per call, {n} calls")
    delays = latency()
    ms = [d * 1000 for d in delays]
    print(f"card entering the field -> Tap, {len(ms)} trials at 10 Hz polling:"
          f" median {statistics.median(ms):.0f} ms, mean {statistics.mean(ms):.0f} ms, max {max(ms):.0f} ms")


if __name__ == "__main__":
    main()
