"""A PN532 on a pseudo-terminal, for tests and for working without the module.

The driver opens ``emulator.path`` with the real ``serial.Serial``; a thread
on the pty's master end answers like a PN532 in HSU mode:

* it sleeps after power-up until it sees the 0x55 wake-up bytes;
* GetFirmwareVersion, SAMConfiguration, RFConfiguration (MxRtyPassiveActivation
  is honoured), InListPassiveTarget (type A, 106 kbps) and anything else with
  an error frame;
* InListPassiveTarget with MxRtyPassiveActivation = 0xFF (the power-up default:
  retry for ever) is ACKed and then answered only when a card is in the field:
  at once if one is there, else when ``present`` puts one there, as the real chip
  does; bounded retries answer "no target" at once when there is none;
* a host ACK frame aborts the command still running (``aborts`` counts them),
  and so does a new command (the chip drops the old one);
* faults can be injected: garbage, a bad checksum, a NACK, silence (the
  command frame was lost: the chip never ran it);
* ``unplug()`` closes the master end (the port's reads then fail) and
  removes the path; ``replug()`` makes a new pty behind the same path,
  with the chip asleep and unconfigured again; ``power_cycle()`` is the chip
  losing power on a line that stays (the Pi's own UART): asleep, unconfigured,
  a pending InListPassiveTarget forgotten.

    with Pn532Emulator() as emu:
        reader = Pn532Reader(queue, port=emu.path)
        emu.present("04A1B2C3")
"""

from __future__ import annotations

import os
import select
import tempfile
import threading
import tty
from collections import deque

from drivers.events import normalise_uid
from drivers.hsu import ACK, CHIP_TFI, ERROR_FRAME, HOST_TFI, NACK, FrameKind, FrameParser, encode

FIRMWARE = bytes([0x32, 0x01, 0x06, 0x07])  # PN532, v1.6, supports ISO14443A/B and 18092
FAULTS = ("garbage", "bad_checksum", "nack", "silence")


