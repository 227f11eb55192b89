"""What a screen draws on: the ``Frame``, and the die roll it shows.

A screen never sees the ``Display`` (the window's owner and its frame loop): it is handed a
``Frame`` with everything one frame needs and nothing else —

- ``window`` (the surface), ``painter`` and ``t`` (fitted text in the layout's scale ``s``),
  ``size`` and ``portrait`` (the layout);
- the records of what the frame put where: ``panels``, ``hits`` (touch targets), ``level_rects``
  and the painter's ``drawn``;
- the panel cache: ``cached`` leaves a panel on the screen while the data it shows stays the same,
  and ``clear`` blanks what is drawn afresh over kept panels;
- what changed on the glass: ``dirty``, the rectangles this frame drew (None: the whole window),
  which the Display pushes with ``pygame.display.update``. A miss, a ``clear`` and an ``overlay``
  add theirs; anything else drawn over kept panels says where with ``mark``;
- ``overlay``: something drawn over the panels for this frame only (the die): the next frame puts
  the background back there and repaints the kept panels under it inside that area alone;
- ``die``: the roll to show and how far its tumble has gone.

The Display begins each frame (``begin``: kept panels or a full redraw) and ends it (``end``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pygame

from table.ui.i18n import language as current_language
from table.ui.screens.kit import BG, DIE_MS, Drawn, Painter

T = TypeVar("T")
Hit = tuple[pygame.Rect, tuple[str, str]]


class DieRoll:
    """The die the screen shows: the last roll's face, tumbling for DIE_MS on ``clock`` after it."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock                  # seconds
        self.start: float | None = None
        self.value: int | None = None

    def roll(self, value: int | None) -> None:
        """A roll was accepted: tumble from now, showing ``value``."""
        self.start = self.clock()
        self.value = value

    def progress(self) -> float:
        """How far the tumble has gone, 0 to 1 (1 when no die is tumbling)."""
        if self.start is None:
            return 1.0
        return max(0.0, (self.clock() - self.start) * 1000 / DIE_MS)

    def animating(self) -> bool:
        """Whether the die is tumbling (for DIE_MS after a roll)."""
        return self.start is not None and self.progress() < 1.0


@dataclass
class Shown:
    """A panel on the screen: the data it shows, and what drawing it recorded (text, panels, touch
    targets, level rects), replayed while it stays."""

    key: tuple[Any, ...]
    result: Any
    drawn: list[Drawn]
    hits: list[Hit]
    panels: dict[str, pygame.Rect] = field(default_factory=dict)
    level_rects: dict[str, pygame.Rect] = field(default_factory=dict)


