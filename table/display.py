"""The pygame screen: every player at a glance, the combat, the message line and soft keys.

The display only draws a View; it never changes the game. Layouts scale from
800x480 (the 7" panel) to 1920x1080 (HDMI across a table): sizes are fractions
of the height, positions fractions of the width. A screen taller than wide (the
Touch Display 2, 720x1280) gets the portrait layouts: the same panels stacked
rather than side by side, sized from the width (see ``scale``).

Every piece of text goes through ``Painter.text``, which fits it into the box it
belongs to (smaller type, then an ellipsis) and records ``(text, rect, box)`` in
``drawn``, so tests can check that nothing spills out of its panel.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pygame.freetype

from table.fonts import FontChoice, find_font
from table.i18n import _, set_language, translate_label
from table.picker import as_uid
from table.view import BUTTON_ORDER, ROLL_EVENTS, View

log = logging.getLogger(__name__)

BG = (14, 16, 22)
PANEL = (34, 38, 50)
PANEL_HI = (48, 54, 72)
ACTIVE = (255, 200, 60)
TEXT = (240, 242, 248)
DIM = (130, 136, 152)
GOOD = (80, 210, 120)
BAD = (240, 84, 72)
KEY = (58, 64, 86)
KEY_OFF = (28, 31, 40)
REFUSAL = (110, 24, 20)         # behind a refused action's reason
PLAYER_COLORS = [(90, 160, 255), (255, 120, 90), (120, 220, 120), (230, 120, 230), (250, 210, 80), (80, 220, 220)]
BUTTON_COLORS = {"roll": (220, 60, 60), "help": (60, 140, 240), "run": (240, 200, 40), "next": (70, 200, 90),
                 "undo": (200, 200, 200)}
FKEYS = {"roll": "F1", "help": "F2", "run": "F3", "next": "F4", "undo": "F5"}
BANNER_PROMPTS = ("helper", "victim", "target", "item", "value", "give", "promise", "receiver", "side", "sell")   # prompts that wait for a tap or a number
DIE_MS = 600                    # the die tumbles this long; its face is the result from the first frame
SIM_STRIP = 86                  # simulator strip height at 480 lines


@dataclass(frozen=True)
class Drawn:
    text: str
    rect: pygame.Rect
    box: pygame.Rect


def _phases() -> list[tuple[tuple[str, ...], str]]:
    return [(("kick-open-the-door",), _("Kick")), (("look-for-trouble",), _("Trouble / Loot")),
            (("combat", "run-away"), _("Combat")), (("charity",), _("Charity"))]


def player_color(state: dict[str, Any], pid: str) -> tuple[int, int, int]:
    ids = [p["id"] for p in state["players"]]
    index = ids.index(pid) if pid in ids else int(pid.rsplit("-", 1)[-1]) - 1 if pid[-1:].isdigit() else 0
    return PLAYER_COLORS[index % len(PLAYER_COLORS)]


def scale(width: int, height: int) -> float:
    """Type and spacing per 480 lines of a landscape screen; a portrait screen is sized from its width."""
    if height > width:
        return min(height / 480, width / 600)
    return height / 480


class Painter:
    """Fonts, fitted text and the record of what was drawn where, on one surface."""

    def __init__(self, surface: pygame.Surface, font: FontChoice) -> None:
        pygame.freetype.init()
        self.surface = surface
        self.font_choice = font
        self._fonts: dict[int, pygame.freetype.Font] = {}
        self._cache: dict[tuple[str, int, tuple[int, int, int]], pygame.Surface] = {}
        self._cache_bytes = 0
        self.drawn: list[Drawn] = []
        self.s = scale(*surface.get_size())

    def font(self, size: int) -> pygame.freetype.Font:
        f = self._fonts.get(size)
        if f is None:
            choice = self.font_choice
            try:
                f = pygame.freetype.Font(choice.path, size, font_index=choice.index)
            except (OSError, pygame.error) as exc:
                log.error("cannot open font %s (%s); using pygame's built-in font", choice, exc)
                self.font_choice = FontChoice(None)
                f = pygame.freetype.Font(None, size)
            f.pad = True
            self._fonts[size] = f
        return f

    CACHE_BYTES = 16 * 1024 * 1024   # rendered text kept for reuse; the oldest goes first

    def render(self, text: str, size: int, color: tuple[int, int, int]) -> pygame.Surface:
        key = (text, size, color)
        surf = self._cache.pop(key, None)
        if surf is None:
            surf = self.font(size).render(text, color)[0]
            self._cache_bytes += surf.get_bytesize() * surf.get_width() * surf.get_height()
            while self._cache_bytes > self.CACHE_BYTES and self._cache:
                old = self._cache.pop(next(iter(self._cache)))
                self._cache_bytes -= old.get_bytesize() * old.get_width() * old.get_height()
        self._cache[key] = surf          # re-inserted: most recently used last
        return surf

    def has_glyph(self, char: str, size: int) -> bool:
        """Whether the font draws ``char`` (the CJK fonts have no ✗, say), rather than a box."""
        return self.font(max(8, int(size))).get_metrics(char)[0] is not None

    def width(self, text: str, size: int) -> int:
        return self.render(text, size, TEXT).get_width()

    def line_height(self, size: int) -> int:
        """The height of one rendered line (text is padded to the font's full height)."""
        return self.render("Ág", max(8, int(size)), TEXT).get_height()

    def fit(self, text: str, size: int, width: int, *, shrink: float = 0.7) -> tuple[str, int]:
        """The text and size that fit ``width``: smaller type first, then an ellipsis."""
        smallest = max(8, int(size * shrink))
        sz = size
        while sz > smallest and self.width(text, sz) > width:
            sz = max(smallest, int(sz * 0.9))
        if self.width(text, sz) <= width:
            return text, sz
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.width(text[:mid].rstrip() + "…", sz) <= width:
                lo = mid
            else:
                hi = mid - 1
        return (text[:lo].rstrip() + "…") if lo else "", sz

    def text(self, text: str, size: float, color: tuple[int, int, int], box: pygame.Rect, *,
             x: int | None = None, y: int | None = None, align: str = "left", shrink: float = 0.7) -> pygame.Rect:
        """Draw ``text`` inside ``box`` (from x, y); returns its rect, empty when it does not fit."""
        size = max(8, int(size))
        x = box.x if x is None else x
        y = box.y if y is None else y
        width = box.right - x if align == "left" else box.w
        if not text or width <= 0:
            return pygame.Rect(x, y, 0, 0)
        text, size = self.fit(text, size, width, shrink=shrink)
        if not text:
            return pygame.Rect(x, y, 0, 0)
        surf = self.render(text, size, color)
        if y + surf.get_height() > box.bottom:
            return pygame.Rect(x, y, 0, 0)
        if align == "center":
            x = box.x + (box.w - surf.get_width()) // 2
        elif align == "right":
            x = box.right - surf.get_width()
        rect = self.surface.blit(surf, (x, y))
        self.drawn.append(Drawn(text, pygame.Rect(x, y, surf.get_width(), surf.get_height()), pygame.Rect(box)))
        return rect

    def wrap_lines(self, text: str, size: float, width: int, max_lines: int = 3) -> list[str]:
        """``text`` broken into lines of at most ``width`` (the last one takes the rest, to be ellipsised)."""
        size = max(8, int(size))
        words = text.split(" ") if " " in text else list(text)      # Chinese wraps anywhere
        joiner = " " if " " in text else ""
        lines: list[str] = []
        current = ""
        for word in words:
            trial = f"{current}{joiner}{word}" if current else word
            if self.width(trial, size) <= width or not current:
                current = trial
            else:
                lines.append(current)
                current = word
        if current:
            lines.append(current)
        if len(lines) > max_lines:
            lines = lines[:max_lines - 1] + [joiner.join(lines[max_lines - 1:])]
        return lines

    def wrap(self, text: str, size: float, color: tuple[int, int, int], box: pygame.Rect, *, y: int,
             max_lines: int = 3) -> int:
        """Draw ``text`` over up to ``max_lines`` lines (the last one ellipsised); returns the next y."""
        size = max(8, int(size))
        lines = self.wrap_lines(text, size, box.w, max_lines)
        step = self.line_height(size)
        for line in lines:
            if y + step > box.bottom:
                break
            self.text(line, size, color, box, y=y, shrink=1.0)
            y += step
        return y

    def panel(self, rect: pygame.Rect, color: tuple[int, int, int] = PANEL, *, border: tuple[int, int, int] | None = None,
              width: int = 0) -> None:
        radius = max(4, int(10 * self.s))
        pygame.draw.rect(self.surface, color, rect, border_radius=radius)
        if border is not None:
            pygame.draw.rect(self.surface, border, rect, width=max(2, width), border_radius=radius)


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
        self.draw_top(view, pygame.Rect(0, 0, w, top))
        phase = view.state["phase"]
        if phase == "setup":
            self.draw_setup(view, body)
        elif phase == "game-over":
            self.draw_game_over(view, body)
        elif phase in ("combat", "run-away") and view.state["combat"] is not None:
            self.draw_combat_screen(view, body)
        else:
            self.draw_table(view, body)
        if view.prompt and view.prompt_kind in BANNER_PROMPTS:
            self.draw_prompt_banner(view, body)
        if view.menu is not None:
            self.draw_card_menu(view, body)
        elif view.player_menu is not None:
            self.draw_player_menu(view, body)
        if self.animating() and phase != "run-away":
            size = int(min(body.h, body.w) * 0.4)
            self.draw_die(pygame.Rect(body.centerx - size // 2, body.centery - size // 2, size, size))
        self.draw_message(view, pygame.Rect(int(8 * s), h - keys_h - msg_h, w - int(16 * s), msg_h - int(4 * s)))
        self.draw_soft_keys(view, pygame.Rect(0, h - keys_h, w, keys_h))
        if self.strip is not None:
            self.draw_strip(view, self.strip)
        pygame.display.flip()
        self.frames += 1

    def draw_top(self, view: View, bar: pygame.Rect) -> None:
        s, state = self.s, view.state
        x = int(8 * s)
        chip_h = int(28 * s)
        phase = state["phase"]
        if self.portrait:
            row = bar.h // 2
            y = (row - chip_h) // 2 + int(2 * s)
            strip = pygame.Rect(x, y, bar.w - 2 * x, chip_h)
            status = pygame.Rect(x, row, bar.w - x - int(10 * s), row)
        else:
            y = (bar.h - chip_h) // 2
            status_w = int(bar.w * 0.3)
            strip = pygame.Rect(x, y, bar.w - status_w - x, chip_h)
            status = pygame.Rect(bar.w - status_w, 0, status_w - int(10 * s), bar.h)
        for i, (phases, label) in enumerate(_phases()):
            on = phase in phases
            if phase == "run-away" and on:
                label = _("Run away")
            tw = self.painter.width(label, int(20 * s))
            rect = pygame.Rect(x, y, tw + int(16 * s), chip_h)
            if rect.right > strip.right:
                break
            if on:
                self.painter.panel(rect, ACTIVE)
            self.t(label, 20, BG if on else DIM, rect, x=rect.x + int(8 * s), y=rect.y + int(2 * s))
            x = rect.right + int(4 * s)
            if i < 3:
                arrow = pygame.Rect(x, y, int(18 * s), chip_h)
                self.t("→", 20, DIM, arrow, y=rect.y + int(2 * s))
                x = arrow.right + int(2 * s)
        if phase == "setup":
            right = _("Setup")
        elif phase == "game-over":
            right = _("Game over")
        else:
            right = _("Turn {n}").format(n=state["turn"])
        reader = {True: (_("reader ok"), GOOD), False: (_("READER OFFLINE"), BAD), None: ("", DIM)}[view.reader_online]
        if reader[0]:
            r = self.t(reader[0], 18, reader[1], status, y=status.y + (status.h - self.painter.line_height(int(18 * s))) // 2,
                       align="right")
            status = pygame.Rect(status.x, status.y, max(0, r.x - status.x - int(12 * s)), status.h)
        self.t(right, 22, TEXT, status, y=status.y + (status.h - self.painter.line_height(int(22 * s))) // 2, align="right")

    # ------------------------------------------------------------------ setup

    def draw_setup(self, view: View, body: pygame.Rect) -> None:
        s, state = self.s, view.state
        gap = int(8 * s)
        if self.portrait:
            left = pygame.Rect(body.x, body.y, body.w, int(body.h * 0.55) - gap)
            right = pygame.Rect(body.x, left.bottom + gap, body.w, body.bottom - left.bottom - gap)
        else:
            left = pygame.Rect(body.x, body.y, int(body.w * 0.55) - gap, body.h)
            right = pygame.Rect(left.right + gap, body.y, body.right - left.right - gap, body.h)
        self.painter.panel(left)
        self.panels["seats"] = left
        inner = left.inflate(-int(24 * s), -int(20 * s))
        self.t(_("Seats"), 24, DIM, inner)
        rules = state["ruleset"]
        rows = rules["max_players"]
        row_h = (inner.h - int(34 * s)) // max(rows, 1)
        first = view.first_player
        for i in range(rows):
            r = pygame.Rect(inner.x, inner.y + int(34 * s) + i * row_h, inner.w, row_h - int(4 * s))
            if i < len(state["players"]):
                p = state["players"][i]
                pygame.draw.rect(self.window, PLAYER_COLORS[i % 6], (r.x, r.y, int(8 * s), r.h), border_radius=3)
                line = pygame.Rect(r.x + int(16 * s), r.y, r.w - int(16 * s), r.h)
                label = f"{i + 1}. {p['name']}"
                name_r = self.t(label, 26, TEXT, line, y=r.y + (r.h - self.painter.line_height(int(26 * s))) // 2)
                if p["id"] == first:
                    tag = pygame.Rect(name_r.right + int(12 * s), r.y, line.right - name_r.right - int(12 * s), r.h)
                    self.t(_("starts"), 20, ACTIVE, tag, y=r.y + (r.h - self.painter.line_height(int(20 * s))) // 2)
            else:
                self.t(f"{i + 1}. " + _("(empty seat)"), 22, DIM, r, x=r.x + int(16 * s),
                       y=r.y + (r.h - self.painter.line_height(int(22 * s))) // 2)
        self.painter.panel(right, PANEL)
        self.panels["setup-help"] = right
        inner = right.inflate(-int(24 * s), -int(20 * s))
        n = len(state["players"])
        y = inner.y
        self.t(_("New game"), 34, ACTIVE, inner, y=y)
        y += int(46 * s)
        lines = [_("Tap your player token to join ({lo}–{hi} players)").format(lo=rules["min_players"], hi=rules["max_players"]),
                 _("ROLL: the die picks who starts"),
                 _("NEXT: start the game")]
        for line in lines:
            y = self.painter.wrap(line, 22 * s, TEXT, inner, y=y, max_lines=2) + int(8 * s)
        joined = _("{n} joined").format(n=n)
        if n < rules["min_players"]:
            joined += " · " + _("{k} more needed").format(k=rules["min_players"] - n)
        self.t(joined, 26, GOOD if n >= rules["min_players"] else DIM, inner, y=inner.bottom - int(70 * s))
        starter = state["players"][0]["name"] if state["players"] and not first else ""
        if first:
            starter = next((p["name"] for p in state["players"] if p["id"] == first), first)
        if starter:
            self.t(_("First player: {name}").format(name=starter), 24, TEXT, inner, y=inner.bottom - int(36 * s))

    # ------------------------------------------------------------------ the table

    def draw_table(self, view: View, body: pygame.Rect) -> None:
        s, state = self.s, view.state
        players = state["players"]
        if state["phase"] == "charity":
            band_h = self.painter.line_height(int(22 * s)) + self.painter.line_height(int(20 * s)) + int(12 * s)
            band = pygame.Rect(body.x, body.y, body.w, band_h)
            self.draw_charity(view, band)
            body = pygame.Rect(body.x, band.bottom + int(6 * s), body.w, body.bottom - band.bottom - int(6 * s))
        if view.basket and view.menu is None:
            band_h = self.painter.line_height(int(20 * s)) + int(12 * s)
            band = pygame.Rect(body.x, body.bottom - band_h, body.w, band_h)
            self.draw_basket_band(view, band)
            body = pygame.Rect(body.x, body.y, body.w, band.y - body.y - int(6 * s))
        n = max(1, len(players))
        cols = (1 if n <= 3 else 2) if self.portrait else {1: 1, 2: 2, 3: 3, 4: 2}.get(n, 3)
        rows = -(-n // cols)
        gap = int(8 * s)
        pw = (body.w - gap * (cols - 1)) // cols
        ph = (body.h - gap * (rows - 1)) // rows
        for i, p in enumerate(players):
            r = pygame.Rect(body.x + (i % cols) * (pw + gap), body.y + (i // cols) * (ph + gap), pw, ph)
            self.draw_player(view, p, r)

    def draw_player(self, view: View, p: dict[str, Any], r: pygame.Rect) -> None:
        s, state = self.s, view.state
        active = state["active_player"] == p["id"]
        acting = view.acting == p["id"] and not active
        self.painter.panel(r, PANEL_HI if active else PANEL, border=ACTIVE if active else (GOOD if acting else None),
                           width=int(4 * s))
        self.panels[p["id"]] = r
        pygame.draw.rect(self.window, player_color(state, p["id"]), (r.x + int(4 * s), r.y + int(8 * s), int(6 * s), r.h - int(16 * s)),
                         border_radius=3)
        inner = pygame.Rect(r.x + int(16 * s), r.y + int(6 * s), r.w - int(24 * s), r.h - int(12 * s))
        alive = p["alive"]
        name_size = 24 if r.h > 150 * s else 20
        tag = _("acting") if acting else (_("DEAD") if not alive else "")
        name_box = inner
        if tag:
            tr = self.t(tag, 16, GOOD if acting else BAD, inner, y=inner.y + int(4 * s), align="right")
            name_box = pygame.Rect(inner.x, inner.y, max(0, tr.x - inner.x - int(6 * s)), inner.h)
        self.t(p["name"], name_size, TEXT if alive else DIM, name_box)
        y = inner.y + self.painter.line_height(int(name_size * s))
        level_size = min(80, max(28, (r.h / s) * (0.30 if r.h > 220 * s else 0.22)))
        level_box = pygame.Rect(inner.x, y, inner.w // 2, int(self.painter.line_height(int(level_size * s))))
        lr = self.t(str(p["level"]), level_size, ACTIVE if active else TEXT, level_box)
        self.level_rects[p["id"]] = level_box
        lab = pygame.Rect(lr.right + int(6 * s), y + int(level_box.h * 0.45), level_box.right - lr.right - int(6 * s), int(22 * s))
        self.t(_("level"), 16, DIM, lab)
        strength = p["combat_strength"]
        sb = pygame.Rect(inner.x + inner.w // 2, y + int(level_box.h * 0.15), inner.w - inner.w // 2,
                         int(self.painter.line_height(int(level_size * 0.7 * s))))
        sr = self.t(str(strength), level_size * 0.7, GOOD, sb)
        lab = pygame.Rect(sr.right + int(6 * s), sb.y + int(sb.h * 0.4), sb.right - sr.right - int(6 * s), int(22 * s))
        self.t(_("strength"), 16, DIM, lab)
        y = level_box.bottom
        who = " ".join(view.names.get(x, x) for x in [*p["races"], *p["classes"]]) or _("Human")
        gear = 17 if r.h > 220 * s else 15
        line_h = self.painter.line_height(int(gear * s))
        self.t(f"{_(p['sex'])} · {who}", gear, DIM, inner, y=y)
        y += line_h
        lines: list[tuple[str, tuple[int, int, int]]] = []
        for card in p["equipped"]:
            bonus = view.bonus.get(card)
            lines.append((view.names.get(card, card) + (f" {bonus:+d}" if bonus else ""), TEXT))
        for card in p["carried"]:
            lines.append((view.names.get(card, card) + " " + _("(carried)"), DIM))
        for card in p["curses"]:
            lines.append((view.names.get(card, card), BAD))
        room = max(0, (inner.bottom - y) // line_h)
        if len(lines) > room and room > 1:
            lines = lines[:room - 1] + [(_("+{n} more").format(n=len(lines) - room + 1), DIM)]
        for text, color in lines[:room]:
            self.t(text, gear, color, inner, y=y)
            y += line_h

    def draw_charity(self, view: View, band: pygame.Rect) -> None:
        s, state = self.s, view.state
        self.painter.panel(band, PANEL_HI, border=ACTIVE, width=int(2 * s))
        self.panels["charity"] = band
        inner = band.inflate(-int(20 * s), -int(8 * s))
        active = next((p for p in state["players"] if p["id"] == state["active_player"]), None)
        limit = state["ruleset"]["hand_limit"] + (1 if active and "dwarf" in active["races"] else 0)
        others = [p for p in state["players"] if p["id"] != state["active_player"]]
        low = min((p["level"] for p in state["players"]), default=1)
        receivers = [p["name"] for p in others if p["level"] == low]
        if active and active["level"] == low and not receivers:
            to = _("you are lowest: discard the extra cards")
        else:
            lowest = min((p["level"] for p in others), default=low)
            receivers = [p["name"] for p in others if p["level"] == lowest]
            to = _("extra cards go to: {names}").format(names=", ".join(receivers))
        name = active["name"] if active else ""
        self.t(_("Charity: {name} keeps at most {n} cards").format(name=name, n=limit), 22, ACTIVE, inner)
        self.t(to, 20, TEXT, inner, y=inner.y + self.painter.line_height(int(22 * s)))

    # ------------------------------------------------------------------ combat and running away

    def draw_combat_screen(self, view: View, body: pygame.Rect) -> None:
        s, state = self.s, view.state
        gap = int(8 * s)
        players = state["players"]
        n = max(1, len(players))
        if self.portrait:
            cols = 2 if n == 4 else min(n, 3)
            rows = -(-n // cols)
            row_h = int(72 * s)
            top = pygame.Rect(body.x, body.y, body.w, rows * row_h + (rows - 1) * gap)
            right = pygame.Rect(body.x, top.bottom + gap, body.w, body.bottom - top.bottom - gap)
            pw = (top.w - gap * (cols - 1)) // cols
            for i, p in enumerate(players):
                self.draw_mini_player(view, p, pygame.Rect(top.x + (i % cols) * (pw + gap), top.y + (i // cols) * (row_h + gap),
                                                           pw, row_h))
        else:
            left = pygame.Rect(body.x, body.y, int(body.w * 0.30), body.h)
            right = pygame.Rect(left.right + gap, body.y, body.right - left.right - gap, body.h)
            ph = (left.h - gap * (n - 1)) // n
            for i, p in enumerate(players):
                self.draw_mini_player(view, p, pygame.Rect(left.x, left.y + i * (ph + gap), left.w, ph))
        if state["phase"] == "run-away" and state.get("run_away"):
            self.draw_run_away(view, right)
        else:
            self.draw_combat(view, right)

    def draw_mini_player(self, view: View, p: dict[str, Any], r: pygame.Rect) -> None:
        s, state = self.s, view.state
        active = state["active_player"] == p["id"]
        fighting = p["id"] in (state["combat"] or {}).get("fighters", [])
        self.painter.panel(r, PANEL_HI if fighting else PANEL, border=ACTIVE if active else None, width=int(3 * s))
        self.panels[p["id"]] = r
        pygame.draw.rect(self.window, player_color(state, p["id"]), (r.x + int(3 * s), r.y + int(4 * s), int(5 * s), r.h - int(8 * s)))
        inner = pygame.Rect(r.x + int(12 * s), r.y + int(2 * s), r.w - int(18 * s), r.h - int(4 * s))
        level_size = min(44, max(16, (r.h / s) * 0.62))
        lh = self.painter.line_height(int(level_size * s))
        level_box = pygame.Rect(inner.right - int(inner.w * 0.3), inner.y + max(0, (inner.h - lh) // 2), int(inner.w * 0.3), lh)
        self.t(str(p["level"]), level_size, ACTIVE if active else TEXT, level_box, align="right")
        self.level_rects[p["id"]] = level_box
        text_box = pygame.Rect(inner.x, inner.y, level_box.x - inner.x - int(4 * s), inner.h)
        name_size = min(20, max(12, (r.h / s) * 0.34))
        nh = self.painter.line_height(int(name_size * s))
        two = inner.h >= nh * 2
        y = inner.y + (inner.h - (nh * 2 if two else nh)) // 2
        self.t(p["name"], name_size, TEXT if p["alive"] else DIM, text_box, y=y)
        if two:
            self.t(_("strength {n}").format(n=p["combat_strength"]), name_size * 0.8, GOOD, text_box, y=y + nh)

    @staticmethod
    def verdict(combat: dict[str, Any]) -> str:
        ps, ms = combat["players_strength"], combat["monsters_strength"]
        margin = abs(ps - ms)
        if combat["players_winning"]:
            return _("PLAYERS WIN by {n}").format(n=margin) if margin else _("PLAYERS WIN (tie)")
        return _("MONSTERS WIN by {n}").format(n=margin) if margin else _("MONSTERS WIN (tie)")

    def draw_interference_bar(self, view: View, bar: pygame.Rect, size: float = 17) -> None:
        label = _("interfere now! {t:.1f} s").format(t=view.window_left)
        lab_h = self.painter.line_height(int(size * self.s))
        self.t(label, size, ACTIVE, pygame.Rect(bar.x, bar.y, bar.w, lab_h))
        track = pygame.Rect(bar.x, bar.y + lab_h + int(2 * self.s), bar.w, bar.h - lab_h - int(2 * self.s))
        pygame.draw.rect(self.window, KEY_OFF, track, border_radius=4)
        frac = max(0.0, min(1.0, (view.window_left or 0.0) / view.window_total))
        pygame.draw.rect(self.window, ACTIVE, (track.x, track.y, int(track.w * frac), track.h), border_radius=4)

    def combat_rows(self, view: View) -> list[tuple[str, str, float, tuple[int, int, int], int, int]]:
        """The portrait combat's breakdown, one row each: (text, value at the right, size, colour,
        indent steps, lines it may wrap to). A row with no text is a rule between the two sides."""
        state, combat = view.state, view.state["combat"]
        byid = {p["id"]: p for p in state["players"]}
        rows: list[tuple[str, str, float, tuple[int, int, int], int, int]] = []
        for pid in combat["fighters"]:
            p = byid.get(pid)
            if p is None:
                continue
            role = f" ({_('helper')})" if pid == combat.get("helper") else ""
            rows.append((p["name"] + role, str(p["combat_strength"]), 26, TEXT, 0, 1))
            for kind, name, n in view.breakdown.get(pid, [("level", "", p["level"])]):
                label = {"level": _("level"), "other": _("curses and fight bonuses")}.get(kind, name)
                rows.append((label, str(n) if kind == "level" else f"{n:+d}", 22, DIM if kind == "level" else TEXT, 1, 1))
        for shot in combat.get("one_shots", []):
            if shot["side"] in ("players", "player"):
                rows.append((view.names.get(shot["card"], shot["card"]), f"{shot['bonus']:+d}", 22, TEXT, 0, 1))
        rows.append(("", "", 10, DIM, 0, 1))
        for m in combat["monsters"]:
            info = view.monsters.get(m["card"], {})
            rows.append((view.names.get(m["card"], m["card"]), str(m["strength"]), 26, TEXT, 0, 1))
            if info:
                rows.append((_("level"), str(info["level"]), 22, DIM, 1, 1))
                for name, bonus in info.get("enhancers", []):
                    rows.append((name, f"{bonus:+d}", 22, TEXT, 1, 1))
                if info.get("rest") and not m.get("slain"):
                    rows.append((_("other modifiers"), f"{info['rest']:+d}", 22, TEXT, 1, 1))
                rows.append((_("treasures {t} · +{l} level").format(t=info["treasures"], l=info["levels"]), "", 22, ACTIVE, 1, 1))
                if info.get("bad_stuff"):
                    rows.append((_("Bad stuff: {text}").format(text=info["bad_stuff"]), "", 22, BAD, 1, 4))
            else:
                for e in m["enhancers"]:
                    rows.append(("+ " + view.names.get(e, e), "", 22, DIM, 1, 1))
        for shot in combat.get("one_shots", []):
            if shot["side"] not in ("players", "player"):
                rows.append((view.names.get(shot["card"], shot["card"]), f"{shot['bonus']:+d}", 22, TEXT, 0, 1))
        return rows

    def draw_combat_portrait(self, view: View, r: pygame.Rect, inner: pygame.Rect) -> None:
        """The combat read across the table: the verdict and both totals large, then each fighter's
        level and items, and each monster's level, enhancers, treasures and bad stuff, full width."""
        s, state = self.s, view.state
        combat = state["combat"]
        winning = combat["players_winning"]
        self.t(self.verdict(combat), 44, GOOD if winning else BAD, inner, shrink=0.6)
        y = inner.y + self.painter.line_height(int(44 * s))
        half = (inner.w - int(16 * s)) // 2
        big = 96
        for i, (label, total, color) in enumerate(((_("Players"), combat["players_strength"], GOOD if winning else TEXT),
                                                   (_("Monsters"), combat["monsters_strength"], TEXT if winning else BAD))):
            col = pygame.Rect(inner.x + i * (half + int(16 * s)), y, half, inner.bottom - y)
            self.t(label, 24, DIM, col)
            self.t(str(total), big, color, col, y=y + self.painter.line_height(int(24 * s)) - int(10 * s))
        y += self.painter.line_height(int(24 * s)) + self.painter.line_height(int(big * s)) - int(10 * s)
        bar_h = self.painter.line_height(int(22 * s)) + int(20 * s) if view.window_left is not None else 0
        if not bar_h and state.get("treasures_to_draw"):
            bar_h = self.painter.line_height(int(24 * s))
        area = pygame.Rect(inner.x, y, inner.w, inner.bottom - y - bar_h - (int(8 * s) if bar_h else 0))
        rows = self.combat_rows(view)
        indent = int(20 * s)
        gap = int(6 * s)

        def height(k: float) -> int:
            total = 0
            for text, _value, size, _color, steps, lines in rows:
                lh = self.painter.line_height(int(size * k * s))
                if not text:
                    total += lh
                elif lines > 1:
                    total += lh * len(self.painter.wrap_lines(text, size * k * s, area.w - steps * indent, lines))
                else:
                    total += lh + (gap if steps == 0 else 0)
            return total

        k = next((k / 100 for k in range(100, 55, -4) if height(k / 100) <= area.h), 0.55)
        y = area.y
        for text, value, size, color, steps, lines in rows:
            sz = size * k
            lh = self.painter.line_height(int(sz * s))
            if not text:
                pygame.draw.line(self.window, DIM, (area.x, y + lh // 2), (area.right, y + lh // 2), 1)
                y += lh
                continue
            if steps == 0 and y > area.y:
                y += gap
            if y + lh > area.bottom:
                break
            row = pygame.Rect(area.x + steps * indent, y, area.w - steps * indent, area.bottom - y)
            if lines > 1:
                y = self.painter.wrap(text, sz * s, color, row, y=y, max_lines=lines)
                continue
            left = row
            if value:
                vr = self.t(value, sz, GOOD if value.startswith("+") and color is TEXT else color, row, y=y, align="right")
                left = pygame.Rect(row.x, y, max(0, vr.x - row.x - int(10 * s)), row.h)
            self.t(text, sz, color, left, y=y)
            y += lh
        if view.window_left is not None and view.window_total > 0:
            self.draw_interference_bar(view, pygame.Rect(inner.x, inner.bottom - bar_h, inner.w, bar_h), 22)
        elif state.get("treasures_to_draw"):
            self.t(_("draw {n} treasure(s)").format(n=state["treasures_to_draw"]), 24, ACTIVE, inner, y=inner.bottom - bar_h)

    def draw_combat(self, view: View, r: pygame.Rect) -> None:
        s, state = self.s, view.state
        combat = state["combat"]
        self.painter.panel(r)
        self.panels["combat"] = r
        inner = r.inflate(-int(20 * s), -int(16 * s))
        if self.portrait:
            self.draw_combat_portrait(view, r, inner)
            return
        ps, ms = combat["players_strength"], combat["monsters_strength"]
        winning = combat["players_winning"]
        self.t(self.verdict(combat), 32, GOOD if winning else BAD, inner)
        y = inner.y + self.painter.line_height(int(32 * s)) + int(4 * s)
        bar_h = self.painter.line_height(int(17 * s)) + int(16 * s) if view.window_left is not None else 0
        cols = pygame.Rect(inner.x, y, inner.w, inner.bottom - y - bar_h)
        half = (cols.w - int(12 * s)) // 2
        pl = pygame.Rect(cols.x, cols.y, half, cols.h)
        mo = pygame.Rect(cols.x + half + int(12 * s), cols.y, cols.w - half - int(12 * s), cols.h)
        pygame.draw.line(self.window, DIM, (mo.x - int(6 * s), mo.y), (mo.x - int(6 * s), mo.bottom), 1)
        # players' side
        big = 46
        self.t(_("Players"), 18, DIM, pl)
        self.t(str(ps), big, GOOD if winning else TEXT, pl, y=pl.y + int(18 * s))
        y = pl.y + int(18 * s) + self.painter.line_height(int(big * s))
        small = 17
        lh = self.painter.line_height(int(small * s))
        byid = {p["id"]: p for p in state["players"]}
        for pid in combat["fighters"]:
            p = byid.get(pid)
            if p is None:
                continue
            gear = p["combat_strength"] - p["level"]
            role = _("helper") if pid == combat.get("helper") else ""
            self.t(p["name"] + (f" ({role})" if role else ""), small, TEXT, pl, y=y)
            y += lh
            self.t(_("level {l} + gear {g} = {t}").format(l=p["level"], g=gear, t=p["combat_strength"]), small * 0.9, DIM, pl, y=y)
            y += lh
        for shot in combat.get("one_shots", []):
            if shot["side"] in ("players", "player"):
                self.t(f"{view.names.get(shot['card'], shot['card'])} {shot['bonus']:+d}", small, TEXT, pl, y=y)
                y += lh
        # monsters' side
        self.t(_("Monsters"), 18, DIM, mo)
        self.t(str(ms), big, BAD if not winning else TEXT, mo, y=mo.y + int(18 * s))
        y = mo.y + int(18 * s) + self.painter.line_height(int(big * s))
        for m in combat["monsters"]:
            info = view.monsters.get(m["card"], {})
            self.t(f"{view.names.get(m['card'], m['card'])}  {m['strength']}", small * 1.1, TEXT, mo, y=y)
            y += self.painter.line_height(int(small * 1.1 * s))
            for e in m["enhancers"]:
                self.t("+ " + view.names.get(e, e), small * 0.9, DIM, mo, y=y)
                y += lh
            if info:
                self.t(_("treasures {t} · +{l} level").format(t=info["treasures"], l=info["levels"]), small * 0.9, ACTIVE, mo, y=y)
                y += lh
                if info.get("bad_stuff"):
                    y = self.painter.wrap(_("Bad stuff: {text}").format(text=info["bad_stuff"]), small * 0.9 * s, BAD,
                                          mo, y=y, max_lines=3)
        for shot in combat.get("one_shots", []):
            if shot["side"] not in ("players", "player"):
                self.t(f"{view.names.get(shot['card'], shot['card'])} {shot['bonus']:+d}", small, TEXT, mo, y=y)
                y += lh
        if view.window_left is not None and view.window_total > 0:
            self.draw_interference_bar(view, pygame.Rect(inner.x, inner.bottom - bar_h, inner.w, bar_h))
        elif state.get("treasures_to_draw"):
            self.t(_("draw {n} treasure(s)").format(n=state["treasures_to_draw"]), 20, ACTIVE, inner, y=inner.bottom - int(24 * s))

    def draw_run_away(self, view: View, r: pygame.Rect) -> None:
        s, state = self.s, view.state
        flight = state["run_away"]
        self.painter.panel(r)
        self.panels["run-away"] = r
        inner = r.inflate(-int(20 * s), -int(16 * s))
        # portrait: bigger type over the full width, the die large in the space left below
        k = 1.35 if self.portrait else 1.0
        self.t(_("Running away"), 32 * k, ACTIVE, inner)
        y = inner.y + self.painter.line_height(int(32 * k * s)) + int(4 * s)
        if self.portrait:
            text_box = pygame.Rect(inner.x, y, inner.w, inner.bottom - y)
            die = pygame.Rect(inner.x, inner.bottom, inner.w, 0)     # placed once the text is drawn
        else:
            die_size = min(int(inner.h * 0.45), int(inner.w * 0.3))
            die = pygame.Rect(inner.right - die_size, y, die_size, die_size)
            text_box = pygame.Rect(inner.x, y, die.x - inner.x - int(12 * s), inner.bottom - y)
        byid = {p["id"]: p for p in state["players"]}
        if flight["pending"]:
            cur = flight["pending"][0]
            who = byid.get(cur["player"], {}).get("name", cur["player"])
            self.t(_("{who} rolls").format(who=who), 26 * k, TEXT, text_box, y=y)
            y += self.painter.line_height(int(26 * k * s))
            self.t(_("against {monster}").format(monster=view.names.get(cur["monster"], cur["monster"] or "")), 20 * k, TEXT,
                   text_box, y=y)
            y += self.painter.line_height(int(20 * k * s))
            need = view.run_needs.get(cur["player"], 5)
            self.t(_("needs {n} or more").format(n=need), 30 * k, ACTIVE, text_box, y=y)
            y += self.painter.line_height(int(30 * k * s))
            info = view.monsters.get(cur["monster"] or "", {})
            if info.get("bad_stuff"):
                y = self.painter.wrap(_("Bad stuff: {text}").format(text=info["bad_stuff"]), 17 * k * s, BAD, text_box, y=y,
                                      max_lines=4 if self.portrait else 2)
        y += int(6 * s)
        lh = self.painter.line_height(int(17 * k * s))
        monsters = state["combat"]["monsters"] if state["combat"] else []
        for res in flight["results"]:
            who = byid.get(res["player"], {}).get("name", res["player"])
            idx = res["monster"]
            mname = view.names.get(monsters[idx]["card"], "") if isinstance(idx, int) and idx < len(monsters) else ""
            outcome = _("escaped") if res["escaped"] else _("caught")
            self.t(_("{who} rolled {roll} vs {monster}: {outcome}").format(who=who, roll=res["roll"], monster=mname, outcome=outcome),
                   17 * k, GOOD if res["escaped"] else BAD, text_box, y=y)
            y += lh
        if self.portrait:
            y += int(12 * s)
            die_size = max(0, min(inner.bottom - y, int(inner.w * 0.5)))
            die = pygame.Rect(inner.centerx - die_size // 2, y + (inner.bottom - y - die_size) // 2, die_size, die_size)
            self.panels["die"] = die
        if state.get("last_roll") and (flight["results"] or self.animating()):
            self.draw_die(die, state["last_roll"])

    def draw_die(self, r: pygame.Rect, value: int | None = None) -> None:
        """A die showing ``value`` (the result), tumbling for DIE_MS after a roll."""
        value = value or self._die_value or 1
        size = max(8, min(r.w, r.h))
        surf = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.rect(surf, TEXT, (0, 0, size, size), border_radius=size // 6)
        pip = max(2, size // 10)
        spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
                 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}
        for cx, cy in spots.get(int(value), []):
            pygame.draw.circle(surf, BG, (int(size * (0.25 + 0.25 * cx)), int(size * (0.25 + 0.25 * cy))), pip)
        angle = 0.0
        if self.animating() and self._die_start is not None:
            t = (pygame.time.get_ticks() - self._die_start) / DIE_MS
            angle = 360 * (1 - t) ** 2 * 1.5
            surf = pygame.transform.rotozoom(surf, angle, 0.75 + 0.25 * t)
        self.window.blit(surf, surf.get_rect(center=r.center))

    # ------------------------------------------------------------------ game over

    def draw_game_over(self, view: View, body: pygame.Rect) -> None:
        s, state = self.s, view.state
        self.painter.panel(body)
        self.panels["game-over"] = body
        inner = body.inflate(-int(20 * s), -int(14 * s))
        byid = {p["id"]: p for p in state["players"]}
        names = " & ".join(byid[w]["name"] for w in state["winners"] if w in byid)
        head = _("{names} won!").format(names=names) if names else _("Game over")
        self.t(head, 38, ACTIVE, inner, align="center")
        chart = pygame.Rect(inner.x, inner.y + self.painter.line_height(int(38 * s)) + int(6 * s), inner.w,
                            inner.bottom - inner.y - self.painter.line_height(int(38 * s)) - int(6 * s))
        self.draw_level_chart(view, chart)

    def draw_level_chart(self, view: View, r: pygame.Rect) -> None:
        s, state = self.s, view.state
        self.panels["chart"] = r
        players = state["players"]
        lh = self.painter.line_height(int(20 * s)) + int(4 * s)
        if self.portrait:        # the legend under the chart, two columns, so the chart keeps the width
            lh += int(8 * s)
            legend_w, legend_h = 0, lh * -(-len(players) // 2) + int(12 * s)
        else:
            legend_w, legend_h = int(r.w * 0.26), 0
        plot = pygame.Rect(r.x + int(34 * s), r.y + int(6 * s), r.w - legend_w - int(44 * s), r.h - legend_h - int(36 * s))
        top_level = max([state["ruleset"]["winning_level"], *(max(p["level_history"] or [1]) for p in players)])
        turns = max([1, *(len(p["level_history"]) - 1 for p in players)])
        axis_box = pygame.Rect(r.x, r.y, plot.x - r.x - int(4 * s), r.h - legend_h)

        def pt(i: int, level: int) -> tuple[int, int]:
            return (plot.x + int(plot.w * i / turns), plot.bottom - int(plot.h * (level - 1) / max(1, top_level - 1)))

        for level in range(1, top_level + 1):
            y = pt(0, level)[1]
            pygame.draw.line(self.window, KEY_OFF if level % 5 else KEY, (plot.x, y), (plot.right, y), 1)
            if level in (1, 5, top_level) or top_level <= 10:
                lh = self.painter.line_height(int(14 * s))
                self.t(str(level), 14, DIM, axis_box, y=max(r.y, min(axis_box.bottom - lh, y - lh // 2)), align="right")
        xlab = pygame.Rect(plot.x, plot.bottom + int(6 * s), plot.w, r.bottom - plot.bottom - int(6 * s))
        self.t(_("turns"), 14, DIM, xlab, align="center")
        for i, p in enumerate(players):
            hist = p["level_history"] or [p["level"]]
            color = player_color(state, p["id"])
            points = [pt(k, lv) for k, lv in enumerate(hist)]
            # a small offset keeps equal lines apart
            off = int((i - len(players) / 2) * 2 * s)
            points = [(x, y + off) for x, y in points]
            if len(points) > 1:
                pygame.draw.lines(self.window, color, False, points, max(2, int(3 * s)))
            pygame.draw.circle(self.window, color, points[-1], max(3, int(5 * s)))
        if self.portrait:
            legend = pygame.Rect(plot.x, r.bottom - legend_h + int(8 * s), r.right - plot.x, legend_h - int(8 * s))
        else:
            legend = pygame.Rect(r.right - legend_w, r.y + int(6 * s), legend_w, r.h - int(6 * s))
        for i, p in enumerate(players):
            y = legend.y + i * lh
            if self.portrait:
                y = legend.y + (i // 2) * lh
                legend_col = pygame.Rect(legend.x + (i % 2) * (legend.w // 2), legend.y, legend.w // 2 - int(8 * s), legend.h)
            else:
                legend_col = legend
            color = player_color(state, p["id"])
            pygame.draw.rect(self.window, color, (legend_col.x, y + lh // 4, int(14 * s), int(14 * s)))
            winner = p["id"] in state["winners"]
            self.t(f"{p['name']}  {p['level']}", 20, ACTIVE if winner else TEXT, legend_col, x=legend_col.x + int(20 * s), y=y)

    # ------------------------------------------------------------------ overlays

    def draw_prompt_banner(self, view: View, body: pygame.Rect) -> None:
        s = self.s
        # portrait: at the foot of the body, clear of the combat's verdict and totals
        top = body.bottom - int(96 * s) if self.portrait else body.y + int(body.h * 0.3)
        band = pygame.Rect(body.x + int(body.w * 0.1), top, int(body.w * 0.8), int(84 * s))
        self.painter.panel(band, ACTIVE)
        self.panels["prompt"] = band
        inner = band.inflate(-int(24 * s), -int(12 * s))
        self.t(view.prompt, 34, BG, inner, y=inner.y + (inner.h - self.painter.line_height(int(34 * s))) // 2, align="center",
               shrink=0.5)

    def menu_box(self, body: pygame.Rect, name: str, *, tall: bool = False) -> pygame.Rect:
        """The panel of a card or player menu, framed; returns its inner rect. In portrait a ``tall``
        menu (the card menu, with the holder's gear or the basket under it) takes most of the body."""
        s = self.s
        if self.portrait and tall:
            box = pygame.Rect(body.x + int(body.w * 0.03), body.y + int(body.h * 0.04), int(body.w * 0.94), int(body.h * 0.92))
        elif self.portrait:
            box = pygame.Rect(body.x + int(body.w * 0.03), body.y + int(body.h * 0.1), int(body.w * 0.94), int(body.h * 0.64))
        else:
            box = pygame.Rect(body.x + int(body.w * 0.12), body.y + int(body.h * 0.04), int(body.w * 0.76), int(body.h * 0.92))
        self.painter.panel(box, PANEL_HI, border=ACTIVE, width=int(3 * s))
        self.panels[name] = box
        return box.inflate(-int(28 * s), -int(20 * s))

    def key_row(self, button: str, label: str, row: pygame.Rect, size: float, what: str = "") -> None:
        """One soft key in a menu: its colour, its name and label, and what it does (dimmed, at the right)."""
        s = self.s
        lh = row.h
        pygame.draw.circle(self.window, BUTTON_COLORS[button], (row.x + lh // 2, row.y + lh // 2), lh // 3)
        text_box = pygame.Rect(row.x + lh + int(4 * s), row.y, row.w - lh - int(4 * s), row.h)
        if what:
            half = int(text_box.w * 0.5)
            self.t(what, size * 0.85, DIM, pygame.Rect(text_box.x + half, row.y, text_box.w - half, row.h),
                   y=row.y + (lh - self.painter.line_height(int(size * 0.85 * s))) // 2, align="right")
            text_box = pygame.Rect(text_box.x, row.y, half - int(8 * s), row.h)
        self.t(f"{_(button.upper())}: {translate_label(label)}", size, TEXT, text_box,
               y=row.y + (lh - self.painter.line_height(int(size * s))) // 2)

    def draw_card_menu(self, view: View, body: pygame.Rect) -> None:
        s, menu = self.s, view.menu
        assert menu is not None
        inner = self.menu_box(body, "card-menu", tall=True)
        basket_box = None
        if view.basket:
            if self.portrait:
                basket_box = pygame.Rect(inner.x, inner.y + int(inner.h * 0.5), inner.w, inner.h - int(inner.h * 0.5))
                inner = pygame.Rect(inner.x, inner.y, inner.w, basket_box.y - inner.y - int(8 * s))
            else:
                split = int(inner.w * 0.54)
                basket_box = pygame.Rect(inner.x + split + int(12 * s), inner.y, inner.w - split - int(12 * s), inner.h)
                inner = pygame.Rect(inner.x, inner.y, split, inner.h)
        title = 42 if self.portrait else 32
        self.t(menu["name"], title, ACTIVE, inner)
        y = inner.y + self.painter.line_height(int(title * s))
        facts = [_("held by {name}").format(name=menu["holder"]),
                 _("equipped") if menu["equipped"] else _("carried (no bonus)")]
        if menu.get("bonus"):
            facts.append(_("bonus {n:+d}").format(n=menu["bonus"]))
        if menu.get("gold"):
            facts.append(_("worth {n} gold").format(n=menu["gold"]))
        if menu.get("big"):
            facts.append(_("Big"))
        size = (28 if not basket_box else 24) if self.portrait else 20 if not basket_box else 18
        lh = self.painter.line_height(int(size * s))
        keys = [b for b in BUTTON_ORDER if view.soft_keys.get(b)]
        # the keys are what the players need most: facts give way when the panel is short
        room = max(0, (inner.bottom - y - int(8 * s)) // lh - len(keys))
        for fact in facts[:room]:
            self.t(fact, size, TEXT, inner, y=y)
            y += lh
        y += int(8 * s)
        # portrait has the height: the key rows spread out, easier to tell apart across the table
        row_h = max(lh, int(min((inner.bottom - y) / max(1, len(keys)), lh * 1.5))) if self.portrait else lh
        for button in keys:
            self.key_row(button, view.soft_keys[button], pygame.Rect(inner.x, y, inner.w, row_h), size)
            y += row_h
        if self.portrait and basket_box is None:
            self.draw_holder_gear(view, pygame.Rect(inner.x, y + int(12 * s), inner.w, inner.bottom - y - int(12 * s)))
        if basket_box is not None:
            if self.portrait:
                pygame.draw.line(self.window, DIM, (basket_box.x, basket_box.y - int(4 * s)),
                                 (basket_box.right, basket_box.y - int(4 * s)), 1)
            else:
                pygame.draw.line(self.window, DIM, (basket_box.x - int(6 * s), basket_box.y),
                                 (basket_box.x - int(6 * s), basket_box.bottom), 1)
            self.draw_basket(view, basket_box)

    def draw_holder_gear(self, view: View, r: pygame.Rect) -> None:
        """Under a portrait card menu: the holder's strength and what each of their items adds,
        the menu's card marked, so the table sees what unequipping or selling it changes."""
        s, menu = self.s, view.menu
        assert menu is not None
        p = next((p for p in view.state["players"] if p["id"] == menu.get("holder_id")), None)
        if p is None or r.h <= 0:
            return
        self.panels["holder-gear"] = r
        pygame.draw.line(self.window, DIM, (r.x, r.y), (r.right, r.y), 1)
        y = r.y + int(8 * s)
        head = _("{name}: strength {n}").format(name=p["name"], n=p["combat_strength"])
        self.t(head, 26, TEXT, r, y=y)
        y += self.painter.line_height(int(26 * s)) + int(4 * s)
        size = 22
        lh = self.painter.line_height(int(size * s))
        rows = [(_("level"), str(p["level"]), DIM)]
        for cid in p["equipped"]:
            bonus = view.bonus.get(cid)
            rows.append((view.names.get(cid, cid), f"{bonus:+d}" if bonus else "", ACTIVE if cid == menu["card"] else TEXT))
        for cid in p["carried"]:
            rows.append((f"{view.names.get(cid, cid)} {_('(carried)')}", "", ACTIVE if cid == menu["card"] else DIM))
        room = max(0, (r.bottom - y) // lh)
        if len(rows) > room and room > 1:
            rows = rows[:room - 1] + [(_("+{n} more").format(n=len(rows) - room + 1), "", DIM)]
        for text, value, color in rows[:room]:
            left = r
            if value:
                vr = self.t(value, size, GOOD if value.startswith("+") else color, r, y=y, align="right")
                left = pygame.Rect(r.x, y, max(0, vr.x - r.x - int(10 * s)), lh)
            self.t(text, size, color, left, x=r.x + int(16 * s), y=y)
            y += lh

    def basket_summary(self, view: View) -> tuple[str, list[str], tuple[int, int, int]]:
        """The basket's total, and what it buys (and the gold it wastes) or how much it lacks."""
        total = _("{n} gold").format(n=f"{view.basket_gold:,}")
        if view.basket_levels == 0:
            return total, [_("{n} gold short of a level").format(n=f"{1000 - view.basket_gold:,}")], DIM
        buys = [_("buys {n} level(s)").format(n=view.basket_levels)]
        rest = view.basket_gold % 1000
        if rest:
            buys.append(_("{n} gold left over (no change)").format(n=rest))
        return total, buys, GOOD

    def draw_basket(self, view: View, r: pygame.Rect) -> None:
        """The sales basket: each item and its gold, the total and the levels it buys."""
        s = self.s
        self.panels["basket"] = r
        head, size = (28, 24) if self.portrait else (22, 18)
        self.t(_("Sales basket"), head, ACTIVE, r)
        lh = self.painter.line_height(int(size * s))
        total, buys, color = self.basket_summary(view)
        summary_h = lh * 3 + int(6 * s)
        y = r.y + self.painter.line_height(int(head * s))
        items = view.basket
        room = max(0, (r.bottom - summary_h - y) // lh)
        if len(items) > room and room > 0:
            items = items[:room - 1]
        for item in items:
            gold = f"{item['gold']:,}"
            gr = self.t(gold, size, TEXT, r, y=y, align="right")
            self.t(item["name"], size, TEXT, pygame.Rect(r.x, y, max(0, gr.x - r.x - int(8 * s)), lh), y=y)
            y += lh
        if len(items) < len(view.basket):
            self.t(_("+{n} more").format(n=len(view.basket) - len(items)), size, DIM, r, y=y)
        y = r.bottom - summary_h + int(6 * s)
        pygame.draw.line(self.window, DIM, (r.x, y - int(3 * s)), (r.right, y - int(3 * s)), 1)
        self.t(total, size * 1.15, TEXT, r, y=y, align="right")
        y += lh + int(2 * s)
        small = self.painter.line_height(int(size * 0.9 * s))
        for line in buys:
            self.t(line, size * 0.9, color, r, y=y)
            y += small

    def draw_basket_band(self, view: View, band: pygame.Rect) -> None:
        """The sales basket in one line under the players, while no card menu is open."""
        s = self.s
        self.painter.panel(band, PANEL_HI, border=GOOD, width=int(2 * s))
        self.panels["basket"] = band
        inner = band.inflate(-int(20 * s), 0)
        total, buys, color = self.basket_summary(view)
        y = band.y + (band.h - self.painter.line_height(int(20 * s))) // 2
        right = self.t(" · ".join([total, *buys]), 20, color, pygame.Rect(inner.x + inner.w // 2, band.y, inner.w - inner.w // 2, band.h),
                       y=y, align="right")
        names = ", ".join(item["name"] for item in view.basket)
        self.t(f"{_('Sales basket')}: {names}", 20, TEXT, pygame.Rect(inner.x, band.y, max(0, right.x - inner.x - int(12 * s)), band.h),
               y=y)

    def draw_player_menu(self, view: View, body: pygame.Rect) -> None:
        """A tapped token's own menu: who it is, and what each soft key would change."""
        s, pm = self.s, view.player_menu
        assert pm is not None
        inner = self.menu_box(body, "player-menu")
        color = player_color(view.state, pm["id"])
        pygame.draw.rect(self.window, color, (inner.x, inner.y + int(4 * s), int(6 * s), self.painter.line_height(int(32 * s))
                                              - int(8 * s)), border_radius=3)
        head = pygame.Rect(inner.x + int(14 * s), inner.y, inner.w - int(14 * s), inner.h)
        self.t(pm["name"], 32, ACTIVE, head)
        y = inner.y + self.painter.line_height(int(32 * s))
        size = 20
        lh = self.painter.line_height(int(size * s))
        facts = f"{_('level {n}').format(n=pm['level'])} · {_(pm['sex'])}" + ("" if pm["alive"] else f" · {_('DEAD')}")
        self.t(facts, size, TEXT, inner, y=y)
        y += lh + int(8 * s)
        other = "female" if pm["sex"] == "male" else "male"
        what = {"roll": _("switch to {sex}").format(sex=_(other)),
                "help": _("level {a} → {b}").format(a=pm["level"], b=pm["level"] + 1),
                "run": _("level {a} → {b}").format(a=pm["level"], b=max(1, pm["level"] - 1)),
                "next": _("{name} leaves the game").format(name=pm["name"]),
                "undo": _("close this menu")}
        row_h = max(lh, int(min((inner.bottom - y) / 5, lh * 1.6)))
        for button in BUTTON_ORDER:
            label = view.soft_keys.get(button, "")
            if not label:
                continue
            self.key_row(button, label, pygame.Rect(inner.x, y, inner.w, row_h), size, what[button])
            y += row_h

    def draw_message(self, view: View, r: pygame.Rect) -> None:
        s = self.s
        text, color = view.message, TEXT
        if view.entry:
            text, color = _("tap: {entry}_").format(entry=view.entry), ACTIVE
        elif view.prompt and view.prompt_kind in BANNER_PROMPTS:
            text, color = view.prompt, ACTIVE
        elif view.message_kind == "refusal":
            self.painter.panel(r, REFUSAL)
            if self.painter.has_glyph("✗", int(22 * s)):
                text = "✗ " + text
            color = TEXT
        self.panels["message"] = r
        inner = r.inflate(-int(12 * s), 0)
        if text and self.portrait and self.painter.width(text, int(22 * s)) > inner.w:
            self.painter.wrap(text, 20 * s, color, inner, y=r.y + (r.h - 2 * self.painter.line_height(int(20 * s))) // 2,
                              max_lines=2)
        elif text:
            self.t(text, 22, color, inner, y=r.y + (r.h - self.painter.line_height(int(22 * s))) // 2, shrink=0.6)

    def draw_soft_keys(self, view: View, bar: pygame.Rect) -> None:
        s = self.s
        kw = bar.w // len(BUTTON_ORDER)
        for i, button in enumerate(BUTTON_ORDER):
            r = pygame.Rect(bar.x + i * kw + int(4 * s), bar.y + int(2 * s), kw - int(8 * s), bar.h - int(6 * s))
            label = view.soft_keys.get(button, "")
            self.painter.panel(r, KEY if label else KEY_OFF)
            pygame.draw.rect(self.window, BUTTON_COLORS[button], (r.x, r.y, r.w, int(5 * s)),
                             border_top_left_radius=int(8 * s), border_top_right_radius=int(8 * s))
            self.panels[f"key-{button}"] = r
            self.hits.append((r, ("button", button)))
            inner = r.inflate(-int(12 * s), -int(8 * s))
            self.t(_(button.upper()), 15, DIM, inner, y=inner.y + int(3 * s))
            self.t(translate_label(label) if label else "—", 22, TEXT if label else DIM, inner,
                   y=inner.bottom - self.painter.line_height(int(22 * s)), shrink=0.6)

    # ------------------------------------------------------------------ simulator strip

    def draw_strip(self, view: View, strip: pygame.Rect) -> None:
        s = self.s
        pygame.draw.rect(self.window, (8, 8, 10), strip)
        pygame.draw.line(self.window, DIM, strip.topleft, strip.topright, 1)
        row = int(strip.h / 2)
        bw = int(strip.w * 0.5) // 5
        for i, button in enumerate(BUTTON_ORDER):
            r = pygame.Rect(strip.x + int(6 * s) + i * bw, strip.y + int(6 * s), bw - int(6 * s), row - int(10 * s))
            pygame.draw.rect(self.window, BUTTON_COLORS[button], r, border_radius=int(6 * s))
            self.hits.append((r, ("button", button)))
            self.t(f"{FKEYS[button]} {_(button.upper())}", 15, BG, r, y=r.y + (r.h - self.painter.line_height(int(15 * s))) // 2,
                   align="center")
        entry = pygame.Rect(strip.x + int(strip.w * 0.5) + int(8 * s), strip.y + int(6 * s), int(strip.w * 0.5) - int(14 * s),
                            row - int(10 * s))
        pygame.draw.rect(self.window, PANEL, entry, border_radius=int(4 * s))
        uid = as_uid(view.entry)
        if uid:
            hint = _("tap a tag UID: {uid}").format(uid=uid) + "_"
        else:
            hint = _("type a card, id or player, Enter taps") if not view.entry else view.entry + "_"
        self.t(hint, 16, TEXT if view.entry else DIM, entry.inflate(-int(12 * s), 0),
               y=entry.y + (entry.h - self.painter.line_height(int(16 * s))) // 2)
        x = strip.x + int(6 * s)
        y = strip.y + row
        lane = pygame.Rect(x, y, strip.w - int(12 * s), row - int(6 * s))
        for i, (cid, label) in enumerate(view.suggestions):
            tw = self.painter.width(label, int(16 * s)) + int(16 * s)
            r = pygame.Rect(x, y, tw, lane.h)
            if r.right > lane.right:
                break
            pygame.draw.rect(self.window, ACTIVE if i == view.pick else KEY, r, border_radius=int(4 * s))
            self.hits.append((r, ("card", cid)))
            self.t(label, 16, BG if i == view.pick else TEXT, r, x=r.x + int(8 * s),
                   y=r.y + (r.h - self.painter.line_height(int(16 * s))) // 2)
            x = r.right + int(6 * s)

    def save(self, path: Path) -> None:
        pygame.image.save(self.screen, str(path))

    def close(self) -> None:
        pygame.display.quit()


def use_headless_drivers() -> None:
    """SDL's dummy video and audio drivers, for simulate and tests."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"


__all__ = ["Display", "Drawn", "Painter", "use_headless_drivers"]
