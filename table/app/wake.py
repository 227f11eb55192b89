"""How the main loop learns of keys and touches without asking SDL 30 times a second.

SDL only sees input when its events are pumped, and pumping on a timer is what an idle table
spends its CPU on. So the loop asks ``input_wake`` how input reaches it on the video driver
in use:

- ``dummy`` / ``offscreen`` (simulate, tests, benchmarks): no input comes through SDL at all;
  the loop sleeps until a driver event, a timer the game needs, or a signal.
- ``kmsdrm`` / ``fbcon`` (the Pi's console): SDL reads the Linux input devices itself. An
  ``EvdevWatch`` thread waits on the same devices (its own copy of their events, read and
  dropped) and wakes the loop, which then pumps SDL. No device readable: poll as below.
- ``x11`` with its connection known (``Display.connection``): a ``ConnectionWatch`` thread
  waits for the X server's socket to become readable and wakes the loop, which pumps SDL; it
  reads nothing itself. A pump every X11_PUMP_S even so, for events Xlib took off the socket
  while the loop drew (the loop also pumps once after each frame).
- another desktop (wayland, ...), or x11 without its connection: the window system's connection
  is SDL's own, so the loop pumps every PUMP_S seconds as before.
"""

from __future__ import annotations

import logging
import os
import select
import threading
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

PUMP_S = 1 / 30                 # how often SDL is pumped when nothing else tells of input
X11_PUMP_S = 2.0                # ... and under X11 with the server's socket watched: a safety net only
# (Xlib reads the socket only inside SDL calls the loop makes, and it pumps after each frame); each
# wake-up cost the idle table ~0.4 ms of CPU here, so at 0.5 s the X11 table idled at 0.05 % of a
# core, 16-20x below a clock.tick(60) loop that itself measured 0.84 % on 2026-12-02
RESCAN_S = 10.0                 # how often EvdevWatch looks for newly plugged devices
NO_INPUT_DRIVERS = {"dummy", "offscreen"}
EVDEV_DRIVERS = {"kmsdrm", "kmsdrm_legacy", "fbcon", "directfb", "evdev", "rpi"}


class EvdevWatch:
    """Wakes ``wake`` whenever one of the Linux input devices (``/dev/input/event*``) has input.

    Every open of an evdev device gets its own copy of the events, so reading ours takes
    nothing from SDL's. Devices that go away are dropped; new ones are picked up every RESCAN_S.
    """

    def __init__(self, wake: Callable[[], None], directory: Path = Path("/dev/input")) -> None:
        self.wake = wake
        self.directory = directory
        self._fds: dict[int, Path] = {}
        self._poll = select.poll()
        self._stop_r, self._stop_w = os.pipe()
        self._poll.register(self._stop_r, select.POLLIN)
        self._closed = False
        self._thread: threading.Thread | None = None

    @property
    def devices(self) -> list[Path]:
        return sorted(self._fds.values())

    def _scan(self) -> None:
        open_paths = set(self._fds.values())
        for path in sorted(self.directory.glob("event*")):
            if path in open_paths:
                continue
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            except OSError as exc:
                log.debug("cannot watch %s: %s", path, exc)
                continue
            self._fds[fd] = path
            self._poll.register(fd, select.POLLIN)

    def _drop(self, fd: int) -> None:
        self._poll.unregister(fd)
        self._fds.pop(fd, None)
        os.close(fd)

    def start(self) -> bool:
        """Open the devices and start watching; False (and nothing started) when none can be read."""
        self._scan()
        if not self._fds:
            self.close()
            return False
        self._thread = threading.Thread(target=self._run, name="evdev-watch", daemon=True)
        self._thread.start()
        log.info("waking on input from %s", ", ".join(str(p) for p in self.devices))
        return True

    def _run(self) -> None:
        while not self._closed:
            ready = self._poll.poll(int(RESCAN_S * 1000))
            if not ready:
                self._scan()
                continue
            woke = False
            for fd, mask in ready:
                if fd == self._stop_r:
                    return
                if mask & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                    self._drop(fd)
                    continue
                try:
                    while os.read(fd, 4096):
                        woke = True
                except BlockingIOError:
                    pass
                except OSError:
                    self._drop(fd)
            if woke:
                self.wake()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        os.write(self._stop_w, b"x")
        if self._thread is not None:
            self._thread.join(timeout=2)
        for fd in list(self._fds):
            self._drop(fd)
        os.close(self._stop_r)
        os.close(self._stop_w)


