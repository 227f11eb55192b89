"""The pygame screen: every player at a glance, the combat, the message line and soft keys.

The display only draws a View; it never changes the game. Layouts scale from
800x480 (the 7" panel) to 1920x1080 (HDMI across a table): sizes are fractions
of the height, positions fractions of the width. A screen taller than wide (the
Touch Display 2, 720x1280) gets the portrait layouts: the same panels stacked
rather than side by side, sized from the width (see ``scale``).

``Display`` owns the window, the frame loop and the die's animation, and lays out the frame's
bands (top bar, body, message line, soft keys); each screen draws itself on the ``Frame``
(table.ui.frame) from its own module in ``table.ui.screens`` (setup, table, combat, run_away,
menus, game_over, records, and enroll for the enrollment wizard), with the shared drawing kit
in ``table.ui.screens.kit``. The screens never see the Display.

A frame draws only what changed and pushes only that to the glass: a panel drawn through
``Frame.cached`` stays on the screen while the data it shows and the layout stay the same, and
``pygame.display.update`` gets the rectangles the frame drew (``Frame.dirty``). When the layout
changes (another screen, the charity or basket band) the phase's area beside the players' strip
is laid out afresh and pushed whole while the strip (the same for the table, the fight and
charity: ``screens.players``) and the bars around it stay; another number of players lays out the
whole body (its panels blitted from the store when
they were drawn before: ``tidy``, between frames, puts them there); the whole window is drawn and flipped
only for game over, the records and a name being chosen at setup, a frame after them, or with the
cache off (setup keeps its two panels while the players join). Menus, the banner and the die are overlays (``Frame.overlay``): drawn over
the kept panels, which the next frame repaints inside the overlay's rectangle alone. The die
tumbles on the display's own clock and pushes its own rectangle only; it stops.

Under X11 the window's surface is SDL's own shared-memory image (``SDL_FRAMEBUFFER_ACCELERATION=0``
unless the environment says otherwise): SDL's default there puts the surface in an OpenGL texture
through a renderer, which under a software GL (Xvfb, a Pi without a GPU driver) costs ~110 MB and
a full upload of the window on every update, however small. How much more a pixel costs the X
server in a rectangle narrower than the window than in full-width rows differs from machine to
machine: through Xvfb at 1920x1080, 0.16 ns against ~0.4 ns on one machine (the phase's area of a
screen switch alone, 1301x748, 0.41 ms; the whole window 0.35-0.38 ms), and on 2026-12-02, on an
Intel Xeon of 2 cores, 0.53 ns against 0.64-0.81 ns (the phase's area 0.75 ms, the whole window
1.06-1.11 ms). So the window, once open, times its own pushes (``measure_narrow_cost``: a band as wide as the
window and a narrower rectangle of as many pixels, PUSH_TRIALS times each in turn, the medians),
and a frame whose rectangles would cost the server more than the whole window flips it
(``whole_is_cheaper``: screen switches and menus where narrow rectangles are dear); the rest push
their rectangles. KMS/DRM has no framebuffer of its own:
SDL always goes through a renderer's texture there.

A new screen: a module in table/ui/screens with ``draw_NAME(f: Frame, view: View, body)``, called
from ``draw_body`` below for the phase (or prompt) it shows, and a scene in table/ui/scenes.py so
that the docs and the cache test render it. A screen that shows no View (the wizard) is drawn
with ``Display.show``. Opening the window for a config is table.ui.screen's.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from table.ui.fonts import find_font
from table.ui.frame import DieRoll, Frame, Hit
from table.words.i18n import set_language
from table.ui.screens import bars, combat, die, explain, game_over, menus, notice, players, records, setup, table
from table.ui.screens.kit import BANNER_PROMPTS, SIM_STRIP, Drawn, Painter, scale
from table.ui.view import View

log = logging.getLogger(__name__)


SETUP = "setup"                     # the setup screen's layout (``Display.layout``): its players are not a strip's


class Display:
    """The window and its frame loop: each ``render`` draws a View on the ``Frame`` (the screens
    never see the Display), starts the die's tumble and the sounds for a new action, and flips."""

    def __init__(self, size: tuple[int, int] = (800, 480), *, fullscreen: bool = False, title: str = "munchkin-table",
                 language: str = "en", font: str = "", sim_strip: bool = False, cache: bool = True,
                 clock: Callable[[], float] = time.monotonic) -> None:
        pygame.display.init()
        keep_large_allocations_apart()
        if pygame.display.get_driver() == "x11":     # read when the window's surface is made, below
            os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
        set_language(language)
        self.language = language
        w, h = size
        flags = pygame.FULLSCREEN if fullscreen else 0
        self.portrait = h > w
        self.s = scale(w, h)
        strip = int(SIM_STRIP * self.s) if sim_strip else 0
        self.window = pygame.display.set_mode((w, h + strip), flags)
        # what a narrow rectangle costs the display server per pixel against a full-width one
        self.narrow_cost: float | None = None
        if pygame.display.get_driver() == "x11":
            self.narrow_cost = measure_narrow_cost(self.window.get_size())
            log.info("under X11 a pixel in a narrow rectangle costs %.2f times one in full-width rows", self.narrow_cost)
        pygame.display.set_caption(title)
        if fullscreen:
            pygame.mouse.set_visible(False)
        w, h = self.window.get_width(), self.window.get_height() - strip
        self.size = (w, h)
        self.screen = self.window.subsurface((0, 0, w, h)) if strip else self.window
        self.strip = pygame.Rect(0, h, w, strip) if strip else None
        choice = find_font(language, font)
        log.info("font for %s: %s", language, choice)
        self.painter = Painter(self.window, choice)
        self.painter.s = self.s
        self.frames = 0
        self.sounds: Any = None
        self.voice: Any = None                  # table.ui.voice.Voice, set by the run loop
        self.clock = clock                  # seconds; the die's animation runs on it
        self.die = DieRoll(clock)
        self.frame = Frame(self.window, self.painter, size=self.size, s=self.s, portrait=self.portrait, die=self.die)
        self._die_shown = False             # the last frame showed the tumbling die
        self._seen_actions: int | None = None
        # panels left on the screen from one frame to the next while the data they show is the same
        self.cache_enabled = cache
        self._layout: tuple[Any, ...] | None = None         # the last frame's layout; None: drawn in full
        # what the last frame pushed to the glass: None for the whole window, else its rectangles
        self.pushed: list[pygame.Rect] | None = None
        self._held = False          # a frame was drawn and not shown (``render``'s ready said no)

    # ------------------------------------------------------------------ what the last frame drew

    @property
    def drawn(self) -> list[Drawn]:
        return self.frame.drawn

    @property
    def hits(self) -> list[Hit]:
        return self.frame.hits

    @property
    def panels(self) -> dict[str, pygame.Rect]:
        return self.frame.panels

    @property
    def level_rects(self) -> dict[str, pygame.Rect]:
        return self.frame.level_rects

    @property
    def cache_hits(self) -> int:
        return self.frame.cache_hits

    @property
    def cache_misses(self) -> int:
        return self.frame.cache_misses

    @property
    def cache_repaints(self) -> int:
        return self.frame.cache_repaints

    @property
    def cache_moves(self) -> int:
        return self.frame.cache_moves

    @property
    def cache_scenes(self) -> int:
        return self.frame.cache_scenes

    def hit(self, pos: tuple[int, int]) -> tuple[str, str] | None:
        """What a touch or click at ``pos`` means: ("button", name) or ("card", id)."""
        return self.frame.hit(pos)

    def connection(self) -> int | None:
        """The window system's socket under X11 (SDL's own connection to the server), for the run
        loop to wait on; None under any other driver or when it cannot be had."""
        if pygame.display.get_driver() != "x11":
            return None
        try:
            capsule = pygame.display.get_wm_info()["display"]
            pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
                ("PyCapsule_GetPointer", ctypes.pythonapi))(capsule, b"display")
            xlib = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
            xlib.XConnectionNumber.argtypes = [ctypes.c_void_p]
            xlib.XConnectionNumber.restype = ctypes.c_int
            fd = int(xlib.XConnectionNumber(pointer))
        except (KeyError, OSError, ValueError, TypeError, AttributeError) as exc:
            log.info("no X11 connection to wait on: %s", exc)
            return None
        return fd if fd >= 0 else None

    @staticmethod
    def input_pending() -> bool:
        """Whether input is waiting after a frame went out (SDL's events pumped: a frame's round
        trip to the X server can take events off its socket, which then no longer wakes anyone)."""
        pygame.event.pump()
        return bool(pygame.event.peek())

    def animating(self) -> bool:
        """Whether the die is tumbling (for DIE_MS after a roll)."""
        return self.die.animating()

    def die_progress(self) -> float:
        """How far the die's tumble has gone, 0 to 1 (1 when no die is tumbling)."""
        return self.die.progress()

    def wants_frame(self) -> bool:
        """Whether the screen needs a frame with nothing new in the game: the die is tumbling, or it
        has just stopped and the last frame still shows it."""
        return self.animating() or self._die_shown

    def layout(self, view: View) -> tuple[Any, ...] | None:
        """What decides where the kept panels go, or None for a frame to draw in full (game over, the
        records and a name being chosen at setup are not kept). Menus, the banner and the die are not part of it: they are the
        Frame's overlays, drawn over kept panels and put back from under them by the next frame."""
        state = view.state
        phase = state["phase"]
        if phase == "setup" and view.records is None and view.name_choice is None:
            return (SETUP, SETUP, False, False, self.size)      # its two panels kept while the players join
        if phase in ("setup", "game-over"):
            return None
        screen = "combat" if phase in ("combat", "run-away") and state["combat"] is not None else "table"
        band = bool(view.basket) and view.menu is None          # the table's basket band (see draw_table)
        return (screen, len(state["players"]), phase == "charity", band, self.size)

    def laid_afresh(self, layout: tuple[Any, ...] | None, last: tuple[Any, ...] | None) -> pygame.Rect:
        """What another screen of the same size lays out afresh: the phase's area beside the
        players' strip, which the table, the fight and charity share (table.ui.screens.players),
        when the players are the same; the whole body when they are not."""
        body = self.bands()[1]
        if layout is None or last is None or layout[1] != last[1] or layout[0] == SETUP:
            return body
        return players.split(self.frame, body, layout[1])[1]

    def _notice(self, view: View) -> None:
        """Start the die animation and play sounds for a newly accepted action."""
        if self._seen_actions is not None and view.actions > self._seen_actions:
            if view.rolled:
                self.die.roll(view.state.get("last_roll"))
                if self.sounds is not None:
                    self.sounds.play("die")
            if view.won and self.sounds is not None:
                self.sounds.play("victory")
        self._seen_actions = view.actions

    # ------------------------------------------------------------------ the frame

    def bands(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect, pygame.Rect]:
        """The frame's bands, top to bottom: the top bar, the body, the message line, the soft keys."""
        w, h = self.size
        s = self.s
        top = int((76 if self.portrait else 40) * s)
        keys_h = int((80 if self.portrait else 62) * s)
        msg_h = int((64 if self.portrait else 40) * s)
        body = pygame.Rect(int(8 * s), top, w - int(16 * s), h - top - keys_h - msg_h - int(6 * s))
        message = pygame.Rect(int(8 * s), h - keys_h - msg_h, w - int(16 * s), msg_h - int(4 * s))
        return pygame.Rect(0, 0, w, top), body, message, pygame.Rect(0, h - keys_h, w, keys_h)

    def render(self, view: View, ready: Callable[[], bool] | None = None) -> bool:
        """Draw ``view`` and put it on the glass; ``ready`` (the journal's sync) is waited for
        between the two, and when it says False the frame is not shown (False): the next one is, whole."""
        self._notice(view)
        f = self.frame
        layout = self.layout(view)
        # without the cache every panel is drawn and the window flipped, but what is on the screen
        # is still recorded; another screen of the same size is drawn afresh in the phase's area alone
        last = self._layout
        same = layout is not None and layout == last
        switched = layout is not None and last is not None and layout[-1] == last[-1] and not same
        # with the cache off the store still learns what changed, so it is warm when the cache is on again
        f.begin(reuse=self.cache_enabled and (same or switched), blank=self.laid_afresh(layout, last) if switched else None,
                store=self.cache_enabled, scene=layout, learn=not self.cache_enabled)
        self._layout = layout
        self.compose(f, view)
        self._die_shown = self.animating()
        f.end()
        if ready is not None and not ready():
            self._held = True               # drawn, not shown: what it changed goes with the next frame
            return False
        self.push(None if self._held else f.dirty)
        self._held = False
        self.frames += 1
        return True

    def rehearse(self, view: View) -> None:
        """Draw ``view`` and never show it (no die, no sound): what a frame like it needs (glyphs at
        its sizes, panels, the code) is ready before a tap needs it; the next frame is pushed whole."""
        seen, self._seen_actions = self._seen_actions, None
        try:
            self.render(view, ready=lambda: False)
        finally:
            self._seen_actions = seen

    def compose(self, f: Frame, view: View) -> None:
        """Draw ``view`` on ``f`` between its ``begin`` and ``end``: the bands, the body, the die over
        it while it tumbles. ``f`` is the display's own, or one on a surface of the window's size and
        format (the tests' frame drawn in full)."""
        top, body, message, keys = self.bands()
        bars.draw_top(f, view, top)
        draw_body(f, view, body)
        if self.animating() and view.state["phase"] != "run-away":
            size = int(min(body.h, body.w) * 0.4)
            die.draw_die(f, pygame.Rect(body.centerx - size // 2, body.centery - size // 2, size, size))
        bars.draw_message(f, view, message)
        bars.draw_soft_keys(f, view.soft_keys, keys)
        if self.strip is not None:
            bars.draw_strip(f, view, self.strip)

    def push(self, dirty: list[pygame.Rect] | None) -> None:
        """Put the frame on the glass: the whole window (``dirty`` None), or only the rectangles
        it drew (nothing at all when it drew nothing); under X11, the whole window when that
        costs the server less than those rectangles."""
        if dirty is None:
            pygame.display.flip()
            self.pushed = None
            return
        rects = merged(dirty)
        if self.narrow_cost is not None and whole_is_cheaper(rects, self.window.get_size(), self.narrow_cost):
            pygame.display.flip()
            self.pushed = None
            return
        if rects:
            pygame.display.update(rects)
        self.pushed = rects

    def tidy(self) -> None:
        """Work that no frame waits for, done when nothing else is due (the run loop calls it
        before it sleeps): the panels drawn afresh go into the store (``Frame.tidy``), and the
        phase's area is kept for when this screen comes back (``Frame.keep_scene``)."""
        self.frame.tidy()
        if self._layout is not None and self._layout[0] != SETUP and self.cache_enabled:      # setup seldom comes back
            self.frame.keep_scene(self.laid_afresh(self._layout, self._layout))

    def show(self, draw: Callable[[Frame], None]) -> None:
        """A frame drawn in full by ``draw`` (the enrollment wizard's screen), not a View."""
        self.frame.begin(reuse=False)
        self._layout = None
        draw(self.frame)
        self.frame.end()
        self.push(None)
        self.frames += 1

    def save(self, path: Path) -> None:
        """The screen (without the simulator's strip) as an image; OSError when it cannot be written."""
        try:
            pygame.image.save(self.screen, str(path))
        except pygame.error as exc:
            raise OSError(f"{exc}") from exc

    def close(self) -> None:
        pygame.display.quit()


def draw_body(f: Frame, view: View, body: pygame.Rect) -> None:
    """The body of the phase's screen, and the banner or menu over it."""
    phase = view.state["phase"]
    if phase == "setup" and view.records is not None:
        records.draw_records(f, view, body)
    elif phase == "setup":
        setup.draw_setup(f, view, body)
        if view.name_choice is not None:
            records.draw_name_choice(f, view, body)
    elif phase == "game-over":
        game_over.draw_game_over(f, view, body)
    elif phase in ("combat", "run-away") and view.state["combat"] is not None:
        combat.draw_combat_screen(f, view, body)
    else:
        table.draw_table(f, view, body)
    f.settle()                              # the screen is back whole before anything goes over it
    if view.prompt and view.prompt_kind in BANNER_PROMPTS:
        menus.draw_prompt_banner(f, view, body)
    if view.explain is not None:
        explain.draw_explain(f, view, body)
    elif view.menu is not None:
        menus.draw_card_menu(f, view, body)
    elif view.player_menu is not None:
        menus.draw_player_menu(f, view, body)
    elif view.damage_notice:
        notice.draw_damage_notice(f, view, body)


X11_NARROW_COST = 2.5                   # what measure_narrow_cost gives when the clock cannot tell (Xvfb, measured)
NARROW_COSTS = (0.5, 5.0)               # what a measurement is kept within: past them, a stall rather than a cost
PUSH_TRIALS = 5                         # pushes each way (after one each unmeasured), for their medians


def measure_narrow_cost(size: tuple[int, int], *, update: Callable[[list[pygame.Rect]], Any] | None = None,
                        clock: Callable[[], float] = time.perf_counter, trials: int = PUSH_TRIALS) -> float:
    """What a pixel pushed in a rectangle narrower than the window (``size``) costs the display
    server against one in full-width rows: a band as wide as the window, a third of its height,
    and a rectangle of as many pixels two thirds of its width (about a screen switch's phase
    area), pushed in turn with ``update``, one each first to warm up, then ``trials`` each, timed;
    the ratio of their median times, within NARROW_COSTS. X11_NARROW_COST when the clock saw no
    time pass for the band."""
    update = update or pygame.display.update
    w, h = size
    band = pygame.Rect(0, h // 3, w, h // 3)
    narrow = pygame.Rect(w - w * 2 // 3, h // 4, w * 2 // 3, h // 2)
    wide: list[float] = []
    part: list[float] = []
    for n in range(trials + 1):
        started = clock()
        update([band])
        banded = clock()
        update([narrow])
        done = clock()
        if n:
            wide.append((banded - started) / (band.w * band.h))
            part.append((done - banded) / (narrow.w * narrow.h))
    per_pixel = statistics.median(wide)
    if per_pixel <= 0:
        return X11_NARROW_COST
    low, high = NARROW_COSTS
    return min(high, max(low, statistics.median(part) / per_pixel))


def whole_is_cheaper(rects: list[pygame.Rect], size: tuple[int, int], narrow_cost: float) -> bool:
    """Whether pushing the whole window (``size``) costs the display server no more than pushing
    ``rects``, when a rectangle narrower than the window costs ``narrow_cost`` times per pixel
    what one as wide as the window does (overlapping rectangles are each pushed: counted each)."""
    width, height = size
    cost = sum(r.w * r.h * (1.0 if r.w >= width else narrow_cost) for r in rects)
    return cost >= width * height


def merged(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """``rects`` without the empty ones and those inside another (each rectangle pushed is a copy
    of its own to the display server). Overlapping ones stay apart: their bounding box could be
    most of the window (two panels diagonal to each other), their overlap is pushed twice."""
    out: list[pygame.Rect] = []
    for rect in sorted((pygame.Rect(r) for r in rects if r.w > 0 and r.h > 0), key=lambda r: -r.w * r.h):
        if not any(kept.contains(rect) for kept in out):
            out.append(rect)
    return out


M_MMAP_THRESHOLD = -3                   # glibc's mallopt parameter
MMAP_THRESHOLD = 128 * 1024             # glibc's default, kept from moving


def keep_large_allocations_apart() -> None:
    """Pixel buffers (a panel's copy for the store, its run-length encoding, a kept scene) each in
    pages of their own, given back when freed: glibc raises its mmap threshold to the largest
    block freed so far, after which such buffers come from the heap and leave it fragmented (at
    1080p, ~20 MB that are never returned). Fixing the threshold at its default stops that; where
    the C library is not glibc this does nothing."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    except (OSError, AttributeError) as exc:
        log.info("malloc's mmap threshold left as it is: %s", exc)


def use_headless_drivers() -> None:
    """SDL's dummy video and audio drivers, for simulate and tests; SDL's disk audio driver, when asked
    for, is kept (it writes what the table plays to a file: the voice's tests listen there)."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    if os.environ.get("SDL_AUDIODRIVER") != "disk":
        os.environ["SDL_AUDIODRIVER"] = "dummy"


__all__ = ["Display", "NARROW_COSTS", "PUSH_TRIALS", "X11_NARROW_COST", "draw_body", "keep_large_allocations_apart", "measure_narrow_cost",
           "merged", "use_headless_drivers", "whole_is_cheaper"]
