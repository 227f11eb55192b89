"""What one device on the network may hold of the web view, and how long a request may take.

uvicorn's public settings bound what they can: ``timeout_keep_alive`` closes a kept-alive connection
left idle after a response, ``h11_max_incomplete_event_size`` refuses a request line and headers
larger than that, and ``proxy_headers``/``forwarded_allow_ips`` are set by ``[web] proxy`` (server.py).
What they cannot bound is a connection before its request is complete: uvicorn starts no timer on a
new connection, and its keep-alive timer stops at a connection's first byte, so a socket that stays
silent, or sends its headers a byte at a time, is held for ever; and ``limit_concurrency`` counts
every open connection, idle ones too, so 63 silent sockets from anyone kept every phone at 503.

So the server's connections go through ``Watched``, an ``asyncio.Protocol`` of ours that stands in
front of the protocol uvicorn picks (uvicorn's ``http`` setting takes a protocol class). It sees only
what asyncio shows every protocol (the transport, the bytes, the end) and hands all of it on unchanged;
it never reads the inner protocol's state. Whether a connection is being answered comes from the ASGI
side instead: ``Tracker``, the outermost ASGI layer, marks a connection busy from the moment its request
reaches the application (headers complete) until the application returns, finding the connection by
the client's address and port in the ASGI scope. Then:

- a connection that is not being answered (new, idle, or still sending its request) is *waiting*; an
  address may hold at most ``per_address`` connections that have waited longer than ``grace``
  (a burst of new ones is let in: thirty phones behind one address, or a laptop's tests, open
  their streams at once), and beyond them a new one is closed at once; when the server holds
  ``total`` connections the one that has waited longest is closed to make room (a stream being
  answered is never closed for room: the hub limits those, and they need the key);
- a request has ``request_timeout`` seconds from its connection's start (a new connection) or from its
  first byte (a kept-alive one) to reaching the application: a byte now and then resets nothing;
- TCP_NODELAY is set on every connection (a response's last bytes are not held back 40 ms for an
  acknowledgement), and the transport's and the kernel's send buffers are kept small, so a phone that
  stops reading fills them within a few events and its stream's send timeout starts then, not after
  800 KB;
- refusals are logged once per address per minute, and so are wrong keys, which are refused with
  429 after ``wrong_keys`` of them in a minute from one address (Guard, server.py).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

log = logging.getLogger("table.web")

PER_ADDRESS = 16            # waiting connections one address may hold (a browser uses about 6)
GRACE = 1.0                 # seconds a new or idle connection waits before it counts against its address
TOTAL = 160                 # connections in all (32 event streams among them at most)
REQUEST_TIMEOUT = 10.0      # seconds from a request's first byte (or its connection's start) to its headers' end
SEND_BUFFER = 32 * 1024     # the kernel's send buffer per connection, in bytes
WRITE_HIGH = 32 * 1024      # the transport's own buffer before a send waits
WRONG_KEYS = 10             # wrong keys from one address in a minute before it is answered 429
MINUTE = 60.0
REMEMBERED = 1024           # addresses remembered for the once-a-minute logs and the wrong-key count


class _Minutely:
    """Counts per address over a minute, remembering at most REMEMBERED addresses."""

    def __init__(self) -> None:
        self._seen: OrderedDict[str, tuple[float, int, bool]] = OrderedDict()   # address → (since, count, logged)

    def add(self, address: str, now: float) -> tuple[int, bool]:
        """Count one for the address; (its count this minute, whether this is the minute's first log)."""
        since, count, logged = self._seen.pop(address, (now, 0, False))
        if now - since >= MINUTE:
            since, count, logged = now, 0, False
        count += 1
        first = not logged
        self._seen[address] = (since, count, True if first else logged)
        while len(self._seen) > REMEMBERED:
            self._seen.popitem(last=False)
        return count, first

    def count(self, address: str, now: float) -> int:
        since, count, _logged = self._seen.get(address, (now, 0, False))
        return 0 if now - since >= MINUTE else count


class Doorman:
    """The connections the server holds, by address, and what was refused."""

    def __init__(self, *, per_address: int = PER_ADDRESS, total: int = TOTAL, grace: float = GRACE,
                 request_timeout: float = REQUEST_TIMEOUT, wrong_keys: int = WRONG_KEYS) -> None:
        self.per_address, self.total, self.grace = per_address, total, grace
        self.request_timeout, self.wrong_keys = request_timeout, wrong_keys
        self.connections: dict[Watched, str] = {}       # connection → its client's address, oldest first
        self.peers: dict[tuple[str, int], Watched] = {}  # (address, port) → connection, for the ASGI side
        self.refused = 0
        self._refusals = _Minutely()
        self._wrong = _Minutely()

    def __repr__(self) -> str:
        return f"<Doorman {len(self.connections)}/{self.total} connections, {self.refused} refused>"

    def admit(self, conn: Watched, address: str) -> bool:
        """Make room for a new connection (closing the longest-waiting one if need be); False: refuse it."""
        now = time.monotonic()
        mine = [c for c, a in self.connections.items() if a == address and c.waiting() and now - c.since > self.grace]
        if len(mine) >= self.per_address:
            self._refuse(address, f"more than {self.per_address} connections at once")
            return False
        if len(self.connections) >= self.total:
            oldest = min((c for c in self.connections if c.waiting()), key=lambda c: c.since, default=None)
            if oldest is None:
                self._refuse(address, f"{self.total} connections are open, every one being answered")
                return False
            oldest.evict()
        self.connections[conn] = address
        if conn.peer is not None:
            self.peers[conn.peer] = conn
        return True

    def gone(self, conn: Watched) -> None:
        if self.connections.pop(conn, None) is not None and conn.peer is not None:
            self.peers.pop(conn.peer, None)

    def _refuse(self, address: str, why: str) -> None:
        self.refused += 1
        _count, first = self._refusals.add(address, time.monotonic())
        if first:
            log.warning("web: refused a connection from %s (%s); said once a minute", address, why)

    def wrong_key(self, address: str) -> None:
        _count, first = self._wrong.add(address, time.monotonic())
        if first:
            log.warning("web: a wrong key from %s (after %d in a minute it gets 429 for the rest of it); "
                        "said once a minute", address, self.wrong_keys)

    def too_many_wrong_keys(self, address: str) -> bool:
        return self._wrong.count(address, time.monotonic()) >= self.wrong_keys


class Watched(asyncio.Protocol):
    """One connection, held to the doorman's limits and the request deadline, in front of the protocol
    that speaks HTTP on it (made by ``inner`` once the connection is admitted: a refused one costs no
    HTTP parser). Everything asyncio says to this protocol is said on to the inner one, unchanged."""

    def __init__(self, doorman: Doorman, inner: Callable[[], asyncio.Protocol]) -> None:
        self.doorman, self._make_inner = doorman, inner
        self.inner: asyncio.Protocol | None = None      # made once the connection is admitted
        self.transport: asyncio.Transport | None = None
        self.peer: tuple[str, int] | None = None
        self.since = time.monotonic()   # when it began to wait (connected, or its last answer ended)
        self.answering = 0              # requests of this connection the application is answering
        self._deadline: asyncio.TimerHandle | None = None

    def __repr__(self) -> str:
        return f"<Watched {self.peer} {'answering' if self.answering else 'waiting'}>"

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
            except OSError:             # a socket that is already gone
                pass
        transport.set_write_buffer_limits(high=WRITE_HIGH)
        peer = transport.get_extra_info("peername")
        if isinstance(peer, tuple) and len(peer) >= 2:
            self.peer = (str(peer[0]), int(peer[1]))
        if not self.doorman.admit(self, self.peer[0] if self.peer else ""):
            transport.close()           # before a byte of HTTP: nothing is owed to it
            return
        self._arm()                     # the first request, too, has its deadline from the start
        self.inner = self._make_inner()
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.inner is None:          # refused
            return
        if not self.answering:
            self._arm()                 # a request has begun (or goes on) and has not reached the application
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return None if self.inner is None else self.inner.eof_received()

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.doorman.gone(self)
        if self.inner is not None:
            self.inner.connection_lost(exc)

    # --- what the doorman and the ASGI side ask --------------------------------------
    def waiting(self) -> bool:
        """Not being answered now: new, idle, or still sending its request."""
        return not self.answering

    def begin(self) -> None:
        """Its request reached the application: no deadline while it is answered."""
        self.answering += 1
        self._disarm()

    def end(self) -> None:
        self.answering = max(0, self.answering - 1)
        if not self.answering:
            self.since = time.monotonic()

    def evict(self) -> None:
        self.doorman.gone(self)
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = asyncio.get_running_loop().call_later(self.doorman.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.answering:
            return
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()


def watched(doorman: Doorman, inner: Callable[..., asyncio.Protocol]) -> type[asyncio.Protocol]:
    """A protocol class for uvicorn's ``http`` setting: each connection ``Watched`` in front of the
    protocol ``inner`` makes (called with whatever uvicorn passes a protocol class)."""

    class WatchedHTTP(Watched):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(doorman, lambda: inner(*args, **kwargs))

    return WatchedHTTP


class Tracker:
    """The outermost ASGI layer: tells each connection's ``Watched`` when the application is answering
    one of its requests (from the request's arrival to the application's return)."""

    def __init__(self, app: Any, doorman: Doorman) -> None:
        self.app, self.doorman = app, doorman

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        client = scope.get("client") if scope["type"] == "http" else None
        conn = self.doorman.peers.get((str(client[0]), int(client[1]))) if client else None
        if conn is None:
            await self.app(scope, receive, send)
            return
        conn.begin()
        try:
            await self.app(scope, receive, send)
        finally:
            conn.end()
