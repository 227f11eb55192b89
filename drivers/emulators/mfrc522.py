"""An MFRC522 and ISO 14443-A cards, at register level, behind fake ``spidev`` and ``RPi.GPIO``.

The real ``mfrc522`` package (0.0.7) runs unmodified on top: ``install_fakes()``
puts the fake modules into ``sys.modules`` (only where the real ones are
missing) before ``mfrc522`` is first imported, and ``attach()`` wires a chip
to an SPI bus/device and a reset pin:

    fakes = install_fakes()
    chip = Mfrc522Chip(reset_pin=25)          # BCM, as wired
    fakes.attach(chip, bus=0, device=0)
    chip.present(Card("04A1B2C3D4E5F6"))

The chip only answers once its reset pin has been driven high *in BCM
numbering*: a driver that passes the wrong pin, or falls into 0.0.7's BOARD
default, reads VersionReg as 0x00, as a miswired reader does.

Behaviour follows the NXP MFRC522 datasheet and ISO/IEC 14443-3 as far as the
library and our driver use them; see docs in /work/shared/hardware.md §1.
"""

from __future__ import annotations

import errno
import sys
import time
import types
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from drivers.events import normalise_uid
from drivers.iso14443 import bcc, crc_a

# registers
COMMAND, COM_IEN, DIV_IEN, COM_IRQ, DIV_IRQ, ERROR, STATUS1, STATUS2 = range(1, 9)
FIFO_DATA, FIFO_LEVEL, WATER_LEVEL, CONTROL, BIT_FRAMING, COLL = range(9, 15)
MODE, TX_CONTROL = 0x11, 0x14
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x2A, 0x2B, 0x2C, 0x2D
CRC_RESULT_M, CRC_RESULT_L = 0x21, 0x22
VERSION = 0x37
# commands
IDLE, CALC_CRC, TRANSCEIVE, MF_AUTHENT, SOFT_RESET = 0x00, 0x03, 0x0C, 0x0E, 0x0F
# IRQ bits
TX_IRQ, RX_IRQ, IDLE_IRQ, TIMER_IRQ, CRC_IRQ = 0x40, 0x20, 0x10, 0x01, 0x04
COLL_ERR = 0x08

BCM, BOARD = 11, 10
CLOCK_HZ = 13_560_000       # the chip's crystal; its timer counts this down through the prescaler


class Card:
    """An ISO 14443-A tag: MIFARE Classic 1K (4-byte UID) or NTAG213 (7-byte UID)."""

    def __init__(self, uid: str) -> None:
        self.uid = bytes.fromhex(normalise_uid(uid))
        if len(self.uid) not in (4, 7):
            raise ValueError(f"the emulator knows 4- and 7-byte UIDs, not {len(self.uid)}")
        self.atqa = b"\x44\x00" if len(self.uid) == 7 else b"\x04\x00"
        self.power_up()

    def power_up(self) -> None:
        self.state = "IDLE"  # IDLE, READY, ACTIVE, HALT
        self.level = 1
        self.from_halt = False  # READY*/ACTIVE*: an error sends it back to HALT

    def _error(self) -> None:
        self.state = "HALT" if self.from_halt else "IDLE"
        self.level = 1

    def receive(self, frame: bytes, bits: int) -> tuple[bytes, int] | None:
        """Answer a frame from the reader: (bytes, valid bits in the last byte) or None."""
        if bits == 7 and len(frame) == 1 and frame[0] in (0x26, 0x52):
            wake = frame[0] == 0x52
            if self.state == "IDLE" or (wake and self.state == "HALT"):
                self.from_halt = self.state == "HALT"
                self.state, self.level = "READY", 1
                return self.atqa, 0
            if self.state != "HALT":
                self._error()
            return None
        if self.state == "READY" and len(frame) == 2 and frame[1] == 0x20:
            part = self._part(frame[0])
            if part is None:
                self._error()
                return None
            return part + bytes([bcc(part)]), 0
        if self.state == "READY" and len(frame) == 9 and frame[1] == 0x70:
            part = self._part(frame[0])
            if part is None or frame[2:7] != part + bytes([bcc(part)]) or crc_a(frame[:7]) != frame[7:]:
                self._error()
                return None
            if len(self.uid) == 7 and frame[0] == 0x93:
                sak = 0x04  # UID not complete: go on with cascade level 2
                self.level = 2
            else:
                sak = 0x00 if len(self.uid) == 7 else 0x08
                self.state = "ACTIVE"
            return bytes([sak]) + crc_a([sak]), 0
        if self.state == "ACTIVE" and len(frame) == 4 and frame[:2] == b"\x50\x00" and crc_a(frame[:2]) == frame[2:]:
            self.state, self.level = "HALT", 1
            return None
        if self.state == "ACTIVE" and len(frame) == 4 and frame[0] == 0x30 and crc_a(frame[:2]) == frame[2:]:
            data = (self.uid + bytes(16))[:16] if frame[1] == 0 else bytes(16)
            return data + crc_a(data), 0
        self._error()
        return None

    def _part(self, sel: int) -> bytes | None:
        if sel == 0x93 and self.level == 1:
            return b"\x88" + self.uid[:3] if len(self.uid) == 7 else self.uid
        if sel == 0x95 and self.level == 2 and len(self.uid) == 7:
            return self.uid[3:]
        return None

    def __repr__(self) -> str:
        return f"<Card {self.uid.hex().upper()} {self.state}>"


