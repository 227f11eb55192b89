"""A reader at every seat: several readers, opened and polled together.

Each PN532 waits for a card on its own thread (the chip does the looking), and each simulated pad
has its own. MFRC522s that share an SPI bus share one thread, ``SpiBus``, which polls them in turn,
so there are never two transactions at once on a bus (a bus's chip selects are one controller's;
spidev would interleave two threads' transfers).
Every reader reports ``Tap(uid, seat=…)`` and ``ReaderStatus`` under its own name into the one
queue; an unplugged one goes offline and reconnects with its own back-off while the rest go on.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from drivers.base import Clock, EventSink, RfidReader, Started
from drivers.presence import PollingReader

log = logging.getLogger(__name__)

SEATS = range(1, 7)


@dataclass(frozen=True)
class ReaderSpec:
    """One reader as the config names it: its type, its bus and its seat (None: the shared pad)."""

    kind: str                       # mfrc522 | pn532 | sim
    seat: int | None = None
    spi_bus: int = 0
    spi_device: int = 0
    reset_pin: int = 25
    port: str = "/dev/serial0"
    baudrate: int = 115200
    name: str = ""                  # empty: seat-N, or table for the shared pad

    @property
    def label(self) -> str:
        """The reader's name in events, logs and the doctor's lines."""
        return self.name or (f"seat-{self.seat}" if self.seat is not None else "table")

    @property
    def where(self) -> str:
        """Its bus, as the doctor and the wiring guide name it."""
        if self.kind == "mfrc522":
            return f"spi{self.spi_bus}.{self.spi_device} (SPI{self.spi_bus} CE{self.spi_device}), reset BCM {self.reset_pin}"
        if self.kind == "pn532":
            return f"{self.port} at {self.baudrate} baud"
        return "simulated"

    @property
    def seat_label(self) -> str:
        return f"seat {self.seat}" if self.seat is not None else "the shared pad"


class SpiBus:
    """The MFRC522 readers on one SPI bus, polled in turn on one thread.

    Each reader keeps its own presence (a held card is one Tap per reader), its own back-off and
    its own online state; the bus only takes turns. ``step`` of each reader says when it is next
    due, so a chip in back-off costs nothing while its neighbours poll.
    """

    def __init__(self, bus: int, readers: list[PollingReader]) -> None:
        self.bus = bus
        self.readers = readers
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"spi{self.bus}-readers", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        due = [0.0] * len(self.readers)
        while not self._stop.is_set():
            for i, reader in enumerate(self.readers):
                now = time.monotonic()
                if due[i] <= now:
                    due[i] = now + reader.step()
            wait = min(due) - time.monotonic()
            if wait > 0:
                self._stop.wait(wait)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self._thread = None
        for reader in self.readers:
            reader.close()

    def __repr__(self) -> str:
        return f"<SpiBus spi{self.bus} {len(self.readers)} readers {'polling' if self._thread else 'stopped'}>"


class ReaderSet(Started):
    """Every reader of the box, started and closed together; iterates over the readers."""

    def __init__(self, readers: list[RfidReader], buses: list[SpiBus]) -> None:
        self.readers = readers
        self.buses = buses
        self._closed = False

    def __iter__(self) -> Iterator[RfidReader]:
        return iter(self.readers)

    def __len__(self) -> int:
        return len(self.readers)

    def _on_their_own(self) -> list[RfidReader]:
        """The readers with a thread of their own (not polled by a shared bus's)."""
        on_a_bus = {id(r) for bus in self.buses for r in bus.readers}
        return [r for r in self.readers if id(r) not in on_a_bus]

    def start(self) -> None:
        for bus in self.buses:
            bus.start()
        for reader in self._on_their_own():
            reader.start()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for bus in self.buses:
            bus.close()
        for reader in self._on_their_own():
            reader.close()

    def __repr__(self) -> str:
        return f"<ReaderSet {len(self.readers)} readers, {len(self.buses)} shared SPI buses>"


def open_readers(specs: list[ReaderSpec], sink: EventSink, *, clock: Clock, **options: object) -> ReaderSet:
    """The readers ``specs`` name, MFRC522s grouped by SPI bus; ``start()`` (or ``with``) begins polling.

    ``options`` go to every polled driver (poll_interval, removal_time, backoff, ...).
    """
    from drivers.factory import open_reader

    readers: list[RfidReader] = []
    by_bus: dict[int, list[PollingReader]] = {}
    for spec in specs:
        extra = dict(options) if spec.kind != "sim" else {}
        reader = open_reader(spec.kind, sink, clock=clock, spi_bus=spec.spi_bus, spi_device=spec.spi_device,
                             reset_pin=spec.reset_pin, port=spec.port, baudrate=spec.baudrate, name=spec.label,
                             seat=spec.seat, **extra)
        readers.append(reader)
        if spec.kind == "mfrc522" and isinstance(reader, PollingReader):
            by_bus.setdefault(spec.spi_bus, []).append(reader)
    return ReaderSet(readers, [SpiBus(bus, members) for bus, members in sorted(by_bus.items())])
