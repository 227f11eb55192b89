"""``munchkin-table enroll``: the on-screen wizard that binds every tag of the deck.

The logic is cards.enroll.EnrollmentSession; this module puts it on the pygame screen and
feeds it from the drivers (the configured reader and buttons, or the simulated ones, where a
UID typed on the keyboard and Enter is a tap). Buttons: NEXT skips a copy (at the end it goes
back to the skipped ones), UNDO takes back the last step, RUN ends the session. Everything is
saved as it happens, so closing the window and starting again resumes where it stopped.
"""

from __future__ import annotations

import difflib
import logging
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from cards.enroll import EnrollResult, EnrollmentSession, PROGRESS_FILE, Say, SingleCardSession, say
from cards.loader import load_catalog
from cards.tags import TagRegistry
from drivers.base import Clock, SystemClock
from drivers.events import InputEvent, Press, ReaderStatus, Tap, normalise_uid
from drivers.factory import DriverError
from drivers.said import Said
from drivers.sim import SimReader
from table.app.drivers import open_drivers
from table.app.wake import PUMP_S, sleep_until_woken
from table.config import Config, ConfigError
from table.control.assembly import EventQueue
from table.storage.paths import TAGS_FILE, hold_table_lock
from table.ui.display import Display
from table.ui.keys import KEYS
from table.ui.screen import NoScreen, ScreenPlan, open_display, pointer_position
from table.ui.screens.enroll import EnrollShown, draw_enroll

log = logging.getLogger(__name__)

TITLE = "munchkin-table: enroll"


@dataclass
class Line:
    says: Say
    kind: str = "info"          # info | good | refusal

    @property
    def text(self) -> str:
        """The English (for tests and the log); the screen translates ``says``."""
        return str(self.says)


