"""Building the table from a config: catalog, registry, journal, drivers, controller."""

from __future__ import annotations

import logging
import os
import queue
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cards.loader import load_catalog
from cards.tags import TagRegistry
from drivers.base import Clock
from drivers.events import InputEvent
from engine.cards import Catalog
from engine.errors import MunchkinError
from table.config import Config
from table.controller import Controller, PlayerDefaults
from table.journal import Journal

log = logging.getLogger(__name__)

JOURNAL_FILE = "journal.sqlite3"
TAGS_FILE = "tags.csv"


class EventQueue(queue.Queue):  # type: ignore[type-arg]
    """The one queue from the drivers to the main loop; ``wake`` is called after every put."""

    def __init__(self) -> None:
        super().__init__()
        self.wake: Any = None

    def put(self, item: InputEvent, block: bool = True, timeout: float | None = None) -> None:  # type: ignore[override]
        super().put(item, block, timeout)
        if self.wake is not None:
            self.wake()

    def drain(self) -> list[InputEvent]:
        out = []
        while True:
            try:
                out.append(self.get_nowait())
            except queue.Empty:
                return out


@dataclass
class Table:
    config: Config
    catalog: Catalog
    registry: TagRegistry
    journal: Journal
    controller: Controller
    events: EventQueue


LOCK_FILE = "table.lock"


class TableBusy(MunchkinError, OSError):
    """Another table or enrollment is already running on this state directory."""


def hold_table_lock(state_dir: Path) -> Any:
    """Take the state directory for this process (the table or the enroll wizard, not both).

    Returns the open lock file; the lock lasts as long as it stays open (the process).
    """
    import fcntl

    state_dir.mkdir(parents=True, exist_ok=True)
    try:
        handle = open(state_dir / LOCK_FILE, "a+", encoding="utf-8")
    except PermissionError:         # made by another user (root, say): a read-only handle locks too
        handle = open(state_dir / LOCK_FILE, encoding="utf-8")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise TableBusy(f"the table in {state_dir} is already in use by {holder}; stop it first "
                        f"(sudo systemctl stop munchkin-table, or close the other window)") from None
    if handle.writable():
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
    return handle


@dataclass
class Drivers:
    reader: Any
    buttons: Any
    feedback: Any

    def close(self) -> None:
        for device in (self.reader, self.buttons, self.feedback):
            device.close()


def uses_gpio(*, sim: bool) -> bool:
    """GPIO buttons and feedback only where there are GPIO pins: a Pi, or gpiozero's pin factory
    chosen by the environment. Elsewhere the table (and doctor) use the simulated ones."""
    from table.config import is_raspberry_pi

    return not sim and (is_raspberry_pi() or bool(os.environ.get("GPIOZERO_PIN_FACTORY")))


def open_drivers(config: Config, sink: Any, clock: Clock, *, sim: bool) -> Drivers:
    """The reader, buttons and feedback the config names; raises DriverError naming what failed.

    GPIO buttons only where there are GPIO pins (a Pi, or gpiozero's pin factory chosen by the
    environment): a laptop with a USB reader keeps the keyboard's buttons.
    """
    from drivers.factory import open_buttons, open_feedback, open_reader

    reader_type = config.reader_type(sim=sim)
    gpio = uses_gpio(sim=sim)
    reader = open_reader(reader_type, sink, clock=clock, spi_bus=config.reader.spi_bus,
                         spi_device=config.reader.spi_device, reset_pin=config.reader.reset_pin,
                         port=config.reader.port, baudrate=config.reader.baudrate)
    timing = {"debounce": config.buttons.bounce_ms / 1000, "hold_time": config.buttons.hold_seconds} if gpio else {}
    buttons = open_buttons("gpio" if gpio else "sim", sink, clock=clock, pins=config.buttons.pins(), **timing)
    feedback = open_feedback("gpio" if gpio else "sim", clock=clock,
                             buzzer_pin=config.feedback.pin("buzzer"), led_pin=config.feedback.pin("led"))
    return Drivers(reader, buttons, feedback)


def build_table(config: Config, clock: Clock, *, state_dir: Path | None = None, catalog: Catalog | None = None,
                feedback: Any = None, seed_source: Any = None, wall: Any = None) -> Table:
    directory = state_dir or config.state_dir
    directory.mkdir(parents=True, exist_ok=True)
    catalog = catalog or load_catalog(config.card_set_files())
    registry = TagRegistry(directory / TAGS_FILE, known=catalog)
    journal = Journal(directory / JOURNAL_FILE)
    players = PlayerDefaults({token: (p.name, p.sex) for token, p in config.players.items()})
    controller = Controller(catalog, journal, registry, clock, ruleset=config.rules, feedback=feedback,
                            token_seconds=config.table.token_seconds,
                            players=players, seed_source=seed_source, wall=wall)
    damage = []
    if journal.moved_aside is not None:
        damage.append(f"the saved games were damaged; kept aside as {journal.moved_aside.name}")
    if registry.problems:
        damage.append(registry.damage_report())
    if damage:
        controller.say("; ".join(d for d in damage if d), "refusal")
    return Table(config, catalog, registry, journal, controller, EventQueue())
