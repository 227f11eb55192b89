"""PN532 on a UART (HSU frames over pyserial).

One thread: connect (wake-up, GetFirmwareVersion, SAMConfiguration,
RFConfiguration with MxRtyPassiveActivation = 0xFF, "retry for ever"), then
send InListPassiveTarget and wait on the serial line: the chip answers only
when a card enters the field, so with nothing on the pad the thread sleeps in
one read and the chip does the looking. While a card lies on the pad the answer
comes at once, and the reader asks again every ``poll_interval``, so that a
card lying there is one Tap and its removal is seen. After ``idle_check``
seconds without a card the waiting command is aborted (a host ACK frame aborts
the chip's current command) and sent again: its ACK shows the chip is still
there and configured; a chip that was power-cycled (it forgot the command)
is woken and configured again, and one that no longer answers is reported
offline. Each quiet check doubles the wait before the next, up to
``idle_check_max`` seconds, and a card brings it back to ``idle_check``: a table
in play is checked every few seconds, one left alone costs next to nothing. When the port goes away (the pending read raises at once) the reader
reports ``reader offline: …`` and tries again with back-off from 0.5 s to 5 s,
re-initialising the chip, then reports online again. ``close`` cancels the
read and aborts the waiting command.

``passive_retries`` below 0xFF brings back the bounded search: the chip
answers "no target" at once and the thread asks every ``poll_interval``.
"""

from __future__ import annotations

