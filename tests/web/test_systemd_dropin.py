"""systemd/web.conf: with the web view on, the unit lets in the local networks only, and stays hardened."""

from __future__ import annotations

import ipaddress
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "munchkin-table.service"
DROPIN = ROOT / "systemd" / "web.conf"
needs_systemd = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")


def installed(tmp_path: Path) -> Path:
    """A root directory with the unit and the drop-in where the installer puts them."""
    system = tmp_path / "etc" / "systemd" / "system"
    (system / "munchkin-table.service.d").mkdir(parents=True)
    # verify checks that ExecStart exists; point it at a binary this machine has.
    (system / "munchkin-table.service").write_text(
        UNIT.read_text().replace("/opt/munchkin-table/.venv/bin/munchkin-table run", "/bin/true"))
    shutil.copy(DROPIN, system / "munchkin-table.service.d" / "web.conf")
    return tmp_path


def settings(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            out.setdefault(key, []).extend(value.split())
    return out


def test_the_dropin_allows_only_local_networks_and_ip_families() -> None:
    conf = settings(DROPIN)
    assert set(conf) == {"RestrictAddressFamilies", "IPAddressAllow"}
    assert conf["RestrictAddressFamilies"] == ["AF_INET", "AF_INET6"]
    for entry in conf["IPAddressAllow"]:
        if entry in ("localhost", "link-local"):
            continue
        net = ipaddress.ip_network(entry)
        assert net.is_private and not net.is_global, entry
    assert "any" not in conf["IPAddressAllow"] and "IPAddressDeny" in settings(UNIT)


@needs_systemd
def test_the_unit_with_the_dropin_keeps_exposure_at_2_0_or_lower(tmp_path: Path) -> None:
    root = installed(tmp_path)
    out = subprocess.run(["systemd-analyze", "security", "--offline=true", "--threshold=20", f"--root={root}",
                          "munchkin-table.service"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-800:] + out.stderr[-800:]
    assert "may allocate Internet sockets" in out.stdout        # the drop-in was read


@needs_systemd
def test_the_unit_with_the_dropin_verifies_cleanly(tmp_path: Path) -> None:
    combined = tmp_path / "munchkin-table.service"
    combined.write_text(UNIT.read_text().replace("/opt/munchkin-table/.venv/bin/munchkin-table run", "/bin/true")
                        + "\n" + DROPIN.read_text())
    out = subprocess.run(["systemd-analyze", "verify", str(combined)], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout + out.stderr == ""
