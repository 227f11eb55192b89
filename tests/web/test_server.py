"""The web view's server on a real socket: the key, read-only methods, limits and the event stream."""

from __future__ import annotations

import http.client as httpclient
import json
import socket
import time
from pathlib import Path

import pytest

from drivers.base import SystemClock
from engine.serialize import state_to_json
from table.config import Config, StorageConfig
from table.ui.view import build_view
from table.web import board_payload
from table.web.pages import page_context
from table.web.hub import Hub
from table.web.limits import Doorman
from table.web.server import WebApp, WebServer
from table.control.assembly import build_table
from tests.web.conftest import KEY, http

PATHS = ("/", "/p/player-1", "/overlay", "/api/state", "/events", "/static/board.js", "/static/board.css")


@pytest.fixture
def table(tmp_path: Path):  # type: ignore[no-untyped-def]
    t = build_table(Config(storage=StorageConfig(state_dir=str(tmp_path / "state"))), SystemClock(), seed_source=lambda: 1)
    yield t
    t.journal.close()


@pytest.fixture
def served(table, catalog):  # type: ignore[no-untyped-def]
    servers = []

    def start(**kwargs):  # type: ignore[no-untyped-def]
        hub = Hub(max_clients=kwargs.pop("max_clients", 32), per_address=kwargs.pop("per_address", 32))
        hub.publish(board_payload(build_view(table.controller)))
        keep_alive = kwargs.pop("keep_alive", 5)
        server = WebServer(WebApp(hub, KEY, page_context(catalog, "en"), **kwargs), "127.0.0.1", 0,
                           keep_alive=keep_alive)
        server.start()
        servers.append(server)
        return hub, f"http://127.0.0.1:{server.port}"

    yield start
    for server in servers:
        server.stop()


def play(table, *lines: str) -> None:  # type: ignore[no-untyped-def]
    """Table-script lines through the controller, as the simulated pad and buttons deliver them."""
    from drivers.events import Press, Tap

    ctl = table.controller
    for line in lines:
        verb, arg = line.split()
        ctl.handle(Tap("", ctl.now, "sim", card=arg) if verb == "tap" else Press(arg, ctl.now))


class SseReader:
    """A raw event-stream client: the events it has read so far."""

    def __init__(self, base: str, *, rcvbuf: int | None = None) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.sock = socket.socket()
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.connect((host, int(port)))
        self.sock.sendall(f"GET /events?key={KEY} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        self.buffer = b""
        self.events: list[dict] = []

    def read_events(self, until, timeout: float = 5.0) -> list[dict]:  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + timeout
        self.sock.settimeout(0.2)
        while True:
            *complete, self.buffer = self.buffer.split(b"\n\n")
            for block in complete:
                self.events += [json.loads(line[6:]) for line in block.split(b"\n") if line.startswith(b"data: ")]
            events = self.events
            if until(events):
                return events
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(events)} events so far; head: {self.buffer[:300]!r}")
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                raise AssertionError("the server closed the stream")
            self.buffer += chunk

    def close(self) -> None:
        self.sock.close()


def test_every_route_needs_the_key(served) -> None:
    _hub, base = served(doorman=Doorman(wrong_keys=1000))
    for path in PATHS:
        assert http(base + path)[0] == 403, path
        assert http(base + path + "?key=wrong-key-12")[0] == 403, path
        assert http(base + path, headers={"Cookie": "munchkin_key=wrong-key-12"})[0] == 403, path
        assert http(base + path, headers={"Cookie": "munchkin_key=\"\\x; ;;="})[0] == 403, path
    for path in ("/", "/p/player-3", "/overlay", "/api/state", "/static/board.js", "/static/board.css"):
        assert http(base + path + f"?key={KEY}")[0] == 200, path


def test_the_key_in_the_url_sets_a_cookie_that_then_suffices(served) -> None:
    _hub, base = served()
    status, headers, _ = http(base + f"/?key={KEY}")
    assert status == 200 and "HttpOnly" in headers["set-cookie"]
    cookie = headers["set-cookie"].split(";")[0]
    assert http(base + "/api/state", headers={"Cookie": cookie})[0] == 200


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_every_method_but_get_and_head_is_405(served, method: str) -> None:
    hub, base = served()
    before = hub.revision
    for path in PATHS:
        status, headers, _ = http(base + path + f"?key={KEY}", method=method)
        assert status == 405 and headers["allow"] == "GET, HEAD", (path, status)
    assert hub.revision == before


