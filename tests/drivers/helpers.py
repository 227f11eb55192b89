"""Small helpers for stepping polled readers with a ManualClock."""

from __future__ import annotations

import queue


def drain(sink: queue.Queue) -> list:  # type: ignore[type-arg]
    """Everything the driver has put on ``sink`` so far."""
    out = []
    while not sink.empty():
        out.append(sink.get_nowait())
    return out


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
