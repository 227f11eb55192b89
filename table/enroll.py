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
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from cards.enroll import PROGRESS_FILE, EnrollmentSession, EnrollResult, SingleCardSession
from cards.loader import load_catalog
from cards.tags import TagRegistry
from drivers.base import Clock, SystemClock
from drivers.events import InputEvent, Press, ReaderStatus, Tap, normalise_uid
from drivers.factory import DriverError, open_buttons, open_feedback, open_reader
from drivers.sim import SimReader
from table.config import Config, ConfigError
from table.wiring import TAGS_FILE, EventQueue

log = logging.getLogger(__name__)

KEYS = {"f1": "roll", "f2": "help", "f3": "run", "f4": "next", "f5": "undo"}
BUTTON_ORDER = ("roll", "help", "run", "next", "undo")
GOOD = (90, 200, 120)


@dataclass
class Line:
    text: str
    kind: str = "info"          # info | good | refusal


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
        reader_type = config.reader_type(sim=sim)
        buttons_type = "sim" if reader_type == "sim" else "gpio"
        self.reader = open_reader(reader_type, self.events, clock=self.clock, spi_bus=config.reader.spi_bus,
                                  spi_device=config.reader.spi_device, reset_pin=config.reader.reset_pin,
                                  port=config.reader.port, baudrate=config.reader.baudrate)
        self.buttons = open_buttons(buttons_type, self.events, clock=self.clock, pins=config.buttons.pins())
        self.feedback = open_feedback("sim" if buttons_type == "sim" else "gpio",
                                      buzzer_pin=config.feedback.pin("buzzer"), led_pin=config.feedback.pin("led"))
        self.line = Line(self.session.prompt() if self.session.done == 0 or card is not None else
                         f"welcome back: {self.session.done} of {self.session.total} already enrolled")
        if self.registry.problems:
            self.line = Line(self.registry.damage_report() or "", "refusal")
        self.reader_online: bool | None = None
        self.reader_message = ""
        self.entry = ""             # simulator: the UID being typed
        self.finished = False       # RUN pressed: leave the wizard
        self.screen = EnrollScreen((config.display.width, config.display.height)) if screen else None
        self.revision = 0

    # ------------------------------------------------------------ input

    def handle(self, event: InputEvent) -> EnrollResult | None:
        result: EnrollResult | None = None
        if isinstance(event, Tap):
            if not event.uid:
                result = EnrollResult(False, "refused", f"{event.card}: the wizard needs a tag's UID, not a card name")
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
                result = EnrollResult(True, "quit", f"stopped at {self.session.done} of {self.session.total}; "
                                                    "run 'munchkin-table enroll' again to go on")
            else:
                result = EnrollResult(False, "refused", f"{event.button.upper()} does nothing here: "
                                                        "tap the tag, NEXT skips, UNDO takes back, RUN stops")
        elif isinstance(event, ReaderStatus):
            self.reader_online, self.reader_message = event.online, event.message
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
        self.line = Line(result.message, kind)
        self.revision += 1
        log.info("%s", result.message)

    def process(self) -> list[EnrollResult]:
        """Handle every queued driver event; returns what each did."""
        return [r for r in (self.handle(e) for e in self.events.drain()) if r is not None]

    def type_key(self, name: str, unicode: str = "") -> None:
        """Simulator keyboard: F1–F5 are the buttons; a UID typed in hex and Enter is a tap."""
        if name in KEYS:
            self.buttons.press(KEYS[name])  # type: ignore[attr-defined]
        elif name == "escape":
            self.entry = ""
        elif name == "backspace":
            self.entry = self.entry[:-1]
        elif name in ("return", "enter"):
            typed, self.entry = self.entry.strip(), ""
            if not typed:
                self.buttons.press("next")  # type: ignore[attr-defined]
            else:
                try:
                    uid = normalise_uid(typed)
                except ValueError as exc:
                    self.show(EnrollResult(False, "refused", str(exc)))
                    return
                assert isinstance(self.reader, SimReader)
                self.reader.scan(uid)
        elif unicode and unicode.upper() in "0123456789ABCDEF:" and len(self.entry) < 29:
            self.entry += unicode.upper()
        self.revision += 1

    # ------------------------------------------------------------ screen

    def render(self) -> None:
        if self.screen is not None:
            self.screen.render(self)

    def soft_keys(self) -> dict[str, str]:
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

        wake = pygame.event.custom_type()
        self.events.wake = lambda: pygame.event.post(pygame.event.Event(wake))
        self.reader.start()
        self.buttons.start()
        self.process()
        self.render()
        shown = self.revision
        try:
            while not self.finished:
                first = pygame.event.wait(5000)
                for event in [first, *pygame.event.get()]:
                    if event.type == pygame.QUIT:
                        self.finished = True
                    elif event.type == pygame.KEYDOWN and isinstance(self.reader, SimReader):
                        self.type_key(pygame.key.name(event.key), event.unicode)
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

    def close(self) -> None:
        self.reader.close()
        self.buttons.close()
        self.feedback.close()
        if self.screen is not None:
            self.screen.close()
            self.screen = None


