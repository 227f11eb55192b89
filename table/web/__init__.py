"""The live board for the phones at the table: a read-only, keyed web view on the local network.

Off by default; ``[web] enabled = true`` turns it on. The table's loop hands the
newest board to ``WebView.publish`` after each accepted change and never waits
on the web side (see hub.py); the server runs in a thread of its own (server.py).
A page's words and shell are pages.py's; the remembered games (/history, /stats)
are read and drawn by records.py. ``start_web`` here puts them together: hub,
pages, records and server never import this package (only checks.py, the
doctor's, uses its ``lan_address``).

May import: engine, cards, drivers, table.config, table.storage, table.session, table.control,
table.words (its words) and table.league (the /league page's standings). Never the screen (table.ui) nor
the command line.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import time
from pathlib import Path
from typing import Any

from table.web.addresses import lan_address, lan_addresses
from table.words.i18n import player_name
from table.web.hub import Hub
from table.web.pages import page_context
from table.web.server import WebApp, WebServer

__all__ = ["lan_address", "lan_addresses", "join_url", "base_url", "web_key", "read_key", "rotate_key", "start_web",
           "WebView", "WebUnavailable", "check_installed", "board_payload"]

log = logging.getLogger(__name__)

KEY_FILE = "web.key"
ADDRESS_EVERY = 10.0        # seconds between looks for a changed network address (Wi-Fi comes up late)
KEY_EVERY = 1.0             # seconds between looks for a rotated key (one small file): a phone shut out at once


class WebKeyError(OSError):
    """The web view's key file cannot be read or made."""


class WebUnavailable(ImportError):
    """Starlette or uvicorn is not installed: the web view is an extra of the package."""


INSTALL = "pip install 'munchkin-table[web]'"
MASK = "…"                  # the key as logs show it: never the key itself


KEY_PATTERN = r"[A-Za-z0-9_-]{16,128}"       # it goes in a URL; 16 characters at the least (96 bits random)


def web_key(state_dir: Path, configured: str = "") -> str:
    """The key in the config, else the one kept in the state directory (made once, readable by the owner only)."""
    if configured:
        return configured
    key = read_key(state_dir)
    return key or rotate_key(state_dir)


def read_key(state_dir: Path) -> str:
    """The key kept in the state directory ('' when there is none, or it is not a usable key)."""
    path = state_dir / KEY_FILE
    try:
        text = path.read_text(encoding="ascii", errors="replace").strip()
    except FileNotFoundError:
        return ""
    except OSError as exc:
        raise WebKeyError(f"cannot read the web key {path}: {exc.strerror or exc}") from None
    if re.fullmatch(KEY_PATTERN, text):
        return text
    log.warning("%s does not hold a usable key (16-128 letters, digits, '-' or '_'); making a new one", path)
    return ""


def rotate_key(state_dir: Path) -> str:
    """A new random key in the state directory, replacing the old one at once (written aside, then renamed)."""
    key = secrets.token_urlsafe(18)     # 24 characters
    path = state_dir / KEY_FILE
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


def join_url(address: str, port: int, key: str, path: str = "/") -> str:
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}{path}?key={key}"


def base_url(address: str, port: int, configured: str = "") -> str:
    """The address phones open, without the key: ``[web] url`` when set (a name in the local DNS,
    a port forwarded elsewhere), else this box's address and port."""
    if configured:
        return configured.rstrip("/") + "/"
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/"


def board_payload(view: Any, can: list[dict[str, str]] | None = None) -> dict[str, Any]:
    """What a page gets on each change: the state JSON with what can be done now (``can``, in words),
    plus a ``board`` key with what the screen adds (among it each player's name as the screen shows
    it, "Player 1" in the table's language, and the seat of each player's pad on a box with a pad at
    every seat)."""

    names = {p["id"]: player_name(p["id"], p["name"]) for p in view.state.get("players", [])}
    return {**view.state, "can": can or [], "board": {
        "seats": {player: pad[0] for player, pad in view.pads.items()},
        "names": names,
        "message": view.message, "message_kind": view.message_kind,
        "prompt": view.prompt, "prompt_kind": view.prompt_kind,
        "acting": view.acting, "actions": view.actions,
        "window_left": view.window_left, "window_total": view.window_total,
        "monsters": view.monsters,
    }}


