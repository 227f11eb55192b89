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
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import pygame

from table.fonts import find_font
from table.i18n import set_language
from table.screens import bars, combat, game_over, kit, menus, records, setup, table
from table.screens.kit import (ACTIVE, BAD, BANNER_PROMPTS, BG, BUTTON_COLORS, DIE_MS, DIM, FKEYS, GOOD, KEY, KEY_OFF,  # noqa: F401
                               PANEL, PANEL_HI, PLAYER_COLORS, REFUSAL, SIM_STRIP, TEXT, Drawn, Painter, player_color, scale)
from table.view import ROLL_EVENTS, View

log = logging.getLogger(__name__)


class Display:
    def __init__(self, size: tuple[int, int] = (800, 480), *, fullscreen: bool = False, title: str = "munchkin-table",
                 language: str = "en", font: str = "", sim_strip: bool = False) -> None:
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
        self._die_start: int | None = None
        self._die_value: int | None = None
        self._seen_actions: int | None = None

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
        return self._die_start is not None and pygame.time.get_ticks() - self._die_start < DIE_MS

    def _notice(self, view: View) -> None:
        """Start the die animation and play sounds for a newly accepted action."""
        if self._seen_actions is not None and view.actions > self._seen_actions:
            if any(e in ROLL_EVENTS for e in view.events):
                self._die_start = pygame.time.get_ticks()
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
        self.window.fill(BG)
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
        if self.animating() and phase != "run-away":
            size = int(min(body.h, body.w) * 0.4)
            kit.draw_die(self, pygame.Rect(body.centerx - size // 2, body.centery - size // 2, size, size))
        bars.draw_message(self, view, pygame.Rect(int(8 * s), h - keys_h - msg_h, w - int(16 * s), msg_h - int(4 * s)))
        bars.draw_soft_keys(self, view, pygame.Rect(0, h - keys_h, w, keys_h))
        if self.strip is not None:
            bars.draw_strip(self, view, self.strip)
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