def test_head_answers_without_a_body(served) -> None:
    _hub, base = served()
    status, _, body = http(base + f"/api/state?key={KEY}", method="HEAD")
    assert status == 200 and body == b""


def test_api_state_is_the_state_json(served, table) -> None:
    hub, base = served()
    play(table, "tap player-1", "tap player-2", "tap player-3", "press next", "tap 1000-gold-pieces")
    hub.publish(board_payload(build_view(table.controller)))
    status, headers, body = http(base + f"/api/state?key={KEY}")
    assert status == 200 and headers["content-type"].startswith("application/json")
    data = json.loads(body)
    assert data.pop("can") == []            # what can be done: the table's run loop hands it over with each board
    assert data == state_to_json(table.controller.state, table.catalog)
    assert json.loads(body)["players"][0]["level"] == 2


def test_unknown_players_and_files_are_404(served) -> None:
    _hub, base = served()
    for path in ("/p/player-7", "/p/player-0", "/p/x", "/static/..%2Fserver.py", "/static/nothing.js", "/nowhere"):
        assert http(base + path + f"?key={KEY}")[0] == 404, path


def test_urls_and_headers_are_bounded(served) -> None:
    _hub, base = served()
    assert http(base + "/api/state?key=" + KEY + "&pad=" + "x" * 3000)[0] == 414
    many = {f"X-Pad-{i}": "y" for i in range(60)}
    assert http(base + f"/api/state?key={KEY}", headers=many)[0] == 431
    assert http(base + f"/api/state?key={KEY}", headers={"X-Big": "z" * 20000})[0] == 431


def test_the_page_escapes_what_it_embeds(served, catalog) -> None:
    from table.web.pages import PageContext, render_page

    context = PageContext(labels={"title": "x"}, names={"a": "</script><script>alert(1)</script>"})
    page = render_page(context, KEY, "board")
    assert "<script>alert" not in page and page.count("</script>") == 2


def test_the_event_stream_sends_the_current_board_then_each_change(served, table) -> None:
    hub, base = served()
    reader = SseReader(base)
    try:
        first = reader.read_events(lambda ev: len(ev) >= 1)
        assert first[0]["phase"] == "setup" and "board" in first[0]
        play(table, "tap player-1")
        hub.publish(board_payload(build_view(table.controller)))
        events = reader.read_events(lambda ev: len(ev) >= 2)
        assert [p["id"] for p in events[1]["players"]] == ["player-1"]
        assert events[1]["board"]["message"]
    finally:
        reader.close()


def test_a_client_that_joins_late_gets_only_the_newest_board(served, table) -> None:
    hub, base = served()
    for _ in range(50):
        hub.publish({"phase": "setup", "players": [], "n": _})
    reader = SseReader(base)
    try:
        events = reader.read_events(lambda ev: len(ev) >= 1)
        time.sleep(0.3)
        events = reader.read_events(lambda ev: True)
        assert [e["n"] for e in events] == [49]
    finally:
        reader.close()


def test_clients_beyond_the_limit_are_refused_and_a_freed_place_is_reused(served) -> None:
    hub, base = served(max_clients=4)
    readers = [SseReader(base) for _ in range(4)]
    try:
        for r in readers:
            r.read_events(lambda ev: len(ev) >= 1)
        assert http(base + f"/events?key={KEY}")[0] == 503
        readers.pop().close()
        deadline = time.monotonic() + 5
        while len(hub.clients) > 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        late = SseReader(base)
        readers.append(late)
        late.read_events(lambda ev: len(ev) >= 1)
    finally:
        for r in readers:
            r.close()


def test_a_client_that_stops_reading_is_dropped_and_stalls_no_one(served) -> None:
    hub, base = served(send_timeout=0.5)
    stalled = SseReader(base, rcvbuf=4096)
    healthy = SseReader(base)
    try:
        healthy.read_events(lambda ev: len(ev) >= 1)
        pad = "x" * 200_000
        for n in range(60):
            hub.publish({"phase": "setup", "players": [], "n": n, "pad": pad})     # never waits
            healthy.read_events(lambda ev, n=n: any(e.get("n") == n for e in ev), timeout=10)
            healthy.events.clear()
        deadline = time.monotonic() + 10
        while len(hub.clients) > 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(hub.clients) == 1          # the stalled one is gone, the healthy one stays
    finally:
        stalled.close()
        healthy.close()


def _from(address: str, port: int) -> socket.socket:
    """A connection to the server from another loopback address (the whole of 127/8 is this machine)."""
    s = socket.socket()
    s.bind((address, 0))
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    return s


