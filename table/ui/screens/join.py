"""The web view's join code on the box's screen: a QR code holding the address and its key, and
the address as text under it (setup screen: the board; player menu: that player's own page)."""

from __future__ import annotations


import pygame

from table.ui.screens.kit import DIM
from table.ui.qr import qr_side, qr_surface

from table.ui.frame import Frame
from table.ui.view import View

TEXT_SIZE = 14
TEXT_LINES = 2


def join_url(view: View, player: str = "") -> str:
    """The QR code's address: the board, or one player's page."""
    if not view.web_url or not player:
        return view.web_url
    return view.web_url.replace("/?key=", f"/p/{player}?key=", 1)


def address_lines(url: str) -> list[str]:
    """The address as text, for typing it in: where, then the key (``192.168.1.20:8080/`` and ``?key=…``)."""
    where, _, key = url.removeprefix("http://").partition("?")
    return [where, "?" + key] if key else [where]


def _text_height(f: Frame) -> int:
    return TEXT_LINES * f.painter.line_height(int(TEXT_SIZE * f.s)) + int(4 * f.s)


def join_room(f: Frame, view: View, most_w: int, room_h: int) -> int:
    """The width to set aside for the join code in a column ``room_h`` high, at most ``most_w``
    (0: no web view, or too little room for a code a camera reads)."""

    url = join_url(view, "player-6")            # the longest address the code may hold
    if not url or not qr_side(url, min(most_w, room_h - _text_height(f))):
        return 0
    return most_w


def draw_join(f: Frame, view: View, room: pygame.Rect, *, player: str = "") -> pygame.Rect | None:
    """The code as large as fits in ``room``, the address in text under it; returns the code's rect."""

    url = join_url(view, player)
    if not url:
        return None
    s = f.s
    line = f.painter.line_height(int(TEXT_SIZE * s))
    side = qr_side(url, min(room.w, room.h - _text_height(f)))
    if not side:
        return None
    rect = pygame.Rect(0, 0, side, side)
    rect.midtop = (room.centerx, room.y)
    f.window.blit(qr_surface(url, side), rect)
    y = rect.bottom + int(4 * s)
    for text in address_lines(url):
        f.painter.text(text, TEXT_SIZE * s, DIM, pygame.Rect(room.x, y, room.w, line), y=y, align="center", shrink=0.6)
        y += line
    f.panels["join-code"] = rect
    return rect
