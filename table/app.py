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

from drivers.base import SystemClock
from drivers.events import BUTTONS, Press
from drivers.factory import DriverError
from drivers.sim import SimButtons, SimReader
from table.config import Config, is_raspberry_pi
from table.picker import as_uid, suggest
from table.script import ScriptError, parse_script, tap_or_press
from table.systemd import notify, watchdog_interval
from table.view import build_view
from table.wake import PUMP_S, input_wake, sleep_until_woken
from table.wiring import build_table, hold_table_lock, open_drivers

log = logging.getLogger(__name__)

KEYS = {"f1": "roll", "f2": "help", "f3": "run", "f4": "next", "f5": "undo"}
ANIMATION_MS = 40             # frame spacing while the interference bar or the die moves
IDLE_S = 5.0                  # the longest sleep when nothing is due
_running: set[threading.Event] = set()      # the wake of each running loop, for stop()

__all__ = ["PUMP_S", "run", "sleep_until_woken", "stop"]


def wants_fullscreen(config: Config) -> bool:
    if config.display.fullscreen == "auto":
        return is_raspberry_pi() and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")
    return config.display.fullscreen == "yes"


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

    from table.display import Display

    clock = SystemClock()
    fullscreen = wants_fullscreen(config)
    if fullscreen and not os.environ.get("SDL_VIDEODRIVER"):
        os.environ["SDL_VIDEODRIVER"] = "kmsdrm"
    if not config.display.blank_screen:
        os.environ.setdefault("SDL_VIDEO_ALLOW_SCREENSAVER", "0")
    lock = hold_table_lock(config.state_dir)      # raises TableBusy: the CLI prints it  # noqa: F841
    table = build_table(config, clock)
    ctl = table.controller
    reader_type = config.reader_type(sim=sim)
    try:
        drivers = open_drivers(config, table.events, clock, sim=sim)
    except DriverError as exc:
        log.error("%s", exc)
        print(f"munchkin-table: {exc}", file=sys.stderr)
        return 1
    reader, buttons, feedback = drivers.reader, drivers.buttons, drivers.feedback
    ctl.feedback = feedback

    language = config.display.language
    sim_strip = isinstance(buttons, SimButtons)      # keyboard, picker and clickable buttons
    try:
        display = Display((config.display.width, config.display.height), fullscreen=fullscreen, language=language,
                          font=config.display.font, sim_strip=sim_strip)
    except pygame.error as exc:
        driver = os.environ.get("SDL_VIDEODRIVER") or "the default"
        message = (f"no screen to draw on ({exc}; SDL video driver: {driver}). On a desktop, run it inside the "
                   f"graphical session (DISPLAY or WAYLAND_DISPLAY set); on a Pi without one, check that no desktop "
                   f"holds the screen and run 'munchkin-table doctor'; headless, use 'munchkin-table simulate'")
        log.error("%s", message)
        print(f"munchkin-table: {message}", file=sys.stderr)
        for device in (reader, buttons, feedback):
            device.close()
        table.journal.close()
        return 1
    from table.sound import Sounds

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
        threading.Thread(target=_pipe_script, args=(keyboard, buttons, table), daemon=True).start()
    reader.start()
    buttons.start()
    picker = Picker()
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
                timeout = min(timeout, max(0.0, deadline - clock.monotonic()))
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
        table.controller.say(f"web view not started on port {config.web.port}: {reason}", "refusal")
        return None
    print(f"munchkin-table: web view on {web.url_text}: phones scan the QR code on the setup screen, or open {web.url}",
          file=sys.stderr)
    return web


class Picker:
    """The simulator's typed entry and its type-ahead suggestions."""

    def __init__(self) -> None:
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
            self.suggestions = suggest(self.entry, view.names, players)
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
        elif typed.isdigit() and 1 <= int(typed) <= 6:
            reader.scan_card(f"player-{typed}")
        elif typed in ctl.catalog or typed.startswith("player-"):
            reader.scan_card(typed)
        elif as_uid(typed):
            reader.scan(as_uid(typed))          # a raw tag, enrolled or not, through the simulated pad
        elif chosen:
            reader.scan_card(chosen)
        else:
            ctl.refuse(f"no card or player token {typed!r}")
        return True
    if event.unicode and (event.unicode.isalnum() or event.unicode in "-: "):
        picker.entry += event.unicode.lower()
        picker.pick = 0
        return True
    return False


def _pipe_script(reader: SimReader, buttons, table) -> None:  # type: ignore[no-untyped-def]
    """Simulator: table-script lines piped on stdin act like taps and presses (for demos and tests)."""
    for number, raw in enumerate(sys.stdin, 1):
        try:
            actions = parse_script(raw, table.catalog, source=f"<stdin line {number}>")
        except ScriptError as exc:
            log.warning("%s", exc)
            continue
        for action in actions:
            if tap_or_press(action, reader, buttons):
                continue
            if action.verb == "wait":
                time.sleep(float(action.arg))
            elif action.verb == "die":
                log.warning("'die' works in simulate only")
