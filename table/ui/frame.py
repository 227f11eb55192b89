"""What a screen draws on: the ``Frame``, and the die roll it shows.

A screen never sees the ``Display`` (the window's owner and its frame loop): it is handed a
``Frame`` with everything one frame needs and nothing else —

- ``window`` (the surface), ``painter`` and ``t`` (fitted text in the layout's scale ``s``),
  ``size`` and ``portrait`` (the layout);
- the records of what the frame put where: ``panels``, ``hits`` (touch targets), ``level_rects``
  and the painter's ``drawn``;
- the panel cache: ``cached`` leaves a panel on the screen while the data it shows stays the same,
  and ``clear`` blanks what is drawn afresh over kept panels; a panel that left the screen (another
  screen, a band that moved it) and comes back showing the same at the same size is blitted from
  the ``PanelStore`` (its pixels and records, kept off the screen), not drawn;
- the scenes: the area a screen laid out (the table's, the fight's) is kept between frames as it
  was left, pixels and records (``keep_scene``); when the screen comes back, its panels that still
  show the same are blitted back from it as the screen reaches them, and ``settle`` puts back the
  rest (an area with no kept scene is blanked the same way: each panel covers its own place);
- what changed on the glass: ``dirty``, the rectangles this frame drew (None: the whole window),
  which the Display pushes with ``pygame.display.update``. A miss, a ``clear`` and an ``overlay``
  add theirs (a bare panel's miss, text on the background such as the message line, only the box
  around its old and new text); anything else drawn over kept panels says where with ``mark``;
- ``overlay``: something drawn over the panels for this frame only (the die, a menu): the next
  frame puts the background back there and repaints the kept panels under it inside that area
  alone, from the store or from a kept scene that holds the very panel, else by drawing it (which
  counts as drawing it again: it goes into the store at the next ``tidy``);
- ``kept_overlay``: an overlay whose pixels depend on what it shows alone (a player's menu) is
  kept after it was drawn (``KeptOverlays``, copied at ``tidy``) and blitted when it comes back
  showing the same, its rounded panel's corners drawn afresh over whatever is under them;
- ``die``: the roll to show and how far its tumble has gone.

The Display begins each frame (``begin``: kept panels or a full redraw) and ends it (``end``).
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pygame

from table.words.i18n import language as current_language
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
    bare: bool = False                  # text on the background and nothing else (``Frame.cached``'s ``bare``)


def moved(shown: Shown, dx: int, dy: int) -> Shown:
    """``shown`` with everything it recorded moved by (dx, dy)."""
    return Shown(shown.key, shown.result, [Drawn(d.text, d.rect.move(dx, dy), d.box.move(dx, dy)) for d in shown.drawn],
                 [(rect.move(dx, dy), action) for rect, action in shown.hits],
                 {k: v.move(dx, dy) for k, v in shown.panels.items()},
                 {k: v.move(dx, dy) for k, v in shown.level_rects.items()}, shown.bare)


class PanelStore:
    """Panels drawn before, kept off the screen: their pixels and what drawing them recorded (placed
    at 0, 0), by what they show and their size. A panel up to a sixth of the window is kept (the
    players, the bands, the keys, the message line: what comes back when the screen does); the
    least recently used go first past ``budget`` bytes.

    A panel is mostly one flat colour: it is kept run-length encoded (SDL's RLE colour key on its
    commonest colour, which frees the plain pixels), a fifth of its size or less, and blitted onto
    that colour: the same pixels, fewer bytes, a faster blit. Encoding costs about what drawing
    does (~1 ms for a player at 1080p), so a panel goes in only when it is drawn a second time:
    one seen once (a message, a fight's verdict) is remembered by its key alone, and most never
    come back."""

    LARGEST = 1 / 3                         # of the window
    SEEN_KEPT = 4096                        # keys of panels drawn once, remembered

    def __init__(self, window: pygame.Surface, *, windows: float) -> None:
        self.window = window
        self.budget = int(surface_bytes(window) * windows)
        self.bytes = 0
        self._kept: dict[tuple[Any, ...], Kept] = {}
        self._seen: set[tuple[Any, ...]] = set()      # drawn once: kept when drawn again

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: tuple[Any, ...], size: tuple[int, int]) -> Kept | None:
        kept = self._kept.pop((key, size), None)
        if kept is not None:
            self._kept[(key, size)] = kept           # re-inserted: most recently used last
        return kept

    def keeps(self, rect: pygame.Rect) -> bool:
        """Whether a panel drawn in ``rect`` is kept: inside the window, and small enough."""
        area = self.window.get_width() * self.window.get_height()
        return self.window.get_rect().contains(rect) and 0 < rect.w * rect.h <= area * self.LARGEST

    def put(self, rect: pygame.Rect, shown: Shown) -> None:
        """The panel the window shows in ``rect`` now, which drawing ``shown`` recorded: kept if
        it was drawn before, else remembered as drawn once. One kept already (drawn again after it
        went in: repainted under an overlay, or drawn by a frame that did not read the store) is
        the same pixels: it only becomes the most recently used."""
        key = (shown.key, rect.size)
        if key not in self._seen:
            if len(self._seen) >= self.SEEN_KEPT:
                self._seen.clear()
            self._seen.add(key)
            return
        if self.get(*key) is not None:
            return
        surface = self.window.subsurface(rect).copy()
        flat, share = commonest_color(surface)
        size = int(rect.w * rect.h * (1 - share)) * surface.get_bytesize() + rect.h * 8   # about what the encoding keeps
        surface.set_colorkey(flat, pygame.RLEACCEL)
        self.window.blit(surface, rect.topleft, pygame.Rect(0, 0, 1, 1))   # encoded now, for the window: its own pixel again
        self._kept[key] = Kept(surface, flat, moved(shown, -rect.x, -rect.y), size)
        self.bytes += size
        while self.bytes > self.budget and self._kept:
            self.bytes -= self._kept.pop(next(iter(self._kept))).bytes


@dataclass
class Scene:
    """A screen's area as a frame left it, kept off the screen: its pixels, and what is in it (the
    panels there, with what drawing them recorded)."""

    pixels: pygame.Surface
    shown: dict[tuple[Any, ...], Shown]
    fresh: bool = True                  # still what the screen shows there (no frame drew there since)


BLANK = Scene(pygame.Surface((0, 0)), {})     # what ``begin`` puts back in an area it blanks: the background

Slot = tuple[Any, ...]                          # where a panel is: (its kind, its rect as a tuple)


class OnScreen:
    """The panel cache's record of the glass: the panel in each slot and what it shows, the slots this
    frame drew or kept, and the kept panels an overlay lay over (repainted there by the next frame).

    The rules of keeping a panel live here: a panel that a frame did not draw or keep is gone (another
    was drawn over it); an area laid out afresh loses the panels in it; an overlay damages what it
    covers."""

    def __init__(self) -> None:
        self.shown: dict[Slot, Shown] = {}               # slot -> what is there now
        self.damaged: dict[Slot, list[pygame.Rect]] = {}  # kept panels under the last frame's overlays
        self.visited: set[Slot] = set()                  # the panels this frame put on the screen

    def start(self, *, keep: bool) -> None:
        """A new frame: over the last one (``keep``), or drawn in full (nothing is damaged then)."""
        self.visited = set()
        if not keep:
            self.damaged = {}

    def visit(self, slot: Slot) -> Shown | None:
        """This frame puts a panel in ``slot``: what was there (None: nothing)."""
        self.visited.add(slot)
        return self.shown.get(slot)

    def blank(self, area: pygame.Rect) -> None:
        """``area`` is laid out afresh: the panels in it are gone."""
        self.shown = {slot: shown for slot, shown in self.shown.items() if not area.colliderect(slot[1])}
        self.damaged = {slot: areas for slot, areas in self.damaged.items() if slot in self.shown}

    def end(self, overlays: list[pygame.Rect]) -> None:
        """The frame is done: the panels it did not visit are gone, and ``overlays`` (drawn over the
        panels for this frame only) damage the kept panels they cover."""
        self.shown = {slot: shown for slot, shown in self.shown.items() if slot in self.visited}
        self.damaged = {slot: areas for slot, areas in self.damaged.items() if slot in self.shown}
        for over in overlays:
            for slot in self.shown:
                area = over.clip(pygame.Rect(slot[1]))
                if area.w > 0 and area.h > 0:
                    self.damaged.setdefault(slot, []).append(area)

    def intact(self, slot: Slot, shown: Shown) -> bool:
        """Whether ``shown`` is still on the screen in ``slot`` as drawn (no overlay over it)."""
        return self.shown.get(slot) is shown and slot not in self.damaged

    def damage_near(self, area: pygame.Rect) -> bool:
        """Whether a damaged panel lies in ``area``."""
        return any(pygame.Rect(slot[1]).colliderect(area) for slot in self.damaged)

    def inside(self, area: pygame.Rect) -> dict[Slot, Shown]:
        """The panels wholly inside ``area``."""
        return {slot: shown for slot, shown in self.shown.items() if area.contains(slot[1])}


class PutBack:
    """A kept scene going back onto its area as the screen draws (``Frame.begin``'s ``blank``): each of
    its panels the screen keeps is blitted back from its pixels in turn, each panel drawn there covers
    its own place, and ``settle`` puts back whatever is left uncovered (the background for BLANK)."""

    def __init__(self, scene: Scene, area: pygame.Rect) -> None:
        self.scene = scene
        self.area = pygame.Rect(area)
        self.unplaced: set[Slot] = set(scene.shown)      # its panels not back yet
        self.covered: list[pygame.Rect] = []             # what this frame drew of its area so far

    def keep(self, slot: Slot, rect: pygame.Rect, window: pygame.Surface) -> None:
        """The screen keeps the panel in ``slot``: blitted back from the scene, if it is one of its own."""
        if slot in self.unplaced:
            self.unplaced.discard(slot)
            window.blit(self.scene.pixels, rect, rect.move(-self.area.x, -self.area.y))
            self.covered.append(rect)

    def cover(self, slot: Slot, rect: pygame.Rect) -> None:
        """A panel was drawn afresh or blitted whole at ``rect``: the scene's pixels are not needed there."""
        self.unplaced.discard(slot)
        self.covered.append(rect)

    def settle(self, window: pygame.Surface, solids: Solids) -> None:
        """What no panel covered: blitted from the scene, or the background for BLANK."""
        clip = window.get_clip()
        window.set_clip(None)
        for part in uncovered(self.area, self.covered):
            if self.scene is BLANK:
                solids.fill(BG, part)
            else:
                window.blit(self.scene.pixels, part, part.move(-self.area.x, -self.area.y))
        window.set_clip(clip)


@dataclass
class Kept:
    """A panel in the store: its pixels but those of its flat colour, that colour, its records."""

    surface: pygame.Surface
    flat: tuple[int, int, int]
    shown: Shown
    bytes: int
    last: tuple[tuple[int, int], Shown] | None = None     # where it was last placed, with its records there

    def placed(self, at: tuple[int, int]) -> Shown:
        """Its records moved to ``at``: those of its last placement when it comes back to the same
        place (a soft key, a player's panel: most panels come back where they were), else moved
        afresh. The same key shows the same records there, so one record serves every placement."""
        if self.last is None or self.last[0] != at:
            self.last = (at, moved(self.shown, *at))
        return self.last[1]

    def blit(self, solids: Solids, rect: pygame.Rect, area: pygame.Rect | None = None) -> None:
        """The panel at ``rect`` of the window ``solids`` fills (only its part inside ``area``, when given)."""
        area = pygame.Rect(rect) if area is None else area
        solids.fill(self.flat, area)
        solids.surface.blit(self.surface, area.topleft, area.move(-rect.x, -rect.y))


class Solids:
    """Flat colour put on the window the faster of two ways on this machine: SDL's fill, or blits
    from a band of that colour. SDL's fill writes with streaming stores that go past the cache;
    which way is faster differs from machine to machine. On 2026-12-02, two machines of the same
    kind gave opposite answers in the latency game at 1080p: on one, screen switches took 1.28-1.56
    ms p50 with SDL's fill against 1.69-1.92 ms from bands; on the other, a kept panel's flat colour
    filled by SDL and its encoded pixels over it took 93 us against ~45 us from bands, and the kept
    frames' drawing p50 1.63 ms against 1.30-1.39 ms. So the first TRIALS fills of a rect of at
    least TRIAL_PIXELS (inside the clip) alternate the two ways on the frames themselves, timed;
    from then on the way with the lower median time per pixel is used (``way``). Smaller rects
    are SDL's fill: a blit per band costs more than it could save there. The same pixels either way:
    the band has the surface's format and no colour key or alpha.

    A band is a pixel wider than the surface and blitted from its second column. SDL copies a
    rect whose source and destination rows all start on 16 bytes with SSE streaming stores, like
    its fill, and otherwise with memcpy; the second column's rows never start there. Measured on
    2026-12-02 at 1080p (SDL 2.32, x86-64 under a hypervisor), a 366x126 soft key: SDL's fill 72-76
    us, from the first column of bands of 8 to 256 rows 71-96 us, from the second column of a
    16-row band 20-21 us; streaming stores cost ~0.55 us a row there whatever the row's width."""

    BAND = 16                           # rows of a band (a 1080p band: 123 KB)
    KEPT = 6                            # colours with a band
    TRIAL_PIXELS = 16384
    TRIALS = 48                         # timed fills, half each way

    def __init__(self, surface: pygame.Surface, *, clock: Callable[[], float] = time.perf_counter) -> None:
        self.surface = surface
        self.way: str | None = None     # "fill" or "bands" once measured
        self._clock = clock
        self._bands: dict[tuple[int, int, int], pygame.Surface] = {}
        self._times: dict[str, list[float]] = {"fill": [], "bands": []}

    def fill(self, color: Any, rect: Any) -> None:
        """``rect`` of the surface (inside its clip, as ``Surface.fill``) in ``color``."""
        rect = pygame.Rect(rect)
        pixels = rect.clip(self.surface.get_clip())
        if self.way == "fill" or pixels.w * pixels.h < self.TRIAL_PIXELS:
            self.surface.fill(color, rect)
            return
        if self.way == "bands":
            self._by_bands(self._band(color), rect)
            return
        way = "fill" if len(self._times["fill"]) <= len(self._times["bands"]) else "bands"
        band = self._band(color) if way == "bands" else None      # made (when new) before the clock starts
        started = self._clock()
        if band is None:
            self._by_fill(color, rect)
        else:
            self._by_bands(band, rect)
        self._times[way].append((self._clock() - started) / (pixels.w * pixels.h))
        if len(self._times["fill"]) + len(self._times["bands"]) >= self.TRIALS:
            self.way = min(self._times, key=lambda w: statistics.median(self._times[w]))

    def _by_fill(self, color: Any, rect: pygame.Rect) -> None:
        self.surface.fill(color, rect)

    def _by_bands(self, band: pygame.Surface, rect: pygame.Rect) -> None:
        rect = rect.clip(self.surface.get_rect())       # a band is as wide as the surface from its column 1
        x, w, bottom = rect.x, rect.w, rect.bottom
        self.surface.blits([(band, (x, y), (1, 0, w, min(self.BAND, bottom - y))) for y in range(rect.y, bottom, self.BAND)],
                           doreturn=False)

    def _band(self, color: Any) -> pygame.Surface:
        color = pygame.Color(color)
        key = (color.r, color.g, color.b)               # a Color or a 4-tuple keys as its RGB
        band = self._bands.pop(key, None)
        if band is None:
            band = pygame.Surface((self.surface.get_width() + 1, self.BAND), 0, self.surface)   # from column 1
            band.fill(key)
            while len(self._bands) >= self.KEPT:
                self._bands.pop(next(iter(self._bands)))
        self._bands[key] = band                         # most recently used last
        return band


def surface_bytes(surface: pygame.Surface) -> int:
    """What ``surface``'s pixels take."""
    return surface.get_width() * surface.get_height() * surface.get_bytesize()


def text_box(drawn: list[Drawn], rect: pygame.Rect) -> pygame.Rect:
    """The box around the text boxes of ``drawn`` inside ``rect`` (an empty rect for none)."""
    boxes = [d.rect.clip(rect) for d in drawn]
    boxes = [b for b in boxes if b.w > 0 and b.h > 0]
    return boxes[0].unionall(boxes[1:]) if boxes else pygame.Rect(rect.x, rect.y, 0, 0)


def uncovered(area: pygame.Rect, covers: list[pygame.Rect]) -> list[pygame.Rect]:
    """``area`` less every rectangle of ``covers``, as rectangles that do not overlap."""
    parts = [pygame.Rect(area)]
    for cover in covers:
        left: list[pygame.Rect] = []
        for r in parts:
            c = r.clip(cover)
            if c.w <= 0 or c.h <= 0:
                left.append(r)
                continue
            if c.top > r.top:
                left.append(pygame.Rect(r.x, r.y, r.w, c.top - r.top))
            if c.bottom < r.bottom:
                left.append(pygame.Rect(r.x, c.bottom, r.w, r.bottom - c.bottom))
            if c.left > r.left:
                left.append(pygame.Rect(r.x, c.y, c.left - r.left, c.h))
            if c.right < r.right:
                left.append(pygame.Rect(c.right, c.y, r.right - c.right, c.h))
        parts = left
    return parts


def commonest_color(surface: pygame.Surface) -> tuple[tuple[int, int, int], float]:
    """The colour most of ``surface`` is, and the share of it that colour covers, from every
    sixteenth pixel each way."""
    w, h = surface.get_size()
    sample = pygame.transform.scale(surface, (max(1, w // 16), max(1, h // 16)))
    data = pygame.image.tobytes(sample, "RGBX")
    pixels = memoryview(data).cast("I")
    value, count = Counter(pixels).most_common(1)[0]
    at = 4 * pixels.tolist().index(value)
    return (data[at], data[at + 1], data[at + 2]), count / len(pixels)


@dataclass
class KeptOverlay:
    """An overlay kept off the screen: its bands of rows (each a ``Kept``: run-length encoded on
    its own commonest colour, placed at 0, 0 of the overlay) and what drawing it recorded."""

    bands: list[tuple[pygame.Rect, Kept]]
    shown: Shown
    bytes: int
    last: tuple[tuple[int, int], Shown] | None = None

    def placed(self, at: tuple[int, int]) -> Shown:
        """Its records moved to ``at`` (those of its last placement when it comes back there)."""
        if self.last is None or self.last[0] != at:
            self.last = (at, moved(self.shown, *at))
        return self.last[1]

    def blit(self, solids: Solids, rect: pygame.Rect, area: pygame.Rect) -> None:
        """The overlay at ``rect`` of the window ``solids`` fills, its part inside ``area`` alone."""
        for band, kept in self.bands:
            at = band.move(rect.topleft)
            part = at.clip(area)
            if part.w > 0 and part.h > 0:
                kept.blit(solids, at, part)


class KeptOverlays:
    """Overlays drawn before (a player's menu: ``Frame.kept_overlay``), kept off the screen as the
    store keeps panels, by what they show and their size; the least recently used go first past
    KEPT or ``budget`` bytes (taken from the store's: the Frame's pixels kept stay one window's
    worth). An overlay is half the window: copied and encoded whole, its copy and SDL's buffer for
    the encoding would raise the peak of memory by a window's worth at 1080p (the latency game's
    peak RSS 79.4 -> 83.9 MB, over its 80 MB), so it is kept in bands of rows a sixteenth of the
    window at most."""

    KEPT = 8                                # a menu for each of six players, and some
    BAND = 1 / 16                           # of the window's pixels, at most, in a band

    def __init__(self, window: pygame.Surface, *, windows: float) -> None:
        self.window = window
        self.budget = int(surface_bytes(window) * windows)
        self.bytes = 0
        self._kept: dict[tuple[Any, ...], KeptOverlay] = {}
        # drawn afresh: (key, rect, records, the frame, its place among that frame's overlays)
        self._drawn: list[tuple[tuple[Any, ...], pygame.Rect, Shown, int, int]] = []

    def get(self, key: tuple[Any, ...], size: tuple[int, int]) -> KeptOverlay | None:
        kept = self._kept.pop((key, size), None)
        if kept is not None:
            self._kept[(key, size)] = kept               # most recently used last
        return kept

    def drawn(self, key: tuple[Any, ...], rect: pygame.Rect, shown: Shown, frame: int, place: int) -> None:
        """Frame number ``frame`` drew it afresh in ``rect``, its ``place``-th overlay: kept at ``tidy``."""
        self._drawn.append((key, rect, shown, frame, place))

    def tidy(self, frame: int, overlays: list[pygame.Rect]) -> None:
        """Between frames: those the last frame (number ``frame``, whose overlays were ``overlays``)
        drew and left on the screen, nothing drawn over them after them, are copied and kept."""
        window = self.window
        for key, rect, shown, when, place in self._drawn:
            if when != frame or rect.collidelist(overlays[place + 1:]) != -1 or (key, rect.size) in self._kept:
                continue
            rows = max(1, int(window.get_width() * window.get_height() * self.BAND) // max(1, rect.w))
            bands: list[tuple[pygame.Rect, Kept]] = []
            total = 0
            for y in range(0, rect.h, rows):
                band = pygame.Rect(0, y, rect.w, min(rows, rect.h - y))
                surface = window.subsurface(band.move(rect.topleft)).copy()
                flat, share = commonest_color(surface)
                size = int(band.w * band.h * (1 - share)) * surface.get_bytesize() + band.h * 8
                surface.set_colorkey(flat, pygame.RLEACCEL)
                window.blit(surface, band.move(rect.topleft).topleft, pygame.Rect(0, 0, 1, 1))   # encoded now
                bands.append((band, Kept(surface, flat, shown, size)))
                total += size
            self._kept[(key, rect.size)] = KeptOverlay(bands, moved(shown, -rect.x, -rect.y), total)
            self.bytes += total
            while self._kept and (len(self._kept) > self.KEPT or self.bytes > self.budget):
                self.bytes -= self._kept.pop(next(iter(self._kept))).bytes
        self._drawn = []


class Frame:
    """The window a screen draws one frame on, with the records and the panel cache of that frame."""

    STORE_WINDOWS = 1.0                     # the PanelStore's budget, in windows' worth of bytes (encoded)
    # of it, the kept overlays' (KeptOverlays), and a twentieth left unused: with the overlays kept, the
    # latency game's peak RSS at 1080p came out 79.6 and 80.2 MB (target 80) with the whole budget in use
    OVERLAY_WINDOWS, UNUSED_WINDOWS = 0.25, 0.05

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
        self.cache_moves = 0                # hits blitted from the store (the panel had left the screen)
        self.store = PanelStore(window, windows=self.STORE_WINDOWS - self.OVERLAY_WINDOWS - self.UNUSED_WINDOWS)
        self.solids = Solids(window)
        painter.fill = self.solids.fill     # the large panels' flat parts, the faster way on this machine
        self._storing = False               # panels may come from the store, and go into it
        self._learning = False              # a frame drawn in full feeds the store with what changed
        self._to_store: list[tuple[Slot, Shown]] = []       # drawn afresh: for the store, at ``tidy``
        self.screen = OnScreen()                            # the panels on the glass
        self._reusing = False
        self.dirty: list[pygame.Rect] | None = None         # what this frame drew; None: all of it
        self._overlays: list[pygame.Rect] = []              # drawn over the panels this frame only
        self._stale: list[pygame.Rect] = []                 # the last frame's overlays, to put back
        self._scene: Any = None                             # what the frame's layout is, given at begin
        self._scenes: dict[tuple[Any, ...], Scene] = {}     # (scene, area) -> that area as last left
        self.cache_scenes = 0                               # areas put back from a kept scene
        # a kept scene being put back (``begin``): nothing else is drawn in its area before ``settle``
        self._putting: PutBack | None = None
        self._drawing = 0                                   # inside a panel's draw (``cached``)
        self._frame_count = 0                               # frames begun
        self.overlays_kept = KeptOverlays(window, windows=self.OVERLAY_WINDOWS)     # a player's menu, as drawn before
        self.overlays_reused = 0                            # kept overlays blitted rather than drawn

    @property
    def drawn(self) -> list[Drawn]:
        return self.painter.drawn

    @property
    def corner(self) -> int:
        """What a rounded panel (``Painter.panel``, or a rect drawn with its ``radius``) leaves of its
        rect at each corner: a square this wide, with a margin."""
        return self.painter.radius() + 2

    @property
    def reusing(self) -> bool:
        """Whether this frame is drawn over the last one, keeping its unchanged panels."""
        return self._reusing

    def begin(self, *, reuse: bool, blank: pygame.Rect | None = None, store: bool = False, scene: Any = None,
              learn: bool = False) -> None:
        """Start a frame: over the last one (``reuse``: its unchanged panels stay), or in full.
        ``blank``, over the last one: an area laid out afresh (the body, for another screen),
        pushed whole: the background, the panels that were in it gone; or, when that area was kept
        for ``scene`` (the frame's layout, see ``keep_scene``), as it was, with its panels. Either
        goes in as the screen draws: each panel drawn there covers its own place, and ``settle``
        fills in the rest. ``store``: a panel not on the screen is blitted from the store, and an
        area from its kept scene, when drawn before showing the same (off: every panel not kept on
        the screen is drawn). ``learn``, in a frame drawn in full without the store: the panels it
        draws that the last frame did not show as they are now go into the store at the next ``tidy``,
        as they would from a frame that keeps panels (where they are its misses); nothing is read
        from the store."""
        self._storing = store
        self._learning = learn and not store
        self._frame_count += 1
        self._scene = scene
        self._putting = None
        self.painter.drawn = []
        self.hits = []
        self.panels = {}
        self.level_rects = {}
        self._reusing = reuse
        self.screen.start(keep=reuse)
        stale, self._stale = self._stale, []
        self._overlays = []
        if not reuse:
            self.window.fill(BG)
            self.dirty = None
            return
        self.dirty = []
        for rect in stale:                  # the die the last frame showed: the background again
            self.solids.fill(BG, rect)
            self.dirty.append(rect)
        if blank is not None:
            kept = self._scenes.pop((scene, tuple(blank)), None) if store else None
            self.screen.blank(blank)
            self.dirty.append(pygame.Rect(blank))
            if kept is None:                # blanked, as lazily: what no panel covers, at settle
                self._putting = PutBack(BLANK, blank)
                return
            self._scenes[(scene, tuple(blank))] = kept          # most recently used last
            self.screen.shown.update(kept.shown)
            self._putting = PutBack(kept, blank)
            self.cache_scenes += 1

    def settle(self) -> None:
        """The kept scene being put back is wholly back: what no panel of this frame covered (the
        gaps between panels, those it no longer shows) is blitted from it, or filled with the
        background for an area ``begin`` blanked. The Display calls this
        once the phase's screen has drawn its panels, before anything goes over them; drawing text,
        clearing or an overlay outside a panel's draw, and the frame's end, call it first."""
        putting, self._putting = self._putting, None
        if putting is not None:
            putting.settle(self.window, self.solids)

    def end(self) -> None:
        """A panel this frame did not draw is no longer on the screen (another was drawn over it);
        the kept panels under this frame's overlays are repainted there by the next frame."""
        self.settle()
        self.screen.end(self._overlays)
        self._stale = self._overlays
        for (scene, area), kept in self._scenes.items():
            if kept.fresh and scene == self._scene and (self.dirty is None or pygame.Rect(area).collidelist(self.dirty) != -1):
                kept.fresh = False

    SCENE_WINDOWS = 1.5                     # the kept scenes' pixels, in windows' worth of bytes

    def keep_scene(self, area: pygame.Rect) -> None:
        """Between frames (the run loop's tidy): keep ``area`` as the last frame left it, for its
        scene to be put back when the screen comes back (``begin``'s ``blank``): its pixels and the
        panels wholly inside it. Not while an overlay's area waits to be put back, nor when nothing
        was drawn there since it was kept; the least recently used go first past SCENE_WINDOWS."""
        if self._scene is None or self._stale or self.screen.damage_near(area):
            return
        key = (self._scene, tuple(area))
        kept = self._scenes.pop(key, None)
        if kept is None or not kept.fresh:
            pixels = kept.pixels if kept is not None else self._scene_pixels(area.size)
            if pixels is None:
                return
            pixels.blit(self.window, (0, 0), area)
            kept = Scene(pixels, self.screen.inside(area))
        self._scenes[key] = kept

    def _scene_pixels(self, size: tuple[int, int]) -> pygame.Surface | None:
        """A surface for a new kept scene of ``size``: the least recently used scenes go first until
        it fits (one of the same size lends its surface: no new pixels, no peak of memory with both);
        None when it would not fit at all."""
        budget = surface_bytes(self.window) * self.SCENE_WINDOWS
        need = size[0] * size[1] * self.window.get_bytesize()
        used = sum(surface_bytes(k.pixels) for k in self._scenes.values())
        if need > budget:
            return None
        while used + need > budget:
            old = self._scenes.pop(next(iter(self._scenes))).pixels
            used -= surface_bytes(old)
            if old.get_size() == size:
                return old
        return pygame.Surface(size, 0, self.window)

    def tidy(self) -> None:
        """Between frames, when nothing waits (the run loop, before it sleeps): the panels drawn
        afresh since the last tidy that are still on the screen as drawn (no overlay over them)
        go to the store. Copying and encoding a panel costs about what drawing it does, so it is
        done here rather than in the frame a tap is waiting for."""
        overlays = self._stale
        for slot, shown in self._to_store:
            rect = pygame.Rect(slot[1])
            if self.screen.intact(slot, shown) and rect.collidelist(overlays) == -1:
                self.store.put(rect, shown)
        self._to_store = []
        self.overlays_kept.tidy(self._frame_count, overlays)

    def kept_overlay(self, key: tuple[Any, ...], rect: pygame.Rect, draw: Callable[[], None],
                     corners: Callable[[], bool]) -> None:
        """An overlay filling ``rect`` as a rounded panel (a player's menu) whose pixels there depend
        on ``key`` and the size alone: when it was drawn before, its panel's four corners are drawn
        (``corners``: False when they cannot be drawn alone) and the rest blitted from the copy kept
        at the ``tidy`` after it was drawn (run-length encoded on its commonest colour, as the
        store's panels), with what drawing it recorded; otherwise ``draw`` draws it whole (calling
        ``overlay``). A menu's text is most of what opening it costs, and a player's menu comes
        back unchanged while their level and sex stay."""
        full = (current_language(), *key)
        rect = pygame.Rect(rect)
        kept = self.overlays_kept.get(full, rect.size) if self._storing else None
        if kept is not None:
            self.overlay(rect)
            if corners():
                c = self.painter.radius()
                for part in (pygame.Rect(rect.x, rect.y + c, rect.w, rect.h - 2 * c),
                             pygame.Rect(rect.x + c, rect.y, rect.w - 2 * c, c),
                             pygame.Rect(rect.x + c, rect.bottom - c, rect.w - 2 * c, c)):
                    kept.blit(self.solids, rect, part)
                self._replay(kept.placed(rect.topleft))
                self.overlays_reused += 1
                return
        n_drawn, n_hits = len(self.painter.drawn), len(self.hits)
        panels, levels = dict(self.panels), dict(self.level_rects)
        draw()
        if rect not in self._overlays:
            return
        record = Shown(full, None, self.painter.drawn[n_drawn:], self.hits[n_hits:],
                       {k: v for k, v in self.panels.items() if panels.get(k) != v},
                       {k: v for k, v in self.level_rects.items() if levels.get(k) != v})
        place = len(self._overlays) - 1 - self._overlays[::-1].index(rect)
        self.overlays_kept.drawn(full, rect, record, self._frame_count, place)

    def mark(self, rect: pygame.Rect) -> None:
        """``rect`` was drawn afresh this frame outside any panel's miss or ``clear`` (say, a moving
        bar over a kept panel): it goes to the glass."""
        if self.dirty is not None:
            self.dirty.append(pygame.Rect(rect).clip(self.window.get_rect()))

    def overlay(self, rect: pygame.Rect) -> None:
        """``rect`` was drawn over the panels for this frame only (the die): it goes to the glass,
        and the next frame puts back what is under it."""
        self.settle()
        rect = pygame.Rect(rect).clip(self.window.get_rect())
        self._overlays.append(rect)
        self.mark(rect)

    def t(self, text: str, size: float, color: tuple[int, int, int], box: pygame.Rect, **kw: Any) -> pygame.Rect:
        """Fitted text (see ``Painter.text``) at ``size`` per 480 lines."""
        if not self._drawing:
            self.settle()
        return self.painter.text(text, size * self.s, color, box, **kw)

    def hit(self, pos: tuple[int, int]) -> tuple[str, str] | None:
        """What a touch or click at ``pos`` means: ("button", name) or ("card", id)."""
        for rect, action in self.hits:
            if rect.collidepoint(pos):
                return action
        return None

    def cached(self, key: tuple[Any, ...], rect: pygame.Rect, draw: Callable[[], T], *, covers: int | None = None,
               bare: bool = False) -> T:
        """Leave the panel ``draw`` draws inside ``rect`` as it is on the screen when the last frame
        had it there for the same ``key`` (its kind, ``key[0]``, and the data it shows); otherwise
        clear ``rect`` and draw it.

        ``draw`` must draw only inside ``rect`` (onto the background) and depend only on ``key`` and
        the size of ``rect``, not its place (a panel from the store is blitted wherever it goes now);
        what it records (text, panels, touch targets, level rects) is replayed while it stays.
        ``covers``: ``draw`` starts by filling all of ``rect`` but a square of ``covers`` pixels at
        each corner (``corner`` for a rounded panel; 0: all of it), so only those are cleared first.
        ``bare``: ``draw`` puts text on the background (``Frame.t``) and nothing else (the message
        line, the turn): over a bare panel of its own that is on the screen whole, only the boxes
        of that panel's text are cleared, and only those and the new text's go to the glass, not
        all of ``rect``. Whatever is drawn over a kept panel must clear its own area first (see
        ``clear``); frames with overlays (menus, the banner, the die over the body) are drawn in full.
        """
        slot = (key[0], tuple(rect))
        full = (current_language(), *key)
        shown = self.screen.visit(slot)
        if self._reusing and shown is not None and shown.key == full:
            return self._keep(slot, rect, shown, draw)
        damaged = self.screen.damaged.pop(slot, None)
        kept = self.store.get(full, rect.size) if self._storing else None
        if self._putting is not None:
            self._putting.cover(slot, rect)     # blitted or drawn afresh, whole: no need of the scene's pixels
        if kept is not None:                    # drawn before, elsewhere or before it left: blitted
            stored: T = self._from_store(slot, rect, kept)
            return stored
        text = self._old_text(shown, rect) if bare and self._reusing and not damaged else None
        return self._draw_afresh(slot, rect, draw, full, before=shown, covers=covers, bare=bare, text=text)

    def _keep(self, slot: Slot, rect: pygame.Rect, shown: Shown, draw: Callable[[], T]) -> T:
        """A hit: the panel stays (back from the kept scene being put back, if it is one of its), and
        what an overlay left over it is repainted."""
        if self._putting is not None:
            self._putting.keep(slot, rect, self.window)
        areas = self.screen.damaged.pop(slot, [])
        self.cache_repaints += bool(areas)
        drawn = [self._repaint(area, rect, slot, shown, draw) for area in areas]
        if any(drawn) and self._storing and self.store.keeps(rect):
            self._to_store.append((slot, shown))     # drawn again, if in part: for the store too
        self._replay(shown)
        self.cache_hits += 1
        result: T = shown.result
        return result

    def _from_store(self, slot: Slot, rect: pygame.Rect, kept: Kept) -> Any:
        """A hit from the store: the panel blitted into ``rect``, its records moved there."""
        kept.blit(self.solids, rect)
        if self._reusing:
            self.mark(rect)
        self.screen.shown[slot] = placed = kept.placed(rect.topleft)
        self._replay(placed)
        self.cache_hits += 1
        self.cache_moves += 1
        return placed.result

    def _draw_afresh(self, slot: Slot, rect: pygame.Rect, draw: Callable[[], T], full: tuple[Any, ...], *,
                     before: Shown | None, covers: int | None, bare: bool, text: pygame.Rect | None) -> T:
        """A miss: ``rect`` cleared as ``cached`` says (only the old text's box, ``text``, for a bare
        panel over a bare one) and the panel drawn, its records kept; for the store where it goes there."""
        self.cache_misses += 1
        if self._reusing:
            self._clear_for_miss(rect, covers, text)
        n_drawn, n_hits = len(self.painter.drawn), len(self.hits)
        panels, levels = dict(self.panels), dict(self.level_rects)
        self._drawing += 1
        try:
            result = draw()
        finally:
            self._drawing -= 1
        record = Shown(full, result, self.painter.drawn[n_drawn:], self.hits[n_hits:],
                       {k: v for k, v in self.panels.items() if panels.get(k) != v},
                       {k: v for k, v in self.level_rects.items() if levels.get(k) != v}, bare)
        self.screen.shown[slot] = record
        if text is not None:
            changed = text_box(record.drawn, rect)
            self.mark(changed.union(text) if text.w and text.h else changed)
        if (self._storing or self._learning and (before is None or before.key != full)) and result is None \
                and self.store.keeps(rect):
            self._to_store.append((slot, record))
        return result

    def _clear_for_miss(self, rect: pygame.Rect, covers: int | None, text: pygame.Rect | None) -> None:
        """Over a kept frame, what a panel drawn afresh in ``rect`` is drawn onto: the background
        where its drawing does not cover (``covers``, see ``cached``), or only over the box of the
        old text (``text``) of a bare panel there."""
        if text is not None:                # a bare panel over a bare one: its text alone goes
            if text.w and text.h:
                self.solids.fill(BG, text)
            return
        if covers is None:
            self.solids.fill(BG, rect)
        elif covers > 0:
            for x, y in ((rect.x, rect.y), (rect.right - covers, rect.y), (rect.x, rect.bottom - covers),
                         (rect.right - covers, rect.bottom - covers)):
                self.solids.fill(BG, pygame.Rect(x, y, covers, covers).clip(rect))
        self.mark(rect)

    def _old_text(self, shown: Shown | None, rect: pygame.Rect) -> pygame.Rect | None:
        """Where the text of the bare panel on the screen in ``slot`` is (an empty rect for none),
        when all else of ``rect`` is the background; None when it is not known to be (no panel
        there, one that is not bare, or one whose kept scene is not back yet)."""
        if shown is None or not shown.bare or (self._putting is not None and self._putting.area.colliderect(rect)):
            return None
        return text_box(shown.drawn, rect)

    def _replay(self, shown: Shown) -> None:
        """What drawing a kept panel recorded, recorded again for this frame."""
        self.painter.drawn.extend(shown.drawn)
        self.hits.extend(shown.hits)
        self.panels.update(shown.panels)
        self.level_rects.update(shown.level_rects)

    def _repaint(self, area: pygame.Rect, rect: pygame.Rect, slot: Slot, shown: Shown,
                 draw: Callable[[], Any]) -> bool:
        """A kept panel (in ``rect``) put back inside ``area`` alone (an overlay lay there): blitted
        from the store when it is there, or from a kept scene that holds this very panel (the same
        record: not drawn since the scene was kept), else drawn again clipped to ``area``; the same
        pixels as before, since ``draw`` depends only on the key; what it records is the kept
        panel's already (``shown``). Whether it was drawn."""
        kept = self.store.get(shown.key, rect.size) if self._storing else None
        if kept is not None:
            kept.blit(self.solids, rect, area)
            return False
        for (_scene, where), scene in self._scenes.items():
            if scene.shown.get(slot) is shown:
                self.window.blit(scene.pixels, area, area.move(-where[0], -where[1]))
                return False
        n_drawn, n_hits = len(self.painter.drawn), len(self.hits)
        panels, levels = dict(self.panels), dict(self.level_rects)
        clip = self.window.get_clip()
        self.window.set_clip(area)
        self._drawing += 1
        try:
            self.solids.fill(BG, area)
            draw()
        finally:
            self._drawing -= 1
            self.window.set_clip(clip)
        del self.painter.drawn[n_drawn:], self.hits[n_hits:]
        self.panels, self.level_rects = panels, levels
        return True

    def clear(self, rect: pygame.Rect, color: tuple[int, int, int] = BG) -> None:
        """Before drawing afresh over what the last frame left (a frame that keeps panels): fill
        ``rect`` with ``color``, the background it is drawn on in a full frame."""
        if not self._drawing:
            self.settle()
        if self._reusing:
            self.solids.fill(color, rect)
            self.mark(rect)



__all__ = ["DieRoll", "Frame", "Kept", "KeptOverlay", "KeptOverlays", "OnScreen", "PanelStore", "PutBack", "Scene", "Shown", "Solids", "commonest_color", "moved", "text_box",
           "uncovered"]
