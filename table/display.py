"""The pygame screen: every player at a glance, the combat, the message line and soft keys.

The display only draws a View; it never changes the game.
"""

from __future__ import annotations

import os
from pathlib import Path

import pygame

from table.view import BUTTON_ORDER, View

BG = (18, 20, 28)
PANEL = (38, 42, 56)
ACTIVE = (250, 196, 60)
TEXT = (236, 238, 244)
DIM = (140, 146, 160)
GOOD = (90, 200, 120)
BAD = (235, 90, 80)
KEY = (60, 66, 86)

PHASES = [("kick-open-the-door", "Kick"), ("look-for-trouble", "Trouble / Loot"), ("combat", "Combat"),
          ("run-away", "Run"), ("charity", "Charity")]


class Display:
    def __init__(self, size: tuple[int, int] = (800, 480), *, fullscreen: bool = False, title: str = "munchkin-table") -> None:
        pygame.display.init()
        pygame.font.init()
        flags = pygame.FULLSCREEN if fullscreen else 0
        self.screen = pygame.display.set_mode(size, flags)
        pygame.display.set_caption(title)
        if fullscreen:
            pygame.mouse.set_visible(False)
        self.size = self.screen.get_size()
        self._fonts: dict[int, pygame.font.Font] = {}
        self._text_cache: dict[tuple[str, int, tuple[int, int, int]], pygame.Surface] = {}
        self.frames = 0

    def font(self, size: int) -> pygame.font.Font:
        if size not in self._fonts:
            self._fonts[size] = pygame.font.Font(None, size)
        return self._fonts[size]

    def text(self, text: str, size: int, color: tuple[int, int, int] = TEXT) -> pygame.Surface:
        key = (text, size, color)
        surf = self._text_cache.get(key)
        if surf is None:
            if len(self._text_cache) > 2000:
                self._text_cache.clear()
            surf = self.font(size).render(text, True, color)
            self._text_cache[key] = surf
        return surf

    def blit_fit(self, surf: pygame.Surface, pos: tuple[int, int], width: int) -> None:
        if surf.get_width() > width:
            surf = surf.subsurface((0, 0, width, surf.get_height()))
        self.screen.blit(surf, pos)

    def render(self, view: View) -> None:
        w, h = self.size
        s = h / 480
        scr = self.screen
        scr.fill(BG)
        state = view.state
        # phase strip
        top = int(34 * s)
        x = int(8 * s)
        for phase, label in PHASES:
            on = state["phase"] == phase
            surf = self.text(label, int(24 * s), BG if on else DIM)
            rect = pygame.Rect(x, int(6 * s), surf.get_width() + int(16 * s), int(26 * s))
            if on:
                pygame.draw.rect(scr, ACTIVE, rect, border_radius=6)
            scr.blit(surf, (x + int(8 * s), int(10 * s)))
            x = rect.right + int(6 * s)
        status = f"turn {state['turn']}" if state["phase"] not in ("setup", "game-over") else state["phase"].replace("-", " ")
        if view.reader_online is False:
            status = "READER OFFLINE · " + status
        surf = self.text(status, int(24 * s), BAD if view.reader_online is False else DIM)
        scr.blit(surf, (w - surf.get_width() - int(8 * s), int(10 * s)))

        # player panels
        players = state["players"]
        combat = state["combat"]
        area_w = w if combat is None else int(w * 0.58)
        cols = 3 if len(players) > 4 or combat is None else 2
        cols = max(1, min(cols, len(players) or 1))
        rows = max(1, -(-len(players) // cols))
        ph = int((h - top - 80 * s) / max(rows, 2))
        pw = (area_w - int(8 * s)) // cols
        for i, p in enumerate(players):
            r = pygame.Rect(int(8 * s) + (i % cols) * pw, top + int(4 * s) + (i // cols) * ph, pw - int(8 * s), ph - int(8 * s))
            self.draw_player(p, r, s, state["active_player"] == p["id"], view.acting == p["id"], view.names)
        if not players:
            self.blit_fit(self.text("Tap each player's token to join, then press NEXT", int(30 * s)), (int(16 * s), top + int(40 * s)), w - 32)
        if combat is not None:
            self.draw_combat(combat, view, pygame.Rect(area_w, top + int(4 * s), w - area_w - int(8 * s), h - top - int(84 * s)), s)

        # message line
        msg_y = h - int(74 * s)
        text = view.prompt or view.message
        color = BAD if view.message_kind == "refusal" and not view.prompt else (ACTIVE if view.prompt else TEXT)
        if view.entry:
            text = f"tap: {view.entry}_"
            color = ACTIVE
        self.blit_fit(self.text(text, int(26 * s), color), (int(10 * s), msg_y), w - int(20 * s))
        # soft keys
        kw = w // len(BUTTON_ORDER)
        for i, button in enumerate(BUTTON_ORDER):
            r = pygame.Rect(i * kw + int(4 * s), h - int(44 * s), kw - int(8 * s), int(40 * s))
            label = view.soft_keys.get(button, "")
            pygame.draw.rect(scr, KEY if label else PANEL, r, border_radius=8)
            self.blit_fit(self.text(button.upper(), int(16 * s), DIM), (r.x + int(6 * s), r.y + int(3 * s)), r.w - 8)
            if label:
                self.blit_fit(self.text(label, int(24 * s)), (r.x + int(6 * s), r.y + int(17 * s)), r.w - 8)
        pygame.display.flip()
        self.frames += 1

    def draw_player(self, p: dict, r: pygame.Rect, s: float, active: bool, acting: bool, names: dict[str, str]) -> None:
        pygame.draw.rect(self.screen, PANEL, r, border_radius=10)
        if active or acting:
            pygame.draw.rect(self.screen, ACTIVE if active else GOOD, r, width=max(2, int(3 * s)), border_radius=10)
        pad = int(8 * s)
        name_color = TEXT if p["alive"] else DIM
        self.blit_fit(self.text(p["name"] + ("" if p["alive"] else " (dead)"), int(26 * s), name_color), (r.x + pad, r.y + pad), r.w - 2 * pad)
        level = self.text(str(p["level"]), int(64 * s), ACTIVE if active else TEXT)
        self.screen.blit(level, (r.x + pad, r.y + int(30 * s)))
        self.screen.blit(self.text("level", int(18 * s), DIM), (r.x + pad, r.y + int(30 * s) + level.get_height()))
        strength = self.text(f"{p['combat_strength']}", int(40 * s), GOOD if p["combat_strength"] > 0 else BAD)
        sx = r.x + int(r.w * 0.5)
        self.screen.blit(strength, (sx, r.y + int(38 * s)))
        self.screen.blit(self.text("strength", int(18 * s), DIM), (sx, r.y + int(38 * s) + strength.get_height()))
        who = " ".join(names.get(x, x) for x in [*p["races"], *p["classes"]]) or "Human"
        y = r.y + int(100 * s)
        if y + int(20 * s) < r.bottom:
            self.blit_fit(self.text(f"{p['sex']} · {who}", int(20 * s), DIM), (r.x + pad, y), r.w - 2 * pad)
        y += int(20 * s)
        for card in p["equipped"] + p["carried"]:
            if y + int(18 * s) > r.bottom:
                break
            color = TEXT if card in p["equipped"] else DIM
            self.blit_fit(self.text(names.get(card, card), int(18 * s), color), (r.x + pad, y), r.w - 2 * pad)
            y += int(18 * s)

    def draw_combat(self, combat: dict, view: View, r: pygame.Rect, s: float) -> None:
        pygame.draw.rect(self.screen, PANEL, r, border_radius=10)
        pad = int(10 * s)
        winning = combat["players_winning"]
        verdict = "PLAYERS WIN" if winning else "MONSTERS WIN"
        self.screen.blit(self.text(verdict, int(30 * s), GOOD if winning else BAD), (r.x + pad, r.y + pad))
        score = self.text(f"{combat['players_strength']}  vs  {combat['monsters_strength']}", int(52 * s))
        self.screen.blit(score, (r.x + pad, r.y + int(40 * s)))
        y = r.y + int(96 * s)
        for m in combat["monsters"]:
            label = f"{view.names.get(m['card'], m['card'])} ({m['strength']})"
            self.blit_fit(self.text(label, int(22 * s)), (r.x + pad, y), r.w - 2 * pad)
            y += int(22 * s)
        if view.window_left is not None and view.window_total > 0:
            frac = view.window_left / view.window_total
            bar = pygame.Rect(r.x + pad, r.bottom - int(24 * s), int((r.w - 2 * pad) * frac), int(14 * s))
            pygame.draw.rect(self.screen, ACTIVE, bar, border_radius=4)

    def save(self, path: Path) -> None:
        pygame.image.save(self.screen, str(path))

    def close(self) -> None:
        pygame.display.quit()


def use_headless_drivers() -> None:
    """SDL's dummy video and audio drivers, for simulate and tests."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
