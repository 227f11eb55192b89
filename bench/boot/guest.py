"""The booted box from the host's side: QEMU, its monitor (QMP) and the bench's agent in the guest.

``Machine`` starts ``qemu-system-aarch64 -M virt`` on a copy-on-write overlay of the cached image,
with virtio-gpu at the config's size, the guest's PCI serial port (/dev/ttyS0) on the PN532
socket, the agent's virtconsole (/dev/hvc0) on a control socket, and user-mode networking with a
forwarded port for the web view. ``Agent`` runs shell commands in the guest (see agent.py).
"""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import time
from pathlib import Path

from bench.boot.screens import Image, parse_ppm

# vt.global_cursor_default=0: the console's blinking cursor would draw over the table on /dev/fb0
KERNEL_LINE = "root=/dev/vda rw console=ttyAMA0 net.ifnames=0 quiet vt.global_cursor_default=0"


def qemu_command(*, cache: Path, disk: Path, work: Path, size: tuple[int, int], pn532: Path,
                 web_port: int | None, gpu: str = "virtio-gpu-pci", cpu: str = "cortex-a72", memory_mb: int = 1024,
                 icount: str = "", kernel_extra: str = "") -> list[str]:
    """The QEMU command line of one power-on (the tests read it; run.py starts it).

    ``icount`` (e.g. ``shift=1,sleep=off``): instruction counting, the guest's clock advancing
    2^shift ns an instruction (pitime.py); ``kernel_extra`` is added to the kernel's command line."""
    w, h = size
    gpu_device = f"{gpu},xres={w},yres={h}" if gpu.startswith("virtio") else gpu
    # restrict=on: the guest reaches nothing outside; only the forwarded port comes in
    net = "user,model=virtio-net-pci,restrict=on" + (f",hostfwd=tcp:127.0.0.1:{web_port}-:8080" if web_port else "")
    return [
        "nice", "-n", "5", "qemu-system-aarch64", "-M", "virt", "-cpu", cpu, "-smp", "2", "-m", str(memory_mb),
        *(["-icount", icount] if icount else []),
        "-kernel", str(cache / "vmlinuz"), "-initrd", str(cache / "initrd.img"),
        "-append", f"{KERNEL_LINE} {kernel_extra}".strip(),
        "-drive", f"file={disk},if=none,id=root,format=qcow2", "-device", "virtio-blk-pci,drive=root",
        "-device", gpu_device, "-display", "none",
        "-serial", f"file:{work / 'console.log'}",
        # the reader: the guest's second serial port, on the host's PN532 emulator
        "-chardev", f"socket,id=pn532,path={pn532},reconnect=1", "-device", "pci-serial,chardev=pn532",
        # the bench's control channel, and the monitor
        "-device", "virtio-serial-pci",
        "-chardev", f"socket,id=ctl,path={work / 'control.sock'},server=on,wait=off", "-device", "virtconsole,chardev=ctl",
        "-qmp", f"unix:{work / 'qmp.sock'},server=on,wait=off",
        "-nic", net, "-no-reboot",
    ]


def connect_unix(path: Path, deadline: float) -> socket.socket:
    while True:
        try:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(str(path))
            return sock
        except OSError:
            sock.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


class Monitor:
    """QMP on a unix socket: one command at a time, events skipped."""

    def __init__(self, path: Path) -> None:
        self.sock = connect_unix(path, time.monotonic() + 30)
        self.file = self.sock.makefile("rwb")
        self._read()                                          # the greeting
        self.execute("qmp_capabilities")

    def _read(self) -> dict[str, object]:
        line = self.file.readline()
        if not line:
            raise ConnectionError("QMP closed")
        return dict(json.loads(line))

    def execute(self, command: str, **arguments: object) -> object:
        message: dict[str, object] = {"execute": command}
        if arguments:
            message["arguments"] = arguments
        self.file.write(json.dumps(message).encode() + b"\n")
        self.file.flush()
        while True:
            reply = self._read()
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise RuntimeError(f"QMP {command}: {reply['error']}")

    def close(self) -> None:
        self.sock.close()


class Agent:
    """Commands run in the guest by boot-bench-agent on /dev/hvc0."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock: socket.socket | None = None
        self.buffer = b""
        self.count = 0

    def _connect(self) -> socket.socket:
        if self.sock is None:
            self.sock = connect_unix(self.path, time.monotonic() + 30)
        return self.sock

    def run(self, command: str, *, timeout: float = 150) -> tuple[int, str]:
        """The command's exit code and output (stdout and stderr); TimeoutError when no answer."""
        sock = self._connect()
        self.count += 1
        ident = f"c{self.count}"
        sock.sendall(f"RUN {ident} {base64.b64encode(command.encode()).decode()}\n".encode())
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                # "OUT id code base64": no base64 at all for a command that printed nothing (the
                # answers of `systemctl stop --no-block`, `kill`, an empty grep were lost here)
                parts = line.strip().split(b" ")
                if len(parts) in (3, 4) and parts[0] == b"OUT" and parts[1] == ident.encode():
                    return int(parts[2]), base64.b64decode(parts[3] if len(parts) == 4 else b"").decode(errors="replace")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no answer from the guest to {command!r} in {timeout:.0f} s")
            sock.settimeout(min(left, 1.0))
            try:
                data = sock.recv(1 << 20)
            except TimeoutError:
                continue
            if not data:
                raise ConnectionError("the control channel closed")
            self.buffer += data

    def resync(self) -> None:
        """After an unanswered command: forget what is half read; a late answer is skipped by its id."""
        self.buffer = b""

    def wait_up(self, deadline: float) -> bool:
        while time.monotonic() < deadline:
            try:
                if self.run("echo up", timeout=3)[1].strip() == "up":
                    return True
            except (TimeoutError, OSError):
                time.sleep(1)
        return False

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        self.buffer = b""


class Machine:
    """One power-on of the box; ``cut`` pulls the power (QEMU quits at once, nothing flushed)."""

    def __init__(self, command: list[str], work: Path) -> None:
        self.command = command
        self.work = work
        self.process: subprocess.Popen[bytes] | None = None
        self.started = 0.0
        self.monitor: Monitor | None = None
        self.agent = Agent(work / "control.sock")

    def power_on(self) -> None:
        for name in ("control.sock", "qmp.sock"):
            (self.work / name).unlink(missing_ok=True)
        self.started = time.monotonic()
        self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL,
                                        stdout=open(self.work / "qemu.out", "ab"), stderr=subprocess.STDOUT)
        self.monitor = Monitor(self.work / "qmp.sock")

    def since(self) -> float:
        """Seconds since this power-on."""
        return time.monotonic() - self.started

    def screendump(self) -> Image:
        """The screen now. QEMU 7.2 writes the previous update: grab twice, keep the second."""
        assert self.monitor is not None
        path = self.work / "screen.ppm"
        for _ in range(2):
            self.monitor.execute("screendump", filename=str(path))
        return parse_ppm(path.read_bytes())

    def cut(self) -> None:
        self.agent.close()
        if self.monitor is not None:
            try:
                self.monitor.execute("quit")
            except (ConnectionError, OSError, RuntimeError):
                pass
            self.monitor.close()
            self.monitor = None
        if self.process is not None:
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


def overlay(disk: Path, work: Path) -> Path:
    """A copy-on-write overlay of the cached image: the run writes to it, the cache stays clean."""
    path = work / "box.qcow2"
    path.unlink(missing_ok=True)
    subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-b", str(disk), "-F", "raw", str(path)], check=True)
    os.chmod(path, 0o600)
    return path
