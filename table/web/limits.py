"""What one device on the network may hold of the web view, and how long a request may take.

uvicorn's own limit (``limit_concurrency``) counts every open connection, idle ones too, so 63
silent sockets from anyone kept every phone at 503; and its keep-alive timer stops at a
connection's first byte, so a half-sent second request was never timed out. Here instead:

- a connection that is not being answered (idle, or still sending its request) is *waiting*; an
  address may hold at most ``per_address`` connections that have waited longer than ``grace``
  (a burst of new ones is let in: thirty phones behind one address, or a laptop's tests, open
  their streams at once), and when the server holds
  ``total`` connections the one that has waited longest is closed to make room (a stream being
  answered is never closed for room: the hub limits those, and they need the key);
- every request, from its first byte to its last (headers and body), has ``request_timeout``
  seconds, on a new connection and on a kept-alive one alike;
- TCP_NODELAY is set on every connection (a response's last bytes are not held back 40 ms for an
  acknowledgement), and the kernel's send buffer is kept small, so a phone that stops reading
  fills it within a few events and its stream's send timeout starts then, not after 800 KB;
- refusals are logged once per address per minute, and so are wrong keys, which are refused with
  429 after ``wrong_keys`` of them in a minute from one address.
"""

from __future__ import annotations

import logging
import socket
import time
from collections import OrderedDict
from typing import Any

log = logging.getLogger("table.web")

PER_ADDRESS = 16            # waiting connections one address may hold (a browser uses about 6)
GRACE = 1.0                 # seconds a new or idle connection waits before it counts against its address
TOTAL = 160                 # connections in all (32 event streams among them at most)
REQUEST_TIMEOUT = 10.0      # seconds from a request's first byte to its last
SEND_BUFFER = 32 * 1024     # the kernel's send buffer per connection, in bytes
WRITE_HIGH = 32 * 1024      # the transport's own buffer before a send waits
WRONG_KEYS = 10             # wrong keys from one address in a minute before it is answered 429
MINUTE = 60.0
REMEMBERED = 1024           # addresses remembered for the once-a-minute logs and the wrong-key count
_REFUSAL_TEXT = b"too many connections from this device at once; try again in a few seconds\n"
REFUSAL = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\nretry-after: 5\r\n"
           b"connection: close\r\ncontent-length: " + str(len(_REFUSAL_TEXT)).encode() + b"\r\n\r\n" + _REFUSAL_TEXT)


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
        self.connections: dict[Any, str] = {}       # protocol → its client's address, oldest first
        self.refused = 0
        self._refusals = _Minutely()
        self._wrong = _Minutely()

    def __repr__(self) -> str:
        return f"<Doorman {len(self.connections)}/{self.total} connections, {self.refused} refused>"

    def admit(self, conn: Any, address: str) -> bool:
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
        return True

    def gone(self, conn: Any) -> None:
        self.connections.pop(conn, None)

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


def bounded_h11(doorman: Doorman) -> type:
    """uvicorn's h11 protocol, held to the doorman's limits and the request deadline."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class BoundedH11Protocol(H11Protocol):
        _deadline: Any = None
        _refused = False
        since = 0.0                     # when it began to wait (connected, or its last response ended)

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            sock = transport.get_extra_info("socket")
            if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
                try:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
                except OSError:         # a socket that is already gone
                    pass
            transport.set_write_buffer_limits(high=WRITE_HIGH)
            address = self.client[0] if self.client else ""
            self.since = time.monotonic()
            if not doorman.admit(self, address):
                self._refused = True
                transport.write(REFUSAL)
                transport.close()
                return
            self._arm()                 # the first request, too, has its deadline from the start

        def waiting(self) -> bool:
            """Not being answered now: idle, or still sending its request."""
            return self.cycle is None or self.cycle.response_complete

        def on_response_complete(self) -> None:
            self.since = time.monotonic()
            super().on_response_complete()

        def evict(self) -> None:
            doorman.gone(self)
            if not self.transport.is_closing():
                self.transport.close()

        def _arm(self) -> None:
            if self._deadline is None:
                self._deadline = self.loop.call_later(doorman.request_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            super().data_received(data)
            their = self.conn.their_state
            if their is h11.SEND_BODY or (their is h11.IDLE and self.conn.trailing_data[0]):
                self._arm()             # a request has begun and is not complete
            else:
                self._disarm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            doorman.gone(self)
            if self._refused:
                self.connections.discard(self)
                return
            super().connection_lost(exc)

    return BoundedH11Protocol