class ConnectionWatch:
    """Wakes ``wake`` when the window system's connection ``fd`` (SDL's socket to the X server)
    has something to read. It never reads (that is SDL's): after a wake it waits until the loop
    says it has pumped (``pumped``) before it looks again, so a socket left readable does not
    spin it."""

    def __init__(self, fd: int, wake: Callable[[], None]) -> None:
        self.fd = fd
        self.wake = wake
        self._pumped = threading.Event()
        self._pumped.set()
        self._stop_r, self._stop_w = os.pipe()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="x11-watch", daemon=True)

    def start(self) -> bool:
        self._thread.start()
        return True

    def pumped(self) -> None:
        """The loop has pumped SDL's events: look at the socket again."""
        self._pumped.set()

    def _run(self) -> None:
        poll = select.poll()
        poll.register(self.fd, select.POLLIN)
        poll.register(self._stop_r, select.POLLIN)
        while not self._closed:
            self._pumped.wait()
            ready = dict(poll.poll())
            if self._closed or self._stop_r in ready:
                return
            self._pumped.clear()
            self.wake()
            if ready.get(self.fd, 0) & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                return                  # the server went away: the loop's pump finds out

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        os.write(self._stop_w, b"x")
        self._pumped.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        os.close(self._stop_r)
        os.close(self._stop_w)


class InputWake:
    """What the loop needs to know of input on this video driver: ``pump_every`` seconds (None:
    only when woken), and a watch to close at the end."""

    def __init__(self, pump_every: float | None, watch: EvdevWatch | ConnectionWatch | None = None) -> None:
        self.pump_every = pump_every
        self.watch = watch

    def pumped(self) -> None:
        """The loop has just pumped SDL's events (a connection watch looks again)."""
        if isinstance(self.watch, ConnectionWatch):
            self.watch.pumped()

    def close(self) -> None:
        if self.watch is not None:
            self.watch.close()

    def __repr__(self) -> str:
        how = ("on evdev input" if isinstance(self.watch, EvdevWatch)
               else f"on the X server's socket, and every {self.pump_every:.3f} s" if self.watch and self.pump_every
               else f"every {self.pump_every:.3f} s" if self.pump_every else "never (no input)")
        return f"<InputWake: pump {how}>"


def input_wake(driver: str, wake: Callable[[], None], directory: Path = Path("/dev/input"), *,
               connection: int | None = None) -> InputWake:
    """How the loop learns of input on SDL video ``driver`` (``pygame.display.get_driver()``);
    ``connection``: the window system's socket, where known (X11)."""
    name = driver.lower()
    if name in NO_INPUT_DRIVERS:
        return InputWake(None)
    if name == "x11" and connection is not None:
        server = ConnectionWatch(connection, wake)
        server.start()
        return InputWake(X11_PUMP_S, server)
    if name in EVDEV_DRIVERS:
        watch = EvdevWatch(wake, directory)
        if watch.start():
            return InputWake(None, watch)
        log.warning("no input device readable in %s: reading keys and touches every %.0f ms", directory, PUMP_S * 1000)
    return InputWake(PUMP_S)


def sleep_until_woken(woken: threading.Event, timeout: float, pump_every: float | None = PUMP_S) -> bool:
    """Sleep until a driver event (or an input watch, or a signal) sets ``woken``, ``timeout``
    passes or it is time to pump SDL's events again (``pump_every``; None: not for that); then
    re-arm ``woken``. False when the whole ``timeout`` passed with nothing setting ``woken`` (a wake
    no one asked for); True otherwise, and at once when ``timeout`` is already up.

    Not pygame.event.wait: SDL's wait polls every millisecond on drivers without a native
    wait (dummy, KMSDRM), which alone costs about 1% of a core.
    """
    was = woken.wait(timeout if pump_every is None else min(timeout, pump_every)) if timeout > 0 else True
    woken.clear()
    return bool(was)