class Mfrc522Chip:
    """The reader IC's registers, FIFO, CRC coprocessor and transceiver."""

    def __init__(self, *, reset_pin: int = 25, version: int = 0x92, wired: bool = True,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.reset_pin = reset_pin  # BCM number of the GPIO wired to NRSTPD
        self.clock = clock  # seconds: the timer runs on it
        self.timer_due: float | None = None  # when the running timer raises TimerIRq
        self.version = version
        self.wired = wired  # False: MISO floats, every read is 0x00
        self.powered = False  # NRSTPD high
        self.plugged = True  # False: the module is off the bus (see unplug)
        self.unplugged_reads = 0x00
        self.unplugged_error = False
        self.regs = [0] * 64
        self.fifo: deque[int] = deque()
        self.card: Card | None = None
        self.faults: deque[str] = deque()
        self.transfers = 0  # SPI transactions, for benchmarks
        self.frames: list[bytes] = []  # frames transmitted, for tests
        self.soft_reset()

    # the test's side -----------------------------------------------------------

    def present(self, card: Card | None) -> None:
        """Put a card in the field (it powers up IDLE) or take it away (None)."""
        self.card = card
        if card is not None:
            card.power_up()

    def inject(self, fault: str) -> None:
        """Spoil the next answer: ``crc`` (a bad CRC_A) or ``collision`` (CollErr)."""
        if fault not in ("crc", "collision"):
            raise ValueError(f"unknown fault {fault!r}; expected crc or collision")
        self.faults.append(fault)

    def unplug(self, *, reads: int = 0x00, error: bool = False) -> None:
        """Take the module off the bus after a good start.

        Every read then gives ``reads`` (0x00: MISO pulled low, 0xFF: MISO floating
        high), or, with ``error``, every SPI transfer raises OSError (EIO), as
        spidev does when the SPI controller or its device goes away.
        """
        self.plugged = False
        self.unplugged_reads = reads & 0xFF
        self.unplugged_error = error

    def plug(self) -> None:
        """Put the module back: it powers up afresh (registers reset, set-up lost), a card on it too."""
        self.plugged = True
        self.soft_reset()
        if self.card is not None:
            self.card.power_up()

    # the SPI side -------------------------------------------------------------------

    def xfer2(self, data: list[int]) -> list[int]:
        self.transfers += 1
        if not self.plugged:
            if self.unplugged_error:
                raise OSError(errno.EIO, "Remote I/O error")
            return [self.unplugged_reads] * len(data)
        if not (self.wired and self.powered):
            return [0] * len(data)
        addr = (data[0] >> 1) & 0x3F
        if data[0] & 0x80:
            return [0, self.read(addr)] + [0] * (len(data) - 2)
        self.write(addr, data[1])
        return [0] * len(data)

    def timer_period(self) -> float:
        """Seconds from the end of a transmission to TimerIRq: (2 TPrescaler + 1)(TReload + 1) / 13.56 MHz
        (datasheet 8.5; MFRC522_Init's TMode 0x8D, TPrescaler 0x3E, TReload 30 make about 15.5 ms)."""
        prescaler = ((self.regs[T_MODE] & 0x0F) << 8) | self.regs[T_PRESCALER]
        reload = (self.regs[T_RELOAD_H] << 8) | self.regs[T_RELOAD_L]
        return (2 * prescaler + 1) * (reload + 1) / CLOCK_HZ

    def _start_timer(self) -> None:
        """TAuto (TMode bit 7) starts the timer when a transmission ends; without it nothing times out."""
        self.timer_due = self.clock() + self.timer_period() if self.regs[T_MODE] & 0x80 else None

    def read(self, addr: int) -> int:
        if addr == COM_IRQ and self.timer_due is not None and self.clock() >= self.timer_due:
            self.regs[COM_IRQ] |= TIMER_IRQ
            self.timer_due = None
        if addr == FIFO_DATA:
            return self.fifo.popleft() if self.fifo else 0
        if addr == FIFO_LEVEL:
            return len(self.fifo)
        if addr == VERSION:
            return self.version
        return self.regs[addr]

    def write(self, addr: int, value: int) -> None:
        value &= 0xFF
        if addr in (COM_IRQ, DIV_IRQ):
            if value & 0x80:
                self.regs[addr] |= value & 0x7F
            else:
                self.regs[addr] &= ~value & 0x7F
        elif addr == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
        elif addr == FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo.append(value)
        elif addr == COMMAND:
            self.regs[COMMAND] = value & 0x0F
            self._command(value & 0x0F)
        elif addr == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value & 0x7F
            if value & 0x80 and self.regs[COMMAND] == TRANSCEIVE:
                self._transceive()
        else:
            self.regs[addr] = value

    def set_reset_line(self, high: bool) -> None:
        if high and not self.powered:
            self.soft_reset()
        self.powered = high

    def soft_reset(self) -> None:
        self.regs = [0] * 64
        self.regs[COM_IEN] = 0x80
        self.regs[COM_IRQ] = 0x14
        self.regs[MODE] = 0x3F
        self.regs[TX_CONTROL] = 0x80
        self.regs[BIT_FRAMING] = 0x00
        self.fifo.clear()
        self.timer_due = None

    def _command(self, command: int) -> None:
        if command == SOFT_RESET:
            self.soft_reset()
        elif command == CALC_CRC:
            data = bytes(self.fifo)
            self.fifo.clear()
            low, high = crc_a(data)
            self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_M] = low, high
            self.regs[DIV_IRQ] |= CRC_IRQ
            self.regs[COMMAND] = IDLE
        elif command == MF_AUTHENT:
            # Crypto1 lives inside the chip: the host only sees success or a timeout.
            request = bytes(self.fifo)
            self.fifo.clear()
            card = self.card
            if card and card.state == "ACTIVE" and len(card.uid) == 4 and request[2:8] == b"\xff" * 6:
                self.regs[STATUS2] |= 0x08
                self.regs[COM_IRQ] |= IDLE_IRQ
            else:
                self._start_timer()  # no answer: the timer runs out
            self.regs[COMMAND] = IDLE

    def _transceive(self) -> None:
        frame = bytes(self.fifo)
        self.fifo.clear()
        bits = self.regs[BIT_FRAMING] & 0x07
        self.frames.append(frame)
        answer = None
        if self.card is not None and self.regs[TX_CONTROL] & 0x03 == 0x03:
            answer = self.card.receive(frame, bits)
        self.regs[ERROR] = 0
        self.timer_due = None
        if answer is None:
            self.regs[COM_IRQ] |= TX_IRQ
            self._start_timer()  # no answer: TimerIRq when the timer runs out, as on the chip
            return
        data, last_bits = answer
        fault = self.faults.popleft() if self.faults else None
        if fault == "crc" and len(data) in (3, 18):  # SAK or READ: the answers with a CRC_A
            data = data[:-1] + bytes([data[-1] ^ 0xFF])
        elif fault == "collision":
            self.regs[ERROR] |= COLL_ERR
            self.regs[COLL] = 0x00
        elif fault is not None:
            self.faults.appendleft(fault)  # wait for an answer it can spoil
        self.fifo.extend(data)
        self.regs[CONTROL] = (self.regs[CONTROL] & ~0x07) | last_bits
        self.regs[COM_IRQ] |= TX_IRQ | RX_IRQ

    def __repr__(self) -> str:
        state = "unplugged" if not self.plugged else "powered" if self.powered else "in reset"
        return f"<Mfrc522Chip v{self.version:02X} rst=BCM{self.reset_pin} {state} {self.card or 'no card'}>"


