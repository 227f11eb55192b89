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
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cards.enroll import PROGRESS_FILE, EnrollmentSession, EnrollResult, Say, SingleCardSession, say
from cards.loader import load_catalog
from cards.tags import TagRegistry
from drivers.base import Clock, SystemClock
from drivers.events import InputEvent, Press, ReaderStatus, Tap, normalise_uid
from drivers.factory import DriverError
from drivers.sim import SimReader
from table.app import PUMP_S, sleep_until_woken
from table.config import Config, ConfigError
from table.wiring import TAGS_FILE, EventQueue, hold_table_lock, open_drivers

log = logging.getLogger(__name__)

KEYS = {"f1": "roll", "f2": "help", "f3": "run", "f4": "next", "f5": "undo"}
BUTTON_ORDER = ("roll", "help", "run", "next", "undo")


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
        drivers = open_drivers(config, self.events, self.clock, sim=sim)
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
        self.screen = EnrollScreen.for_config(config) if screen else None
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
                self.line = Line(say("reader offline: {why}", why=event.message), "refusal")
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
            self.screen.render(self)

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
        from table.app import pointer_position

        if self.screen is None:
            return
        pos = pointer_position(event, self.screen.display)
        target = self.screen.display.hit(pos) if pos is not None else None
        if target is not None and target[0] == "button":
            self.events.put(Press(target[1], self.clock.monotonic()))

    def close(self) -> None:
        self.reader.close()
        self.buttons.close()
        self.feedback.close()
        if self.screen is not None:
            self.screen.close()
            self.screen = None


