"""MFRC522 on SPI, through the low-level class of the ``mfrc522`` package (0.0.7).

``mfrc522`` (and through it ``spidev`` and ``RPi.GPIO``) is imported only when
a reader is opened. We use its constructor and initialisation, its register
access, ``MFRC522_ToCard`` and ``CalulateCRC``, and never ``SimpleMFRC522``:
its blocking reads spin the CPU and shorten 7-byte UIDs.

One poll (about 10 Hz, on our own thread; ``poll_once`` for tests):
WUPA (wakes a card that is idle *or* halted) -> anticollision and select,
cascade level 2 for 7-byte UIDs -> HLTA. The card is halted after every
read, so one lying on the pad answers only our WUPA, the UID is read whole
each time, and ``Presence`` turns that into one Tap per presentation.
Removal is debounced (``removal_time``). CRC and collision errors drop the
poll and are counted.

Every poll first reads VersionReg: a chip that stopped answering after a good
start (0x00 or 0xFF: the module came off the bus) or an SPI transfer that
raises OSError makes the reader report ``reader offline: …`` and reconnect
with the same back-off as the PN532 (0.5 s doubling to 5 s); it reports
online again when the chip answers. A chip that answers but lost its set-up
(it was power-cycled between two polls: antenna off) is re-initialised. WUPA and HLTA use a transceive of our own that stops at
the chip's timer interrupt, instead of 0.0.7's 2000-read spin (its issue #9).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from drivers.base import Clock, EventSink
from drivers.events import ReaderStatus
from drivers.iso14443 import bcc, crc_a
from drivers.presence import PollingReader
from drivers.said import Said, reason

log = logging.getLogger(__name__)

# registers and bits (NXP MFRC522 datasheet, section 9)
COMMAND_REG, COM_IEN_REG, COM_IRQ_REG, ERROR_REG = 0x01, 0x02, 0x04, 0x06
FIFO_DATA_REG, FIFO_LEVEL_REG, CONTROL_REG, BIT_FRAMING_REG = 0x09, 0x0A, 0x0C, 0x0D
TX_CONTROL_REG, VERSION_REG = 0x14, 0x37
T_MODE_REG, T_PRESCALER_REG, T_RELOAD_H_REG, T_RELOAD_L_REG = 0x2A, 0x2B, 0x2C, 0x2D
ANSWER_S = 0.001  # a card answers a short frame well within this (ISO 14443-3: ~90 us after it)
ANTENNA_ON = 0x03
NO_CHIP = (0x00, 0xFF)  # what VersionReg reads when nothing drives MISO
IDLE, TRANSCEIVE = 0x00, 0x0C
RX_IRQ, IDLE_IRQ, ERR_IRQ, TIMER_IRQ = 0x20, 0x10, 0x02, 0x01
COLL_ERR, CRC_ERR = 0x08, 0x04
WUPA, HLTA = 0x52, (0x50, 0x00)
CASCADE_TAG = 0x88
SELECTS = (0x93, 0x95, 0x97)
KNOWN_VERSIONS = {0x91: "MFRC522 v1.0", 0x92: "MFRC522 v2.0", 0x88: "FM17522 clone", 0x12: "counterfeit MFRC522"}
# BCM GPIO -> header pin, for messages about wiring
BCM_TO_HEADER = {2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19, 9: 21,
                 25: 22, 11: 23, 8: 24, 7: 26, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40}


class Mfrc522Error(Exception):
    """The MFRC522 could not be opened; the message says what to check."""


class Mfrc522WiringError(Mfrc522Error):
    """The chip's VersionReg reads 0x00 or 0xFF: nothing answers on the SPI bus."""


class _BadFrame(Exception):
    """A poll's answer was spoilt (CRC, collision, bad BCC); the poll is dropped."""


def wiring_message(version: int, *, spi_bus: int, spi_device: int, reset_pin: int) -> Said:
    return Said("MFRC522 on {device} reads VersionReg {version}, so nothing answers: check the wiring: SDA to {ce} "
                "(header pin {cs_pin}), SCK to pin 23, MOSI to pin 19, MISO to pin 21, RST to BCM {rst} "
                "(header pin {rst_pin}), 3.3V (not 5V) and GND",
                device=f"/dev/spidev{spi_bus}.{spi_device}", version=f"0x{version:02X}", ce=f"CE{spi_device}",
                cs_pin={0: 24, 1: 26}.get(spi_device, "?"), rst=reset_pin, rst_pin=BCM_TO_HEADER.get(reset_pin, "?"))