class EnrollScreen:
    """Draws the wizard: what to tap, where we are in the deck, the last result, the soft keys."""

    def __init__(self, size: tuple[int, int], *, fullscreen: bool = False) -> None:
        from table.display import Display

        self.display = Display(size, fullscreen=fullscreen, title="munchkin-table: enroll")
        self.frames = 0

    def render(self, app: EnrollApp) -> None:
        import pygame

        from table.display import ACTIVE, BAD, BG, DIM, KEY, PANEL, TEXT

        d = self.display
        scr = d.screen
        w, h = d.size
        s = h / 480
        pad = int(16 * s)
        session = app.session
        scr.fill(BG)
        status = f"{session.done} / {session.total} enrolled"
        if session.skipped_count:
            status += f" · {session.skipped_count} skipped"
        if app.reader_online is False:
            status = "READER OFFLINE · " + status
        d.painter.text("Enroll the deck", int(30 * s), DIM, pygame.Rect(pad, int(10 * s), w // 2, h - (int(10 * s))))
        right = d.painter.render(status, int(26 * s), BAD if app.reader_online is False else DIM)
        scr.blit(right, (w - right.get_width() - pad, int(12 * s)))

        step = session.current()
        y = int(70 * s)
        if step is not None:
            d.painter.text("tap", int(28 * s), DIM, pygame.Rect(pad, y, w - 2 * pad, h - (y)))
            d.painter.text(step.name, int(72 * s), ACTIVE, pygame.Rect(pad, y + int(28 * s), w - 2 * pad, h - (y + int(28 * s))))
            detail = [f"{step.number} of {session.total}"]
            if step.copies > 1:
                detail.append(f"copy {step.copy} of {step.copies}")
            if step.card in app.catalog:
                card = app.catalog[step.card]
                detail.append(f"{card.deck} · {card.kind.value}" + (f" · {card.set_id} set" if card.set_id != "base" else ""))
            d.painter.text("  ·  ".join(detail), int(30 * s), TEXT, pygame.Rect(pad, y + int(100 * s), w - 2 * pad, h - (y + int(100 * s))))
        else:
            d.painter.text(session.prompt(), int(36 * s), GOOD, pygame.Rect(pad, y + int(40 * s), w - 2 * pad, h - (y + int(40 * s))))

        # progress bar: enrolled in green, skipped in grey, behind a panel
        bar = pygame.Rect(pad, int(250 * s), w - 2 * pad, int(28 * s))
        pygame.draw.rect(scr, PANEL, bar, border_radius=8)
        total = max(1, session.total)
        done_w = int(bar.w * session.done / total)
        skip_w = int(bar.w * session.skipped_count / total)
        if done_w:
            pygame.draw.rect(scr, GOOD, (bar.x, bar.y, done_w, bar.h), border_radius=8)
        if skip_w:
            pygame.draw.rect(scr, DIM, (bar.x + done_w, bar.y, skip_w, bar.h))
        pct = d.painter.render(f"{int(100 * session.progress)}%", int(24 * s), BG if session.progress > 0.5 else TEXT)
        scr.blit(pct, (bar.centerx - pct.get_width() // 2, bar.y + (bar.h - pct.get_height()) // 2))

        color = {"good": GOOD, "refusal": BAD}.get(app.line.kind, TEXT)
        d.painter.wrap(app.line.text, int(26 * s), color, pygame.Rect(pad, 0, w - 2 * pad, h), y=int(292 * s), max_lines=2)
        if isinstance(app.reader, SimReader):
            hint = f"uid: {app.entry}_" if app.entry else "simulator: type a tag UID in hex and press Enter; F4 = NEXT, F5 = UNDO, F3 = RUN"
            d.painter.text(hint, int(22 * s), ACTIVE if app.entry else DIM, pygame.Rect(pad, int(350 * s), w - 2 * pad, h - (int(350 * s))))

        keys = app.soft_keys()
        kw = w // len(BUTTON_ORDER)
        for i, button in enumerate(BUTTON_ORDER):
            r = pygame.Rect(i * kw + int(4 * s), h - int(44 * s), kw - int(8 * s), int(40 * s))
            label = keys.get(button, "")
            pygame.draw.rect(scr, KEY if label else PANEL, r, border_radius=8)
            d.painter.text(button.upper(), int(16 * s), DIM, pygame.Rect(r.x + int(6 * s), r.y + int(3 * s), r.w - 8, h - (r.y + int(3 * s))))
            if label:
                d.painter.text(label, int(24 * s), TEXT, pygame.Rect(r.x + int(6 * s), r.y + int(17 * s), r.w - 8, h - (r.y + int(17 * s))))
        pygame.display.flip()
        self.frames += 1

    def save(self, path: Path) -> None:
        self.display.save(path)

    def close(self) -> None:
        self.display.close()


def enroll(config: Config, *, sim: bool, set_id: str | None = None, tokens: bool = True, card: str | None = None) -> int:
    from table.app import wants_fullscreen

    if wants_fullscreen(config) and not os.environ.get("SDL_VIDEODRIVER"):
        os.environ["SDL_VIDEODRIVER"] = "kmsdrm"
    try:
        app = EnrollApp(config, sim=sim, set_id=set_id, tokens=tokens, screen=False, card=card)
    except DriverError as exc:
        print(f"munchkin-table enroll: {exc}", file=sys.stderr)
        return 1
    app.screen = EnrollScreen((config.display.width, config.display.height), fullscreen=wants_fullscreen(config))
    return app.run()