class WebView:
    """The running web view: its hub, its server and the address that joins it."""

    def __init__(self, hub: Any, server: Any, key: str, address: str, *, bind: str = "", url: str = "",
                 key_dir: Path | None = None) -> None:
        self.hub, self.server, self.key, self.address = hub, server, key, address
        self.bind = bind or address
        self.configured_url = url
        self.key_dir = key_dir          # where a rotated key appears (None: the key is the config's)
        self._looked = self._key_looked = time.monotonic()

    def refresh_address(self, now: float | None = None) -> bool:
        """Look again, now and then, for the address phones reach (a box that boots before its
        Wi-Fi is up starts on the loopback address) and for a rotated key; True when either changed
        and the screen should show the new QR code."""
        now = time.monotonic() if now is None else now
        changed = False
        if now - self._key_looked >= KEY_EVERY:
            self._key_looked = now
            changed = self.refresh_key()
        if now - self._looked < ADDRESS_EVERY:
            return changed
        self._looked = now
        if self.bind not in ("0.0.0.0", "::") or self.configured_url:
            return changed
        address = lan_address(self.bind)
        if address == self.address:
            return changed
        log.info("web view now on %s", address)
        self.address = address
        return True

    def refresh_key(self) -> bool:
        """Take up a key rotated by ``munchkin-table web key --rotate``: pages with the old one get 403
        from now on, and the streams they hold end."""
        if self.key_dir is None:
            return False
        try:
            key = read_key(self.key_dir)
        except WebKeyError as exc:
            log.warning("%s", exc)
            return False
        if not key or key == self.key:
            return False
        self.key = key
        self.server.app.key = key
        self.hub.end_all()
        log.info("web view: the key was rotated; phones join again with the new QR code")
        return True

    def __repr__(self) -> str:
        return f"<WebView {self.url_text} clients={len(self.hub.clients)}>"

    @property
    def port(self) -> int:
        return int(self.server.port)

    @property
    def url(self) -> str:
        return f"{self.url_text}?key={self.key}"

    @property
    def masked_url(self) -> str:
        """The address with the key masked, for logs (the journal is readable by more than the owner)."""
        return f"{self.url_text}?key={MASK}"

    @property
    def url_text(self) -> str:
        """The address without the key, for showing beside the QR code."""
        return base_url(self.address, self.port, self.configured_url)

    def publish(self, view: Any, can: list[dict[str, str]] | None = None) -> None:
        self.hub.publish(board_payload(view, can))

    def busy(self, flag: bool) -> None:
        self.hub.busy(flag)

    def close(self) -> None:
        self.server.stop()


def start_web(config: Any, catalog: Any, language: str, *, first: Any = None, league: Any = None) -> WebView:
    """Start the web view the config describes; raises OSError (a busy port, an unusable key file) or
    WebUnavailable (Starlette or uvicorn not installed)."""
    check_installed()
    key = web_key(config.state_dir, config.web.key)
    hub = Hub()
    if first is not None:
        hub.publish(board_payload(first))
    app = WebApp(hub, key, page_context(catalog, language), state_dir=config.state_dir, catalog=catalog,
                 league=league, league_name=config.league.league, proxy=config.web.proxy)
    server = WebServer(app, config.web.bind, config.web.port)
    server.start()
    web = WebView(hub, server, key, lan_address(config.web.bind), bind=config.web.bind, url=config.web.url,
                  key_dir=None if config.web.key else config.state_dir)
    log.info("web view on %s (bound to %s:%d)", web.url_text, config.web.bind, web.port)
    return web


def check_installed() -> None:
    """Raise WebUnavailable, naming the install command, when Starlette or uvicorn is missing. They are
    imported here and in the server's own functions only: a table with the web view off never loads them."""
    missing = []
    for name in ("starlette", "uvicorn"):
        try:
            __import__(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise WebUnavailable(f"the web view needs {' and '.join(missing)}, not installed here: {INSTALL}")
