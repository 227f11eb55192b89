"""The pygame screen: every player at a glance, the combat, the message line and soft keys.

The display only draws a View; it never changes the game. Layouts scale from
800x480 (the 7" panel) to 1920x1080 (HDMI across a table): sizes are fractions
of the height, positions fractions of the width. A screen taller than wide (the
Touch Display 2, 720x1280) gets the portrait layouts: the same panels stacked
rather than side by side, sized from the width (see ``scale``).

``Display`` owns the window and lays out the frame's bands (top bar, body, message
line, soft keys); each screen draws itself from its own module in ``table.screens``
(setup, table, combat, run_away, menus, game_over, and enroll for the enrollment
wizard), with the shared drawing kit in ``table.screens.kit``.

A frame draws only what changed: a panel drawn through ``Display.cached`` stays on the screen
while the data it shows and the layout stay the same (frames with a menu, the banner or the die
over the body are drawn in full). The die tumbles on the display's own clock and stops.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pygame

from table.ui.fonts import find_font
from table.ui.i18n import language as current_language
from table.ui.i18n import set_language
from table.ui.screens import bars, combat, game_over, kit, menus, records, setup, table
from table.ui.screens.kit import (ACTIVE, BAD, BANNER_PROMPTS, BG, BUTTON_COLORS, DIE_MS, DIM, FKEYS, GOOD, KEY, KEY_OFF,  # noqa: F401
                               PANEL, PANEL_HI, PLAYER_COLORS, REFUSAL, SIM_STRIP, TEXT, Drawn, Painter, player_color, scale)
from table.ui.view import ROLL_EVENTS, View

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass
class Shown:
    """A panel on the screen: the data it shows, and what drawing it recorded (text, panels, touch
    targets, level rects), replayed while it stays."""

    key: tuple[Any, ...]
    result: Any
    drawn: list[Drawn]
    hits: list[tuple[pygame.Rect, tuple[str, str]]]
    panels: dict[str, pygame.Rect] = field(default_factory=dict)
    level_rects: dict[str, pygame.Rect] = field(default_factory=dict)


class Display:
    def __init__(self, size: tuple[int, int] = (800, 480), *, fullscreen: bool = False, title: str = "munchkin-table",
                 language: str = "en", font: str = "", sim_strip: bool = False, cache: bool = True,
                 clock: Callable[[], float] = time.monotonic) -> None:
        pygame.display.init()
        set_language(language)
        self.language = language
        w, h = size
        flags = pygame.FULLSCREEN if fullscreen else 0
        self.portrait = h > w
        self.s = scale(w, h)
        strip = int(SIM_STRIP * self.s) if sim_strip else 0
        self.window = pygame.display.set_mode((w, h + strip), flags)
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
        self.hits: list[tuple[pygame.Rect, tuple[str, str]]] = []
        self.panels: dict[str, pygame.Rect] = {}
        self.level_rects: dict[str, pygame.Rect] = {}
        self.sounds: Any = None
        self.clock = clock                  # seconds; the die's animation runs on it
        self._die_start: float | None = None
        self._die_value: int | None = None
        self._die_shown = False             # the last frame showed the tumbling die
        self._seen_actions: int | None = None
        # panels left on the screen from one frame to the next while the data they show is the same
        self.cache_enabled = cache
        self._shown: dict[tuple[Any, ...], Shown] = {}      # (kind, rect) -> what is there now
        self._layout: tuple[Any, ...] | None = None         # the last frame's layout; None: drawn in full
        self._reusing = False
        self._frame_slots: set[tuple[Any, ...]] = set()      # the panels this frame put on the screen
        self.cache_hits = self.cache_misses = 0

    # ------------------------------------------------------------------ helpers

    @property
    def drawn(self) -> list[Drawn]:
        return self.painter.drawn

    def t(self, text: str, size: float, color: tuple[int, int, int], box: pygame.Rect, **kw: Any) -> pygame.Rect:
        return self.painter.text(text, size * self.s, color, box, **kw)

    def hit(self, pos: tuple[int, int]) -> tuple[str, str] | None:
        """What a touch or click at ``pos`` means: ("button", name) or ("card", id)."""
        for rect, action in self.hits:
            if rect.collidepoint(pos):
                return action
        return None

    def animating(self) -> bool:
        """Whether the die is tumbling (for DIE_MS after a roll)."""
        return self._die_start is not None and self.die_progress() < 1.0

    def die_progress(self) -> float:
        """How far the die's tumble has gone, 0 to 1 (1 when no die is tumbling)."""
        if self._die_start is None:
            return 1.0
        return max(0.0, (self.clock() - self._die_start) * 1000 / DIE_MS)

    def wants_frame(self) -> bool:
        """Whether the screen needs a frame with nothing new in the game: the die is tumbling, or it
        has just stopped and the last frame still shows it."""
        return self.animating() or self._die_shown

    def cached(self, key: tuple[Any, ...], rect: pygame.Rect, draw: Callable[[], T]) -> T:
        """Leave the panel ``draw`` draws inside ``rect`` as it is on the screen when the last frame
        had it there for the same ``key`` (its kind, ``key[0]``, and the data it shows); otherwise
        clear ``rect`` and draw it.

        ``draw`` must draw only inside ``rect`` (onto the background) and depend only on ``key``;
        what it records (text, panels, touch targets, level rects) is replayed while it stays.
        Whatever is drawn over a kept panel must clear its own area first (see ``clear``); frames
        with overlays (menus, the banner, the die over the body) are drawn in full.
        """
        slot = (key[0], tuple(rect))
        full = (current_language(), *key)
        shown = self._shown.get(slot)
        self._frame_slots.add(slot)
        if self._reusing and shown is not None and shown.key == full:
            self.painter.drawn.extend(shown.drawn)
            self.hits.extend(shown.hits)
            self.panels.update(shown.panels)
            self.level_rects.update(shown.level_rects)
            self.cache_hits += 1
            return shown.result
        self.cache_misses += 1
        if self._reusing:
            self.window.fill(BG, rect)
        n_drawn, n_hits = len(self.painter.drawn), len(self.hits)
        panels, levels = dict(self.panels), dict(self.level_rects)
        result = draw()
        self._frame_slots.add(slot)
        self._shown[slot] = Shown(full, result, self.painter.drawn[n_drawn:], self.hits[n_hits:],
                                  {k: v for k, v in self.panels.items() if panels.get(k) != v},
                                  {k: v for k, v in self.level_rects.items() if levels.get(k) != v})
        return result

    def clear(self, rect: pygame.Rect, color: tuple[int, int, int] = BG) -> None:
        """Before drawing afresh over what the last frame left (a frame that keeps panels): fill
        ``rect`` with ``color``, the background it is drawn on in a full frame."""
        if self._reusing:
            self.window.fill(color, rect)

    def layout(self, view: View) -> tuple[Any, ...] | None:
        """What decides where the kept panels go, or None for a frame to draw in full: setup and
        game over (not kept), and frames with an overlay over the body."""
        state = view.state
        phase = state["phase"]
        if phase in ("setup", "game-over"):
            return None
        if (view.prompt and view.prompt_kind in BANNER_PROMPTS) or view.menu is not None or view.player_menu is not None:
            return None
        if self.animating() and phase != "run-away":
            return None
        screen = "combat" if phase in ("combat", "run-away") and state["combat"] is not None else "table"
        return (screen, len(state["players"]), phase == "charity", bool(view.basket), self.size)

    def _notice(self, view: View) -> None:
        """Start the die animation and play sounds for a newly accepted action."""
        if self._seen_actions is not None and view.actions > self._seen_actions:
            if any(e in ROLL_EVENTS for e in view.events):
                self._die_start = self.clock()
                self._die_value = view.state.get("last_roll")
                if self.sounds is not None:
                    self.sounds.play("die")
            if "GameWon" in view.events and self.sounds is not None:
                self.sounds.play("victory")
        self._seen_actions = view.actions

    # ------------------------------------------------------------------ the frame

    def render(self, view: View) -> None:
        self._notice(view)
        self.painter.drawn = []
        self.hits = []
        self.panels = {}
        self.level_rects = {}
        w, h = self.size
        s = self.s
        layout = self.layout(view)
        # without the cache every panel is drawn, but what is on the screen is still recorded
        self._reusing = self.cache_enabled and layout is not None and layout == self._layout
        self._layout = layout
        if not self._reusing:
            self.window.fill(BG)
        self._frame_slots = set()
        top = int((76 if self.portrait else 40) * s)
        keys_h = int((80 if self.portrait else 62) * s)
        msg_h = int((64 if self.portrait else 40) * s)
        body = pygame.Rect(int(8 * s), top, w - int(16 * s), h - top - keys_h - msg_h - int(6 * s))
        bars.draw_top(self, view, pygame.Rect(0, 0, w, top))
        phase = view.state["phase"]
        if phase == "setup" and view.records is not None:
            records.draw_records(self, view, body)
        elif phase == "setup":
            setup.draw_setup(self, view, body)
            if view.name_choice is not None:
                records.draw_name_choice(self, view, body)
        elif phase == "game-over":
            game_over.draw_game_over(self, view, body)
        elif phase in ("combat", "run-away") and view.state["combat"] is not None:
            combat.draw_combat_screen(self, view, body)
        else:
            table.draw_table(self, view, body)
        if view.prompt and view.prompt_kind in BANNER_PROMPTS:
            menus.draw_prompt_banner(self, view, body)
        if view.menu is not None:
            menus.draw_card_menu(self, view, body)
        elif view.player_menu is not None:
            menus.draw_player_menu(self, view, body)
        self._die_shown = self.animating()
        if self._die_shown and phase != "run-away":
            size = int(min(body.h, body.w) * 0.4)
            kit.draw_die(self, pygame.Rect(body.centerx - size // 2, body.centery - size // 2, size, size))
        bars.draw_message(self, view, pygame.Rect(int(8 * s), h - keys_h - msg_h, w - int(16 * s), msg_h - int(4 * s)))
        bars.draw_soft_keys(self, view, pygame.Rect(0, h - keys_h, w, keys_h))
        if self.strip is not None:
            bars.draw_strip(self, view, self.strip)
        # a panel this frame did not draw is no longer on the screen (another was drawn over it)
        self._shown = {slot: shown for slot, shown in self._shown.items() if slot in self._frame_slots}
        pygame.display.flip()
        self.frames += 1

    def save(self, path: Path) -> None:
        pygame.image.save(self.screen, str(path))

    def close(self) -> None:
        pygame.display.quit()


def use_headless_drivers() -> None:
    """SDL's dummy video and audio drivers, for simulate and tests."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"


__all__ = ["Display", "Drawn", "Painter", "use_headless_drivers"]
