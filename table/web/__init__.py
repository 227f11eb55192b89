"""The live board for the phones at the table: a read-only, keyed web view on the local network.

Off by default; ``[web] enabled = true`` turns it on. The table's loop hands the
newest board to ``WebView.publish`` after each accepted change and never waits
on the web side (see hub.py); the server runs in a thread of its own (server.py).
A page's words and shell are pages.py's; the remembered games (/history, /stats)
are read and drawn by records.py. ``start_web`` here puts them together: hub,
pages, records and server never import this package (only checks.py, the
doctor's, uses its ``lan_address``).

May import: engine, cards, drivers, table.config, table.storage, table.session, table.control and
table.ui (its words and the view model, never pygame). Never the command line.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import socket
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

KEY_FILE = "web.key"
ADDRESS_EVERY = 10.0        # seconds between looks for a changed network address (Wi-Fi comes up late)


class WebKeyError(OSError):
    """The web view's key file cannot be read or made."""


def web_key(state_dir: Path, configured: str = "") -> str:
    """The key in the config, else the one kept in the state directory (made once, readable by the owner only)."""
    if configured:
        return configured
    path = state_dir / KEY_FILE
    try:
        text = path.read_text(encoding="ascii", errors="replace").strip()
        if re.fullmatch(r"[A-Za-z0-9_-]{8,128}", text):
            return text
        log.warning("%s does not hold a usable key; making a new one", path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise WebKeyError(f"cannot read the web key {path}: {exc.strerror or exc}") from None
    key = secrets.token_urlsafe(12)
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".new")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(key + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        raise WebKeyError(f"cannot keep the web key in {path}: {exc.strerror or exc}") from None
    return key


def lan_address(bind: str) -> str:
    """The address a phone on the table's network reaches the box at.

    A specific bind address is itself; for "0.0.0.0" or "::" the address of the interface
    holding the default route (a UDP socket's connect only consults the routing table: no
    packet is sent), else the loopback address.
    """
    if bind not in ("0.0.0.0", "::", ""):
        return bind
    for family, probe in ((socket.AF_INET, ("10.254.254.254", 9)), (socket.AF_INET6, ("fd00::1", 9))):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as sock:
                sock.connect(probe)
                address = str(sock.getsockname()[0])
        except OSError:
            continue
        if address and not address.startswith(("0.", "127.")) and address != "::1":
            return address
    return "127.0.0.1"


def join_url(address: str, port: int, key: str, path: str = "/") -> str:
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}{path}?key={key}"


def board_payload(view: Any) -> dict[str, Any]:
    """What a page gets on each change: the state JSON, plus a ``board`` key with what the screen adds."""
    return {**view.state, "board": {
        "message": view.message, "message_kind": view.message_kind,
        "prompt": view.prompt, "prompt_kind": view.prompt_kind,
        "acting": view.acting, "actions": view.actions,
        "window_left": view.window_left, "window_total": view.window_total,
        "monsters": view.monsters,
    }}


class WebView:
    """The running web view: its hub, its server and the address that joins it."""

    def __init__(self, hub: Any, server: Any, key: str, address: str, *, bind: str = "") -> None:
        self.hub, self.server, self.key, self.address = hub, server, key, address
        self.bind = bind or address
        self._looked = time.monotonic()

    def refresh_address(self, now: float | None = None) -> bool:
        """Look again, now and then, for the address phones reach (a box that boots before its
        Wi-Fi is up starts on the loopback address); True when it changed and the screen should show it."""
        if self.bind not in ("0.0.0.0", "::"):
            return False
        now = time.monotonic() if now is None else now
        if now - self._looked < ADDRESS_EVERY:
            return False
        self._looked = now
        address = lan_address(self.bind)
        if address == self.address:
            return False
        log.info("web view now on %s", address)
        self.address = address
        return True

    def __repr__(self) -> str:
        return f"<WebView {self.url_text} clients={len(self.hub.clients)}>"

    @property
    def port(self) -> int:
        return int(self.server.port)

    @property
    def url(self) -> str:
        return join_url(self.address, self.port, self.key)

    @property
    def url_text(self) -> str:
        """The address without the key, for showing beside the QR code."""
        host = f"[{self.address}]" if ":" in self.address else self.address
        return f"http://{host}:{self.port}/"

    def publish(self, view: Any) -> None:
        self.hub.publish(board_payload(view))

    def busy(self, flag: bool) -> None:
        self.hub.busy(flag)

    def close(self) -> None:
        self.server.stop()


def start_web(config: Any, catalog: Any, language: str, *, first: Any = None) -> WebView:
    """Start the web view the config describes; raises OSError (a busy port, an unusable key file)."""
    from table.web.hub import Hub
    from table.web.pages import page_context
    from table.web.server import WebApp, WebServer

    key = web_key(config.state_dir, config.web.key)
    hub = Hub()
    if first is not None:
        hub.publish(board_payload(first))
    app = WebApp(hub, key, page_context(catalog, language), state_dir=config.state_dir, catalog=catalog)
    server = WebServer(app, config.web.bind, config.web.port)
    server.start()
    web = WebView(hub, server, key, lan_address(config.web.bind), bind=config.web.bind)
    log.info("web view on %s (bound to %s:%d)", web.url_text, config.web.bind, web.port)
    return web