class Frame:
    """The window a screen draws one frame on, with the records and the panel cache of that frame."""

    def __init__(self, window: pygame.Surface, painter: Painter, *, size: tuple[int, int], s: float,
                 portrait: bool, die: DieRoll) -> None:
        self.window = window
        self.painter = painter
        self.size = size                    # the screen's part of the window (the simulator strip is below it)
        self.s = s                          # type and spacing per 480 lines (see kit.scale)
        self.portrait = portrait            # the stacked layouts of a screen taller than wide
        self.die = die
        self.hits: list[Hit] = []
        self.panels: dict[str, pygame.Rect] = {}
        self.level_rects: dict[str, pygame.Rect] = {}
        self.cache_hits = self.cache_misses = 0
        self.cache_repaints = 0             # hits repainted in part, under the last frame's overlay
        self._shown: dict[tuple[Any, ...], Shown] = {}      # (kind, rect) -> what is there now
        self._reusing = False
        self._slots: set[tuple[Any, ...]] = set()           # the panels this frame put on the screen
        self.dirty: list[pygame.Rect] | None = None         # what this frame drew; None: all of it
        self._overlays: list[pygame.Rect] = []              # drawn over the panels this frame only
        self._stale: list[pygame.Rect] = []                 # the last frame's overlays, to put back
        self._damaged: dict[tuple[Any, ...], list[pygame.Rect]] = {}   # kept panels under them
        self._blank: pygame.Rect | None = None              # filled with the background at begin

    @property
    def drawn(self) -> list[Drawn]:
        return self.painter.drawn

    @property
    def reusing(self) -> bool:
        """Whether this frame is drawn over the last one, keeping its unchanged panels."""
        return self._reusing

    def begin(self, *, reuse: bool, blank: pygame.Rect | None = None) -> None:
        """Start a frame: over the last one (``reuse``: its unchanged panels stay), or in full.
        ``blank``, over the last one: an area laid out afresh (the body, for another screen),
        filled with the background and pushed whole; the panels that were in it are gone."""
        self.painter.drawn = []
        self.hits = []
        self.panels = {}
        self.level_rects = {}
        self._reusing = reuse
        self._slots = set()
        self._blank = blank if reuse else None
        stale, self._stale = self._stale, []
        self._overlays = []
        if not reuse:
            self.window.fill(BG)
            self.dirty = None
            self._damaged = {}
            return
        self.dirty = []
        for rect in stale:                  # the die the last frame showed: the background again
            self.window.fill(BG, rect)
            self.dirty.append(rect)
        if blank is not None:
            self.window.fill(BG, blank)
            self.dirty.append(pygame.Rect(blank))
            self._shown = {slot: shown for slot, shown in self._shown.items() if not blank.colliderect(slot[1])}
            self._damaged = {slot: areas for slot, areas in self._damaged.items() if slot in self._shown}

    def end(self) -> None:
        """A panel this frame did not draw is no longer on the screen (another was drawn over it);
        the kept panels under this frame's overlays are repainted there by the next frame."""
        self._shown = {slot: shown for slot, shown in self._shown.items() if slot in self._slots}
        self._damaged = {slot: areas for slot, areas in self._damaged.items() if slot in self._shown}
        for over in self._overlays:
            for slot in self._shown:
                area = over.clip(pygame.Rect(slot[1]))
                if area.w > 0 and area.h > 0:
                    self._damaged.setdefault(slot, []).append(area)
        self._stale = self._overlays

    def mark(self, rect: pygame.Rect) -> None:
        """``rect`` was drawn afresh this frame outside any panel's miss or ``clear`` (say, a moving
        bar over a kept panel): it goes to the glass."""
        if self.dirty is not None:
            self.dirty.append(pygame.Rect(rect).clip(self.window.get_rect()))

    def overlay(self, rect: pygame.Rect) -> None:
        """``rect`` was drawn over the panels for this frame only (the die): it goes to the glass,
        and the next frame puts back what is under it."""
        rect = pygame.Rect(rect).clip(self.window.get_rect())
        self._overlays.append(rect)
        self.mark(rect)

    def t(self, text: str, size: float, color: tuple[int, int, int], box: pygame.Rect, **kw: Any) -> pygame.Rect:
        """Fitted text (see ``Painter.text``) at ``size`` per 480 lines."""
        return self.painter.text(text, size * self.s, color, box, **kw)

    def hit(self, pos: tuple[int, int]) -> tuple[str, str] | None:
        """What a touch or click at ``pos`` means: ("button", name) or ("card", id)."""
        for rect, action in self.hits:
            if rect.collidepoint(pos):
                return action
        return None

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
        self._slots.add(slot)
        if self._reusing and shown is not None and shown.key == full:
            areas = self._damaged.pop(slot, [])
            self.cache_repaints += bool(areas)
            for area in areas:
                self._repaint(area, draw)
            self.painter.drawn.extend(shown.drawn)
            self.hits.extend(shown.hits)
            self.panels.update(shown.panels)
            self.level_rects.update(shown.level_rects)
            self.cache_hits += 1
            result: T = shown.result
            return result
        self.cache_misses += 1
        self._damaged.pop(slot, None)
        if self._reusing and not self._blanked(rect):
            self.window.fill(BG, rect)
            self.mark(rect)
        n_drawn, n_hits = len(self.painter.drawn), len(self.hits)
        panels, levels = dict(self.panels), dict(self.level_rects)
        result = draw()
        self._slots.add(slot)
        self._shown[slot] = Shown(full, result, self.painter.drawn[n_drawn:], self.hits[n_hits:],
                                  {k: v for k, v in self.panels.items() if panels.get(k) != v},
                                  {k: v for k, v in self.level_rects.items() if levels.get(k) != v})
        return result

    def _repaint(self, area: pygame.Rect, draw: Callable[[], Any]) -> None:
        """A kept panel drawn again inside ``area`` alone (an overlay lay there): the same pixels as
        before, since ``draw`` depends only on the key; what it records is the kept panel's already."""
        n_drawn, n_hits = len(self.painter.drawn), len(self.hits)
        panels, levels = dict(self.panels), dict(self.level_rects)
        clip = self.window.get_clip()
        self.window.set_clip(area)
        try:
            self.window.fill(BG, area)
            draw()
        finally:
            self.window.set_clip(clip)
        del self.painter.drawn[n_drawn:], self.hits[n_hits:]
        self.panels, self.level_rects = panels, levels

    def clear(self, rect: pygame.Rect, color: tuple[int, int, int] = BG) -> None:
        """Before drawing afresh over what the last frame left (a frame that keeps panels): fill
        ``rect`` with ``color``, the background it is drawn on in a full frame."""
        if self._reusing and not (color == BG and self._blanked(rect)):
            self.window.fill(color, rect)
            self.mark(rect)

    def _blanked(self, rect: pygame.Rect) -> bool:
        """Whether ``rect`` lies in the area this frame began by blanking (filled and pushed already)."""
        return self._blank is not None and self._blank.contains(rect)


__all__ = ["DieRoll", "Frame", "Shown"]