class EnrollScreen:
    """Draws the wizard: what to tap, where we are in the deck, the last result, the soft keys.

    The table's Display does the work: its fonts (the CJK one in Chinese), its fitted text
    that records what went where, its colours, panels and soft-key bar.
    """

    def __init__(self, size: tuple[int, int], *, fullscreen: bool = False, language: str = "en", font: str = "") -> None:
        from table.display import Display

        self.display = Display(size, fullscreen=fullscreen, title="munchkin-table: enroll", language=language, font=font)
        self.frames = 0

    @classmethod
    def for_config(cls, config: Config, *, fullscreen: bool = False) -> EnrollScreen:
        return cls((config.display.width, config.display.height), fullscreen=fullscreen,
                   language=config.display.language, font=config.display.font)

    @property
    def drawn(self) -> list[Any]:
        return self.display.drawn

    def render(self, app: EnrollApp) -> None:
        import pygame

        from table.display import BG
        from table.view import View

        d = self.display
        d.painter.drawn = []
        d.hits = []
        d.panels = {}
        w, h = d.size
        s = d.s
        d.window.fill(BG)
        # the table's bands: a top bar, the body, the soft keys
        top = int((76 if d.portrait else 40) * s)
        keys_h = int((80 if d.portrait else 62) * s)
        self.draw_top(app, pygame.Rect(0, 0, w, top))
        body = pygame.Rect(int(8 * s), top, w - int(16 * s), h - top - keys_h - int(6 * s))
        self.draw_body(app, body)
        d.draw_soft_keys(View(state={}, names={}, soft_keys=app.soft_keys()), pygame.Rect(0, h - keys_h, w, keys_h))
        pygame.display.flip()
        self.frames += 1

    def draw_top(self, app: EnrollApp, bar: pygame.Rect) -> None:
        import pygame

        from table.display import BAD, DIM, TEXT
        from table.i18n import _

        d, s, session = self.display, self.display.s, app.session
        x = int(10 * s)
        if d.portrait:
            row = bar.h // 2
            title = pygame.Rect(x, 0, bar.w - 2 * x, row)
            status = pygame.Rect(x, row, bar.w - 2 * x, row)
        else:
            title = pygame.Rect(x, 0, int(bar.w * 0.45) - x, bar.h)
            status = pygame.Rect(int(bar.w * 0.45), 0, int(bar.w * 0.55) - x, bar.h)
        d.panels["title"], d.panels["status"] = title, status
        d.t(_("Enroll the deck"), 22, TEXT, title, y=title.y + (title.h - d.painter.line_height(int(22 * s))) // 2)
        text = _("{done} / {total} enrolled").format(done=session.done, total=session.total)
        if session.skipped_count:
            text += " · " + _("{n} skipped").format(n=session.skipped_count)
        align = "left" if d.portrait else "right"
        if app.reader_online is False:
            r = d.t(_("READER OFFLINE"), 18, BAD, status, y=status.y + (status.h - d.painter.line_height(int(18 * s))) // 2,
                    align=align)
            if d.portrait:
                status = pygame.Rect(r.right + int(12 * s), status.y, max(0, status.right - r.right - int(12 * s)), status.h)
            else:
                status = pygame.Rect(status.x, status.y, max(0, r.x - status.x - int(12 * s)), status.h)
        d.t(text, 20, DIM, status, y=status.y + (status.h - d.painter.line_height(int(20 * s))) // 2, align=align)

    def draw_body(self, app: EnrollApp, body: pygame.Rect) -> None:
        import pygame

        from table.display import ACTIVE, BG, DIM, GOOD, KEY_OFF, PANEL, REFUSAL, TEXT
        from table.i18n import _

        d, p, s, session = self.display, self.display.painter, self.display.s, app.session
        gap = int((16 if d.portrait else 8) * s)
        # heights, top to bottom: what to tap, the progress bar, the last result, the simulator's hint
        step = session.current()
        name = step.title.text(_) if step is not None else ""
        name_size = 56 if d.portrait else 64
        name_lines = 1
        room = body.w - int(48 * s)
        if d.portrait and p.width(name, int(name_size * s)) > room:
            name_lines = 2                          # a long name on a narrow screen: two lines, not an ellipsis
            while name_size > 36 and p.width(name, int(name_size * s)) > 1.6 * room:
                name_size -= 4
        sizes = (24, name_size, 24)
        content = (p.line_height(int(sizes[0] * s)) + name_lines * p.line_height(int(sizes[1] * s))
                   + int(6 * s) + p.line_height(int(sizes[2] * s)))
        if step is None:
            content = 3 * p.line_height(int(30 * s))
        result_size, result_lines = (24, 4) if d.portrait else (22, 3)
        lh = p.line_height(int(result_size * s))
        result_h = result_lines * lh + int(14 * s)
        bar_h = int(30 * s)
        hint_text = _("simulator: type a tag UID in hex and press Enter; F4 = NEXT, F5 = UNDO, F3 = RUN")
        # the simulator's hint on two lines where one would need tiny type (a narrow screen, a longer language)
        hint_lines = 1 if p.width(hint_text, int(16 * s)) <= body.w - int(12 * s) else 2
        hint_h = hint_lines * p.line_height(int(16 * s)) if isinstance(app.reader, SimReader) else 0
        rest = bar_h + result_h + 2 * gap + (hint_h + gap if hint_h else 0)
        card_h = body.h - rest - int(4 * s)
        y = body.y + int(4 * s)
        if d.portrait:                              # a tall screen: the panels together, in the middle
            card_h = min(card_h, content + int(120 * s))
            y = body.y + max(int(4 * s), (body.h - rest - card_h) // 2)

        # what to tap now
        card_box = pygame.Rect(body.x, y, body.w, card_h)
        p.panel(card_box)
        d.panels["card"] = card_box
        inner = card_box.inflate(-int(24 * s), -int(16 * s))
        ty = inner.y + max(0, (inner.h - content) // 2)
        if step is None:
            p.wrap(session.prompt_says().text(_), 30 * s, GOOD, inner, y=ty, max_lines=3)
        else:
            detail = [_("{n} of {total}").format(n=step.number, total=session.total)]
            if step.copies > 1:
                detail.append(_("copy {i} of {n}").format(i=step.copy, n=step.copies))
            if step.card in app.catalog:
                card = app.catalog[step.card]
                detail += [_(card.deck), _(card.kind.value)]
                if card.set_id != "base":
                    detail.append(_("{set} set").format(set=card.set_id))
            d.t(_("tap"), sizes[0], DIM, inner, y=ty)
            ty += p.line_height(int(sizes[0] * s))
            if name_lines == 2:
                ty = p.wrap(name, sizes[1] * s, ACTIVE, inner, y=ty, max_lines=2)
            else:
                d.t(name, sizes[1], ACTIVE, inner, y=ty, shrink=0.45)
                ty += p.line_height(int(sizes[1] * s))
            d.t(" · ".join(detail), sizes[2], TEXT, inner, y=ty + int(6 * s))

        # the progress bar: enrolled in green, skipped in grey
        bar = pygame.Rect(body.x, card_box.bottom + gap, body.w, bar_h)
        d.panels["progress"] = bar
        radius = int(8 * s)
        pygame.draw.rect(d.window, KEY_OFF, bar, border_radius=radius)
        total = max(1, session.total)
        done_w = int(bar.w * min(session.done, total) / total)
        skip_w = min(int(bar.w * session.skipped_count / total), bar.w - done_w)
        if done_w:
            pygame.draw.rect(d.window, GOOD, (bar.x, bar.y, done_w, bar.h), border_radius=radius)
        if skip_w:
            pygame.draw.rect(d.window, DIM, (bar.x + done_w, bar.y, skip_w, bar.h))
        d.t(f"{int(100 * session.progress)}%", 18, BG if session.progress > 0.5 else TEXT, bar,
            y=bar.y + (bar.h - p.line_height(int(18 * s))) // 2, align="center")

        # the last result: what the tap did, or why it was refused (on the table's refusal red)
        result = pygame.Rect(body.x, bar.bottom + gap, body.w, result_h)
        kind = app.line.kind
        p.panel(result, REFUSAL if kind == "refusal" else PANEL)
        d.panels["result"] = result
        text = app.line.says.text(_)
        if kind == "refusal" and p.has_glyph("✗", int(result_size * s)):
            text = "✗ " + text                      # the CJK font has no ✗: no box instead of it
        inner = result.inflate(-int(20 * s), -int(14 * s))
        p.wrap(text, result_size * s, GOOD if kind == "good" else TEXT, inner, y=inner.y, max_lines=result_lines)

        if hint_h:
            hint = pygame.Rect(body.x + int(6 * s), result.bottom + gap, body.w - int(12 * s), hint_h)
            d.panels["hint"] = hint
            if app.entry:
                d.t(_("tag: {entry}_").format(entry=app.entry), 16, ACTIVE, hint)
            else:
                p.wrap(hint_text, 16 * s, DIM, hint, y=hint.y, max_lines=hint_lines)

    def save(self, path: Path) -> None:
        self.display.save(path)

    def close(self) -> None:
        self.display.close()


def enroll(config: Config, *, sim: bool, set_id: str | None = None, tokens: bool = True, card: str | None = None) -> int:
    from table.app import wants_fullscreen

    if wants_fullscreen(config) and not os.environ.get("SDL_VIDEODRIVER"):
        os.environ["SDL_VIDEODRIVER"] = "kmsdrm"
    lock = hold_table_lock(config.state_dir)      # raises TableBusy: the CLI prints it  # noqa: F841
    try:
        app = EnrollApp(config, sim=sim, set_id=set_id, tokens=tokens, screen=False, card=card)
    except DriverError as exc:
        print(f"munchkin-table enroll: {exc}", file=sys.stderr)
        return 1
    app.screen = EnrollScreen.for_config(config, fullscreen=wants_fullscreen(config))
    return app.run()
