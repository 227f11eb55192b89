"""The QR code drawn on the screen holds the web view's address, module for module."""

from __future__ import annotations

import pygame
import segno

from table.ui.qr import QUIET, draw_qr, qr_matrix, qr_side


def test_the_drawn_code_matches_segnos_code_module_for_module() -> None:
    url = "http://192.168.1.20:8080/?key=Zm9vYmFyYmF6cXV4"
    window = pygame.Surface((400, 300))
    window.fill((14, 16, 22))
    rect = draw_qr(window, url, pygame.Rect(50, 20, 200, 260))
    assert rect is not None and rect.w == rect.h and pygame.Rect(50, 20, 200, 260).contains(rect)
    expected = [list(row) for row in segno.make(url, error="m", micro=False).matrix]
    modules = len(expected) + 2 * QUIET
    scale = rect.w // modules
    assert scale >= 2 and rect.w == scale * modules
    for y, row in enumerate(expected):
        for x, dark in enumerate(row):
            px = window.get_at((rect.x + (x + QUIET) * scale + scale // 2, rect.y + (y + QUIET) * scale + scale // 2))
            assert (px.r < 128) == bool(dark), (x, y)
    assert window.get_at((rect.x, rect.y)).r == 255                 # the quiet zone is light


def test_no_room_draws_nothing_rather_than_a_blur() -> None:
    window = pygame.Surface((100, 100))
    url = "http://10.0.0.2:8080/?key=abcdefghijklmnop"
    assert qr_side(url, 40) == 0 and draw_qr(window, url, pygame.Rect(0, 0, 40, 40)) is None
    assert qr_matrix(url) == qr_matrix(url)
