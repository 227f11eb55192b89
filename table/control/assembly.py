"""Building the table from a config: catalog, registry, journal, drivers, controller."""

from __future__ import annotations

import logging
import queue
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cards.loader import load_catalog
from cards.names import with_names
from cards.tags import TagRegistry
from drivers.base import Clock
from drivers.events import InputEvent, Press, Tap
from engine.cards import Catalog
from engine.messages import Seq
from table.config import Config
from table.control.controller import Controller
from table.control.prompts import PlayerDefaults
from table.storage.paths import JOURNAL_FILE, TAGS_FILE
from table.storage.faults import JournalError, JournalFault, fault
from table.storage.journal import Journal
from table.storage.seats import SEATS_FILE, SeatFile

log = logging.getLogger(__name__)

class EventQueue(queue.Queue[InputEvent]):
    """The one queue from the drivers to the main loop; ``wake`` is called after every put."""

    def __init__(self) -> None:
        super().__init__()
        self.wake: Any = None

    def put(self, item: InputEvent, block: bool = True, timeout: float | None = None) -> None:
        super().put(item, block, timeout)
        if self.wake is not None:
            self.wake()

    def has_input(self) -> bool:
        """Whether a tap or a press waits (a reader's status or a release does not count)."""
        with self.mutex:
            return any(isinstance(item, (Tap, Press)) for item in self.queue)

    def drain(self) -> list[InputEvent]:
        out: list[InputEvent] = []
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


def build_table(config: Config, clock: Clock, *, state_dir: Path | None = None, catalog: Catalog | None = None,
                feedback: Any = None, seed_source: Any = None, read_only: bool = False,
                retry_faults: bool = False, wall: Any = None, named: bool = True) -> Table:
    """The table on the config's state directory.

    ``read_only`` (commands that only look) opens the journal without changing anything there.
    ``retry_faults`` (the running table): when the disk refuses the journal, the table still starts,
    shows the game as far as it can be read, refuses actions and tries again every few seconds.
    Otherwise a fault raises JournalFault, whose message names it and its fix.
    ``named`` False: ``catalog`` is taken as it is, without the names the state directory gives.
    """
    directory = state_dir or config.state_dir
    catalog = catalog or load_catalog(config.card_set_files())
    if named:
        catalog = with_names(catalog, directory)
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
                            open_journal=open_journal, storage_fault=fault_text,
                            seat_file=SeatFile(directory / SEATS_FILE, read_only=read_only))
    if registry.problems:
        text = registry.damage_report() or ""
        if controller.message is not None and controller.message.kind == "refusal":
            text = Seq([controller.message.text, text], "sentences")
        controller.say(text, "refusal")
    return Table(config, catalog, registry, journal, controller, EventQueue())
