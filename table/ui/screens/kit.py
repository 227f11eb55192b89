"""The screens' shared drawing kit: colours, fitted text (``Painter``) and panels.

Every piece of text goes through ``Painter.text``, which fits it into the box it
belongs to (smaller type, then an ellipsis) and records ``(text, rect, box)`` in
``drawn``, so tests can check that nothing spills out of its panel.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame
import pygame.freetype

from table.ui.fonts import FontChoice
from table.words.i18n import _

log = logging.getLogger("table.ui.display")

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
BANNER_PROMPTS = ("helper", "victim", "target", "item", "value", "give", "promise", "receiver", "side", "sell")   # prompts that wait for a tap or a number
LINE_PROMPTS = ("roll", "flee")  # what the game waits for, said on the message line: the die for the Bad Stuff, who catches first
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


# What a line may break between: each Chinese or Japanese character (and their punctuation) alone, a
# run of any other characters but spaces (a word; Korean wraps at spaces as English does), or spaces.
_CJK = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
WRAP_UNITS = re.compile(f"[{_CJK}]|[^\\s{_CJK}]+|\\s+")


class Painter:
    """Fonts, fitted text and the record of what was drawn where, on one surface.

    Every size is drawn from one pygame.freetype Font, its size set per call (``font``). pygame.freetype
    keeps at most two faces open for all its Font objects together (FreeType's cache manager at
    its defaults), and a Font is a face of its own: with a Font per size (a dozen in a frame), most
    text drawn or measured opened its face again from the file, reading its tables through C stdio
    (a 600-action game at 800x480 made 483,796 lseek and 173,795 read calls; 10,401 and 3,988 with one
    Font, under strace). That Font's glyph cache holds every size's glyphs in GLYPHS_CACHED buckets
    of at most two: at pygame's default, 64, glyphs were read from the file again all the time
    (62,993 lseek calls at 256); at 1,024 a 1080p fight drawn a second time still read 33 KB in
    English, 135 KB in Chinese; at 2,048 nothing (the table and the fight, both languages; the
    latency game's peak memory the same, 78.6 MB under the dummy driver)."""

    GLYPHS_CACHED = 2048

    def __init__(self, surface: pygame.Surface, font: FontChoice) -> None:
        pygame.freetype.init(cache_size=self.GLYPHS_CACHED)    # (a no-op when already initialised)
        self.surface = surface
        self.font_choice = font
        self._face: pygame.freetype.Font | None = None
        self._sizes: dict[tuple[str, int], tuple[int, int]] = {}
        self._advances: dict[int, dict[str, float]] = {}     # size -> each character's advance there
        self._panels: dict[tuple[Any, ...], pygame.Surface] = {}
        self._corners: dict[tuple[Any, ...], pygame.Surface] = {}
        self.drawn: list[Drawn] = []
        # flat colour onto the surface: its own fill, or the Frame's faster way (table.ui.frame.Solids)
        self.fill: Callable[[Any, pygame.Rect], None] = self._fill
        self.s = scale(*surface.get_size())

    def font(self, size: int) -> pygame.freetype.Font:
        """The Font every size is drawn from, its default size set to ``size``."""
        f = self._face
        if f is None:
            choice = self.font_choice
            try:
                f = pygame.freetype.Font(choice.path, size, font_index=choice.index)
            except (OSError, pygame.error) as exc:
                log.error("cannot open font %s (%s); using pygame's built-in font", choice, exc)
                self.font_choice = FontChoice(None)
                f = pygame.freetype.Font(None, size)
            f.pad = True
            self._face = f
        f.size = size
        return f

    def _draw(self, text: str, size: int, color: tuple[int, int, int], at: tuple[int, int]) -> None:
        """``text`` drawn by FreeType straight onto the surface, its padded box's top left at ``at``,
        inside the surface's clip. No surface of its own: rendering one, converting it for the
        window and blitting it cost about four times as much, for the same pixels (give or take one
        level in a few edge pixels at the smallest sizes), so no rendered text is kept either."""
        clip = self.surface.get_clip()
        if clip == self.surface.get_rect():
            self.font(size).render_to(self.surface, at, text, color)
        elif clip.w > 0 and clip.h > 0:         # FreeType ignores the clip: drawn onto that part alone
            self.font(size).render_to(self.surface.subsurface(clip), (at[0] - clip.x, at[1] - clip.y), text, color)

    def has_glyph(self, char: str, size: int) -> bool:
        """Whether the font draws ``char`` (the CJK fonts have no ✗, say), rather than a box."""
        return self.font(max(8, int(size))).get_metrics(char)[0] is not None

    SIZES_KEPT = 20_000

    def measure(self, text: str, size: int) -> tuple[int, int]:
        """The size of the box ``text`` is drawn in (padded to the font's full height): measured, not
        rendered (fitting tries many sizes and cuts)."""
        key = (text, size)
        wh = self._sizes.get(key)
        if wh is None:
            if len(self._sizes) >= self.SIZES_KEPT:
                self._sizes.clear()
            wh = self._sizes[key] = self.font(size).get_rect(text).size
        return wh

    ADVANCES_KEPT = 20_000

    def advance(self, text: str, size: int) -> float:
        """The sum of ``text``'s glyph advances at ``size``, from each character's advance kept once
        per size: a bound the measured width never falls below (the padded box holds every advance;
        checked against every catalog name and message at every size from 8 to 46, in the Latin
        and the CJK font), so a text whose advances already pass a width is too wide unmeasured."""
        kept = self._advances.get(size)
        if kept is None:
            if sum(map(len, self._advances.values())) >= self.ADVANCES_KEPT:
                self._advances.clear()
            kept = self._advances[size] = {}
        new = [c for c in dict.fromkeys(text) if c not in kept]
        if new:
            for c, metrics in zip(new, self.font(size).get_metrics("".join(new))):
                kept[c] = metrics[4] if metrics is not None else 0.0
        return sum(kept[c] for c in text)

    def too_wide(self, text: str, size: int, width: int) -> bool:
        """Whether ``text`` at ``size`` is wider than ``width``: by its advances when they already
        say so, else measured."""
        return self.advance(text, size) > width or self.width(text, size) > width

    def width(self, text: str, size: int) -> int:
        """The width ``text`` is drawn at."""
        return self.measure(text, size)[0]

    def line_height(self, size: int) -> int:
        """The height of one drawn line (text is padded to the font's full height)."""
        return self.measure("Ág", max(8, int(size)))[1]

    FIT_MARGIN = 0.05               # how far off a width scaled from another size may be

    def fit(self, text: str, size: int, width: int, *, shrink: float = 0.7) -> tuple[str, int]:
        """The text and size that fit ``width``: smaller type first (each step 0.9 of the one before,
        down to ``shrink`` of ``size``), then an ellipsis. A text's width grows about in proportion
        to its size, so a step that the width at ``size`` scaled down still puts more than
        FIT_MARGIN and a pixel a character (each glyph's advance is rounded) too wide is passed
        over unmeasured: measuring a new text at a size lays out every glyph there (~60 us for a
        100-character message at 1080p). The same text and size as measuring every step."""
        smallest = max(8, int(size * shrink))
        sz = size
        full = self.width(text, sz)
        if full > width:
            while sz > smallest:
                sz = max(smallest, int(sz * 0.9))
                if full * sz > (width * (1 + self.FIT_MARGIN) + len(text)) * size:
                    continue                            # plainly still too wide
                if not self.too_wide(text, sz, width):
                    break
        if self.width(text, sz) <= width:
            return text, sz
        return self.cut(text, sz, width), sz

    def cut(self, text: str, size: int, width: int) -> str:
        """The longest start of ``text`` that fits ``width`` at ``size`` with an ellipsis ("" if none)."""
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if not self.too_wide(text[:mid].rstrip() + "…", size, width):
                lo = mid
            else:
                hi = mid - 1
        return (text[:lo].rstrip() + "…") if lo else ""

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
        w, h = self.measure(text, size)
        if y + h > box.bottom:
            return pygame.Rect(x, y, 0, 0)
        if align == "center":
            x = box.x + (box.w - w) // 2
        elif align == "right":
            x = box.right - w
        self._draw(text, size, color, (x, y))
        rect = pygame.Rect(x, y, w, h)          # the whole box, even where the clip cuts it
        self.drawn.append(Drawn(text, pygame.Rect(rect), pygame.Rect(box)))
        return rect

    def wrap_lines(self, text: str, size: float, width: int, max_lines: int = 3) -> list[str]:
        """``text`` broken into lines of at most ``width`` (the last one takes the rest, to be ellipsised):
        at spaces, and between any two Chinese or Japanese characters (those scripts put no spaces
        between words; a line of them may hold a card's English name with spaces in it)."""
        size = max(8, int(size))
        lines: list[str] = []
        starts: list[int] = []
        current, start = "", 0
        for unit in WRAP_UNITS.finditer(text):
            token = unit.group()
            if not current and token.isspace():
                continue
            if not current:
                start = unit.start()
            trial = current + token
            if not current or token.isspace() or self.width(trial.rstrip(), size) <= width:
                current = trial
            else:
                lines.append(current.rstrip())
                starts.append(start)
                current, start = token, unit.start()
        if current.strip():
            lines.append(current.rstrip())
            starts.append(start)
        if len(lines) > max_lines:
            lines = lines[:max_lines - 1] + [text[starts[max_lines - 1]:].strip()]
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

    PANELS_KEPT = 16                 # drawn panel shapes kept, by size and colours
    KEY_COLOR = (255, 0, 254)        # outside the rounded corners: left out when the shape is blitted

    def radius(self) -> int:
        """How round a panel's corners are."""
        return max(4, int(10 * self.s))

    def panel(self, rect: pygame.Rect, color: tuple[int, int, int] = PANEL, *, border: tuple[int, int, int] | None = None,
              width: int = 0) -> None:
        """A rounded panel, with a border if given. Panels up to a sixth of the screen are drawn once
        per size and colours and blitted from then on (rounded rectangles are slow to fill); the
        corners are left out through a colour key, so the result is the same pixels on any background."""
        radius = self.radius()
        area = self.surface.get_width() * self.surface.get_height()
        if rect.w <= 0 or rect.h <= 0 or rect.w * rect.h * 6 > area:
            if not self._compose_panel(pygame.Rect(rect), color, border, width, radius):
                self._draw_panel(self.surface, pygame.Rect(rect), color, border, width, radius)
            return
        key = (rect.w, rect.h, color, border, width if border is not None else 0, radius)
        shape = self._panels.pop(key, None)
        if shape is None:
            shape = pygame.Surface(rect.size, 0, self.surface)
            shape.fill(self.KEY_COLOR)
            self._draw_panel(shape, shape.get_rect(), color, border, width, radius)
            shape.set_colorkey(self.KEY_COLOR, pygame.RLEACCEL)
            while len(self._panels) >= self.PANELS_KEPT:
                self._panels.pop(next(iter(self._panels)))
        self._panels[key] = shape                # most recently used last
        self.surface.blit(shape, rect)

    CORNERS_KEPT = 8

    def _fill(self, color: Any, rect: pygame.Rect) -> None:
        self.surface.fill(color, rect)

    def _compose_panel(self, rect: pygame.Rect, color: tuple[int, int, int], border: tuple[int, int, int] | None,
                       width: int, radius: int) -> bool:
        """A large rounded panel (a menu, setup's halves) as flat rectangles and its four corners,
        blitted from a small panel of the same radius and colours drawn once: the same pixels as
        ``_draw_panel`` (pygame's rounded rectangle, whose straight parts are rows and columns of one
        colour), without pygame filling it pixel by pixel, which cost more instructions than
        anything else in opening a menu under the Pi-class bench. False (draw it whole) for a
        border as wide as the corner or a panel too small to have straight parts."""
        line = max(2, width) if border is not None else 0
        c = radius
        if not self.panel_corners(rect, color, border=border, width=width):
            return False
        x, y, w, h = rect
        fill, edge = self.fill, border if border is not None else color
        if line:
            fill(edge, pygame.Rect(x + c, y, w - 2 * c, line))                 # the top and bottom borders
            fill(edge, pygame.Rect(x + c, y + h - line, w - 2 * c, line))
            fill(edge, pygame.Rect(x, y + c, line, h - 2 * c))                 # the left and right ones
            fill(edge, pygame.Rect(x + w - line, y + c, line, h - 2 * c))
        fill(color, pygame.Rect(x + c, y + line, w - 2 * c, c - line))         # between the top corners
        fill(color, pygame.Rect(x + line, y + c, w - 2 * line, h - 2 * c))     # the middle
        fill(color, pygame.Rect(x + c, y + h - c, w - 2 * c, c - line))        # between the bottom corners
        return True

    def panel_corners(self, rect: pygame.Rect, color: tuple[int, int, int] = PANEL, *,
                      border: tuple[int, int, int] | None = None, width: int = 0) -> bool:
        """The four corners of the rounded panel ``panel`` draws in ``rect`` (squares as wide as the
        radius), alone, from a small panel of the same radius and colours drawn once; False, drawing
        nothing, for a border as wide as the corner or a panel too small to have straight parts."""
        line = max(2, width) if border is not None else 0
        c = self.radius()
        if line >= c or min(rect.w, rect.h) < 2 * c + 2:
            return False
        key = (color, border, line, c)
        corners = self._corners.pop(key, None)
        if corners is None:
            corners = pygame.Surface((2 * c + 2, 2 * c + 2), 0, self.surface)
            corners.fill(self.KEY_COLOR)
            self._draw_panel(corners, corners.get_rect(), color, border, width, c)
            corners.set_colorkey(self.KEY_COLOR)
            while len(self._corners) >= self.CORNERS_KEPT:
                self._corners.pop(next(iter(self._corners)))
        self._corners[key] = corners
        x, y, w, h = rect
        far = 2 * c + 2 - c
        for at, part in (((x, y), (0, 0)), ((x + w - c, y), (far, 0)), ((x, y + h - c), (0, far)),
                         ((x + w - c, y + h - c), (far, far))):
            self.surface.blit(corners, at, pygame.Rect(part, (c, c)))
        return True

    @staticmethod
    def _draw_panel(surface: pygame.Surface, rect: pygame.Rect, color: tuple[int, int, int],
                    border: tuple[int, int, int] | None, width: int, radius: int) -> None:
        pygame.draw.rect(surface, color, rect, border_radius=radius)
        if border is not None:
            pygame.draw.rect(surface, border, rect, width=max(2, width), border_radius=radius)