# the fake modules ---------------------------------------------------------------


@dataclass
class FakeHardware:
    """The SPI devices and GPIO lines the fake modules reach."""

    chips: dict[tuple[int, int], Mfrc522Chip] = field(default_factory=dict)
    gpio_mode: int | None = None
    outputs: dict[int, int] = field(default_factory=dict)
    opened: list[tuple[int, int]] = field(default_factory=list)
    open_handles: int = 0  # SpiDev objects opened and not yet closed: a leak shows here
    log: list[tuple[object, ...]] = field(default_factory=list)

    def attach(self, chip: Mfrc522Chip, *, bus: int = 0, device: int = 0) -> Mfrc522Chip:
        self.chips[(bus, device)] = chip
        return chip

    def clear(self) -> None:
        self.chips.clear()
        self.gpio_mode = None
        self.outputs.clear()
        self.opened.clear()
        self.open_handles = 0
        self.log.clear()

    def _bcm(self, pin: int) -> int | None:
        if self.gpio_mode == BCM:
            return pin
        if self.gpio_mode == BOARD:
            return BOARD_TO_BCM.get(pin)
        return None

    def _output(self, pin: int, value: int) -> None:
        self.outputs[pin] = value
        bcm = self._bcm(pin)
        for chip in self.chips.values():
            if bcm == chip.reset_pin:
                chip.set_reset_line(bool(value))


