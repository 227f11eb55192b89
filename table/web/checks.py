"""doctor's check of the web view: is it on, on which address, and does it answer there.

Reads only: the key file is not made here (the table makes it when it starts).
"""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path

from drivers.doctor import Check
from table.config import Config
from table.storage.paths import table_running
from table import web as web_view       # its addresses read through the module, as the tests replace them

# The installed unit's directory; the tests point it elsewhere, so a box's own unit cannot leak into them.
UNIT_DIR = Path(os.environ.get("MUNCHKIN_UNIT_DIR") or "/etc/systemd/system")
DROPIN = "munchkin-table.service.d/web.conf"


def web_check(config: Config, *, unit_dir: Path = UNIT_DIR, timeout: float = 3.0) -> Check:

    web = config.web
    if not web.enabled:
        return Check("web view", True, "off ([web] enabled = false in the config turns it on)")
    address = web_view.lan_address(web.bind)
    host = f"[{address}]" if ":" in address else address
    where = web_view.base_url(address, web.port, web.url)
    others = [web_view.base_url(a, web.port) for a in web_view.lan_addresses(web.bind)]
    others = [u for u in others if u != where]
    if others:                          # every address it answers on, the one on the screen first
        where += " (also " + ", ".join(others) + ")"
    elif address == "127.0.0.1" and web.bind in ("0.0.0.0", "::"):
        where += " (no network address yet: phones cannot reach it until this box joins a network)"
    if (unit_dir / "munchkin-table.service").exists() and not (unit_dir / DROPIN).exists():
        return Check("web view", False, f"on in the config ({where}), but the service's unit denies all network access",
                     f"sudo install -D -m 644 systemd/web.conf {unit_dir / DROPIN} && sudo systemctl daemon-reload "
                     f"&& sudo systemctl restart munchkin-table")
    if web.port == 0:
        return Check("web view", True, f"on a free port chosen at start, at {host} (see the box's screen)")
    if not table_running(config.state_dir):
        family = socket.AF_INET6 if ":" in web.bind else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((web.bind, web.port))
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    return Check("web view", False, f"port {web.port} is taken by another program",
                                 "stop that program, or set another [web] port in the config")
                return Check("web view", False, f"cannot listen on {web.bind}:{web.port}: {exc.strerror or exc}",
                             "set [web] bind to an address of this box, or \"0.0.0.0\"")
        return Check("web view", True, f"will be at {where} when the table runs (the table is stopped now)")
    status = _ask(address, web.port, timeout)
    if status is None:
        return Check("web view", False, f"the table runs, but nothing answers at {where}",
                     "look at the table's log (journalctl -u munchkin-table) for 'web view not started'")
    return Check("web view", True, f"reachable at {where} (phones join with the QR code on the setup screen)")


def _ask(address: str, port: int, timeout: float) -> int | None:
    """The HTTP status the web view answers a keyless request with (403), or None when nothing answers."""
    import http.client

    try:
        conn = http.client.HTTPConnection(address, port, timeout=timeout)
        conn.request("GET", "/api/state")
        status = conn.getresponse().status
        conn.close()
        return status
    except (OSError, http.client.HTTPException):
        return None
