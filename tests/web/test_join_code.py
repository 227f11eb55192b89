"""The join code on the box's screen: setup shows the board's QR code, a player's menu their own page's."""

from __future__ import annotations

import pygame
import pytest
import segno

from table.ui.scenes import SCENES, open_player_menu
from table.ui.screens.join import join_url
from table.ui.view import build_view
from table.ui.qr import QUIET
from tests.table.test_display import SIZES, assert_text_inside_panels, rig_factory  # noqa: F401

URL = "http://192.168.1.20:8080/?key=Zm9vYmFyYmF6cXV4"


def with_web(view):  # type: ignore[no-untyped-def]
    view.web_url = URL
    return view


def assert_code_reads(window: pygame.Surface, rect: pygame.Rect, url: str) -> None:
    expected = [list(row) for row in segno.make(url, error="m", micro=False).matrix]
    scale = rect.w // (len(expected) + 2 * QUIET)
    assert scale >= 2, "modules too small for a phone camera"
    for y, row in enumerate(expected):
        for x, dark in enumerate(row):
            px = window.get_at((rect.x + (x + QUIET) * scale + scale // 2, rect.y + (y + QUIET) * scale + scale // 2))
            assert (px.r < 128) == bool(dark), (x, y)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_setup_screen_shows_the_boards_code_and_address(rig_factory, size, language: str) -> None:  # noqa: F811
    rig = rig_factory(size, language).run(SCENES["setup"])
    rig.display.render(with_web(build_view(rig.table.controller, language=language)))
    code = rig.display.panels["join-code"]
    assert rig.display.panels["seats"].contains(code)
    assert_code_reads(rig.display.window, code, URL)
    drawn = [d.text for d in rig.display.drawn]
    assert "192.168.1.20:8080/" in drawn and "?key=Zm9vYmFyYmF6cXV4" in drawn
    assert not any(d.rect.colliderect(code) for d in rig.display.drawn)       # no seat name under the code
    assert_text_inside_panels(rig.display)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_players_menu_shows_the_code_of_their_own_page(rig_factory, size) -> None:  # noqa: F811
    rig = rig_factory(size).run(SCENES["table"])
    view = with_web(open_player_menu(rig.table.controller, "en", "player-2"))
    rig.display.render(view)
    code = rig.display.panels["join-code"]
    assert rig.display.panels["player-menu"].contains(code)
    assert join_url(view, "player-2") == "http://192.168.1.20:8080/p/player-2?key=Zm9vYmFyYmF6cXV4"
    assert_code_reads(rig.display.window, code, join_url(view, "player-2"))
    drawn = [d.text for d in rig.display.drawn]
    assert "192.168.1.20:8080/p/player-2" in drawn and "?key=Zm9vYmFyYmF6cXV4" in drawn
    menu = rig.display.panels["player-menu"]             # (the table screen lies under the menu)
    assert not any(d.rect.colliderect(code) for d in rig.display.drawn if menu.contains(d.box))
    assert_text_inside_panels(rig.display)


def test_without_the_web_view_there_is_no_code(rig_factory) -> None:  # noqa: F811
    rig = rig_factory().run(SCENES["setup"])
    assert "join-code" not in rig.display.panels
