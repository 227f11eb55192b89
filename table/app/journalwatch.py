"""Whether the journal is still at its name, watched without waking the idle table.

The run loop must learn at once when the journal is deleted or replaced under it (it then writes the
game anew from the open file: ``watch_journal`` in run.py). Looking with a ``stat`` every
``POLL_S`` costs the idle box a wake-up each time: on the Pi-class bench the watch thread alone cost
about as much as the whole idle main loop. On Linux the kernel says instead (inotify, through
``inotify_simple``): the watch thread sleeps until something happens in the journal's folder, and
wakes otherwise only every ``QUIET_S`` to see whether the table is stopping. Where inotify cannot be
had (another system, the package missing, the kernel's watch limit reached) it looks every
``POLL_S`` as before.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

POLL_S = 0.8            # how often the journal is looked at without inotify (one stat)
QUIET_S = 30.0          # with inotify, how often the thread wakes with nothing to tell (to see it should stop)


def _inotify() -> Any:
    try:
        import inotify_simple
    except ImportError:
        return None
    return inotify_simple


class JournalWatch:
    """Calls ``moved`` whenever ``in_place()`` says the journal at ``path`` is not the one the table
    writes, looked at when the kernel reports a change to its name or its folder (or every
    ``POLL_S`` where it cannot), until ``stop``."""

    def __init__(self, path: Callable[[], Path], in_place: Callable[[], bool], moved: Callable[[], None]) -> None:
        self.path = path
        self.in_place = in_place
        self.moved = moved
        self.wakes = 0                          # how often the thread woke, for anything or nothing
        self._seen = False                      # it found the journal moved since the last ``take``
        self._stop = threading.Event()
        self._notify: Any = None
        self.kernel = self._open()              # whether inotify is watching
        self._thread = threading.Thread(target=self._run, name="journal-watch", daemon=True)

    def start(self) -> JournalWatch:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def take(self) -> bool:
        """Whether the loop should look at the journal now: the watch found it moved since it last
        asked, or the watch is not running (then every pass looks, as before the watch)."""
        seen, self._seen = self._seen, False
        return seen or not self._thread.is_alive()

    def _open(self) -> bool:
        module = _inotify()
        if module is None:
            return False
        try:
            self._notify = module.INotify()
        except OSError as exc:
            log.info("journal watched by a stat every %.1f s: no inotify (%s)", POLL_S, exc)
            return False
        return self._arm()

    def _arm(self) -> bool:
        """Watch the journal's folder (what happens to the file at its name, and to the folder itself)."""
        flags = _inotify().flags
        mask = flags.CREATE | flags.DELETE | flags.MOVED_FROM | flags.MOVED_TO | flags.DELETE_SELF | flags.MOVE_SELF
        try:
            self._notify.add_watch(str(self.path().parent), mask)
        except OSError as exc:                  # the folder is gone, or the kernel's watches are used up
            log.info("journal watched by a stat every %.1f s: %s", POLL_S, exc)
            return False
        return True

    def _run(self) -> None:
        while not self._stop.is_set():
            if self.kernel:
                try:
                    events = self._notify.read(timeout=int(QUIET_S * 1000))
                except OSError:
                    events, self.kernel = [], False
                if self._stop.is_set():
                    break
                self.wakes += 1
                name = self.path().name
                flags = _inotify().flags
                if any(e.name in ("", name) for e in events):       # the journal's name, or its folder itself
                    self._look()
                if any(e.mask & flags.IGNORED for e in events):     # the folder went: watch it again when it is back
                    self.kernel = self._arm()
            else:
                if self._stop.wait(POLL_S):
                    break
                self.wakes += 1
                self._look()
                if self._notify is not None and not self.kernel:
                    self.kernel = self._arm()
        if self._notify is not None:
            self._notify.close()

    def _look(self) -> None:
        if not self.in_place():
            self._seen = True
            self.moved()


__all__ = ["JournalWatch", "POLL_S", "QUIET_S"]
