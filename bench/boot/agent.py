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
import subprocess
import sys
import tty


def answer(line: bytes) -> bytes | None:
    parts = line.split()
    if len(parts) != 3 or parts[0] != b"RUN":
        return None
    ident, command = parts[1], base64.b64decode(parts[2]).decode()
    try:
        done = subprocess.run(["sh", "-c", command], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, timeout=120)
        code, out = done.returncode, done.stdout
    except subprocess.TimeoutExpired as exc:
        code, out = 124, (exc.output or b"") + b"\n(timed out after 120 s)"
    return b"OUT " + ident + b" " + str(code).encode() + b" " + base64.b64encode(out) + b"\n"


def main(path: str) -> int:
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    tty.setraw(fd)
    pending = b""
    while True:
        data = os.read(fd, 65536)
        if not data:
            return 0
        pending += data
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            reply = answer(line.strip())
            while reply:
                reply = reply[os.write(fd, reply):]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "/dev/hvc0"))
