"""A real Mosquitto for the league's tests: on loopback, on free ports, with a password file, the ACL
docs/league.md documents, and a TLS listener whose certificates a test CA (openssl) signed."""

from __future__ import annotations

import getpass
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "league.md"
LEAGUE = "friday"           # the league the documented ACL names


def missing() -> str:
    """Why the broker cannot run here ("" when it can)."""
    gone = [p for p in (MOSQUITTO, PASSWD, OPENSSL) if not os.access(p, os.X_OK)]
    return f"skipped: no mosquitto ({', '.join(gone)} missing; .ci/run installs it: apt-get install mosquitto)" if gone else ""


def documented_acl() -> str:
    """The ACL lines of docs/league.md, as the shop would copy them."""
    text = DOCS.read_text()
    found = re.search(r"<!-- acl:[^>]*-->\n```acl\n(.*?)```", text, re.S)
    assert found, "docs/league.md has no ```acl block after its <!-- acl --> marker"
    return found.group(1)


def free_port() -> int:
    return free_ports(1)[0]


def free_ports(n: int) -> list[int]:
    """``n`` different free ports (all held open at once while they are picked, so none comes twice)."""
    held = []
    try:
        for _ in range(n):
            s = socket.socket()
            held.append(s)
            s.bind(("127.0.0.1", 0))
        return [int(s.getsockname()[1]) for s in held]
    finally:
        for s in held:
            s.close()


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run([OPENSSL, *args], cwd=cwd, check=True, capture_output=True)


def make_ca(where: Path, name: str) -> tuple[Path, Path]:
    """A CA: (cert, key)."""
    where.mkdir(parents=True, exist_ok=True)
    key, crt = where / f"{name}.key", where / f"{name}.crt"
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={name}",
             "-keyout", str(key), "-out", str(crt), cwd=where)
    return crt, key


def sign(where: Path, ca: tuple[Path, Path], name: str, *, server: bool) -> tuple[Path, Path]:
    """A certificate for ``name`` (CN; for a server also its loopback SAN) signed by ``ca``: (cert, key)."""
    key, csr, crt, ext = (where / f"{name}.key", where / f"{name}.csr", where / f"{name}.crt", where / f"{name}.ext")
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={name}", "-keyout", str(key), "-out", str(csr),
             cwd=where)
    ext.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n" if server else "extendedKeyUsage=clientAuth\n")
    _openssl("x509", "-req", "-in", str(csr), "-CA", str(ca[0]), "-CAkey", str(ca[1]), "-CAcreateserial",
             "-days", "2", "-out", str(crt), "-extfile", str(ext), cwd=where)
    return crt, key


class PortTaken(RuntimeError):
    """Another process took one of the broker's ports between their choice and its start."""


SAVES = """persistence true
persistence_location {data}/
autosave_on_changes true
autosave_interval 1
log_dest file {log}
log_type all"""


class Mosquitto:
    """One broker process: ``start``, ``kill`` (SIGKILL), ``start`` again on the same ports and data."""

    def __init__(self, where: Path, users: dict[str, str], *, saves: bool = True) -> None:
        """``saves=False``: no persistence and no log (a bench's broker that stands for one on another
        machine, whose disk work this one must not see)."""
        self.where = where
        where.mkdir(parents=True, exist_ok=True)
        self.port, self.tls_port, self.cert_port = free_ports(3)
        self.started = False
        self.ca = make_ca(where / "ca", "league-ca")
        self.server = sign(where / "ca", self.ca, "broker", server=True)
        self.passwd = where / "passwd"
        self.passwd.write_text("")
        for user, password in users.items():
            subprocess.run([PASSWD, "-b", str(self.passwd), user, password], check=True, capture_output=True)
        (where / "acl").write_text(documented_acl())
        (where / "data").mkdir(exist_ok=True)
        self.saves = saves
        self._configure()
        self.proc: subprocess.Popen[bytes] | None = None

    def _configure(self) -> None:
        where, saves = self.where, self.saves
        ca, (crt, key) = self.ca[0], self.server
        (where / "mosquitto.conf").write_text(f"""
user {getpass.getuser()}
per_listener_settings false
allow_anonymous false
password_file {self.passwd}
acl_file {where / 'acl'}
{SAVES.format(data=where / 'data', log=where / 'mosquitto.log') if saves else "persistence false"}
listener {self.port} 127.0.0.1
listener {self.tls_port} 127.0.0.1
cafile {ca}
certfile {crt}
keyfile {key}
listener {self.cert_port} 127.0.0.1
cafile {ca}
certfile {crt}
keyfile {key}
require_certificate true
use_identity_as_username true
""")

    def url(self, kind: str = "plain") -> str:
        port = {"plain": self.port, "tls": self.tls_port, "cert": self.cert_port}[kind]
        return f"{'mqtt' if kind == 'plain' else 'mqtts'}://127.0.0.1:{port}"

    def start(self) -> Mosquitto:
        """Start (again on the same ports). The first start takes other free ports when another process
        took one of these meanwhile."""
        for _attempt in range(5):
            try:
                self._start()
                self.started = True
                return self
            except PortTaken:
                if self.started:
                    raise
                self.port, self.tls_port, self.cert_port = free_ports(3)
                self._configure()
        raise RuntimeError("mosquitto found no free ports in 5 attempts")

    def _start(self) -> None:
        logged = len(self.log())                   # what this start writes to the log comes after
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.where / "mosquitto.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                said = (self.proc.stderr.read().decode() if self.proc.stderr else "") + self.log()[logged:]
                if "Address already in use" in said:      # (on stderr, or in its log file when it keeps one)
                    raise PortTaken(said)
                raise RuntimeError(f"mosquitto exited: {said}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen within 10 s")

    def saved(self, text: str) -> bool:
        """Whether the broker's saved data holds ``text`` (a topic). Mosquitto saves after each
        change in its own loop, after it has acknowledged the message: a SIGKILL right after an
        acknowledgement can come before that save, and the message is gone with the process."""
        try:
            return text.encode() in (self.where / "data" / "mosquitto.db").read_bytes()
        except OSError:
            return False

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(5)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    def log(self) -> str:
        path = self.where / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""