# header pin -> BCM GPIO, for the BOARD-numbering trap
BOARD_TO_BCM = {3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10, 21: 9,
                22: 25, 23: 11, 24: 8, 26: 7, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21}

HARDWARE = FakeHardware()


def _make_spidev(hw: FakeHardware) -> types.ModuleType:
    mod = types.ModuleType("spidev")
    mod.__doc__ = "Fake spidev for the MFRC522 emulator (drivers.emulators.mfrc522)."

    class SpiDev:
        def __init__(self) -> None:
            self.chip: Mfrc522Chip | None = None
            self.max_speed_hz = 500000
            self.mode = 0

        def open(self, bus: int, device: int) -> None:
            chip = hw.chips.get((bus, device))
            if chip is None:
                raise FileNotFoundError(2, "No such file or directory")
            hw.opened.append((bus, device))
            hw.open_handles += 1
            self.chip = chip

        def xfer2(self, data: list[int]) -> list[int]:
            if self.chip is None:
                raise OSError(9, "Bad file descriptor")
            return self.chip.xfer2(list(data))

        def close(self) -> None:
            if self.chip is not None:
                hw.open_handles -= 1
            self.chip = None

    mod.SpiDev = SpiDev  # type: ignore[attr-defined]  # a module made here, its attributes set one by one
    return mod


def _make_gpio(hw: FakeHardware) -> types.ModuleType:
    mod = types.ModuleType("RPi.GPIO")
    mod.__doc__ = "Fake RPi.GPIO for the MFRC522 emulator (drivers.emulators.mfrc522)."
    mod.BCM, mod.BOARD, mod.OUT, mod.IN, mod.HIGH, mod.LOW = BCM, BOARD, 0, 1, 1, 0  # type: ignore[attr-defined]  # a module made here, its attributes set one by one

    def getmode() -> int | None:
        return hw.gpio_mode

    def setmode(mode: int) -> None:
        if hw.gpio_mode is not None and hw.gpio_mode != mode:
            raise ValueError("A different mode has already been set!")
        hw.gpio_mode = mode
        hw.log.append(("setmode", mode))

    def setup(pin: int, direction: int, **kw: object) -> None:
        if hw.gpio_mode is None:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or GPIO.setmode(GPIO.BCM)")
        hw.log.append(("setup", pin, direction))

    def output(pin: int, value: int) -> None:
        hw.log.append(("output", pin, value))
        hw._output(pin, value)

    def cleanup(*pins: int) -> None:
        hw.log.append(("cleanup", *pins))
        for pin in list(pins or hw.outputs):
            if pin in hw.outputs:
                hw._output(pin, 0)
                del hw.outputs[pin]
        if not pins:
            hw.gpio_mode = None

    def setwarnings(flag: bool) -> None:
        pass

    for fn in (getmode, setmode, setup, output, cleanup, setwarnings):
        setattr(mod, fn.__name__, fn)
    return mod


def install_fakes() -> FakeHardware:
    """Put the fake ``spidev``, ``RPi`` and ``RPi.GPIO`` into sys.modules; idempotent.

    Refuses to replace real modules that are already imported (on a Pi).
    Returns the shared FakeHardware; call ``clear()`` between tests.
    """
    existing = sys.modules.get("spidev")
    if existing is not None and not (existing.__doc__ or "").startswith("Fake spidev"):
        raise RuntimeError("the real spidev is already imported; the MFRC522 emulator needs the fake one")
    if existing is None:
        gpio = _make_gpio(HARDWARE)
        rpi = types.ModuleType("RPi")
        rpi.__doc__ = "Fake RPi package for the MFRC522 emulator."
        rpi.GPIO = gpio  # type: ignore[attr-defined]  # the fake RPi package gets its GPIO module
        sys.modules["spidev"] = _make_spidev(HARDWARE)
        sys.modules["RPi"] = rpi
        sys.modules["RPi.GPIO"] = gpio
    return HARDWARE
