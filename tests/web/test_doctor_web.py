"""doctor says whether the web view is reachable, and on which address; it writes nothing."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from table.config import parse_config
from table.web.checks import web_check
from tests.web.conftest import ROOT


def config_for(tmp_path: Path, **web) -> object:  # type: ignore[no-untyped-def]
    return parse_config({"storage": {"state_dir": str(tmp_path / "state")}, "web": web})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_off_by_default(tmp_path: Path) -> None:
    check = web_check(config_for(tmp_path))
    assert check.ok and "off" in check.detail


def test_on_with_the_table_stopped_says_where_it_will_be(tmp_path: Path) -> None:
    port = free_port()
    check = web_check(config_for(tmp_path, enabled=True, bind="127.0.0.1", port=port), unit_dir=tmp_path)
    assert check.ok and f"http://127.0.0.1:{port}/" in check.detail and "stopped" in check.detail
    assert not (tmp_path / "state").exists()            # doctor only reads


def test_a_port_taken_by_another_program_fails_with_the_fix(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        port = holder.getsockname()[1]
        check = web_check(config_for(tmp_path, enabled=True, bind="127.0.0.1", port=port), unit_dir=tmp_path)
    assert not check.ok and f"port {port} is taken" in check.detail and "[web] port" in check.fix


def test_an_installed_unit_without_the_dropin_fails_with_the_fix(tmp_path: Path) -> None:
    (tmp_path / "munchkin-table.service").write_text("[Service]\n")
    check = web_check(config_for(tmp_path, enabled=True), unit_dir=tmp_path)
    assert not check.ok and "web.conf" in check.fix


def test_a_running_table_is_reachable_and_doctor_says_where(tmp_path: Path, running_table) -> None:
    port = free_port()
    table = running_table(port=port)
    assert table.url == f"http://127.0.0.1:{port}/"
    out = subprocess.run([sys.executable, "-m", "table", "doctor", "--config", str(table.config)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert f"[ok] web view: reachable at http://127.0.0.1:{port}/" in out.stdout, out.stdout
    table.stop()
    check = web_check(parse_config({"storage": {"state_dir": str(table.config.parent / "state-0")},
                                    "web": {"enabled": True, "bind": "127.0.0.1", "port": port}}), unit_dir=tmp_path)
    assert check.ok and "stopped" in check.detail


def test_doctor_names_every_address_the_view_answers_on(tmp_path: Path, monkeypatch) -> None:
    import table.web as web

    monkeypatch.setattr(web, "lan_addresses", lambda bind: ["192.168.4.1", "10.0.0.5", "fd12::1"])
    monkeypatch.setattr(web, "lan_address", lambda bind: "192.168.4.1")
    for _attempt in range(5):       # a port free a moment ago may be another parallel test's by now
        port = free_port()
        check = web_check(config_for(tmp_path, enabled=True, bind="::", port=port), unit_dir=tmp_path)
        if "taken by another program" not in check.detail:
            break
    assert check.ok
    assert check.detail.index(f"http://192.168.4.1:{port}/") < check.detail.index(f"http://10.0.0.5:{port}/")
    assert f"http://[fd12::1]:{port}/" in check.detail


def test_doctor_says_when_no_network_address_is_there_yet(tmp_path: Path, monkeypatch) -> None:
    import table.web as web

    monkeypatch.setattr(web, "lan_addresses", lambda bind: [])
    monkeypatch.setattr(web, "lan_address", lambda bind: "127.0.0.1")
    check = web_check(config_for(tmp_path, enabled=True, bind="0.0.0.0", port=free_port()), unit_dir=tmp_path)
    assert "no network address yet" in check.detail
