"""Building the table from a config: catalog, registry, journal, drivers, controller."""

from __future__ import annotations

import logging
import os
import queue
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cards.loader import load_catalog
from cards.names import with_names
from cards.tags import TagRegistry
from drivers.base import Clock
from drivers.events import InputEvent
from engine.cards import Catalog
from engine.errors import MunchkinError
from engine.messages import Seq, msg
from table.config import Config
from table.controller import Controller, PlayerDefaults
from table.i18n import set_card_names
from table.journal import Journal, JournalError, JournalFault, fault

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

    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        handle = open(state_dir / LOCK_FILE, "a+", encoding="utf-8")
    except OSError:                 # made by another user (root, say), or a read-only disk: a read-only handle locks too
        try:
            handle = open(state_dir / LOCK_FILE, encoding="utf-8")
        except OSError:
            return None             # nothing can be written there at all; the journal says why
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
                feedback: Any = None, seed_source: Any = None, read_only: bool = False,
                retry_faults: bool = False, wall: Any = None) -> Table:
    """The table on the config's state directory.

    ``read_only`` (commands that only look) opens the journal without changing anything there.
    ``retry_faults`` (the running table): when the disk refuses the journal, the table still starts,
    shows the game as far as it can be read, refuses actions and tries again every few seconds.
    Otherwise a fault raises JournalFault, whose message names it and its fix.
    """
    directory = state_dir or config.state_dir
    catalog = with_names(catalog or load_catalog(config.card_set_files()), directory)
    set_card_names({lang: {c.id: c.names[lang] for c in catalog.values() if c.names.get(lang)} for lang in ("es", "zh")})
    path = directory / JOURNAL_FILE
    fault_text = None
    open_journal = None
    if read_only:
        journal = Journal(path, read_only=True)
    else:
        try:
            try:
                directory.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise fault(exc, path) from exc
            journal = Journal(path)
        except JournalFault as exc:
            if not retry_faults:
                raise
            log.error("%s", exc)
            fault_text = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
            try:
                journal = Journal(path, read_only=True)
            except JournalError:
                journal = Journal.unavailable(path)
        if retry_faults:
            open_journal = lambda: Journal(path)  # noqa: E731
    registry = TagRegistry(directory / TAGS_FILE, known=catalog, read_only=read_only)
    players = PlayerDefaults({token: (p.name, p.sex) for token, p in config.players.items()})
    controller = Controller(catalog, journal, registry, clock, ruleset=config.rules, feedback=feedback,
                            token_seconds=config.table.token_seconds,
                            players=players, seed_source=seed_source, wall=wall,
                            open_journal=open_journal, storage_fault=fault_text)
    if registry.problems:
        text = registry.damage_report() or ""
        if controller.message is not None and controller.message.kind == "refusal":
            text = Seq([controller.message.text, text], "sentences")
        controller.say(text, "refusal")
    return Table(config, catalog, registry, journal, controller, EventQueue())
