"""``munchkin-table run``: the table's main loop.

The main thread owns pygame and the game state. It sleeps in
``pygame.event.wait`` until a driver event (which posts a wake-up event),
a key, or the controller's next deadline; it redraws only when something
changed, or while the interference bar runs down.
"""

from __future__ import annotations

import logging
import os
import select
import sys
import threading
import time

from drivers.base import SystemClock
from drivers.events import BUTTONS
from drivers.factory import DriverError, open_buttons, open_feedback, open_reader
from drivers.sim import SimButtons, SimReader
from table.config import Config, is_raspberry_pi
from table.script import ScriptError, parse_script, tap_or_press
from table.systemd import notify, watchdog_interval
from table.view import build_view
from table.wiring import build_table

log = logging.getLogger(__name__)

KEYS = {"f1": "roll", "f2": "help", "f3": "run", "f4": "next", "f5": "undo"}
ANIMATION_MS = 100


def wants_fullscreen(config: Config) -> bool:
    if config.display.fullscreen == "auto":
        return is_raspberry_pi() and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")
    return config.display.fullscreen == "yes"


def run(config: Config, *, sim: bool) -> int:
    import pygame

    from table.display import Display

    clock = SystemClock()
    fullscreen = wants_fullscreen(config)
    if fullscreen and not os.environ.get("SDL_VIDEODRIVER"):
        os.environ["SDL_VIDEODRIVER"] = "kmsdrm"
    if not config.display.blank_screen:
        os.environ.setdefault("SDL_VIDEO_ALLOW_SCREENSAVER", "0")
    table = build_table(config, clock)
    ctl = table.controller
    reader_type = config.reader_type(sim=sim)
    # GPIO buttons only where there are GPIO pins; a laptop with a USB reader keeps the keyboard.
    buttons_type = "gpio" if not sim and (is_raspberry_pi() or os.environ.get("GPIOZERO_PIN_FACTORY")) else "sim"
    try:
        reader = open_reader(reader_type, table.events, clock=clock, spi_bus=config.reader.spi_bus,
                             spi_device=config.reader.spi_device, reset_pin=config.reader.reset_pin,
                             port=config.reader.port, baudrate=config.reader.baudrate)
        buttons = open_buttons(buttons_type, table.events, clock=clock, pins=config.buttons.pins())
        feedback = open_feedback("sim" if buttons_type == "sim" else "gpio", clock=clock,
                                 buzzer_pin=config.feedback.pin("buzzer"), led_pin=config.feedback.pin("led"))
    except DriverError as exc:
        log.error("%s", exc)
        print(f"munchkin-table: {exc}", file=sys.stderr)
        return 1
    ctl.feedback = feedback

    display = Display((config.display.width, config.display.height), fullscreen=fullscreen)
    wake_event = pygame.event.custom_type()
    table.events.wake = lambda: pygame.event.post(pygame.event.Event(wake_event))
    pygame.key.set_repeat(0)
    # Typed card ids (and piped table scripts) tap through a simulated pad beside any real one.
    keyboard = reader if isinstance(reader, SimReader) else SimReader(table.events, clock=clock, name="keyboard")
    if isinstance(buttons, SimButtons) and not sys.stdin.isatty():
        threading.Thread(target=_pipe_script, args=(keyboard, buttons, table), daemon=True).start()
    reader.start()
    buttons.start()
    entry = ""
    display.render(build_view(ctl, entry=entry))
    notify("READY=1")
    if os.environ.get("MUNCHKIN_EXIT_AFTER_FIRST_FRAME"):     # for the start-time benchmark
        log.info("first frame shown; exiting as asked")
        return 0
    log.info("table ready: reader %s, state in %s", reader_type, config.state_dir)
    watchdog = watchdog_interval()
    last_ping = time.monotonic()
    shown = ctl.revision
    try:
        while True:
            timeout = 5.0
            deadline = ctl.deadline()
            if deadline is not None:
                timeout = min(timeout, max(0.0, deadline - clock.monotonic()))
            animating = ctl.state.combat is not None and ctl.state.combat.window_until is not None
            if animating:
                timeout = min(timeout, ANIMATION_MS / 1000)
            if watchdog:
                timeout = min(timeout, watchdog / 2)
            first = pygame.event.wait(int(timeout * 1000) if timeout > 0 else 1)
            dirty = False
            for event in [first, *pygame.event.get()]:
                if event.type == pygame.QUIT:
                    return 0
                if event.type == pygame.KEYDOWN and isinstance(buttons, SimButtons):
                    entry, dirty_key = _key(event, entry, keyboard, buttons, ctl)
                    dirty = dirty or dirty_key
            for item in table.events.drain():
                ctl.handle(item)
            ctl.tick()
            now = time.monotonic()
            if watchdog and now - last_ping >= watchdog / 2:
                notify("WATCHDOG=1")
                last_ping = now
            if dirty or ctl.revision != shown or animating:
                display.render(build_view(ctl, entry=entry))
                shown = ctl.revision
    except KeyboardInterrupt:
        return 0
    finally:
        notify("STOPPING=1")
        reader.close()
        buttons.close()
        feedback.close()
        table.journal.close()
        display.close()


def _key(event, entry: str, reader: SimReader, buttons, ctl) -> tuple[str, bool]:  # type: ignore[no-untyped-def]
    import pygame

    name = pygame.key.name(event.key)
    if name in KEYS:
        buttons.press(KEYS[name])
        return entry, True
    if event.key == pygame.K_ESCAPE:
        return "", True
    if event.key == pygame.K_BACKSPACE:
        return entry[:-1], True
    if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
        typed = entry.strip()
        if not typed:
            buttons.press("next")
        elif typed.isdigit() and 1 <= int(typed) <= 6:
            reader.scan_card(f"player-{typed}")
        elif typed in ctl.catalog or typed.startswith("player-"):
            reader.scan_card(typed)
        else:
            ctl.refuse(f"no card or player token {typed!r}")
        return "", True
    if event.unicode and (event.unicode.isalnum() or event.unicode in "-:"):
        return entry + event.unicode.lower(), True
    return entry, False


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
