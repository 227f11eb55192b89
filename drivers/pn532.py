"""PN532 on a UART (HSU frames over pyserial).

One thread: connect (wake-up, GetFirmwareVersion, SAMConfiguration,
RFConfiguration with bounded passive-activation retries), then poll
InListPassiveTarget about ten times a second. A card lying on the pad is one
Tap. When the port goes away the reader reports ``reader offline: …`` and
tries again with back-off from 0.5 s to 5 s, re-initialising the chip (it may
have been power-cycled), then reports online again.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Callable

import serial

from drivers.base import Clock, EventSink
from drivers.events import ReaderStatus
from drivers.said import Said, reason
from drivers.hsu import ACK, CHIP_TFI, Frame, FrameKind, FrameParser, encode
from drivers.presence import PollingReader

log = logging.getLogger(__name__)

WAKE_UP = b"\x55\x55" + b"\x00" * 15
GET_FIRMWARE_VERSION = 0x02
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A


class Pn532Error(Exception):
    """The PN532 did not answer as expected; the message says what was asked."""


def parse_target(data: bytes) -> str | None:
    """The UID in an InListPassiveTarget answer (after D5 4B), or None for no target."""
    if len(data) < 1 or data[0] == 0:
        return None
    # Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID...
    if len(data) < 6 or len(data) < 6 + data[5]:
        raise Pn532Error(f"short InListPassiveTarget answer: {data.hex(' ').upper()}")
    return data[6 : 6 + data[5]].hex().upper()


class Pn532Reader(PollingReader):
    def __init__(
        self,
        sink: EventSink,
        *,
        clock: Clock | None = None,
        port: str = "/dev/serial0",
        baudrate: int = 115200,
        name: str = "pad",
        poll_interval: float = 0.1,
        ack_timeout: float = 0.1,
        answer_timeout: float = 0.5,
        retries: int = 3,
        passive_retries: int = 1,
        removal_time: float = 0.35,
        backoff: tuple[float, float] = (0.5, 5.0),
        serial_factory: Callable[..., Any] | None = None,
        seat: int | None = None,
    ) -> None:
        if not 0 <= passive_retries < 0xFF:
            raise ValueError(f"passive_retries must be 0-254 (0xFF means for ever), got {passive_retries}")
        super().__init__(sink, clock=clock, name=name, poll_interval=poll_interval, removal_time=removal_time,
                         backoff=backoff, seat=seat)
        self.port = port
        self.baudrate = baudrate
        self.ack_timeout = ack_timeout
        self.answer_timeout = answer_timeout
        self.retries = retries
        self.passive_retries = passive_retries
        self._serial_factory = serial_factory or serial.Serial
        self._serial: Any = None
        self._parser = FrameParser()
        self._frames: list[Frame] = []
        self.firmware: bytes | None = None
        self.errors = 0  # commands that needed a retry

    # lifecycle -----------------------------------------------------------------

    def __repr__(self) -> str:
        return f"<Pn532Reader {self.name} {self.port}@{self.baudrate} {self.status}>"

    def is_connected(self) -> bool:
        return self._serial is not None

    # the work, one step at a time (tests call these directly) ---------------------

    def connect(self) -> bool:
        """Open the port and initialise the chip. Reports online, or offline with why."""
        try:
            self._serial = self._serial_factory(self.port, self.baudrate, timeout=0.02, write_timeout=1, exclusive=True)
            self._parser.reset()
            self._frames.clear()
            self._serial.reset_input_buffer()
            self._serial.write(WAKE_UP)
            self.firmware = self.call(GET_FIRMWARE_VERSION)
            self.call(SAM_CONFIGURATION, b"\x01\x14\x01")  # normal mode, 1 s timeout, use IRQ
            # MxRtyATR, MxRtyPSL, MxRtyPassiveActivation: bounded, so a poll with no card ends.
            self.call(RF_CONFIGURATION, bytes([0x05, 0xFF, 0x01, self.passive_retries]))
        except (serial.SerialException, OSError, Pn532Error) as exc:
            self._release()
            self._report(False, Said("reader offline: {why}", why=describe(exc, self.port)))
            return False
        if self.online is False:
            self.reconnects += 1
        ic, ver, rev = self.firmware[:3] if len(self.firmware) >= 3 else (0, 0, 0)
        self._report(True, Said("PN532 (IC {ic}, firmware {firmware}) ready on {port}", ic=f"{ic:02X}",
                                firmware=f"{ver}.{rev}", port=self.port))
        return True

    def poll_once(self) -> None:
        """Look for a card once; a new presentation becomes a Tap."""
        if self._serial is None:
            return
        try:
            answer = self.call(IN_LIST_PASSIVE_TARGET, b"\x01\x00")
            uid = parse_target(answer)
        except Pn532Error as exc:
            log.warning("%r: %s", self, exc)
            self.presence.missed(self.clock.monotonic())
            return
        except (serial.SerialException, OSError) as exc:
            self._release()
            self._report(False, Said("reader offline: {why}", why=describe(exc, self.port)))
            return
        self._saw(uid)

    def call(self, command: int, params: bytes = b"") -> bytes:
        """Send a command, wait for its ACK and answer; retry a bounded number of times.

        Returns the answer's data after the response code. Raises Pn532Error
        when no good answer came; serial errors propagate.
        """
        request = encode(bytes([command]) + params)
        problem = "no answer"
        for attempt in range(self.retries):
            if attempt:
                self.errors += 1
                self._serial.write(ACK)  # abort whatever the chip is still doing
                self._parser.reset()
                self._frames.clear()
            self._serial.write(request)
            frame = self._next_frame(self.ack_timeout)
            if frame is None or frame.kind is not FrameKind.ACK:
                problem = Said("no ACK") if frame is None else Said("{kind} instead of ACK", kind=frame.kind.name)
                continue
            deadline = time.monotonic() + self.answer_timeout
            while True:
                frame = self._next_frame(deadline - time.monotonic())
                if frame is None:
                    problem = Said("ACK but no answer")
                    break
                if frame.kind is FrameKind.ERROR:
                    raise Pn532Error(Said("command {command}: the PN532 answered with an error frame",
                                          command=f"{command:02X}"))
                if frame.kind is FrameKind.DATA and frame.tfi == CHIP_TFI and frame.data[:1] == bytes([command + 1]):
                    return frame.data[1:]
                problem = Said("unexpected {frame}", frame=repr(frame))
        raise Pn532Error(Said("command {command}: {problem} after {tries} tries", command=f"{command:02X}",
                              problem=problem, tries=self.retries))

    def _next_frame(self, timeout: float) -> Frame | None:
        deadline = time.monotonic() + max(timeout, 0)
        while not self._frames:
            if time.monotonic() >= deadline:
                return None
            chunk = self._serial.read(self._serial.in_waiting or 1)
            if chunk:
                self._frames.extend(self._parser.feed(chunk))
        return self._frames.pop(0)

    def _release(self) -> None:
        port, self._serial = self._serial, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass

    def _report(self, online: bool, message: str) -> None:
        if online != self.online:
            self.online = online
            (log.info if online else log.warning)("%s", message)
            self.sink.put(ReaderStatus(self.name, online, message, self.clock.monotonic()))


def describe(exc: BaseException, port: str) -> Said:
    """A short reason for the screen, naming the port."""
    errno = getattr(exc, "errno", None)
    if errno == 2:
        return Said("{port} does not exist (is the UART enabled and the reader plugged in?)", port=port)
    if errno == 13:
        return Said("no permission to open {port} (add the user to the dialout group)", port=port)
    if isinstance(exc, Pn532Error):
        return Said("no PN532 answers on {port} ({detail}); check TX/RX wiring, power and the HSU mode switches",
                    port=port, detail=reason(exc))
    return Said("{port}: {error}", port=port, error=str(exc))
