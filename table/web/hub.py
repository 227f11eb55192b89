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
PER_ADDRESS = 4             # streams one address may hold: one device never holds the rest out


class TooManyClients(Exception):
    """The event stream already has its limit of clients (in all, or from the asking address)."""


class Client:
    """One event-stream client: the revision it has been sent, and a wake-up for the next one
    (a new board, a ping that is due, or the client gone)."""

    def __init__(self, address: str = "") -> None:
        self.address = address
        self.sent = -1
        self.ready = asyncio.Event()
        self.ping_due = False
        self.gone = False

    def __repr__(self) -> str:
        return f"<web Client sent={self.sent}>"


class Hub:
    def __init__(self, *, max_clients: int = MAX_CLIENTS, per_address: int = PER_ADDRESS) -> None:
        self.max_clients, self.per_address = max_clients, per_address
        self._lock = threading.Lock()
        self._latest: dict[str, Any] | None = None
        self._revision = 0
        self._event: tuple[int, bytes] | None = None      # (revision, the encoded event)
        self._state: tuple[int, str] | None = None        # (revision, the state JSON), made when asked
        self._loop: asyncio.AbstractEventLoop | None = None
        self.clients: set[Client] = set()
        self._by_address: dict[str, int] = {}          # address → its streams
        self.published = 0
        self.table_busy = False         # set by the table's loop while it handles input and draws

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

    def busy(self, flag: bool) -> None:
        """The table's loop says when it is handling input and drawing: the fan-out waits meanwhile
        (a bounded wait), so the web thread does not take the processor from a tap's frame."""
        self.table_busy = flag

    # --- the web thread's side --------------------------------------------------------
    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            self._loop = loop

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        return self._loop

    def detach(self) -> None:
        with self._lock:
            self._loop = None

    def _wake_all(self) -> None:
        for client in self.clients:
            client.ready.set()

    def join(self, address: str = "") -> Client:
        """A new stream for a client at ``address`` (the device's, as the ASGI scope gives it)."""
        if self._by_address.get(address, 0) >= self.per_address:
            raise TooManyClients(f"this device already follows the game on {self.per_address} pages")
        if len(self.clients) >= self.max_clients:
            raise TooManyClients(f"{self.max_clients} clients already follow the game")
        client = Client(address)
        self.clients.add(client)
        self._by_address[address] = self._by_address.get(address, 0) + 1
        client.ready.set()              # the current board first
        return client

    def leave(self, client: Client) -> None:
        if client not in self.clients:
            return
        self.clients.discard(client)
        left = self._by_address.get(client.address, 0) - 1
        if left > 0:
            self._by_address[client.address] = left
        else:
            self._by_address.pop(client.address, None)

    @property
    def revision(self) -> int:
        return self._revision

    def end_all(self) -> None:
        """End every stream (the server is stopping)."""
        for client in self.clients:
            client.gone = True
            client.ready.set()

    def ping_all(self) -> None:
        for client in self.clients:
            client.ping_due = True
            client.ready.set()

    def _current(self) -> tuple[int, dict[str, Any] | None]:
        with self._lock:
            return self._revision, self._latest

    def event(self) -> tuple[int, bytes] | None:
        """(revision, the Server-Sent Event with the newest board), encoded once per revision for every client."""
        cached = self._event
        revision, latest = self._current()
        if latest is None:
            return None
        if cached is not None and cached[0] == revision:
            return cached
        data = json.dumps(latest, ensure_ascii=False, separators=(",", ":"))
        self._event = (revision, f"id: {revision}\ndata: {data}\n\n".encode())
        return self._event

    def board_json(self) -> str | None:
        """The newest payload whole (the state JSON and its ``board`` key), as one event carries it."""
        event = self.event()
        if event is None:
            return None
        return event[1].split(b"data: ", 1)[1].rstrip(b"\n").decode()

    def state_json(self) -> str | None:
        """The newest state JSON alone, as ``munchkin-table state`` prints it."""
        cached = self._state
        revision, latest = self._current()
        if latest is None:
            return None
        if cached is not None and cached[0] == revision:
            return cached[1]
        state = {k: v for k, v in latest.items() if k != "board"}
        self._state = (revision, json.dumps(state, indent=2, ensure_ascii=False))
        return self._state[1]
