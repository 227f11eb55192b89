"""The web view's server: Starlette on uvicorn, in a thread of its own.

Starlette + uvicorn (with h11, no compiled extras) rather than aiohttp: measured
here, the pair adds about 16 MB to a Python process and aiohttp about 23 MB, and
the table has 80 MB in all.

Everything is bounded. A method other than GET and HEAD gets 405; a URL longer
than MAX_URL 414; more than MAX_HEADERS headers, or MAX_HEADER_BYTES of them, 431;
a request still incomplete after H11_MAX_EVENT bytes 400 (h11); a key that is missing,
wrong or malformed 403, and after limits.WRONG_KEYS wrong ones in a minute from one
address 429; event streams beyond the hub's limits (MAX_CLIENTS in all, PER_ADDRESS from
one device) 503. An address is the connection's peer; X-Forwarded-For is believed only from
the addresses ``[web] proxy`` names. What one address may hold of connections, the
connections in all and each request's deadline are limits.py's (the Doorman); a client that
does not take an event within SEND_TIMEOUT seconds is dropped. While the table's loop handles
a tap and draws its frame, the fan-out steps back (YIELD_SECONDS at a time, YIELD_AT_MOST in
all), so thirty phones do not slow the box's own screen.

Routes are the list in ``WebApp.routes()``: a page or an endpoint is one ``Route``
there and a handler method (it takes the request and returns a response;
``self.hub`` holds the newest board and ``self.context`` the page's words).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import socket
import threading
from collections.abc import AsyncIterator
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from engine.state import PLAYER_TOKENS
from table.web.hub import Hub, TooManyClients
from table.web.limits import Doorman, Tracker, watched
from table.web.pages import PageContext, render_page
import table.web.league as web_league
import table.web.records as records_web
from table.web.records import RecordsError

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
ASSETS = {"board.js": "text/javascript; charset=utf-8", "board.css": "text/css; charset=utf-8"}
COOKIE = "munchkin_key"
ALLOWED_METHODS = ("GET", "HEAD")
MAX_URL = 2048                  # bytes of path and query
MAX_HEADERS = 48
MAX_HEADER_BYTES = 8 * 1024     # names and values together
H11_MAX_EVENT = 16 * 1024       # request line and headers together
OVERLAY = "/overlay"            # the one page another site may frame (a streaming program's overlay)
KEEP_ALIVE = 5                  # seconds an idle kept-alive connection stays open
YIELD_SECONDS = 0.005           # while the table draws a frame, the fan-out steps back this long at a time
YIELD_AT_MOST = 0.25            # and no longer than this in all, per event
SEND_TIMEOUT = 5.0              # a client that takes no event for this long is dropped
PING_SECONDS = 15.0             # a comment line on a quiet stream, so a dead client is found
# Pages run only the box's own script, load nothing from elsewhere, and send no Referer (it would carry the key).
PAGE_HEADERS = {
    "cache-control": "no-store",
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                               "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
}


class Guard:
    """ASGI middleware in front of every route: method, URL and header limits, then the key.

    The key comes as ``?key=KEY`` (a page answered that way also sets a cookie, so the
    page's own requests need not repeat it) or in that cookie. Every response leaves here
    ``no-store`` (pages, events and static files alike are served with the key) and, but the
    overlay's (a streaming program frames it), with ``X-Frame-Options: DENY`` beside the
    pages' ``frame-ancestors 'none'``, for browsers that know only the older header.
    """

    def __init__(self, app: Any, key: Any, doorman: Doorman) -> None:
        self.app, self.doorman = app, doorman
        self._key = key                 # called for the key on each request: it may be rotated

    @property
    def key(self) -> bytes:
        return str(self._key()).encode()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = [(b"cache-control", b"no-store")]
        if scope["path"] != OVERLAY:
            added.append((b"x-frame-options", b"DENY"))

        async def guarded(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                message = {**message, "headers": [*kept, *added]}
            await send(message)

        refusal = self._refusal(scope)
        if refusal is not None:
            await _plain(guarded, *refusal)
            return
        if parse_qs(scope.get("query_string", b"").decode("latin-1")).get("key"):
            added.append((b"set-cookie", f"{COOKIE}={self.key.decode()}; Path=/; HttpOnly; SameSite=Strict".encode()))
        await self.app(scope, receive, guarded)

    def _refusal(self, scope: dict[str, Any]) -> tuple[int, str, list[tuple[bytes, bytes]]] | None:
        """(status, text, headers) of the refusal this request gets, or None when it may go on."""
        if scope["method"] not in ALLOWED_METHODS:
            return 405, "read-only: only GET and HEAD\n", [(b"allow", b"GET, HEAD")]
        query = scope.get("query_string", b"")
        if len(scope.get("raw_path") or scope["path"].encode()) + len(query) > MAX_URL:
            return 414, "URL too long\n", []
        if len(scope["headers"]) > MAX_HEADERS or sum(len(k) + len(v) for k, v in scope["headers"]) > MAX_HEADER_BYTES:
            return 431, "too many headers\n", []
        address = client_address(scope)
        if self.doorman.too_many_wrong_keys(address):
            return 429, "too many wrong keys from this device; try again in a minute\n", [(b"retry-after", b"60")]
        key = self.key
        given = parse_qs(query.decode("latin-1")).get("key", [""])[0].encode("utf-8", "surrogateescape")
        if not given:
            given = _cookie(scope["headers"]).encode("utf-8", "surrogateescape")
        if not given or not hmac.compare_digest(given, key):
            if given:
                self.doorman.wrong_key(address)
            return 403, "forbidden: open the address shown on the box's screen (it carries the key)\n", []
        return None


def client_address(scope: dict[str, Any]) -> str:
    """The device's address: the connection's peer, or the forwarded one when ``[web] proxy`` names the peer."""
    return str((scope.get("client") or ("",))[0])


def _cookie(headers: list[tuple[bytes, bytes]]) -> str:
    for name, value in headers:
        if name == b"cookie":
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:           # a malformed cookie header is no key
                return ""
            if COOKIE in jar:
                return jar[COOKIE].value
    return ""


async def _plain(send: Any, status: int, text: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


class EventStream:
    """``GET /events``: Server-Sent Events, one event with the board on every accepted change.

    Each client's coroutine sleeps on its own wake-up: no task or timer is made per event, so
    fanning a change out to 32 clients costs little of the table's processor.
    """

    def __init__(self, hub: Hub, *, send_timeout: float = SEND_TIMEOUT) -> None:
        self.hub, self.send_timeout = hub, send_timeout

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            client = self.hub.join(client_address(scope))
        except TooManyClients as exc:
            await _plain(send, 503, f"{exc}; try again later\n", [(b"retry-after", b"10")])
            return
        watcher = None
        try:
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"text/event-stream; charset=utf-8"),
                                    (b"cache-control", b"no-store"), (b"x-accel-buffering", b"no")]})
            if scope["method"] == "HEAD":
                await send({"type": "http.response.body", "body": b""})
                return
            await self._send(send, b"retry: 1000\n\n")
            watcher = asyncio.ensure_future(_watch(receive, client))
            while True:
                await client.ready.wait()
                client.ready.clear()
                if client.gone:         # gone, or the server stops: end the stream properly
                    await asyncio.wait_for(send({"type": "http.response.body", "body": b""}), self.send_timeout)
                    return
                waited = 0.0
                while self.hub.table_busy and waited < YIELD_AT_MOST:
                    await asyncio.sleep(YIELD_SECONDS)
                    waited += YIELD_SECONDS
                event = self.hub.event()
                if event is not None and event[0] != client.sent:
                    client.sent = event[0]
                    client.ping_due = False
                    await self._send(send, event[1])
                elif client.ping_due:
                    client.ping_due = False
                    await self._send(send, b": ping\n\n")
        except (asyncio.TimeoutError, OSError):
            log.info("web: dropped an event-stream client that stopped reading")
        finally:
            self.hub.leave(client)
            if watcher is not None:
                watcher.cancel()

    async def _send(self, send: Any, body: bytes) -> None:
        await asyncio.wait_for(send({"type": "http.response.body", "body": body, "more_body": True}),
                               self.send_timeout)


async def _watch(receive: Any, client: Any) -> None:
    """Wake the client's coroutine when its connection goes."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            client.gone = True
            client.ready.set()
            return


async def _pinger(hub: Hub, every: float) -> None:
    """A comment line on every stream now and then, so a dead client is found and dropped."""
    while True:
        await asyncio.sleep(every)
        hub.ping_all()


class WebApp:
    """The routes of the web view, over one hub, one key and one page context."""

    def __init__(self, hub: Hub, key: str, context: PageContext, *, send_timeout: float = SEND_TIMEOUT,
                 ping: float = PING_SECONDS, state_dir: Path | None = None, catalog: Any = None,
                 doorman: Doorman | None = None, league: web_league.LeagueSource | None = None,
                 league_name: str = "", proxy: str = "") -> None:
        self.hub, self.key, self.context = hub, key, context
        self.proxy = proxy              # [web] proxy: the addresses whose X-Forwarded-For is believed ("": none)
        self.league, self.league_name = league, league_name     # /league when the table plays in one
        self.doorman = doorman or Doorman()
        self.state_dir, self.catalog = state_dir, catalog        # the remembered games (/history, /stats)
        self.send_timeout, self.ping = send_timeout, ping
        self.assets = {name: (STATIC / name).read_bytes() for name in ASSETS}

    def routes(self) -> list[Any]:
        from starlette.routing import Route

        return [
            Route("/", self.board, methods=list(ALLOWED_METHODS)),
            Route("/p/{player}", self.player, methods=list(ALLOWED_METHODS)),
            Route(OVERLAY, self.overlay, methods=list(ALLOWED_METHODS)),
            Route("/api/state", self.api_state, methods=list(ALLOWED_METHODS)),
            Route("/events", EventStream(self.hub, send_timeout=self.send_timeout)),
            Route("/static/{name}", self.asset, methods=list(ALLOWED_METHODS)),
            Route("/history", self.history, methods=list(ALLOWED_METHODS)),
            Route("/stats", self.stats, methods=list(ALLOWED_METHODS)),
            Route("/api/history", self.api_history, methods=list(ALLOWED_METHODS)),
            Route("/api/stats", self.api_stats, methods=list(ALLOWED_METHODS)),
        ] + self._league_routes()

    # --- the league (issue 25): only when the table plays in one ----------------------
    def _league_routes(self) -> list[Any]:
        from starlette.routing import Route

        if self.league is None:
            return []
        return [Route("/league", self.league_page, methods=list(ALLOWED_METHODS)),
                Route("/api/league", self.api_league, methods=list(ALLOWED_METHODS))]

    async def league_page(self, request: Any) -> Any:
        from starlette.responses import HTMLResponse

        assert self.league is not None
        text = web_league.league_page(web_league.league_data(self.league()), self.league_name, self.context.language,
                                      self.key)
        return HTMLResponse(text, headers=_inline_style_headers())

    async def api_league(self, request: Any) -> Any:
        from starlette.responses import Response

        assert self.league is not None
        data = web_league.league_data(self.league())
        return Response(records_web.api_json(data), media_type="application/json", headers={"cache-control": "no-store"})

    def asgi(self) -> Any:
        from contextlib import asynccontextmanager

        from starlette.applications import Starlette

        @asynccontextmanager
        async def lifespan(_app: Any) -> AsyncIterator[None]:
            self.hub.attach(asyncio.get_running_loop())
            pinger = asyncio.ensure_future(_pinger(self.hub, self.ping))
            try:
                yield
            finally:
                pinger.cancel()
                self.hub.detach()

        app: Any = Guard(Starlette(routes=self.routes(), lifespan=lifespan), lambda: self.key, self.doorman)
        if self.proxy:                  # the device behind the proxy counts, not the proxy
            from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

            app = ProxyHeadersMiddleware(app, trusted_hosts=self.proxy)
        return Tracker(app, self.doorman)

    # --- handlers ---------------------------------------------------------------------
    async def board(self, request: Any) -> Any:
        return self._page("board")

    async def overlay(self, request: Any) -> Any:
        return self._page("overlay")

    async def player(self, request: Any) -> Any:
        from starlette.responses import PlainTextResponse

        player = request.path_params["player"]
        if player not in PLAYER_TOKENS:
            return PlainTextResponse(f"no such player: the pages are /p/{PLAYER_TOKENS[0]} … /p/{PLAYER_TOKENS[-1]}\n",
                                     status_code=404)
        return self._page("player", player)

    async def api_state(self, request: Any) -> Any:
        from starlette.responses import PlainTextResponse, Response

        # ?board=1: the whole payload an event carries (the page's first drawing, before its stream)
        state = self.hub.board_json() if request.query_params.get("board") == "1" else self.hub.state_json()
        if state is None:
            return PlainTextResponse("the table has not started yet\n", status_code=503)
        return Response(state, media_type="application/json", headers={"cache-control": "no-store"})

    async def asset(self, request: Any) -> Any:
        from starlette.responses import PlainTextResponse, Response

        name = request.path_params["name"]
        if name not in self.assets:
            return PlainTextResponse("not found\n", status_code=404)
        return Response(self.assets[name], media_type=ASSETS[name], headers={"cache-control": "no-store"})

    # the remembered games: read from the journal in a worker thread, never in the event loop
    async def history(self, request: Any) -> Any:
        return await self._records("history", page=True)

    async def stats(self, request: Any) -> Any:
        return await self._records("stats", page=True)

    async def api_history(self, request: Any) -> Any:
        return await self._records("history", page=False)

    async def api_stats(self, request: Any) -> Any:
        return await self._records("stats", page=False)

    async def _records(self, what: str, *, page: bool) -> Any:
        from starlette.concurrency import run_in_threadpool
        from starlette.responses import HTMLResponse, PlainTextResponse, Response


        if self.state_dir is None:
            return PlainTextResponse("no saved games here\n", status_code=404)
        try:
            if what == "history":
                data: Any = await run_in_threadpool(records_web.history_data, self.state_dir)
            else:
                data = await run_in_threadpool(records_web.stats_data, self.state_dir, self.catalog)
        except RecordsError as exc:
            return PlainTextResponse(f"{exc}\n", status_code=503)
        if not page:
            return Response(records_web.api_json(data), media_type="application/json", headers={"cache-control": "no-store"})
        language = self.context.language
        if what == "history":
            text = records_web.history_page(data, language, self.key)
        else:
            text = records_web.stats_page(data, language, self.key, names=self.context.names)
        return HTMLResponse(text, headers=_inline_style_headers())

    def _page(self, mode: str, player: str = "") -> Any:
        from starlette.responses import HTMLResponse

        headers = dict(PAGE_HEADERS)
        if mode == "overlay":           # a streaming program shows the overlay in a frame of its own
            headers["content-security-policy"] = headers["content-security-policy"].replace(
                "; frame-ancestors 'none'", "")
        return HTMLResponse(render_page(self.context, self.key, mode, player), headers=headers)


def _inline_style_headers() -> dict[str, str]:
    """The records' and the league's pages carry their own style sheet, and no script."""
    headers = dict(PAGE_HEADERS)
    headers["content-security-policy"] = headers["content-security-policy"].replace(
        "style-src 'self'", "style-src 'self' 'unsafe-inline'")
    return headers


async def _end_streams(hub: Hub) -> None:
    hub.end_all()
    for _ in range(100):
        if not hub.clients:
            return
        await asyncio.sleep(0.01)


class _QuietDrops(logging.Filter):
    """uvicorn calls a stream that ends without its last chunk an error; here that is a client
    dropped for not reading (logged as such by the event stream), not a fault."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("ASGI callable returned without completing response")


class WebServer:
    """uvicorn serving a WebApp from a thread of its own; ``start`` binds first, so a busy port is an
    OSError in the caller's thread."""

    def __init__(self, app: WebApp, bind: str, port: int, *, keep_alive: int = KEEP_ALIVE) -> None:
        self.app, self.bind, self.port = app, bind, port
        self.keep_alive = keep_alive    # uvicorn's timeout_keep_alive: an idle kept-alive connection closes
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def __repr__(self) -> str:
        state = "running" if self._thread is not None and self._thread.is_alive() else "stopped"
        return f"<WebServer {self.bind}:{self.port} {state}>"

    def start(self, *, timeout: float = 10.0) -> None:
        import time

        import uvicorn

        uvicorn_log = logging.getLogger("uvicorn.error")
        if uvicorn_log.level == logging.NOTSET:
            uvicorn_log.setLevel(logging.WARNING)   # not its start and stop lines: the table says those
        if not any(isinstance(f, _QuietDrops) for f in uvicorn_log.filters):
            uvicorn_log.addFilter(_QuietDrops())
        family = socket.AF_INET6 if ":" in self.bind else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)   # asyncio sets TCP_NODELAY only then
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)   # "::" takes IPv4 too
        try:
            sock.bind((self.bind, self.port))
        except OSError:
            sock.close()
            raise
        sock.listen(128)
        self.port = sock.getsockname()[1]
        app = self.app.asgi()
        settings: dict[str, Any] = dict(
            log_config=None, access_log=False, server_header=False, lifespan="on", loop="asyncio", ws="none",
            timeout_keep_alive=self.keep_alive, h11_max_incomplete_event_size=H11_MAX_EVENT,
            timeout_graceful_shutdown=1,
            # X-Forwarded-For is read inside asgi() and only from [web] proxy: uvicorn's own reading
            # believes any loopback peer by default (and FORWARDED_ALLOW_IPS from the environment)
            proxy_headers=False, forwarded_allow_ips="")
        h11 = uvicorn.Config(app, http="h11", **settings)
        h11.load()                      # uvicorn's h11 protocol, as its own setting names it
        config = uvicorn.Config(app, http=watched(self.app.doorman, h11.http_protocol_class), **settings)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._serve, args=(sock,), name="web", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started and self._thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        if not self._server.started:
            raise OSError(f"the web view did not start on {self.bind}:{self.port}")

    def _serve(self, sock: socket.socket) -> None:
        try:
            self._server.run(sockets=[sock])
        except Exception:               # the table goes on without its web view
            log.exception("web view stopped")
        finally:
            sock.close()

    def stop(self) -> None:
        loop = self.app.hub.loop
        if loop is not None:                # end the event streams first, so no client is cut off mid-way
            try:
                asyncio.run_coroutine_threadsafe(_end_streams(self.app.hub), loop).result(timeout=2)
            except Exception:               # the loop is gone or slow: uvicorn's own shutdown ends them
                pass
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=5)
