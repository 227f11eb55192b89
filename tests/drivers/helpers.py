"""Small helpers for stepping polled readers with a ManualClock."""

from __future__ import annotations

import queue
import threading

UID4 = "04A1B2C3"               # a 4-byte UID and a 7-byte one, as the emulated readers present them
UID7 = "04A1B2C3D4E5F6"


def drain(sink: queue.Queue) -> list:  # type: ignore[type-arg]
    """Everything the driver has put on ``sink`` so far."""
    out = []
    while not sink.empty():
        out.append(sink.get_nowait())
    return out


def switches(thread: threading.Thread) -> int:
    """The thread's context switches so far (each wake-up ends in one), from /proc."""
    total = 0
    with open(f"/proc/self/task/{thread.native_id}/status") as f:
        for line in f:
            if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                total += int(line.split()[1])
    return total


def polls(reader, clock, seconds: float, step: float = 0.1) -> None:  # type: ignore[no-untyped-def]
    """Let ``reader`` poll every ``step`` seconds for ``seconds`` of simulated time."""
    for _ in range(round(seconds / step)):
        reader.poll_once()
        clock.advance(step)


def until(test, timeout: float = 5.0, what: str = ""):  # type: ignore[no-untyped-def]
    """Wait (in 20 ms steps) until ``test()`` is true, and return it; fail after ``timeout`` seconds."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = test()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"not within {timeout} s: {what or test}")
