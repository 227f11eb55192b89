"""The project's PN532 emulator behind a socket, as QEMU's ``-chardev socket`` of the guest's
serial port wants it.

The emulator answers on a pseudo-terminal (drivers/emulators/pn532.py); ``Pn532Socket`` opens the
pty's terminal end raw and relays its bytes to whoever connects to a listening socket (a unix path
for QEMU, or 127.0.0.1:PORT, which pyserial's ``socket://`` opens in the tests). One client at a
time; a new connection (the guest's second boot is a new QEMU) replaces the old one.

    with Pn532Socket("/run/pn532.sock") as chip:      # qemu ... -chardev socket,id=r,path=/run/pn532.sock
        chip.emulator.present("B0070001")
"""

from __future__ import annotations

import os
import select
import socket
import threading
import tty

from drivers.emulators.pn532 import Pn532Emulator


class Pn532Socket:
    def __init__(self, address: str | tuple[str, int]) -> None:
        self.emulator = Pn532Emulator()
        self.address = address
        self.family = socket.AF_UNIX if isinstance(address, str) else socket.AF_INET
        self.listener = socket.socket(self.family, socket.SOCK_STREAM)
        if isinstance(address, str) and os.path.exists(address):
            os.unlink(address)
        self.listener.bind(address)
        self.listener.listen(1)
        self.bytes_in = 0        # from the client (the guest's driver) to the chip
        self.bytes_out = 0
        self.connections = 0
        self._tty: int | None = None
        self._stop_r, self._stop_w = os.pipe()
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The TCP port listened on (for 127.0.0.1:0)."""
        return int(self.listener.getsockname()[1])

    def start(self) -> Pn532Socket:
        self.emulator.plug()
        self._tty = os.open(self.emulator.path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self._tty)
        self._thread = threading.Thread(target=self._relay, name="pn532-socket", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        os.write(self._stop_w, b"x")
        if self._thread is not None:
            self._thread.join(timeout=2)
        self.listener.close()
        if self._tty is not None:
            os.close(self._tty)
            self._tty = None
        self.emulator.close()
        os.close(self._stop_r)
        os.close(self._stop_w)
        if isinstance(self.address, str) and os.path.exists(self.address):
            os.unlink(self.address)

    def __enter__(self) -> Pn532Socket:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Pn532Socket {self.address} {self.connections} connection(s) in={self.bytes_in} out={self.bytes_out}>"

    def _relay(self) -> None:
        assert self._tty is not None
        client: socket.socket | None = None
        while True:
            watched = [self._stop_r, self.listener, self._tty] + ([client] if client else [])
            ready, _, _ = select.select(watched, [], [])
            if self._stop_r in ready:
                break
            if self.listener in ready:
                if client is not None:
                    client.close()
                client, _ = self.listener.accept()
                self.connections += 1
            if self._tty in ready:
                data = os.read(self._tty, 4096)
                if client is not None and data:       # with no client the chip's answer is lost, as on an open line
                    try:
                        client.sendall(data)
                        self.bytes_out += len(data)
                    except OSError:
                        client.close()
                        client = None
            if client is not None and client in ready:
                try:
                    data = client.recv(4096)
                except OSError:
                    data = b""
                if not data:
                    client.close()
                    client = None
                    continue
                self.bytes_in += len(data)
                os.write(self._tty, data)
        if client is not None:
            client.close()
