"""The web view's address as a QR code on the box's screen (segno makes the code, pygame draws it)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

QUIET = 2           # modules of light margin around the code (phone cameras read 2 well on a dark screen)
LIGHT = (255, 255, 255)
DARK = (0, 0, 0)


@lru_cache(maxsize=8)
def qr_matrix(text: str) -> tuple[bytes, ...]:
    """The code's rows, one byte a module (1 dark), without the quiet zone."""
    import segno

    code = segno.make(text, error="m", micro=False)
    return tuple(bytes(row) for row in code.matrix)


def qr_side(text: str, room: int) -> int:
    """The side in pixels of the largest sharp code (whole pixels a module) that fits in ``room``; 0 if none."""
    modules = len(qr_matrix(text)) + 2 * QUIET
    scale = room // modules
    return scale * modules if scale >= 2 else 0


@lru_cache(maxsize=8)
def qr_surface(text: str, side: int) -> Any:
    """The code drawn at ``side`` pixels (from qr_side), quiet zone included."""
    import pygame

    rows = qr_matrix(text)
    modules = len(rows) + 2 * QUIET
    scale = max(1, side // modules)
    surface = pygame.Surface((modules * scale, modules * scale))
    surface.fill(LIGHT)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                surface.fill(DARK, ((x + QUIET) * scale, (y + QUIET) * scale, scale, scale))
    return surface


def draw_qr(window: Any, text: str, room: Any) -> Any:
    """Draw the code as large as fits in the pygame Rect ``room`` (centred); returns where, or None."""
    side = qr_side(text, min(room.w, room.h))
    if not side:
        return None
    surface = qr_surface(text, side)
    rect = surface.get_rect(center=room.center)
    window.blit(surface, rect)
    return rect
