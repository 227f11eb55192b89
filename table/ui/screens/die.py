"""The die: a face with its pips, tumbling for DIE_MS after a roll (the Frame's ``die`` says how far)."""

from __future__ import annotations


import pygame

from table.ui.screens.kit import BG, TEXT

from table.ui.frame import Frame


def draw_die(f: Frame, r: pygame.Rect, value: int | None = None) -> None:
    """A die showing ``value`` (the result), tumbling for DIE_MS after a roll. The faces and the
    turned frames are kept (a few, and each face's first turned frame for good: that is the frame
    the roll's tap waits for), so the frame that first shows a roll does not build them again.
    The die is the Frame's overlay: a frame that keeps the panels pushes only the die's rectangle."""
    value = value or f.die.value or 1
    size = max(8, min(r.w, r.h))
    angle, zoom = 0, 1.0
    first = False
    if f.die.animating():
        step = int(f.die.progress() * TUMBLE_STEPS)         # the tumble in steps of a frame's time
        t = step / TUMBLE_STEPS
        angle, zoom = round(360 * (1 - t) ** 2 * 1.5), round(0.75 + 0.25 * t, 2)
        first = step == 0
    key = (int(value), size, angle, zoom)
    surf = _DIE_FRAMES.pop(key, None) or _DIE_FIRST.get(key)
    if surf is None:
        surf = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.rect(surf, TEXT, (0, 0, size, size), border_radius=size // 6)
        pip = max(2, size // 10)
        spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
                 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}
        for cx, cy in spots.get(int(value), []):
            pygame.draw.circle(surf, BG, (int(size * (0.25 + 0.25 * cx)), int(size * (0.25 + 0.25 * cy))), pip)
        if (angle, zoom) != (0, 1.0):
            surf = pygame.transform.rotozoom(surf, angle, zoom)
        while len(_DIE_FRAMES) >= DIE_FRAMES_KEPT:
            _DIE_FRAMES.pop(next(iter(_DIE_FRAMES)))
    if not first:
        _DIE_FRAMES[key] = surf
    elif key not in _DIE_FIRST:         # the frame a roll's tap waits for: each face's first turn is kept
        if len(_DIE_FIRST) >= DIE_FIRST_KEPT:
            _DIE_FIRST.clear()
        _DIE_FIRST[key] = surf
    at = surf.get_rect(center=r.center)
    f.window.blit(surf, at)
    f.overlay(at)                       # the next frame puts back what is under it


DIE_FRAMES_KEPT = 4
TUMBLE_STEPS = 18                       # DIE_MS / 18: about the run loop's 30 frames a second
DIE_FIRST_KEPT = 12                     # six faces at two sizes
_DIE_FRAMES: dict[tuple[int, int, int, float], pygame.Surface] = {}
_DIE_FIRST: dict[tuple[int, int, int, float], pygame.Surface] = {}      # the tumble's first frame, by face
