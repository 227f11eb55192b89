"""``munchkin-table run``: the table's main loop.

The main thread owns pygame and the game state. It sleeps on a threading.Event
that every driver event sets, until the controller's next deadline, or until input
arrives (see table.wake: on the Pi's console a watch on the input devices wakes it;
under the dummy driver no input comes through SDL; on a desktop it reads keys and
touches 30 times a second). It redraws only when something changed, or while the
interference bar moves or the die tumbles. An idle table sleeps IDLE_S at a time (at most half
systemd's watchdog interval); when nothing is scheduled, those wakes only ping the watchdog.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, BinaryIO

from cards.textfile import TextFileError, decode_text
from drivers.base import SystemClock
from drivers.events import Press, Tap
from drivers.factory import DriverError
from drivers.sim import SimButtons, SimReader
from engine.messages import msg
from table.app.drivers import Drivers, open_drivers
from table.app.frametrace import FrameTrace
from table.app.heap import collect_while_idle, settle
from table.app.journalwatch import JournalWatch
from table.app.league import LeagueRun, start_league
from table.app.logafter import LogAfterFrame
from table.app.rehearsal import rehearse
from table.app.syncahead import SyncAhead
from table.app.systemd import notify, watchdog_interval
from table.app.wake import PUMP_S, input_wake, sleep_until_woken
from table.config import Config
from table.control.assembly import Table, build_table
from table.control.controller import Controller
from table.control.state_json import can
from table.words.i18n import said
from table.sim.script import ScriptError, ScriptNotice, parse_script, tap_or_press
from table.storage.paths import hold_table_lock
from table.ui.display import Display
from table.ui.keys import EXPLAIN_KEY, KEYS
from table.ui.picker import Picker, as_uid
from table.ui.screen import NoScreen, ScreenPlan, pointer_position
from table.ui.sound import Sounds
from table.ui.voice import Voice, announcement
from table.ui.view import View, build_view
from table.web import WebView, start_web

log = logging.getLogger(__name__)

ANIMATION_MS = 40             # frame spacing while the interference bar or the die moves
MAX_PIPED_LINE = 64 * 1024     # a longer piped line is not a table-script line
IDLE_S = 10.0                 # the longest sleep when nothing is due (the watchdog asks for a ping every 10 s)
_running: set[threading.Event] = set()      # the wake of each running loop, for stop()

__all__ = ["PUMP_S", "run", "sleep_until_woken", "stop"]


def stop() -> None:
    """Close the running table from another thread: a QUIT event, and a wake so it is read now."""
    import pygame

    pygame.event.post(pygame.event.Event(pygame.QUIT))
    for woken in list(_running):
        woken.set()


def _on_sigterm(woken: threading.Event) -> None:
    """SIGTERM (systemd's stop) ends the loop at once, also while it sleeps without pumping SDL
    (whose own handler would only queue a QUIT for the next pump)."""
    import pygame

    def handler(_signum: int, _frame: object) -> None:
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        woken.set()

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, handler)


def run(config: Config, *, sim: bool) -> int:
    """The table on the configured (or simulated) hardware until the window closes; 2 when it cannot start."""
    plan = ScreenPlan(config)
    try:
        plan.check()
    except NoScreen as exc:
        print(f"munchkin-table: {exc}", file=sys.stderr)
        return 2
    if not config.display.blank_screen:
        os.environ.setdefault("SDL_VIDEO_ALLOW_SCREENSAVER", "0")
    lock = hold_table_lock(config.state_dir)      # raises TableBusy: the CLI prints it  # noqa: F841
    clock = SystemClock()
    table = build_table(config, clock, retry_faults=True)
    reader_type = config.reader_type(sim=sim)
    try:
        drivers = open_drivers(config, table.events, clock, sim=sim)
    except DriverError as exc:
        log.debug("%s", exc)
        print(f"munchkin-table: {exc}", file=sys.stderr)
        return 2
    table.controller.feedback = drivers.feedback
    try:
        display = plan.open(sim_strip=isinstance(drivers.buttons, SimButtons))    # keyboard, picker and clickable buttons
    except NoScreen as exc:
        log.debug("%s", exc)
        print(f"munchkin-table: {exc}", file=sys.stderr)
        for device in (drivers.reader, drivers.buttons, drivers.feedback):
            device.close()
        table.journal.close()
        return 2

    display.sounds = Sounds(config.display.sound)
    display.voice = Voice(config.voice, config.display.language)
    if display.voice.notice:
        table.controller.say(display.voice.notice, "refusal")
    return TableLoop(config, table, drivers, display, clock, reader_type=reader_type).run()


class TableLoop:
    """The running table: sleeps until a driver event, an SDL event or a deadline, handles what came
    and draws a frame when something changed; closes everything it was given when it ends."""

    def __init__(self, config: Config, table: Table, drivers: Drivers, display: Display, clock: SystemClock, *,
                 reader_type: str) -> None:
        import pygame

        self.config, self.table, self.ctl, self.display, self.clock = config, table, table.controller, display, clock
        self.reader, self.buttons, self.feedback = drivers.reader, drivers.buttons, drivers.feedback
        self.reader_type = reader_type
        self.language = config.display.language
        self.sim_strip = isinstance(self.buttons, SimButtons)
        self.said_at = self.ctl.history_len      # the actions the voice has had its say on
        # Driver events wake the loop through a threading.Event, not pygame.event.wait: SDL's
        # wait polls every millisecond on drivers without a native wait (dummy, KMSDRM), which
        # alone costs about 1% of a core. Keys and touches are pumped PUMP_S apart instead.
        self.woken = threading.Event()
        table.events.wake = self.woken.set
        _running.add(self.woken)
        _on_sigterm(self.woken)
        self.wake = input_wake(pygame.display.get_driver(), self.woken.set, connection=display.connection())
        log.info("%r", self.wake)
        pygame.key.set_repeat(0)
        # Typed card ids (and piped table scripts) tap through a simulated pad beside any real one.
        self.keyboard = (self.reader if isinstance(self.reader, SimReader)
                         else SimReader(table.events, clock=clock, name="keyboard"))
        self.keyboard_name = self.keyboard.name      # its name while it is the shared pad (F6 moves it to a seat)
        if isinstance(self.buttons, SimButtons) and not sys.stdin.isatty():
            stdin = stdin_lines()
            if stdin is not None:
                threading.Thread(target=pipe_script, args=(stdin, self.keyboard, self.buttons, table), daemon=True).start()
        self.reader.start()
        self.buttons.start()
        self.picker = Picker({cid: (card.name, *card.names.values()) for cid, card in self.ctl.catalog.items()})
        self.web: WebView | None = None
        self.league: LeagueRun | None = None
        self.watchdog = watchdog_interval()
        self.quiet_wakes = 0                 # wakes for the watchdog alone (``sleep``)
        self.last_ping = time.monotonic()
        self.sync = SyncAhead(self.ctl)
        self.log = LogAfterFrame().install()    # what a pass logs goes once its frame is on the glass
        self.trace = FrameTrace.from_environment()     # the Pi-class bench's timing; None unless asked for
        # the journal deleted or replaced under the table wakes the loop, which writes it anew
        # (``watch_journal``); the loop itself sleeps on undisturbed while nothing is due
        self.journal_watch = JournalWatch(lambda: self.ctl.session.journal.path, self.journal_in_place,
                                          self.woken.set).start()

    def journal_in_place(self) -> bool:
        journal = self.ctl.session.journal
        return journal.read_only or journal.db is None or journal.in_place()

    def view(self) -> View:
        v = build_view(self.ctl, entry=self.picker.entry, language=self.language)
        if self.web is not None:
            v.web_url = self.web.url
        if self.sim_strip:
            self.picker.refresh(v)
            v.suggestions, v.pick = self.picker.suggestions, self.picker.pick
            v.pad_seat = self.keyboard.seat
        return v

    def run(self) -> int:
        ctl, display = self.ctl, self.display
        first = self.view()
        display.render(first)
        if self.trace is not None:
            self.trace.first(time.monotonic())
        notify("READY=1")
        if os.environ.get("MUNCHKIN_EXIT_AFTER_FIRST_FRAME"):     # for the start-time benchmark
            log.info("first frame shown; exiting as asked")
            return 0
        shown = ctl.revision
        try:
            self.league = start_league(self.config, self.table, self.woken.set)
            self.web = _start_web(self.config, self.table, self.language, first, self.league)
            if self.web is not None:
                display.render(self.view())              # the join address and QR code
            if rehearse(self.config, display, ctl.catalog, self.language, self.table.events.has_input):
                display.render(self.view())          # the game's own frame again, pushed whole
            frozen = settle()                    # what start-up built stays: no full collection scans it again
            log.info("table ready: reader %s, state in %s (%d objects settled)", self.reader_type,
                     self.config.state_dir, frozen)
            while True:
                if not display.wants_frame():
                    display.tidy()                   # the panels just drawn go to the store, off any tap's frame
                    collect_while_idle()             # the collector's passes too
                animating = self.sleep()
                if self.trace is not None:
                    self.trace.woke(time.monotonic(), time.thread_time())
                dirty = False
                if self.web is not None:
                    self.web.busy(True)              # the fan-out steps back while this pass handles input and draws
                    dirty = self.web.refresh_address()   # the network came up (or changed): a new QR code
                sdl = self.sdl_events()
                if sdl is None:
                    return 0
                dirty = sdl or dirty
                self.handle_events()
                self.ping_watchdog()
                if self.trace is not None:
                    self.trace.step("handled")
                syncing = self.sync.start()          # the pass's commits synced while its frame is drawn
                if dirty or ctl.revision != shown or animating or display.wants_frame():
                    shown = self.draw(shown, syncing)
                else:
                    if not self.sync.settle(syncing):
                        self.woken.set()
                    if self.trace is not None:
                        self.trace.passed(None)      # taps that drew no frame
                if self.league is not None:
                    notice = self.league.notice()    # the broker refused or went away: said once, the game goes on
                    if notice is not None:
                        ctl.say(notice, "refusal")
                if self.web is not None:
                    self.web.busy(False)
                self.log.flush()
        except KeyboardInterrupt:
            return 0
        finally:
            self.close()

    def draw(self, shown: int, syncing: Future[None] | None) -> int:
        """A frame of the game as it stands, shown once the pass's commits are synced, then the web,
        the league and the voice told; the revision now on the glass."""
        ctl, display = self.ctl, self.display
        drawn = ctl.revision
        frame = self.view()
        trace = self.trace
        if trace is not None:
            trace.step("viewed")

        def ready() -> bool:
            if trace is not None:
                trace.step("drawn")
            synced = self.sync.settle(syncing)
            if trace is not None:
                trace.step("synced")
            return synced

        if not display.render(frame, ready=ready):
            self.woken.set()             # the sync failed: the game as stored is drawn next pass
            return shown
        if self.trace is not None:
            self.trace.passed(time.monotonic(), time.thread_time())
        if self.wake.watch is not None and display.input_pending():
            self.woken.set()             # input Xlib read while the frame went out
        if self.web is not None and drawn != shown:
            self.web.publish(frame, said(can(ctl)))   # after the frame: the table never waits on the web
        if self.league is not None and drawn != shown:
            self.league.publisher.state(ctl.state, ctl.seats)     # after the frame
        self.speak()
        return drawn

    def sleep(self) -> bool:
        """Sleep until woken, the next deadline or the next animation frame; whether something moves."""
        ctl = self.ctl
        timeout = IDLE_S
        deadline = ctl.deadline()
        if deadline is not None:
            timeout = min(timeout, max(0.0, deadline - ctl.now))     # the table clock goes on from the journal
        # the interference bar moves; the die tumbles (and needs one frame more to leave)
        animating = (ctl.state.combat is not None and ctl.state.combat.window_until is not None) or self.display.wants_frame()
        if animating:
            timeout = min(timeout, ANIMATION_MS / 1000)
        if self.watchdog:
            timeout = min(timeout, self.watchdog / 2)
        # Nothing scheduled, nothing moving, no fault to retry, nobody else to look after (the web,
        # the league, a display pumped on a timer): a wake that no one asked for is the watchdog's
        # alone, and only its ping is done before sleeping again (a whole pass costs ten times that).
        quiet = (deadline is None and not animating and self.wake.pump_every is None and self.web is None
                 and self.league is None and not ctl.storage_fault)
        while not sleep_until_woken(self.woken, timeout, self.wake.pump_every) and quiet:
            self.ping_watchdog()
            self.quiet_wakes += 1
        return animating

    def sdl_events(self) -> bool | None:
        """Keys and touches: whether the screen needs a new frame for them; None when the window closed."""
        import pygame

        dirty = False
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return None
            if event.type == pygame.KEYDOWN and self.sim_strip and pygame.key.name(event.key) == SEAT_KEY:
                next_pad(self.keyboard, self.keyboard_name)
                dirty = True
            elif event.type == pygame.KEYDOWN and isinstance(self.buttons, SimButtons):
                dirty = _key(event, self.picker, self.keyboard, self.buttons, self.ctl) or dirty
            pos = pointer_position(event, self.display)
            if pos is not None:
                target = self.display.hit(pos)
                if target is not None and target[0] == "button":
                    # a touched soft key is its button, whatever drives the real ones
                    self.table.events.put(Press(target[1], self.clock.monotonic()))
                elif target is not None and target[0] == "card" and self.sim_strip:
                    self.keyboard.scan_card(target[1])
                    self.picker.clear()
                elif target is not None and target[0] == "seat" and self.sim_strip:
                    next_pad(self.keyboard, self.keyboard_name)
                    dirty = True
        self.wake.pumped()
        return dirty

    def handle_events(self) -> None:
        """The drivers' events (and piped lines that could not be understood), then the clock's."""
        for item in self.table.events.drain():
            if isinstance(item, ScriptNotice):      # a piped line that could not be understood
                self.ctl.refuse(item.text)
            else:
                if self.trace is not None and isinstance(item, Tap):
                    self.trace.tapped(item.at)
                self.ctl.handle(item)
        self.ctl.tick()
        if self.journal_watch.take() or self.ctl.session.rewritten is not None:
            watch_journal(self.ctl)          # (each commit looks for itself: session.watch_journal)


    def speak(self) -> None:
        """After the frame that shows it: a new accepted action's turn, verdict, levels, deaths or winner,
        said aloud (``[voice]``); an undo says nothing."""
        done = self.ctl.history_len
        if self.display.voice is not None and done > self.said_at:
            self.display.voice.say(announcement(self.ctl.last_events, self.ctl.state, self.ctl.catalog))
        self.said_at = done

    def ping_watchdog(self) -> None:
        now = time.monotonic()
        if self.watchdog and now - self.last_ping >= self.watchdog / 2:
            notify("WATCHDOG=1")
            self.last_ping = now

    def close(self) -> None:
        self.log.remove()
        notify("STOPPING=1")
        self.journal_watch.stop()
        _running.discard(self.woken)
        self.wake.close()
        if self.web is not None:
            self.web.close()
        if self.league is not None:
            self.league.close()
        self.reader.close()
        self.buttons.close()
        self.feedback.close()
        self.sync.close()
        self.table.journal.close()
        if self.display.voice is not None:
            self.display.voice.close()
        self.display.close()
        if self.trace is not None:
            self.trace.close()


def watch_journal(ctl: Controller) -> None:
    """The journal deleted or replaced under the table (looked at when its watch saw it move, and on every commit):
    the game is written anew from the open file, and the screen says so."""
    session = ctl.session
    said = session.watch_journal() or session.rewritten
    session.rewritten = None
    if said is not None:
        ctl.say(said, "refusal")


def _start_web(config: Config, table: Table, language: str, first: View, league: LeagueRun | None = None) -> WebView | None:
    """The web view when the config turns it on; a port or key it cannot use is said on screen, and the
    table plays on without it."""
    if not config.web.enabled:
        return None

    try:
        web = start_web(config, table.catalog, language, first=first,
                        league=league.snapshot if league is not None and league.watch is not None else None)
    except (OSError, ImportError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        log.error("web view not started on %s:%d: %s", config.web.bind, config.web.port, reason)
        table.controller.say(msg("web view not started on port {port}: {why}", port=config.web.port, why=reason),
                             "refusal")
        return None
    # the key stays out of the log (the unit sends stderr to the journal): the QR code and `web key` show it
    print(f"munchkin-table: web view on {web.url_text}: phones scan the QR code on the setup screen, or open "
          f"{web.masked_url} with the key from: munchkin-table web key", file=sys.stderr)
    return web


SEAT_KEY = "f6"        # the simulator's seat selector: the picker's taps go to the next seat's pad


def next_pad(reader: SimReader, shared: str) -> None:
    """The simulated pad's next seat: the shared pad (named ``shared``), seat 1, … seat 6, the shared pad again."""
    reader.seat = None if reader.seat == 6 else (reader.seat or 0) + 1
    reader.name = shared if reader.seat is None else f"seat-{reader.seat}"


def _key(event: Any, picker: Picker, reader: SimReader, buttons: SimButtons, ctl: Controller) -> bool:
    """A key in the simulator: F1-F5 press buttons, typing picks a card (or a tag UID in hex), Enter taps it."""
    import pygame

    name = pygame.key.name(event.key)
    if name in KEYS:
        buttons.press(KEYS[name])
        return True
    if name == EXPLAIN_KEY:
        buttons.hold("help")
        return True

    if event.key == pygame.K_ESCAPE:
        picker.clear()
        return True
    if event.key == pygame.K_BACKSPACE:
        picker.entry, picker.pick = picker.entry[:-1], 0
        return True
    if event.key in (pygame.K_DOWN, pygame.K_RIGHT) and picker.suggestions:
        picker.pick = (picker.pick + 1) % len(picker.suggestions)
        return True
    if event.key in (pygame.K_UP, pygame.K_LEFT) and picker.suggestions:
        picker.pick = (picker.pick - 1) % len(picker.suggestions)
        return True
    if event.key == pygame.K_TAB and picker.suggestions:
        picker.entry = picker.suggestions[picker.pick][0]
        return True
    if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
        typed = picker.entry.strip()
        chosen = picker.suggestions[picker.pick][0] if picker.suggestions else ""
        picker.clear()
        if not typed:
            buttons.press("next")
        elif typed in ("1", "2", "3", "4", "5", "6"):      # not isdigit(): '²' is a digit int() refuses
            reader.scan_card(f"player-{typed}")
        elif typed in ctl.catalog or typed.startswith("player-"):
            reader.scan_card(typed)
        elif uid := as_uid(typed):
            reader.scan(uid)                    # a raw tag, enrolled or not, through the simulated pad
        elif chosen:
            reader.scan_card(chosen)
        else:
            ctl.refuse(msg("no card or player token {typed!r}", typed=typed))
        return True
    if event.unicode and (event.unicode.isalnum() or event.unicode in "-: "):
        picker.entry += event.unicode.lower()
        picker.pick = 0
        return True
    return False


class FdLines:
    """``readline`` straight from a file descriptor, for the stdin reader's daemon thread.

    Not ``sys.stdin.buffer``: a daemon thread blocked in its readline holds the buffer's lock, and
    Python aborts at exit (SIGINT, window closed) when it cannot take that lock to close stdin.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending = b""

    def readline(self, limit: int = -1) -> bytes:
        while b"\n" not in self.pending and (limit < 0 or len(self.pending) < limit):
            chunk = os.read(self.fd, 65536)
            if not chunk:
                break
            self.pending += chunk
        end = self.pending.find(b"\n") + 1 or len(self.pending)
        if limit >= 0:
            end = min(end, limit)
        line, self.pending = self.pending[:end], self.pending[end:]
        return line


class _TextLines:
    """``readline`` in bytes over a text stream (a stdin replaced by one, in tests)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def readline(self, limit: int = -1) -> bytes:
        return str(self.stream.readline(limit)).encode("utf-8", errors="surrogateescape")


def stdin_lines() -> Any:
    """What the stdin reader reads lines from: the descriptor itself where there is one."""
    try:
        return FdLines(sys.stdin.fileno())
    except (AttributeError, OSError, ValueError):
        pass
    if sys.stdin is None:
        return None
    return getattr(sys.stdin, "buffer", None) or _TextLines(sys.stdin)


def pipe_script(stream: BinaryIO | FdLines | _TextLines, reader: SimReader, buttons: SimButtons, table: Table, *,
                sleep: Callable[[float], None] = time.sleep) -> int:
    """Simulator: table-script lines piped on stdin act like taps and presses (for demos and tests).

    Lines are split on newline only. A line that cannot be understood (not UTF-8, an unknown
    card, ``die ²``) is answered on the screen through the main loop (a ScriptNotice on the event
    queue) and the next line is read as usual: nothing a pipe sends stops the reader.
    Returns the number of lines read, when the pipe closes.
    """
    number = 0
    while raw := stream.readline(MAX_PIPED_LINE + 1):
        number += 1
        try:
            if len(raw) > MAX_PIPED_LINE and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):        # the rest of that line, unread
                    raw = stream.readline(MAX_PIPED_LINE + 1)
                raise ScriptError(f"<stdin>:{number}: a line longer than {MAX_PIPED_LINE // 1024} KB; ignored")
            text = decode_text(raw.rstrip(b"\n"), "<stdin>", first_line=number)
            actions = parse_script(text, table.catalog, source="<stdin>", first_line=number)
        except (ScriptError, TextFileError) as exc:
            say = str(exc)
        except Exception as exc:  # a bug of ours must not end the reader either
            log.exception("piped line %d", number)
            say = f"<stdin>:{number}: not understood ({type(exc).__name__})"
        else:
            say = ""
            for action in actions:
                if tap_or_press(action, reader, buttons):
                    continue
                if action.verb == "wait":
                    sleep(float(action.arg))
                elif action.verb == "die":
                    say = f"<stdin>:{number}: 'die' works in simulate only"
        if say:
            log.warning("%s", say)
            table.events.put(ScriptNotice(say))  # type: ignore[arg-type]  # the loop answers a notice on the same queue
    return number