class EnrollApp:
    """The wizard: a session, the drivers that feed it, and (optionally) a screen."""

    def __init__(self, config: Config, *, sim: bool, clock: Clock | None = None, state_dir: Path | None = None,
                 set_id: str | None = None, tokens: bool = True, screen: bool = True, card: str | None = None) -> None:
        self.config = config
        self.clock = clock or SystemClock()
        directory = state_dir or config.state_dir
        directory.mkdir(parents=True, exist_ok=True)
        self.catalog = load_catalog(config.card_set_files())
        if set_id is not None and not any(c.set_id == set_id for c in self.catalog.values()):
            sets = sorted({c.set_id for c in self.catalog.values()})
            raise ConfigError(f"no card set {set_id!r}; the sets are {', '.join(sets)}")
        self.registry = TagRegistry(directory / TAGS_FILE, known=self.catalog)
        self.session: EnrollmentSession | SingleCardSession
        if card is not None:
            try:
                self.session = SingleCardSession(self.catalog, self.registry, card)
            except KeyError:
                close = difflib.get_close_matches(card, [*self.catalog, "player-1"], n=3)
                hint = f"; did you mean {', '.join(close)}?" if close else "; 'munchkin-table cards' lists them"
                raise ConfigError(f"no card {card!r} (a card id or player-1 … player-6){hint}") from None
        else:
            self.session = EnrollmentSession(self.catalog, self.registry, directory / PROGRESS_FILE,
                                             set_id=set_id, tokens=tokens)
        self.events = EventQueue()
        drivers = open_drivers(config, self.events, self.clock, sim=sim, seat_pads=False)   # any pad enrolls
        self.reader, self.buttons, self.feedback = drivers.reader, drivers.buttons, drivers.feedback
        self.line = Line(self.session.prompt_says() if self.session.done == 0 or card is not None else
                         say("welcome back: {done} of {total} already enrolled", done=self.session.done,
                             total=self.session.total))
        if self.registry.problems:
            self.line = Line(say("{report}", report=self.registry.damage_report() or ""), "refusal")
        self.reader_online: bool | None = None
        self.reader_message = ""
        self.entry = ""             # simulator: the UID being typed
        self.finished = False       # RUN pressed: leave the wizard
        self.screen: Display | None = open_display(config, title=TITLE) if screen else None
        self.revision = 0

    # ------------------------------------------------------------ input

    def handle(self, event: InputEvent) -> EnrollResult | None:
        result: EnrollResult | None = None
        if isinstance(event, Tap):
            if not event.uid:
                result = EnrollResult(False, "refused", say("{card}: the wizard needs a tag's UID, not a card name",
                                                            card=event.card))
            else:
                result = self.session.tap(event.uid)
        elif isinstance(event, Press):
            if event.button == "next":
                result = self.session.skip()
            elif event.button == "undo":
                result = self.session.undo()
                self.finished = result.kind == "quit"
            elif event.button == "run":
                self.finished = True
                result = EnrollResult(True, "quit", say("stopped at {done} of {total}; "
                                                        "run 'munchkin-table enroll' again to go on",
                                                        done=self.session.done, total=self.session.total))
            else:
                result = EnrollResult(False, "refused", say("{button} does nothing here: "
                                                            "tap the tag, NEXT skips, UNDO takes back, RUN stops",
                                                            button=say(event.button.upper())))
        elif isinstance(event, ReaderStatus):
            was_online = self.reader_online
            self.reader_online, self.reader_message = event.online, event.message
            if not event.online:
                self.line = Line(say("reader offline: {why}", why=_said(event.message)), "refusal")
            elif was_online is False:
                self.line = Line(say("reader back online"), "good")
            self.revision += 1
            return None
        else:
            return None
        self.show(result)
        return result

    def show(self, result: EnrollResult) -> None:
        if result.ok:
            self.feedback.accepted()
        else:
            self.feedback.refused()
        kind = "good" if result.ok else "refusal"
        self.line = Line(result.says, kind)
        self.revision += 1
        log.info("%s", result.message)

    def process(self) -> list[EnrollResult]:
        """Handle every queued driver event; returns what each did."""
        return [r for r in (self.handle(e) for e in self.events.drain()) if r is not None]

    def type_key(self, name: str, unicode: str = "") -> None:
        """Simulator keyboard: F1–F5 are the buttons; a UID typed in hex and Enter is a tap."""
        if name in KEYS:
            self.buttons.press(KEYS[name])
        elif name == "escape":
            self.entry = ""
        elif name == "backspace":
            self.entry = self.entry[:-1]
        elif name in ("return", "enter"):
            typed, self.entry = self.entry.strip(), ""
            if not typed:
                self.buttons.press("next")
            else:
                try:
                    uid = normalise_uid(typed)
                except ValueError:
                    self.show(EnrollResult(False, "refused", say("{typed} is not a tag UID: type 4, 7 or 10 bytes "
                                                                 "in hex, like 04A1B2C3", typed=typed)))
                    return
                assert isinstance(self.reader, SimReader)
                self.reader.scan(uid)
        elif unicode and unicode.upper() in "0123456789ABCDEF:" and len(self.entry) < 29:
            self.entry += unicode.upper()
        self.revision += 1

    # ------------------------------------------------------------ screen

    def render(self) -> None:
        if self.screen is not None:

            shown = self.shown()
            self.screen.show(lambda frame: draw_enroll(frame, shown))

    def shown(self) -> EnrollShown:
        """What the screen shows now."""

        return EnrollShown(self.session, self.catalog, self.line.says, self.line.kind, self.soft_keys(),
                           reader_online=self.reader_online, sim=isinstance(self.reader, SimReader), entry=self.entry)

    def soft_keys(self) -> dict[str, str]:
        """English labels, as the table's own soft keys; the screen translates them."""
        keys = {"roll": "", "help": "", "run": "Stop", "next": "Skip", "undo": "Undo"}
        if isinstance(self.session, SingleCardSession):
            keys["next"] = ""
            keys["run"] = "Done"
        elif self.session.is_finished:
            keys["next"] = "Skipped" if self.session.skipped_count else ""
        return keys

    # ------------------------------------------------------------ main loop

    def run(self) -> int:
        import pygame

        # As the table's loop: driver events wake a threading.Event, and pygame's own events
        # (keys, the window closing) are pumped PUMP_S apart; never pygame.event.wait.
        woken = threading.Event()
        self.events.wake = woken.set
        self.reader.start()
        self.buttons.start()
        self.process()
        self.render()
        shown = self.revision
        try:
            while not self.finished:
                sleep_until_woken(woken, PUMP_S)
                for event in pygame.event.get():
                    if event.type == pygame.QUIT:
                        self.finished = True
                    elif event.type == pygame.KEYDOWN and isinstance(self.reader, SimReader):
                        self.type_key(pygame.key.name(event.key), event.unicode)
                    else:
                        self.touch(event)
                self.process()
                if self.revision != shown:
                    self.render()
                    shown = self.revision
        except KeyboardInterrupt:
            pass
        finally:
            self.close()
        print(f"enrolled {self.session.done} of {self.session.total}"
              + (f", {self.session.skipped_count} skipped" if self.session.skipped_count else ""))
        return 0

    def touch(self, event: object) -> None:
        """A finger or click on a soft key works as its button, as on the table's screen."""
        if self.screen is None:
            return
        pos = pointer_position(event, self.screen)
        target = self.screen.hit(pos) if pos is not None else None
        if target is not None and target[0] == "button":
            self.events.put(Press(target[1], self.clock.monotonic()))

    def close(self) -> None:
        self.reader.close()
        self.buttons.close()
        self.feedback.close()
        if self.screen is not None:
            self.screen.close()
            self.screen = None


def enroll(config: Config, *, sim: bool, set_id: str | None = None, tokens: bool = True, card: str | None = None) -> int:
    """The wizard on the configured screen until RUN or the window closes; 2 when it cannot start."""
    plan = ScreenPlan(config)
    try:
        plan.check()
    except NoScreen as exc:
        print(f"munchkin-table enroll: {exc}", file=sys.stderr)
        return 2
    lock = hold_table_lock(config.state_dir)      # raises TableBusy: the CLI prints it  # noqa: F841
    try:
        app = EnrollApp(config, sim=sim, set_id=set_id, tokens=tokens, screen=False, card=card)
    except DriverError as exc:
        print(f"munchkin-table enroll: {exc}", file=sys.stderr)
        return 2
    try:
        app.screen = plan.open(title=TITLE)
    except NoScreen as exc:
        print(f"munchkin-table enroll: {exc}", file=sys.stderr)
        app.close()
        return 2
    return app.run()


def _said(value: object) -> object:
    """A reader's ``Said`` (drivers/said.py) as the wizard's own ``Say``, so that it is translated too."""
    if isinstance(value, Said):
        return say(value.template, **{k: _said(v) for k, v in value.values.items()})
    return value
