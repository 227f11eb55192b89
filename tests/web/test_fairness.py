"""Phones share fairly (issue 44): event streams per device, forwarded addresses only from a named proxy,
framing and caching refused, the key in no log line, and a table without the web extra plays on. Also the
limits that are uvicorn's own public settings, each with a test that fails when it stops working."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import table.web.server as web_server
from table.web.hub import PER_ADDRESS
from table.web.limits import Doorman
from tests.web.conftest import KEY, ROOT, http
from tests.web.test_server import SseReader, _closed, _first_response, _from, _port, served, table  # noqa: F401  (fixtures)


def _stream_from(address: str, port: int, *, forwarded: str = "") -> tuple[socket.socket, int]:
    """An event-stream request from a loopback address: (its socket, the status it was answered)."""
    s = _from(address, port)
    extra = f"X-Forwarded-For: {forwarded}\r\n" if forwarded else ""
    s.sendall(f"GET /events?key={KEY} HTTP/1.1\r\nHost: x\r\n{extra}\r\n".encode())
    head = b""
    while b"\r\n" not in head:
        chunk = s.recv(100)
        if not chunk:
            break
        head += chunk
    return s, int(head.split(b" ")[1]) if head.startswith(b"HTTP/1.1 ") else 0


def test_one_device_holding_32_streams_leaves_a_stream_for_a_phone_elsewhere(served) -> None:
    hub, base = served(per_address=PER_ADDRESS)
    port = _port(base)
    held = [_stream_from("127.0.0.2", port) for _ in range(32)]
    try:
        statuses = [status for _s, status in held]
        assert statuses.count(200) == PER_ADDRESS <= 4 and statuses.count(503) == 32 - PER_ADDRESS, statuses
        phone, status = _stream_from("127.0.0.1", port)
        phone.close()
        assert status == 200                                # its own stream, although another device asked 32
        assert http(base + f"/events?key={KEY}", method="HEAD")[0] == 200
    finally:
        for s, _status in held:
            s.close()


def test_wrong_keys_behind_a_changing_forwarded_for_are_limited_with_no_proxy_named(served) -> None:
    _hub, base = served(doorman=Doorman(wrong_keys=5))
    answers = [http(base + "/api/state?key=wrong-key-1234567", headers={"X-Forwarded-For": f"10.9.8.{n}"})[0]
               for n in range(8)]
    assert answers == [403] * 5 + [429] * 3              # all from 127.0.0.1, whatever the header says


def test_a_named_proxy_is_believed_and_each_device_behind_it_counts_alone(served) -> None:
    hub, base = served(proxy="127.0.0.1", doorman=Doorman(wrong_keys=5, request_timeout=1.0), per_address=2)
    port = _port(base)
    for n in range(8):                                   # eight devices, one wrong key each: none is limited
        assert http(base + "/api/state?key=wrong-key-1234567", headers={"X-Forwarded-For": f"10.9.8.{n}"})[0] == 403
    streams = [_stream_from("127.0.0.1", port, forwarded="10.1.1.1") for _ in range(3)]
    other, status = _stream_from("127.0.0.1", port, forwarded="10.1.1.2")
    try:
        assert [st for _s, st in streams] == [200, 200, 503] and status == 200
        time.sleep(2.0)                                  # past the request deadline: an answered stream is not cut
        hub.publish({"phase": "setup", "players": [], "n": 7})
        other.settimeout(5)
        got = b""
        while b'"n":7' not in got:
            chunk = other.recv(65536)
            assert chunk, got[-300:]
            got += chunk
    finally:
        for s, _st in streams:
            s.close()
        other.close()


def test_every_response_but_the_overlays_forbids_framing_and_none_is_stored(served) -> None:
    _hub, base = served()
    for path in ("/", "/p/player-1", "/api/state", "/static/board.js", "/static/board.css", "/nowhere", "/history"):
        for key in (f"?key={KEY}", "", "?key=wrong-key-1234567"):
            status, headers, _ = http(base + path + key)
            assert headers.get("x-frame-options") == "DENY", (path, key, status)
            assert headers.get("cache-control") == "no-store", (path, key, status, headers.get("cache-control"))
    status, headers, _ = http(base + f"/events?key={KEY}", method="HEAD")
    assert status == 200 and headers.get("x-frame-options") == "DENY" and headers.get("cache-control") == "no-store"
    status, headers, _ = http(base + f"/overlay?key={KEY}")
    assert status == 200 and "x-frame-options" not in {k.lower() for k in headers}
    assert "frame-ancestors" not in headers["content-security-policy"] and headers["cache-control"] == "no-store"
    assert "frame-ancestors 'none'" in http(base + f"/?key={KEY}")[1]["content-security-policy"]


def test_a_stream_being_answered_outlives_the_request_deadline(served) -> None:
    hub, base = served(doorman=Doorman(request_timeout=0.5))
    reader = SseReader(base)
    try:
        reader.read_events(lambda ev: len(ev) >= 1)
        time.sleep(1.2)                                  # the deadline bounds a request until it is answered
        hub.publish({"phase": "setup", "players": [], "n": 3})
        assert reader.read_events(lambda ev: any(e.get("n") == 3 for e in ev))
    finally:
        reader.close()


def test_the_qr_codes_address_keeps_the_key_and_the_logged_one_masks_it() -> None:
    from types import SimpleNamespace

    from table.web import WebView

    web = WebView(None, SimpleNamespace(port=8080), KEY, "192.168.1.20")
    assert web.url == f"http://192.168.1.20:8080/?key={KEY}"
    assert web.masked_url == "http://192.168.1.20:8080/?key=…"


# --- limits that are uvicorn's public settings --------------------------------------------
def test_an_idle_kept_alive_connection_is_closed_after_the_keep_alive(served) -> None:
    _hub, base = served(keep_alive=1, doorman=Doorman(request_timeout=30))
    s = _from("127.0.0.1", _port(base))
    try:
        first = _first_response(s)
        started = time.monotonic()
        assert _closed(s, 10) and time.monotonic() - started < 4     # uvicorn's own is 5 s
    finally:
        s.close()


def test_an_incomplete_request_over_the_size_limit_is_refused_at_once(served, monkeypatch) -> None:
    monkeypatch.setattr(web_server, "H11_MAX_EVENT", 4096)            # uvicorn's own allows 16 KB
    _hub, base = served(doorman=Doorman(request_timeout=30))
    s = _from("127.0.0.1", _port(base))
    try:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 8000)      # and never the end of it
        s.settimeout(5)
        assert s.recv(100).startswith(b"HTTP/1.1 400")
    finally:
        s.close()


# --- the key in no log line; a table without the web extra ---------------------------------
def test_the_key_is_in_no_log_line_and_the_logged_address_masks_it(running_table) -> None:
    table = running_table()
    table.send("tap player-1", "tap player-2")
    table.wait_state(lambda s: len(s["players"]) == 2)
    assert table.stop() == 0
    log = "".join(table.lines)
    assert KEY not in log, [line for line in table.lines if KEY in line]
    assert f"{table.url}?key=…" in log                  # the address is logged, its key masked


def test_without_starlette_the_table_says_how_to_install_it_and_plays_on(tmp_path: Path) -> None:
    config = tmp_path / "web.toml"
    config.write_text(f'[storage]\nstate_dir = "{tmp_path / "state"}"\n[display]\nsound = false\n'
                      f'[web]\nenabled = true\nbind = "127.0.0.1"\nport = 0\nkey = "{KEY}"\n', encoding="utf-8")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}
    blocked = ("import runpy, sys; sys.modules['starlette'] = None; sys.modules['uvicorn'] = None; "
               f"sys.argv = ['munchkin-table', 'run', '--sim', '--config', {str(config)!r}]; "
               "runpy.run_module('table', run_name='__main__')")
    proc = subprocess.Popen([sys.executable, "-c", blocked], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    try:
        for line in proc.stderr:  # type: ignore[union-attr]
            lines.append(line)
            if "web view not started" in line:
                break
        proc.stdin.write("tap player-1\ntap player-2\ntap player-3\npress next\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]
        time.sleep(3)
        assert proc.poll() is None, "".join(lines)       # still playing
    finally:
        proc.send_signal(signal.SIGINT)
        rest = proc.communicate(timeout=30)[1]
    said = [line for line in lines + rest.splitlines() if "pip install 'munchkin-table[web]'" in line]
    errors = [line for line in said if " ERROR " in line]     # one line in the log; the rest is the screen's echo
    assert len(errors) == 1 and "web view needs starlette and uvicorn" in errors[0], "".join(lines) + rest
    assert all("web view not started" in line for line in said)
    assert "Traceback" not in "".join(lines) + rest
    out = subprocess.run([sys.executable, "-m", "table", "state", "--config", str(config)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, env=env)
    assert '"phase": "kick-open-the-door"' in out.stdout


def test_start_web_names_the_extra_when_uvicorn_is_missing(tmp_path: Path, monkeypatch, catalog) -> None:
    from table.config import parse_config
    from table.web import WebUnavailable, start_web

    config = parse_config({"storage": {"state_dir": str(tmp_path / "state")}, "web": {"enabled": True, "port": 0}})
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    with pytest.raises(WebUnavailable) as info:
        start_web(config, catalog, "en")
    assert str(info.value) == ("the web view needs uvicorn, not installed here: pip install 'munchkin-table[web]'")
    assert not (tmp_path / "state" / "web.key").exists()     # nothing made before it said so


def test_the_table_with_the_web_view_loads_starlette_only_to_serve() -> None:
    probe = ("import sys, table.app.run, table.web, table.web.server, table.web.limits; "
             "print(sorted(m for m in ('starlette', 'uvicorn', 'h11') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_nothing_in_table_imports_uvicorns_protocols_or_h11() -> None:
    import ast

    found = []
    for path in (ROOT / "table").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.relative_to(ROOT)}: {n}" for n in names
                      if n == "h11" or n.startswith(("h11.", "uvicorn.protocols"))]
    assert not found