def _first_response(s: socket.socket) -> bytes:
    """Asks for the state on ``s`` and reads until the end of the response's headers."""
    s.sendall(f"GET /api/state?key={KEY} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    first = b""
    while b"\r\n\r\n" not in first:
        first += s.recv(65536)
    return first


def _port(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def _closed(s: socket.socket, within: float = 10) -> bool:
    """Whether the server closes the connection (anything it says first is read and dropped)."""
    s.settimeout(within)
    try:
        while s.recv(4096):
            pass
    except TimeoutError:
        return False
    except OSError:
        pass
    return True


def test_one_address_holds_only_so_many_waiting_connections_and_others_still_get_in(served, caplog) -> None:
    hub, base = served(doorman=Doorman(per_address=8))
    port = _port(base)
    hostile = []
    try:
        for _ in range(8):
            hostile.append(_from("127.0.0.2", port))
        time.sleep(1.2)                                     # they have waited past the grace
        for _ in range(4):
            hostile.append(_from("127.0.0.2", port))
        refused = [s for s in hostile[8:] if _closed(s, 3)]
        assert len(refused) == 4                            # beyond the eight: a 503 and closed
        assert all(not _closed(s, 0.05) for s in hostile[:8])
        assert http(base + f"/api/state?key={KEY}")[0] == 200   # another address is not refused
        lines = [r for r in caplog.records if "refused a connection from 127.0.0.2" in r.getMessage()]
        assert len(lines) == 1                              # four refusals, one line
    finally:
        for s in hostile:
            s.close()


def test_when_the_server_is_full_the_longest_waiting_connection_makes_room(served) -> None:
    hub, base = served(doorman=Doorman(per_address=100, total=20))
    port = _port(base)
    idle = [_from("127.0.0.3", port) for _ in range(20)]
    try:
        time.sleep(0.3)
        assert http(base + f"/api/state?key={KEY}")[0] == 200
        assert _closed(idle[0], 3)                          # the oldest idle one went
    finally:
        for s in idle:
            s.close()


def test_a_connection_that_never_asks_is_closed(served) -> None:
    _hub, base = served(doorman=Doorman(request_timeout=0.5))
    host, port = base.removeprefix("http://").split(":")
    quiet = socket.create_connection((host, int(port)))
    trickle = socket.create_connection((host, int(port)))
    try:
        trickle.sendall(b"GET /api/state?key=")            # and never the rest
        for s in (quiet, trickle):
            s.settimeout(10)
            assert s.recv(100) == b""                       # closed by the server
    finally:
        quiet.close()
        trickle.close()


def test_a_half_sent_second_request_on_a_kept_alive_connection_is_timed_out(served) -> None:
    _hub, base = served(doorman=Doorman(request_timeout=0.5))
    s = _from("127.0.0.1", _port(base))
    try:
        first = _first_response(s)
        assert first.startswith(b"HTTP/1.1 200")
        s.sendall(b"GET /api/state HTTP/1.1\r\nHo")        # the second request, never finished
        started = time.monotonic()
        for _ in range(8):                                   # a byte now and then resets no timer
            time.sleep(0.1)
            try:
                s.sendall(b"s")
            except OSError:
                break
        assert _closed(s, 10) and time.monotonic() - started < 5
    finally:
        s.close()


def test_two_hundred_idle_and_64_slowloris_sockets_leave_the_board_to_the_phones(served) -> None:
    """One address opens 200 silent sockets and 64 that send a header line every 0.2 s: a phone elsewhere
    still loads its page and follows the event stream within 2 s."""
    hub, base = served()
    port = _port(base)
    idle: list[socket.socket] = []
    slow: list[socket.socket] = []
    try:
        for _ in range(200):
            idle.append(_from("127.0.0.2", port))
        for _ in range(64):
            s = _from("127.0.0.2", port)
            try:
                s.sendall(b"GET / HTTP/1.1\r\n")
            except OSError:
                pass
            slow.append(s)
        started = time.monotonic()
        for s in slow:
            try:
                s.sendall(b"X-a: b\r\n")
            except OSError:
                pass
        status, _, body = http(base + f"/?key={KEY}")
        assert status == 200 and b"board.js" in body
        reader = SseReader(base)
        try:
            reader.read_events(lambda ev: len(ev) >= 1, timeout=2)
            assert time.monotonic() - started < 2
        finally:
            reader.close()
    finally:
        for s in idle + slow:
            s.close()


def test_every_connection_is_tcp_nodelay(served) -> None:
    doorman = Doorman()
    _hub, base = served(doorman=doorman)
    s = _from("127.0.0.1", _port(base))
    try:
        time.sleep(0.2)
        socks = [c.transport.get_extra_info("socket") for c in doorman.connections]
        assert socks and all(x.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) for x in socks)
    finally:
        s.close()


def test_a_malformed_key_is_403_and_no_fault(served, caplog) -> None:
    _hub, base = served()
    for key in ("%E2%82%AC" * 3, "%FF%FE", "caf%C3%A9-key-1234567", "%00"):
        assert http(base + f"/api/state?key={key}")[0] == 403, key
    assert http(base + "/api/state", headers={"Cookie": "munchkin_key=%E2%82%AC"})[0] == 403
    assert not [r for r in caplog.records if r.levelno >= 40]


def test_wrong_keys_are_limited_per_address_and_logged_once(served, caplog) -> None:
    _hub, base = served(doorman=Doorman(wrong_keys=5))
    for _ in range(5):
        assert http(base + "/api/state?key=wrong-key-1234567")[0] == 403
    assert http(base + "/api/state?key=wrong-key-1234567")[0] == 429
    assert http(base + f"/api/state?key={KEY}")[0] == 429        # the right key, too, waits the minute out
    lines = [r.getMessage() for r in caplog.records if "wrong key" in r.getMessage()]
    assert len(lines) == 1 and "127.0.0.1" in lines[0]


def test_pages_load_nothing_from_elsewhere_and_send_no_referer(served) -> None:
    _hub, base = served()
    for path in ("/", "/p/player-1", "/overlay"):
        status, headers, body = http(base + path + f"?key={KEY}")
        assert status == 200 and headers["referrer-policy"] == "no-referrer"
        assert "script-src 'self'" in headers["content-security-policy"]
        assert b"http" not in body.replace(b"http-equiv", b"")      # no address of anywhere else
    assert "frame-ancestors 'none'" in http(base + f"/?key={KEY}")[1]["content-security-policy"]


def test_past_games_and_standings_are_served_read_only(served, table, tmp_path) -> None:
    from table.web.records import history_data

    hub, base = served(state_dir=tmp_path / "state", catalog=table.catalog)
    play(table, "tap player-1", "tap player-2", "tap player-3", "press next", "tap 1000-gold-pieces")
    status, _, body = http(base + f"/api/history?key={KEY}")
    assert status == 200 and json.loads(body) == history_data(tmp_path / "state") and json.loads(body)
    status, headers, body = http(base + f"/history?key={KEY}")
    assert status == 200 and b"Player 1, Player 2, Player 3" in body and "script-src 'self'" in headers["content-security-policy"]
    status, _, body = http(base + f"/stats?key={KEY}")
    assert status == 200 and b"Player 1" in body
    assert json.loads(http(base + f"/api/stats?key={KEY}")[2])["players"]
    for path in ("/history", "/stats", "/api/history", "/api/stats"):
        assert http(base + path)[0] == 403 and http(base + path + f"?key={KEY}", method="POST")[0] == 405


def test_without_a_state_directory_there_are_no_past_games(served) -> None:
    _hub, base = served()
    assert http(base + f"/history?key={KEY}")[0] == 404


def test_a_stalled_stream_queues_little_in_the_kernel_and_is_dropped(served) -> None:
    """The kernel's send buffer is kept small, so a phone that stops reading blocks its stream within an
    event or two (and is dropped after the send timeout), rather than after 800 KB queued for it."""
    import fcntl
    import struct
    import termios

    doorman = Doorman()
    hub, base = served(send_timeout=1.0, doorman=doorman)
    stalled = SseReader(base, rcvbuf=4096)
    try:
        time.sleep(0.3)
        mine = stalled.sock.getsockname()[1]
        conn = next(c for c in doorman.connections if c.peer and c.peer[1] == mine)
        assert conn.transport is not None
        sock = conn.transport.get_extra_info("socket")
        worst = 0
        for n in range(30):
            hub.publish({"phase": "setup", "players": [], "n": n, "pad": "x" * 100_000})
            time.sleep(0.02)
            if hub.clients:
                try:
                    queued = struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0" * 4))[0]
                except OSError:
                    break
                worst = max(worst, queued)
        assert worst < 200_000, worst              # unbounded before: the kernel grew the buffer past 800 KB
        deadline = time.monotonic() + 10
        while hub.clients and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not hub.clients
    finally:
        stalled.close()