import logging
import os
import select
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
FOREVER = 0xFF  # MxRtyPassiveActivation: the chip keeps looking until a card answers
READ_TIMEOUT = 0.02  # the port's read timeout inside an exchange (an ACK or an answer due within ms)


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
        passive_retries: int = FOREVER,
        idle_check: float = 5.0,
        idle_check_max: float = 20.0,
        removal_time: float = 0.35,
        backoff: tuple[float, float] = (0.5, 5.0),
        serial_factory: Callable[..., Any] | None = None,
        seat: int | None = None,
    ) -> None:
        if not 0 <= passive_retries <= FOREVER:
            raise ValueError(f"passive_retries must be 0-255 (0xFF means for ever), got {passive_retries}")
        if idle_check <= 0 or idle_check_max < idle_check:
            raise ValueError(f"idle_check must be positive and at most idle_check_max, got {idle_check} and {idle_check_max}")
        super().__init__(sink, clock=clock, name=name, poll_interval=poll_interval, removal_time=removal_time,
                         backoff=backoff, seat=seat)
        self.port = port
        self.baudrate = baudrate
        self.ack_timeout = ack_timeout
        self.answer_timeout = answer_timeout
        self.retries = retries
        self.passive_retries = passive_retries
        self.idle_check = idle_check
        self.idle_check_max = idle_check_max
        self.idle_wait = idle_check     # how long the present wait for a card goes on before the chip is checked
        self._serial_factory = serial_factory or serial.Serial
        self._serial: Any = None
        self._parser = FrameParser()
        self._frames: list[Frame] = []
        self._configured = False  # the chip answered the set-up commands since it was last found silent
        self._asked_at: float | None = None  # when the InListPassiveTarget still waiting for a card was ACKed
        self.firmware: bytes | None = None
        self.errors = 0  # commands that needed a retry
        self._cancel_r: int | None
        self._cancel_w: int | None
        self._cancel_r, self._cancel_w = os.pipe()      # ``close`` wakes the thread asleep on the line

    # lifecycle -----------------------------------------------------------------

    def __repr__(self) -> str:
        return f"<Pn532Reader {self.name} {self.port}@{self.baudrate} {self.status}>"

    def is_connected(self) -> bool:
        return self._serial is not None

    def close(self) -> None:
        """Stop the thread (its wait on the line is cancelled), abort the waiting command, close the port."""
        self._stop.set()
        if self._cancel_w is not None:
            os.write(self._cancel_w, b"x")
        cancel = getattr(self._serial, "cancel_read", None)
        if cancel is not None:
            try:
                cancel()
            except (serial.SerialException, OSError, AttributeError):
                pass
        thread = self._thread
        super().close()
        if thread is not None and thread.is_alive():
            return                  # (still on its way out: the pipe stays for its last select)
        for fd in (self._cancel_r, self._cancel_w):
            if fd is not None:
                os.close(fd)
        self._cancel_r = self._cancel_w = None

    # the work, one step at a time (tests call these directly) ---------------------

    def connect(self) -> bool:
        """Open the port and initialise the chip. Reports online, or offline with why."""
        try:
            self._serial = self._serial_factory(self.port, self.baudrate, timeout=READ_TIMEOUT, write_timeout=1,
                                                exclusive=True)
            self._parser.reset()
            self._frames.clear()
            self._asked_at = None
            self._serial.reset_input_buffer()
            self._initialise()
        except (serial.SerialException, OSError, Pn532Error) as exc:
            self._release()
            self._report(False, Said("reader offline: {why}", why=describe(exc, self.port)))
            return False
        if self.online is False:
            self.reconnects += 1
        assert self.firmware is not None
        ic, ver, rev = self.firmware[:3] if len(self.firmware) >= 3 else (0, 0, 0)
        self._report(True, Said("PN532 (IC {ic}, firmware {firmware}) ready on {port}", ic=f"{ic:02X}",
                                firmware=f"{ver}.{rev}", port=self.port))
        return True

    def _initialise(self) -> None:
        """Wake the chip up and configure it (after opening the port, or when it was found silent)."""
        self._configured = False
        self._serial.write(WAKE_UP)
        self.firmware = self.call(GET_FIRMWARE_VERSION)
        self.call(SAM_CONFIGURATION, b"\x01\x14\x01")  # normal mode, 1 s timeout, use IRQ
        # MxRtyATR, MxRtyPSL, MxRtyPassiveActivation (0xFF: look until a card answers)
        self.call(RF_CONFIGURATION, bytes([0x05, 0xFF, 0x01, self.passive_retries]))
        self._configured = True

    def poll_once(self) -> None:
        """Look for a card once: ask (unless the chip is still looking since the last ask) and wait up to
        ``answer_timeout`` for the answer; a new presentation becomes a Tap."""
        self._look(self.answer_timeout)

    def _poll_step(self) -> float:
        """From the reader's own thread: wait on the line for a card (up to ``idle_wait``) while none is
        near; once one answered, ask again after ``poll_interval``."""
        if self._look(self.idle_wait) or self._asked_at is None:
            return self.poll_interval
        return 0.0

    def _look(self, wait: float) -> bool:
        """Ask for a target, or go on waiting for the answer to the last ask, for up to ``wait`` seconds.

        True when a card answered. A chip that does not ACK is marked for a new initialisation (it may
        have been power-cycled); one that then does not answer it either is reported offline.
        """
        if self._serial is None or self._stop.is_set():
            return False
        try:
            if not self._configured:
                try:
                    self._initialise()
                except Pn532Error as exc:
                    self._release()
                    self._report(False, Said("reader offline: {why}", why=describe(exc, self.port)))
                    return False
            answer = self._target_answer(wait)
            uid = None if answer is None else parse_target(answer)
        except Pn532Error as exc:
            log.warning("%r: %s", self, exc)
            self._asked_at = None
            self._configured = False
            self.idle_wait = self.idle_check        # a chip in trouble is checked often again
            self.presence.missed(self.clock.monotonic())
            return False
        except (serial.SerialException, OSError) as exc:
            self._release()
            self._report(False, Said("reader offline: {why}", why=describe(exc, self.port)))
            return False
        self._saw(uid)
        if uid is not None:
            self.idle_wait = self.idle_check        # a card: the table is in play
        return uid is not None

    def _target_answer(self, wait: float) -> bytes | None:
        """InListPassiveTarget's answer (after D5 4B), or None when none came within ``wait`` (the chip
        still looking, or an answer of "no target" never came). Raises Pn532Error when the chip did not
        ACK the ask or its answers were spoilt ``retries`` times."""
        problem: str = Said("ACK but no answer")
        for attempt in range(self.retries):
            if attempt:
                self.errors += 1
            if self._asked_at is not None and time.monotonic() - self._asked_at >= self.idle_wait:
                self._abort()  # waited long enough: ask again, which shows whether the chip is still there
                self.idle_wait = min(self.idle_wait * 2, self.idle_check_max)
            spoilt = self._parser.bad_length + self._parser.bad_checksum + self._parser.refused
            if self._asked_at is None:
                self.call(IN_LIST_PASSIVE_TARGET, b"\x01\x00", answer=False)
                self._asked_at = time.monotonic()
            left = min(wait, self._asked_at + self.idle_wait - time.monotonic())
            frame = self._wait_frame(left) if wait > self.answer_timeout else self._next_frame(left)
            if frame is not None and frame.kind is FrameKind.DATA and frame.tfi == CHIP_TFI \
                    and frame.data[:1] == bytes([IN_LIST_PASSIVE_TARGET + 1]):
                self._asked_at = None
                return frame.data[1:]
            if frame is None and self._parser.buffered <= 1 \
                    and spoilt == self._parser.bad_length + self._parser.bad_checksum + self._parser.refused:
                return None  # nothing came (an ACK's postamble at most): the chip is still looking
            if frame is not None and frame.kind is FrameKind.ERROR:
                self._asked_at = None
                raise Pn532Error(Said("command {command}: the PN532 answered with an error frame",
                                      command=f"{IN_LIST_PASSIVE_TARGET:02X}"))
            # bytes that were not the answer: it was spoilt on the line, and the chip is done
            if frame is not None:
                problem = Said("unexpected {frame}", frame=repr(frame))
            self._abort()
        raise Pn532Error(Said("command {command}: {problem} after {tries} tries",
                              command=f"{IN_LIST_PASSIVE_TARGET:02X}", problem=problem, tries=self.retries))

    def call(self, command: int, params: bytes = b"", *, answer: bool = True) -> bytes:
        """Send a command, wait for its ACK and answer; retry a bounded number of times.

        Returns the answer's data after the response code (b"" when ``answer`` is False: only the
        ACK is waited for, the answer is the caller's to wait for). Raises Pn532Error when no good
        answer came; serial errors propagate.
        """
        request = encode(bytes([command]) + params)
        problem = "no answer"
        for attempt in range(self.retries):
            if attempt:
                self.errors += 1
                self._abort()  # abort whatever the chip is still doing
            self._serial.write(request)
            frame = self._next_frame(self.ack_timeout)
            if frame is None or frame.kind is not FrameKind.ACK:
                problem = Said("no ACK") if frame is None else Said("{kind} instead of ACK", kind=frame.kind.name)
                continue
            if not answer:
                return b""
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

    def _abort(self) -> None:
        """A host ACK frame: the chip aborts the command it is running (the user manual's abort, the one
        libnfc's pn532_uart driver sends); what came before it on the line is forgotten."""
        self._serial.write(ACK)
        self._asked_at = None
        self._parser.reset()
        self._frames.clear()

    def _next_frame(self, timeout: float) -> Frame | None:
        """The next frame within ``timeout`` seconds, read in READ_TIMEOUT slices (inside an exchange)."""
        deadline = time.monotonic() + max(timeout, 0)
        while not self._frames:
            if time.monotonic() >= deadline:
                return None
            chunk = self._serial.read(self._serial.in_waiting or 1)
            if chunk:
                self._frames.extend(self._parser.feed(chunk))
        return self._frames.pop(0)

    def _wait_frame(self, timeout: float) -> Frame | None:
        """The next frame within ``timeout`` seconds, asleep on the line until its first byte.

        One ``select`` on the port's file descriptor and the reader's cancel pipe for the whole wait
        (``_sleep_on_line``), not a loop of READ_TIMEOUT reads that would wake the thread 50 times a
        second. A port without a descriptor reads once with its timeout set to the wait (pyserial's
        read(1) returns at the first byte, at the timeout, or at ``cancel_read``), or in half seconds
        when it has no ``cancel_read`` (``socket://``) so that ``close`` is not kept waiting. The
        rest of the frame comes within ``answer_timeout``.
        """
        if self._frames:
            return self._frames.pop(0)
        port = self._serial
        deadline = time.monotonic() + timeout
        slice_ = None if hasattr(port, "cancel_read") else 0.5
        while not self._stop.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            waiting = port.in_waiting
            if waiting:
                chunk = port.read(waiting)
            elif self._line_fd(port) is not None:
                chunk = self._sleep_on_line(port, left)
            else:
                port.timeout = left if slice_ is None else min(left, slice_)
                chunk = port.read(1)
                port.timeout = READ_TIMEOUT
            if chunk:
                self._frames.extend(self._parser.feed(chunk))
                return self._next_frame(self.answer_timeout)
        return None

    def _line_fd(self, port: Any) -> int | None:
        """The port's file descriptor, to sleep on with ``select`` (None: a port without one, ``socket://``)."""
        try:
            fd = port.fileno()
        except (AttributeError, serial.SerialException, OSError, ValueError):
            return None
        return fd if isinstance(fd, int) and fd >= 0 else None

    def _sleep_on_line(self, port: Any, left: float) -> bytes:
        """Asleep in one ``select`` on the port and the reader's own cancel pipe (``close``) for up to
        ``left`` seconds; what came (b"" for nothing). Changing the port's timeout instead would make
        pyserial reconfigure the port (tcgetattr and its flags, a lock) before and after every wait."""
        fd = self._line_fd(port)
        if fd is None:
            return b""
        ready = select.select([fd] if self._cancel_r is None else [fd, self._cancel_r], [], [], left)[0]
        if fd not in ready:
            return b""
        return bytes(port.read(port.in_waiting or 1))

    def _release(self) -> None:
        port, self._serial = self._serial, None
        self._configured = False
        if port is not None:
            if self._asked_at is not None:
                try:
                    port.write(ACK)  # abort the waiting InListPassiveTarget: the chip is left idle
                except (serial.SerialException, OSError):
                    pass
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass
        self._asked_at = None

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