class Mfrc522Reader(PollingReader):
    def __init__(
        self,
        sink: EventSink,
        *,
        clock: Clock | None = None,
        spi_bus: int = 0,
        spi_device: int = 0,
        reset_pin: int = 25,
        name: str = "pad",
        poll_interval: float = 0.1,
        removal_time: float = 0.35,
        backoff: tuple[float, float] = (0.5, 5.0),
        spi_speed: int = 1_000_000,
        seat: int | None = None,
    ) -> None:
        super().__init__(sink, clock=clock, name=name, poll_interval=poll_interval, removal_time=removal_time,
                         backoff=backoff, seat=seat)
        self.spi_bus = spi_bus
        self.spi_device = spi_device
        self.reset_pin = reset_pin
        self.spi_speed = spi_speed
        self.chip: Any = None  # mfrc522.MFRC522 while open
        self.version: int | None = None
        self.timer_period = 0.0155  # read from the chip when it is opened
        self.crc_errors = 0
        self.collisions = 0
        self.bad_frames = 0  # other spoilt answers (BCC, length, SAK)
        self.reinits = 0  # times a power-cycled chip was set up again without going offline
        self._gpio: Any = None

    # lifecycle ---------------------------------------------------------------------

    def __repr__(self) -> str:
        return f"<Mfrc522Reader {self.name} spi{self.spi_bus}.{self.spi_device} rst=BCM{self.reset_pin} {self.status}>"

    def is_connected(self) -> bool:
        return self.chip is not None

    # opening -----------------------------------------------------------------------

    def open(self) -> int:
        """Open SPI, drive the reset pin, initialise and check the chip; return VersionReg.

        Raises Mfrc522Error (Mfrc522WiringError for 0x00/0xFF) with what to check.
        """
        try:
            import RPi.GPIO as GPIO
            from mfrc522 import MFRC522
        except ImportError as exc:
            raise Mfrc522Error(Said(
                "cannot import the MFRC522 library ({error}); install it with "
                "'pip install --no-deps mfrc522==0.0.7' plus spidev and rpi-lgpio (./go does this on a Pi)",
                error=str(exc))) from exc
        # 0.0.7 takes pin_rst in whatever numbering RPi.GPIO is in, and picks BOARD
        # if none is set: make it BCM, like the config's pin numbers.
        mode = GPIO.getmode()
        if mode is None:
            GPIO.setmode(GPIO.BCM)
        elif mode != GPIO.BCM:
            raise Mfrc522Error(Said("RPi.GPIO is already in BOARD numbering; the MFRC522 reset pin BCM {pin} needs BCM",
                                    pin=self.reset_pin))
        self._gpio = GPIO
        logger = logging.getLogger("mfrc522Logger")
        handlers = list(logger.handlers)
        path = f"/dev/spidev{self.spi_bus}.{self.spi_device}"
        try:
            chip = MFRC522(bus=self.spi_bus, device=self.spi_device, spd=self.spi_speed, pin_rst=self.reset_pin)
        except FileNotFoundError as exc:
            raise Mfrc522Error(Said("{device} does not exist: enable SPI (sudo raspi-config nonint do_spi 0, "
                                    "or dtparam=spi=on) and reboot", device=path)) from exc
        except PermissionError as exc:
            raise Mfrc522Error(Said("no permission to open {device} or the GPIO: add the user to the spi and gpio groups",
                                    device=path)) from exc
        except OSError as exc:
            # the constructor opened the SPI device, then its initialisation failed: close
            # that handle, or every reconnection attempt would leak a file descriptor
            _close_half_built(exc, MFRC522)
            self._free_reset_pin()
            raise Mfrc522Error(Said("SPI error on {device} while initialising the MFRC522: {error}", device=path,
                                    error=str(exc))) from exc
        finally:
            # every MFRC522() adds a StreamHandler, so its lines would repeat; use ours
            for handler in logger.handlers[:]:
                if handler not in handlers:
                    logger.removeHandler(handler)
        try:
            version = int(chip.Read_MFRC522(VERSION_REG))
        except OSError as exc:
            self.chip = chip
            self._release()
            raise Mfrc522Error(Said("SPI error on {device} reading VersionReg: {error}", device=path, error=str(exc))) from exc
        if version in NO_CHIP:
            self.chip = chip
            self._release()
            raise Mfrc522WiringError(wiring_message(version, spi_bus=self.spi_bus, spi_device=self.spi_device, reset_pin=self.reset_pin))
        self.chip, self.version = chip, version
        self.timer_period = self._timer_period()
        return version

    def _timer_period(self) -> float:
        """Seconds from a frame sent to TimerIRq, from the timer registers MFRC522_Init set (datasheet 8.5)."""
        chip = self.chip
        prescaler = ((chip.Read_MFRC522(T_MODE_REG) & 0x0F) << 8) | chip.Read_MFRC522(T_PRESCALER_REG)
        reload = (chip.Read_MFRC522(T_RELOAD_H_REG) << 8) | chip.Read_MFRC522(T_RELOAD_L_REG)
        return float((2 * prescaler + 1) * (reload + 1) / 13_560_000)

    def connect(self) -> bool:
        try:
            version = self.open()
        except (Mfrc522Error, OSError) as exc:
            self._release()
            self._report(False, Said("reader offline: {why}", why=reason(exc)))
            return False
        if self.online is False:
            self.reconnects += 1
        kind = KNOWN_VERSIONS.get(version) or Said("unknown MFRC522 variant")
        self._report(True, Said("{kind} (VersionReg {version}) ready on {device}", kind=kind, version=f"0x{version:02X}",
                                device=f"spi{self.spi_bus}.{self.spi_device}"))
        return True

    def _release(self) -> None:
        chip, self.chip = self.chip, None
        if chip is not None:
            try:
                chip.spi.close()
            except Exception:  # the SPI went away under us; nothing left to free
                log.debug("closing the SPI of %r", self, exc_info=True)
            self._free_reset_pin()

    def _free_reset_pin(self) -> None:
        if self._gpio is not None:
            try:
                self._gpio.cleanup(self.reset_pin)
            except Exception:  # the GPIO went away under us; nothing left to free
                log.debug("freeing the reset pin of %r", self, exc_info=True)

    def _report(self, online: bool, message: str) -> None:
        if online != self.online:
            self.online = online
            (log.info if online else log.warning)("%s", message)
            self.sink.put(ReaderStatus(self.name, online, message, self.clock.monotonic()))

    # polling -----------------------------------------------------------------------

    def poll_once(self) -> None:
        """Look for a card once; a new presentation becomes a Tap."""
        if self.chip is None:
            return
        try:
            if not self._is_answering():
                return
            uid = self.read_uid()
        except _BadFrame as exc:
            log.debug("%r: dropped a poll: %s", self, exc)
            return
        except OSError as exc:
            self._release()
            self._report(False, Said("reader offline: {why}", why=Said("SPI error on {device}: {error}",
                                                                    device=f"spi{self.spi_bus}.{self.spi_device}",
                                                                    error=str(exc))))
            return
        self._saw(uid)

    def _is_answering(self) -> bool:
        """True when the chip still answers and is set up; else report offline and let go of it.

        Two register reads per poll. VersionReg 0x00/0xFF: nothing drives MISO any more.
        Antenna off: the chip was power-cycled and lost MFRC522_Init's set-up; redo it.
        """
        chip = self.chip
        version = chip.Read_MFRC522(VERSION_REG)
        if version in NO_CHIP:
            self._release()
            self._report(False, Said("reader offline: {why}", why=Said(
                "the MFRC522 on {device} stopped answering (VersionReg {version}); check its cable and power",
                device=f"spi{self.spi_bus}.{self.spi_device}", version=f"0x{version:02X}")))
            return False
        if not chip.Read_MFRC522(TX_CONTROL_REG) & ANTENNA_ON:
            log.warning("%r: the chip lost its set-up (power-cycled?); initialising it again", self)
            chip.MFRC522_Init()
            self.reinits += 1
            self.presence.missed(float("inf"))  # whatever lay on the pad is a new presentation
        return True

    def read_uid(self) -> str | None:
        """WUPA, anticollision/select through the cascade levels, HLTA. None when no card answers."""
        atqa = self._transceive([WUPA], bits=7)
        if atqa is None:
            return None
        if len(atqa) != 2:
            self.bad_frames += 1
            raise _BadFrame(f"ATQA of {len(atqa)} bytes")
        chip = self.chip
        uid: list[int] = []
        for sel in SELECTS:
            chip.Write_MFRC522(BIT_FRAMING_REG, 0x00)
            status, part, _ = chip.MFRC522_ToCard(chip.PCD_TRANSCEIVE, [sel, 0x20])
            self._check(status, f"anticollision {sel:02X}")
            if len(part) != 5 or bcc(part[:4]) != part[4]:
                self.bad_frames += 1
                raise _BadFrame(f"anticollision {sel:02X} answered {bytes(part).hex()}")
            frame = [sel, 0x70, *part]
            frame += chip.CalulateCRC(frame)
            status, answer, bits = chip.MFRC522_ToCard(chip.PCD_TRANSCEIVE, frame)
            self._check(status, f"select {sel:02X}")
            if bits != 24 or len(answer) < 3:
                self.bad_frames += 1
                raise _BadFrame(f"select {sel:02X} answered {bits} bits")
            if crc_a(answer[:1]) != bytes(answer[1:3]):
                self.crc_errors += 1
                raise _BadFrame(f"CRC error in the SAK of select {sel:02X}")
            sak = answer[0]
            if part[0] == CASCADE_TAG and sak & 0x04:
                uid += part[1:4]
                continue
            uid += part[:4]
            break
        else:
            self.bad_frames += 1
            raise _BadFrame("no cascade level completed the UID")
        self._transceive([*HLTA, *crc_a(HLTA)], bits=0)
        return bytes(uid).hex().upper()

    def _check(self, status: int, what: str) -> None:
        if status == self.chip.MI_OK:
            return
        error = self.chip.Read_MFRC522(ERROR_REG)
        if error & COLL_ERR:
            self.collisions += 1
            raise _BadFrame(f"collision in {what}")
        if error & CRC_ERR:
            self.crc_errors += 1
            raise _BadFrame(f"CRC error in {what}")
        self.bad_frames += 1
        raise _BadFrame(f"{what} failed (ErrorReg 0x{error:02X})")

    def _transceive(self, data: list[int], *, bits: int, timeout: float = 0.05) -> list[int] | None:
        """Send a short frame; return the answer, or None when the chip's timer ran out.

        Unlike 0.0.7's MFRC522_ToCard this stops at TimerIRq and sleeps while it waits: it looks
        once after ANSWER_S (a card has answered by then), then not again until the timer is due
        (about 15 ms with no card), so an empty poll costs two looks rather than thirty.
        """
        chip = self.chip
        write, read = chip.Write_MFRC522, chip.Read_MFRC522
        write(COM_IEN_REG, 0x77 | 0x80)
        write(COM_IRQ_REG, 0x7F)  # Set1=0: clear every pending IRQ bit
        write(FIFO_LEVEL_REG, 0x80)  # flush
        write(COMMAND_REG, IDLE)
        for byte in data:
            write(FIFO_DATA_REG, byte)
        write(BIT_FRAMING_REG, bits)
        write(COMMAND_REG, TRANSCEIVE)
        write(BIT_FRAMING_REG, 0x80 | bits)  # StartSend
        sent = time.monotonic()
        deadline = sent + timeout
        time.sleep(ANSWER_S)
        while True:
            irq = read(COM_IRQ_REG)
            now = time.monotonic()
            if irq & (RX_IRQ | IDLE_IRQ | ERR_IRQ | TIMER_IRQ) or now > deadline:
                break
            # no answer yet: the timer says when to look again; past it, look every half millisecond
            time.sleep(max(0.0005, min(sent + self.timer_period, deadline) - now))
        write(BIT_FRAMING_REG, bits)
        write(COMMAND_REG, IDLE)
        if not irq & RX_IRQ:
            return None
        error = read(ERROR_REG)
        if error & COLL_ERR:
            self.collisions += 1
            raise _BadFrame("collision")
        if error & 0x13:
            self.bad_frames += 1
            raise _BadFrame(f"ErrorReg 0x{error:02X}")
        return [read(FIFO_DATA_REG) for _ in range(read(FIFO_LEVEL_REG))]


def _close_half_built(exc: BaseException, cls: type) -> None:
    """Close the SPI handle of a ``cls`` whose constructor raised ``exc`` after opening it."""
    tb = exc.__traceback__
    while tb is not None:
        obj = tb.tb_frame.f_locals.get("self")
        if isinstance(obj, cls):
            spi = getattr(obj, "spi", None)
            try:
                if spi is not None:
                    spi.close()
            except Exception:
                log.debug("closing a half-built MFRC522's SPI", exc_info=True)
            return
        tb = tb.tb_next
