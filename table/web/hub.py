"""The hand-over from the table's loop to the web clients.

The loop calls ``Hub.publish`` after each accepted change: it stores the newest
payload and pokes the web thread's event loop, and never waits on anything the
web side does. Each client holds one slot, not a queue: a client that is slow
to read skips the states it missed and gets the newest one, so a slow or dead
client costs one payload's worth of memory at most and cannot stall the table.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

MAX_CLIENTS = 32


class TooManyClients(Exception):
    """The event stream already has its limit of clients."""


class Client:
    """One event-stream client: the revision it has been sent, and a wake-up for the next one."""

    def __init__(self) -> None:
        self.sent = -1
        self.ready = asyncio.Event()

    def __repr__(self) -> str:
        return f"<web Client sent={self.sent}>"


class Hub:
    def __init__(self, *, max_clients: int = MAX_CLIENTS) -> None:
        self.max_clients = max_clients
        self._lock = threading.Lock()
        self._latest: dict[str, Any] | None = None
        self._revision = 0
        self._encoded: tuple[int, str, str] | None = None     # (revision, event JSON, state JSON)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.clients: set[Client] = set()
        self.published = 0

    def __repr__(self) -> str:
        return f"<web Hub revision={self._revision} clients={len(self.clients)}/{self.max_clients}>"

    # --- the table's side (any thread) ---------------------------------------------
    def publish(self, payload: dict[str, Any]) -> None:
        """Hand over a new board (the state JSON plus a ``board`` key). Never blocks on the web."""
        with self._lock:
            self._latest = payload
            self._revision += 1
            self.published += 1
            loop = self._loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(self._wake_all)
            except RuntimeError:        # the web loop has stopped
                pass

    # --- the web thread's side --------------------------------------------------------
    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            self._loop = loop

    def detach(self) -> None:
        with self._lock:
            self._loop = None

    def _wake_all(self) -> None:
        for client in self.clients:
            client.ready.set()

    def join(self) -> Client:
        if len(self.clients) >= self.max_clients:
            raise TooManyClients(f"{self.max_clients} clients already follow the game")
        client = Client()
        self.clients.add(client)
        client.ready.set()              # the current board first
        return client

    def leave(self, client: Client) -> None:
        self.clients.discard(client)

    @property
    def revision(self) -> int:
        return self._revision

    def encoded(self) -> tuple[int, str, str] | None:
        """(revision, the event's JSON with the board, the bare state JSON), encoded once per revision."""
        with self._lock:
            latest, revision = self._latest, self._revision
            cached = self._encoded
        if latest is None:
            return None
        if cached is not None and cached[0] == revision:
            return cached
        state = {k: v for k, v in latest.items() if k != "board"}
        out = (revision, json.dumps(latest, ensure_ascii=False, separators=(",", ":")),
               json.dumps(state, indent=2, ensure_ascii=False))
        with self._lock:
            if self._revision == revision:
                self._encoded = out
        return out
