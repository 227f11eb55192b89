"""An opt-in trace of the run loop's timing: when each tap came from its reader and when the frame
that shows it was pushed, and when the first frame was, on the table's own monotonic clock.

Off unless ``MUNCHKIN_FRAME_TRACE`` names a file in the table's environment; when off, the loop
asks one ``is None`` per pass. The Pi-class bench (bench/boot/pitime.py) turns it on in the booted
image only, through the guest kernel's command line (``systemd.setenv=``), and reads the file: under
instruction-counted emulation the guest's clock is the emulated core's, so these times are that
core's. One line each, times in seconds of ``time.monotonic()`` (CLOCK_MONOTONIC, as systemd's
``...TimestampMonotonic`` are in microseconds):

    first PUSHED                  the first frame was pushed
    frame PUSHED AT [AT ...]      a frame was pushed; AT: each tap handled in the pass that drew it
    pass WALL CPU                 after a frame line: that pass from its wake-up to the push, and
                                  the main thread's own CPU time in it (``time.thread_time``); the
                                  difference is what it waited for (the journal's fsync, other threads)
    steps NAME WALL CPU ...       after a pass line: the pass's steps in order (handled, viewed,
                                  drawn, synced, pushed), each step's wall and CPU time since the
                                  one before (the first since the wake-up)
    unshown AT [AT ...]           taps handled in a pass that drew no frame
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Mapping
from typing import TextIO

log = logging.getLogger(__name__)

ENVIRONMENT = "MUNCHKIN_FRAME_TRACE"


class FrameTrace:
    """Where the loop notes its taps and frames; one line written per frame that showed a tap."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.taps: list[float] = []        # the taps of the pass under way, by their readers' time
        self.started: tuple[float, float] | None = None     # the pass's wake-up: monotonic, thread CPU
        self.steps: list[tuple[str, float, float]] = []      # the pass's steps so far: name, monotonic, CPU

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> FrameTrace | None:
        """The trace the environment asks for; None when it asks for none or the file cannot be
        opened (said in the log: the table runs on without it)."""
        path = environ.get(ENVIRONMENT)
        if not path:
            return None
        try:
            stream = open(path, "a", buffering=1, encoding="ascii")      # a line at a time
        except OSError as exc:
            log.warning("%s=%s: no frame trace: %s", ENVIRONMENT, path, exc.strerror or exc)
            return None
        log.info("frame trace in %s", path)
        return cls(stream)

    def first(self, pushed: float) -> None:
        self._write(f"first {pushed:.6f}")

    def tapped(self, at: float) -> None:
        self.taps.append(at)

    def woke(self, at: float, cpu: float) -> None:
        """A pass of the loop begins (``at`` on the monotonic clock, ``cpu`` the thread's CPU time)."""
        self.started = (at, cpu)
        self.steps = []

    def step(self, name: str) -> None:
        """The pass under way reached ``name`` (one word): timed now, written with its pass line."""
        if self.started is not None:
            self.steps.append((name, time.monotonic(), time.thread_time()))

    def passed(self, pushed: float | None, cpu: float | None = None) -> None:
        """A pass of the loop ended, its frame pushed at ``pushed`` (None: it drew none), the
        thread's CPU time then ``cpu``."""
        if not self.taps:
            return
        taps = " ".join(f"{at:.6f}" for at in self.taps)
        self.taps.clear()
        self._write(f"frame {pushed:.6f} {taps}" if pushed is not None else f"unshown {taps}")
        if pushed is not None and cpu is not None and self.started is not None:
            self._write(f"pass {pushed - self.started[0]:.6f} {cpu - self.started[1]:.6f}")
            if self.steps:
                self.steps.append(("pushed", pushed, cpu))
                parts, (at, used) = [], self.started
                for name, wall, thread in self.steps:
                    parts.append(f"{name} {wall - at:.6f} {thread - used:.6f}")
                    at, used = wall, thread
                self._write("steps " + " ".join(parts))
        self.steps = []

    def _write(self, line: str) -> None:
        try:
            self.stream.write(line + "\n")
        except (OSError, ValueError):        # a full disk or a closed file: the table goes on untraced
            pass

    def close(self) -> None:
        self.stream.close()