class Pn532Emulator:
    def __init__(self, *, directory: str | None = None) -> None:
        self._dir = tempfile.mkdtemp(prefix="pn532-", dir=directory)
        self.path = os.path.join(self._dir, "ttyPN532")
        self.card: bytes | None = None
        self.commands: list[int] = []  # command codes received, in order
        self.faults: deque[str] = deque()
        self.awake = False
        self.max_retries = 0xFF
        self.sam_configured = False
        self.pending: bytes | None = None  # an InListPassiveTarget waiting for a card, ACKed, not answered
        self.aborts = 0  # pending commands aborted by a host ACK or a new command
        self._lock = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._thread: threading.Thread | None = None
        self._wake_r, self._wake_w = os.pipe()
        self._poke_r, self._poke_w = os.pipe()  # a card entered the field: the chip's thread looks again
        self._closed = False

    # the test's side ---------------------------------------------------------

    def present(self, uid: str | None) -> None:
        """Put a card with this UID in the field (None takes it away)."""
        with self._lock:
            self.card = None if uid is None else bytes.fromhex(normalise_uid(uid))
            if self.card is None or self.pending is None or self._closed:
                return
            os.write(self._poke_w, b"p")

    def power_cycle(self) -> None:
        """The chip loses power and comes back on the same line: asleep, unconfigured, its command forgotten."""
        with self._lock:
            self._power_on()

    def _power_on(self) -> None:
        self.awake = False
        self.sam_configured = False
        self.max_retries = 0xFF
        self.pending = None

    def inject(self, fault: str, times: int = 1) -> None:
        """Spoil the next ``times`` answers: garbage | bad_checksum | nack | silence."""
        if fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r}; expected one of {', '.join(FAULTS)}")
        with self._lock:
            self.faults.extend([fault] * times)

    def plug(self) -> None:
        if self._master is not None:
            return
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing before the driver configures it
        with self._lock:
            self._master, self._slave = master, slave
            self._power_on()
        tmp = self.path + ".new"
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)
        self._thread = threading.Thread(target=self._run, args=(master,), name="pn532-emulator", daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        if self._master is None:
            return
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass
        master, slave = self._master, self._slave
        self._master = self._slave = None
        os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._thread = None
        os.read(self._wake_r, 64)
        os.close(master)
        if slave is not None:
            os.close(slave)

    def replug(self) -> None:
        self.unplug()
        self.plug()

    def close(self) -> None:
        if self._closed:
            return
        self.unplug()
        with self._lock:
            self._closed = True
        os.close(self._wake_r)
        os.close(self._wake_w)
        with self._lock:
            os.close(self._poke_r)
            os.close(self._poke_w)
        try:
            os.rmdir(self._dir)
        except OSError:
            pass

    def __enter__(self) -> Pn532Emulator:
        self.plug()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else ("plugged" if self._master is not None else "unplugged")
        card = self.card.hex().upper() if self.card else "no card"
        return f"<Pn532Emulator {self.path} {state} {card}>"

    # the chip's side ---------------------------------------------------------

    def _run(self, master: int) -> None:
        parser = FrameParser()
        while True:
            ready, _, _ = select.select([master, self._wake_r, self._poke_r], [], [])
            if self._wake_r in ready:
                return
            if self._poke_r in ready:
                os.read(self._poke_r, 64)
                self._card_entered(master)
            if master not in ready:
                continue
            try:
                data = os.read(master, 512)
            except OSError:
                return
            if not data:
                return
            with self._lock:
                if b"\x55" in data:
                    self.awake = True
                if not self.awake:
                    continue
            for frame in parser.feed(data):
                if frame.kind is FrameKind.ACK:
                    with self._lock:
                        if self.pending is not None:
                            self.pending = None
                            self.aborts += 1
                elif frame.kind is FrameKind.DATA and frame.tfi == HOST_TFI and frame.data:
                    self._answer(master, frame.data)

    def _card_entered(self, master: int) -> None:
        """A card came into the field while an InListPassiveTarget waits: its answer, now."""
        with self._lock:
            if self.pending is None or self.card is None:
                return
            self.pending = None
            reply = self._target()
        try:
            os.write(master, reply)
        except OSError:
            pass

    def _answer(self, master: int, request: bytes) -> None:
        with self._lock:
            fault = self.faults.popleft() if self.faults else None
            self.commands.append(request[0])
            if fault == "silence":
                return  # the frame was lost on the line: the chip never saw it
            if self.pending is not None:  # a new command: the chip drops the one still running
                self.pending = None
                self.aborts += 1
            reply = self._execute(request) if fault != "nack" else None
        out = b""
        if fault == "nack":
            out = NACK
        else:
            if fault == "garbage":
                out += b"\x12\x00\xff\x05\x00\x7f\xff\x00\xaa"
            out += ACK
            if reply is not None:
                if fault == "bad_checksum":
                    reply = reply[:-2] + bytes([(reply[-2] + 1) & 0xFF]) + reply[-1:]
                out += reply
        try:
            os.write(master, out)
        except OSError:
            pass

    def _execute(self, request: bytes) -> bytes | None:
        cmd, params = request[0], request[1:]
        if cmd == 0x02:
            return encode(bytes([0x03]) + FIRMWARE, CHIP_TFI)
        if cmd == 0x14:
            self.sam_configured = True
            return encode(b"\x15", CHIP_TFI)
        if cmd == 0x32:
            if len(params) >= 4 and params[0] == 0x05:
                self.max_retries = params[3]
            return encode(b"\x33", CHIP_TFI)
        if cmd == 0x4A and self.sam_configured and params[:2] == b"\x01\x00":
            if self.card is None:
                if self.max_retries == 0xFF:
                    self.pending = request  # retries for ever: answered when a card enters the field
                    return None
                return encode(b"\x4b\x00", CHIP_TFI)
            return self._target()
        return ERROR_FRAME

    def _target(self) -> bytes:
        """InListPassiveTarget's answer for the card in the field (the lock held)."""
        assert self.card is not None
        atqa = b"\x00\x44" if len(self.card) == 7 else b"\x00\x04"
        sak = 0x00 if len(self.card) == 7 else 0x08
        target = b"\x01" + atqa + bytes([sak, len(self.card)]) + self.card
        return encode(b"\x4b\x01" + target, CHIP_TFI)
