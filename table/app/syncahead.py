"""The journal's sync beside the frame.

The run loop's journal commits with ``PRAGMA synchronous=NORMAL``: a commit is in the WAL (it
survives a kill) but not yet synced. The one fdatasync of the WAL (as SQLite syncs it) that makes it durable then runs on a thread of
its own while the main thread draws the frame that shows it, and the frame goes on the glass only
once the sync has returned: durable before shown, as before, with the disk's wait (an SD card's
flush takes milliseconds) beside the drawing instead of before it. A sync that fails is looked
into by the session before anything is shown (:meth:`GameSession.sync_failed`).
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor

from table.control.controller import Controller

log = logging.getLogger(__name__)


class SyncAhead:
    """One thread that syncs the journal's commits while the frame showing them is drawn."""

    def __init__(self, ctl: Controller) -> None:
        self.ctl = ctl
        ctl.session.journal.sync_later = True      # (a journal opened again takes it over)
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="journal-sync")

    def start(self) -> Future[None] | None:
        """The sync of what the pass just committed, begun; None when it committed nothing."""
        job = self.ctl.session.journal.sync_job()
        return None if job is None else self.pool.submit(job)

    def settle(self, syncing: Future[None] | None) -> bool:
        """Wait for ``syncing``; whether the game as the frame shows it is durable (False: the
        sync failed and the game went back to what the file holds, which the next frame shows)."""
        if syncing is None:
            return True
        try:
            syncing.result()
            return True
        except OSError as exc:
            return self.ctl.sync_failed(exc)

    def close(self) -> None:
        self.pool.shutdown(wait=True)
