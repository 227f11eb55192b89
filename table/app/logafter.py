"""The log after the frame.

Each message the table says is logged too (INFO, a refusal WARNING), and under systemd the log is
the journal: a line written to stderr wakes journald, which files it. Written during the pass that
handles a tap, that work comes before the frame that shows the tap; on the Pi-class bench, whose
single instruction counter takes the other processes' turns out of the tap's time, it was a share
of the slowest taps' waits. So while the table runs, the records a pass makes are held and handed
to the log's own handlers once its frame is on the glass (``flush``); an error or worse goes at
once, and so does everything when the table stops.
"""

from __future__ import annotations

import logging

HELD_AT_MOST = 1000         # records held before they go whatever the frame


class LogAfterFrame(logging.Handler):
    """Put in place of the root logger's handlers for as long as the table runs (``install`` ..
    ``remove``): records below ERROR are held until ``flush``, then handed to those handlers."""

    def __init__(self) -> None:
        super().__init__(logging.NOTSET)
        self.handlers: list[logging.Handler] = []
        self.held: list[logging.LogRecord] = []

    def install(self, root: logging.Logger | None = None) -> LogAfterFrame:
        root = root or logging.getLogger()
        self.handlers, root.handlers = list(root.handlers), [self]
        return self

    def remove(self, root: logging.Logger | None = None) -> None:
        root = root or logging.getLogger()
        self.flush()
        if root.handlers == [self]:
            root.handlers = self.handlers

    def emit(self, record: logging.LogRecord) -> None:
        self.held.append(record)
        if record.levelno >= logging.ERROR or len(self.held) >= HELD_AT_MOST:
            self.flush()

    def flush(self) -> None:
        held, self.held = self.held, []
        for record in held:
            for handler in self.handlers:
                if record.levelno >= handler.level:
                    handler.handle(record)
