"""``munchkin-table run``: the table's main loop.

The main thread owns pygame and the game state. It sleeps on a threading.Event
that every driver event sets, until the controller's next deadline, or until input
arrives (see table.wake: on the Pi's console a watch on the input devices wakes it;
under the dummy driver no input comes through SDL; on a desktop it reads keys and
touches 30 times a second). It redraws only when something changed, or while the
interference bar moves or the die tumbles. An idle table sleeps IDLE_S at a time.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, BinaryIO

from drivers.base import SystemClock
from drivers.events import BUTTONS, Press
from drivers.factory import DriverError
from drivers.sim import SimButtons, SimReader
from engine.messages import msg
from table.config import Config, is_raspberry_pi
from table.ui.picker import as_uid, suggest
from cards.textfile import TextFileError, decode_text
from table.sim.script import ScriptError, ScriptNotice, parse_script, tap_or_press
from table.app.systemd import notify, watchdog_interval
from table.ui.view import build_view
from table.app.wake import PUMP_S, input_wake, sleep_until_woken
from table.control.assembly import build_table
from table.storage.paths import hold_table_lock
from table.app.drivers import open_drivers

log = logging.getLogger(__name__)

KEYS = {"f1": "roll", "f2": "help", "f3": "run", "f4": "next", "f5": "undo"}
ANIMATION_MS = 40             # frame spacing while the interference bar or the die moves
MAX_PIPED_LINE = 64 * 1024     # a longer piped line is not a table-script line
IDLE_S = 5.0                  # the longest sleep when nothing is due
_running: set[threading.Event] = set()      # the wake of each running loop, for stop()

__all__ = ["PUMP_S", "run", "sleep_until_woken", "stop"]


def wants_fullscreen(config: Config) -> bool:
    if config.display.fullscreen == "auto":
        return is_raspberry_pi() and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")
    return config.display.fullscreen == "yes"


HEADLESS_VIDEO = ("offscreen", "dummy")     # SDL drivers that draw where nobody sees
NO_SCREEN_FIX = ("run it inside the graphical session, on a Pi's console set [display] fullscreen = \"yes\", "
                 "or play a table script headless with 'munchkin-table simulate'")


def no_screen_reason(*, fullscreen: bool, asked_driver: str | None, driver: str | None = None) -> str | None:
    """Why ``run`` would draw where nobody sees (one line saying what to do), or None.

    Before the window opens (``driver`` None): on Linux, neither a desktop session nor full screen
    on KMS/DRM. After (``driver`` is SDL's choice): SDL fell back to an invisible driver. A driver
    asked for with SDL_VIDEODRIVER (dummy in tests, kmsdrm on the box) is always taken as meant.
    """
    if asked_driver:
        return None
    if driver is None:
        desktop = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
        if sys.platform.startswith("linux") and not fullscreen and not desktop:
            return f"no screen to draw on: no desktop session (DISPLAY and WAYLAND_DISPLAY are unset); {NO_SCREEN_FIX}"
        return None
    if driver in HEADLESS_VIDEO:
        return f"no screen to draw on: SDL found only its invisible {driver!r} video driver; {NO_SCREEN_FIX}"
    return None


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
    import pygame

    from table.ui.display import Display

    clock = SystemClock()
    fullscreen = wants_fullscreen(config)
    asked_driver = os.environ.get("SDL_VIDEODRIVER")
    reason = no_screen_reason(fullscreen=fullscreen, asked_driver=asked_driver)
    if reason is not None:
        print(f"munchkin-table: {reason}", file=sys.stderr)
        return 2
    if fullscreen and not os.environ.get("SDL_VIDEODRIVER"):
        os.environ["SDL_VIDEODRIVER"] = "kmsdrm"
    if not config.display.blank_screen:
        os.environ.setdefault("SDL_VIDEO_ALLOW_SCREENSAVER", "0")
    lock = hold_table_lock(config.state_dir)      # raises TableBusy: the CLI prints it  # noqa: F841
    table = build_table(config, clock, retry_faults=True)
    ctl = table.controller
    reader_type = config.reader_type(sim=sim)
    try:
        drivers = open_drivers(config, table.events, clock, sim=sim)
    except DriverError as exc:
        log.debug("%s", exc)
        print(f"munchkin-table: {exc}", file=sys.stderr)
        return 2
    reader, buttons, feedback = drivers.reader, drivers.buttons, drivers.feedback
    ctl.feedback = feedback

    language = config.display.language
    sim_strip = isinstance(buttons, SimButtons)      # keyboard, picker and clickable buttons
    from table.ui.sound import native_stderr_to_log

    try:
        with native_stderr_to_log():        # SDL's probing of absent video drivers writes to fd 2
            display = Display((config.display.width, config.display.height), fullscreen=fullscreen,
                              language=language, font=config.display.font, sim_strip=sim_strip)
    except pygame.error as exc:
        reason = f"no screen to draw on ({exc}; SDL video driver: {os.environ.get('SDL_VIDEODRIVER') or 'the default'}); {NO_SCREEN_FIX}"
    else:
        reason = no_screen_reason(fullscreen=fullscreen, asked_driver=asked_driver, driver=pygame.display.get_driver())
        if reason is not None:
            display.close()
    if reason is not None:
        log.debug("%s", reason)
        print(f"munchkin-table: {reason}", file=sys.stderr)
        for device in (reader, buttons, feedback):
            device.close()
        table.journal.close()
        return 2
    from table.ui.sound import Sounds

    display.sounds = Sounds(config.display.sound)
    # Driver events wake the loop through a threading.Event, not pygame.event.wait: SDL's
    # wait polls every millisecond on drivers without a native wait (dummy, KMSDRM), which
    # alone costs about 1% of a core. Keys and touches are pumped PUMP_S apart instead.
    woken = threading.Event()
    table.events.wake = woken.set
    _running.add(woken)
    _on_sigterm(woken)
    wake = input_wake(pygame.display.get_driver(), woken.set)
    log.info("%r", wake)
    pygame.key.set_repeat(0)
    # Typed card ids (and piped table scripts) tap through a simulated pad beside any real one.
    keyboard = reader if isinstance(reader, SimReader) else SimReader(table.events, clock=clock, name="keyboard")
    if isinstance(buttons, SimButtons) and not sys.stdin.isatty():
        stdin = stdin_lines()
        if stdin is not None:
            threading.Thread(target=pipe_script, args=(stdin, keyboard, buttons, table), daemon=True).start()
    reader.start()
    buttons.start()
    picker = Picker({cid: (card.name, *card.names.values()) for cid, card in ctl.catalog.items()})
    web = None

    def view():  # type: ignore[no-untyped-def]
        v = build_view(ctl, entry=picker.entry, language=language)
        if web is not None:
            v.web_url = web.url
        if sim_strip:
            picker.refresh(v)
            v.suggestions, v.pick = picker.suggestions, picker.pick
        return v

    first = view()
    display.render(first)
    notify("READY=1")
    if os.environ.get("MUNCHKIN_EXIT_AFTER_FIRST_FRAME"):     # for the start-time benchmark
        log.info("first frame shown; exiting as asked")
        return 0
    watchdog = watchdog_interval()
    last_ping = time.monotonic()
    shown = ctl.revision
    try:
        web = _start_web(config, table, language, first)
        if web is not None:
            display.render(view())              # the join address and QR code
        log.info("table ready: reader %s, state in %s", reader_type, config.state_dir)
        while True:
            timeout = IDLE_S
            deadline = ctl.deadline()
            if deadline is not None:
                timeout = min(timeout, max(0.0, deadline - ctl.now))     # the table clock goes on from the journal
            # the interference bar moves; the die tumbles (and needs one frame more to leave)
            animating = (ctl.state.combat is not None and ctl.state.combat.window_until is not None) or display.wants_frame()
            if animating:
                timeout = min(timeout, ANIMATION_MS / 1000)
            if watchdog:
                timeout = min(timeout, watchdog / 2)
            sleep_until_woken(woken, timeout, wake.pump_every)
            dirty = False
            if web is not None:
                web.busy(True)              # the fan-out steps back while this pass handles input and draws
                dirty = web.refresh_address()   # the network came up (or changed): a new QR code
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    return 0
                if event.type == pygame.KEYDOWN and isinstance(buttons, SimButtons):
                    dirty = _key(event, picker, keyboard, buttons, ctl) or dirty
                pos = pointer_position(event, display)
                if pos is not None:
                    target = display.hit(pos)
                    if target is not None and target[0] == "button":
                        # a touched soft key is its button, whatever drives the real ones
                        table.events.put(Press(target[1], clock.monotonic()))
                    elif target is not None and target[0] == "card" and sim_strip:
                        keyboard.scan_card(target[1])
                        picker.clear()
            for item in table.events.drain():
                if isinstance(item, ScriptNotice):      # a piped line that could not be understood
                    ctl.refuse(item.text)
                else:
                    ctl.handle(item)
            ctl.tick()
            now = time.monotonic()
            if watchdog and now - last_ping >= watchdog / 2:
                notify("WATCHDOG=1")
                last_ping = now
            if dirty or ctl.revision != shown or animating or display.wants_frame():
                frame = view()
                display.render(frame)
                if web is not None and ctl.revision != shown:
                    web.publish(frame)      # after the frame: the table never waits on the web
                shown = ctl.revision
            if web is not None:
                web.busy(False)
    except KeyboardInterrupt:
        return 0
    finally:
        notify("STOPPING=1")
        _running.discard(woken)
        wake.close()
        if web is not None:
            web.close()
        reader.close()
        buttons.close()
        feedback.close()
        table.journal.close()
        display.close()


def _start_web(config: Config, table, language: str, first):  # type: ignore[no-untyped-def]
    """The web view when the config turns it on; a port or key it cannot use is said on screen, and the
    table plays on without it."""
    if not config.web.enabled:
        return None
    from table.web import start_web

    try:
        web = start_web(config, table.catalog, language, first=first)
    except (OSError, ImportError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        log.error("web view not started on %s:%d: %s", config.web.bind, config.web.port, reason)
        table.controller.say(msg("web view not started on port {port}: {why}", port=config.web.port, why=reason),
                             "refusal")
        return None
    print(f"munchkin-table: web view on {web.url_text}: phones scan the QR code on the setup screen, or open {web.url}",
          file=sys.stderr)
    return web


class Picker:
    """The simulator's typed entry and its type-ahead suggestions."""

    def __init__(self, other_names: dict[str, tuple[str, ...]] | None = None) -> None:
        self.other_names = other_names or {}      # card id -> every name it has, in any language
        self.entry = ""
        self.pick = 0
        self.suggestions: list[tuple[str, str]] = []
        self._for: tuple[str, int] | None = None

    def clear(self) -> None:
        self.entry, self.pick = "", 0

    def refresh(self, view) -> None:  # type: ignore[no-untyped-def]
        key = (self.entry, len(view.state["players"]))
        if key != self._for:
            players = [(p["id"], p["name"]) for p in view.state["players"]]
            self.suggestions = suggest(self.entry, view.names, players, other_names=self.other_names)
            self.pick = min(self.pick, max(0, len(self.suggestions) - 1))
            self._for = key


def pointer_position(event, display) -> tuple[int, int] | None:  # type: ignore[no-untyped-def]
    """Where a finger or a click went down; mouse events that SDL made from touches are skipped."""
    import pygame

    if event.type == pygame.FINGERDOWN:
        w, h = display.window.get_size()
        return int(event.x * w), int(event.y * h)
    if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not getattr(event, "touch", False):
        return event.pos
    return None


def _key(event, picker: Picker, reader: SimReader, buttons, ctl) -> bool:  # type: ignore[no-untyped-def]
    """A key in the simulator: F1-F5 press buttons, typing picks a card (or a tag UID in hex), Enter taps it."""
    import pygame

    name = pygame.key.name(event.key)
    if name in KEYS:
        buttons.press(KEYS[name])
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
        elif as_uid(typed):
            reader.scan(as_uid(typed))          # a raw tag, enrolled or not, through the simulated pad
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


def pipe_script(stream: BinaryIO | FdLines, reader: SimReader, buttons, table, *,  # type: ignore[no-untyped-def]
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
            table.events.put(ScriptNotice(say))
    return number
