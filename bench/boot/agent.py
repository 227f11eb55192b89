"""The boot bench's agent inside the guest (installed as /usr/local/sbin/boot-bench-agent).

It answers on a virtconsole (/dev/hvc0) with no login: each line from the host is
``RUN <id> <base64 command>``; the agent runs the command with ``sh -c`` (120 s at most) and
answers ``OUT <id> <exit code> <base64 output>`` on one line. Base64 keeps the tty's line
discipline out of the way. It is the bench's, not the box's: it runs as root so that it can read
what the table's own user cannot (the KMS framebuffer, other users' processes).
Standard library only: it runs with the guest's /usr/bin/python3.
"""

from __future__ import annotations

import base64
import os
import signal
import subprocess
import sys
import threading
import tty


def execute(command: str, timeout: float = 120) -> tuple[int, bytes]:
    """``sh -c command``: its code and output. The command runs in a session of its own, and a
    timeout kills that whole group: subprocess.run kills only ``sh`` and then waits for the pipe
    to close, which a grandchild still holding it (runuser, systemctl) keeps open for minutes."""
    proc = subprocess.Popen(["sh", "-c", command], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out
    except subprocess.TimeoutExpired as exc:
        os.killpg(proc.pid, signal.SIGKILL)
        try:
            late, _ = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:     # a process that left the group holds the pipe: answer anyway
            late = b""
        return 124, (exc.output or b"") + late + f"\n(timed out after {timeout:.0f} s)".encode()


def answer(line: bytes) -> bytes | None:
    parts = line.split()
    if len(parts) != 3 or parts[0] != b"RUN":
        return None
    ident, command = parts[1], base64.b64decode(parts[2]).decode()
    code, out = execute(command)
    return b"OUT " + ident + b" " + str(code).encode() + b" " + base64.b64encode(out) + b"\n"


def serve(fd: int, line: bytes, lock: threading.Lock) -> None:
    reply = answer(line)
    with lock:                               # one answer line at a time on the console
        while reply:
            reply = reply[os.write(fd, reply):]


def main(path: str) -> int:
    """Each command in a thread of its own: one that takes long (doctor, a unit's stop) does not
    keep the others (``echo up``, ``systemctl show``) waiting behind it."""
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    tty.setraw(fd)
    lock = threading.Lock()
    pending = b""
    while True:
        data = os.read(fd, 65536)
        if not data:
            return 0
        pending += data
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            threading.Thread(target=serve, args=(fd, line.strip(), lock), daemon=True).start()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "/dev/hvc0"))
