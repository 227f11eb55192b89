"""Panels whose data did not change stay on the screen from one frame to the next: such a frame is the
same, pixel for pixel and record for record, as one drawn in full; the die stops tumbling and leaves
the screen; text is kept in the window's pixel format; kept panel shapes leave their corners alone."""

from __future__ import annotations

import itertools
from pathlib import Path

import pygame
import pytest

from drivers.base import ManualClock
from drivers.sim import SimButtons, SimReader
from table.config import parse_config
from table.ui.display import Display
from table.ui.screens.kit import BG, DIE_MS, TEXT
from table.ui.scenes import PLAYER_MENU, SCENES, open_player_menu
from table.sim.script import parse_script
from table.sim.harness import perform
from table.ui.view import build_view
from table.control.assembly import build_table


def snapshot(display: Display) -> tuple[bytes, list, dict, list, dict]:
    return (pygame.image.tobytes(display.window, "RGB"), list(display.drawn), dict(display.panels),
            [(tuple(r), a) for r, a in display.hits], dict(display.level_rects))


def composed_and_full(display: Display, view) -> tuple[tuple, tuple]:  # type: ignore[no-untyped-def]
    """The frame as composed from the cache, then the same view drawn in full."""
    display.cache_enabled = True
    display.render(view)
    composed = snapshot(display)
    display.cache_enabled = False
    display.render(view)
    full = snapshot(display)
    display.cache_enabled = True
    return composed, full


def ticking_clock():  # type: ignore[no-untyped-def]
    """A clock a second further on at every look: the die never shows, so frames can be compared."""
    counter = itertools.count()
    return lambda: float(next(counter))


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1920, 1080)])
def test_every_composed_frame_of_every_scene_is_the_frame_drawn_in_full(tmp_path: Path, size: tuple[int, int]) -> None:
    display = Display(size, sim_strip=True, clock=ticking_clock())
    frames = 0
    try:
        for n, (name, script) in enumerate(SCENES.items()):
            config = parse_config({"display": {"width": size[0], "height": size[1], "sound": False}})
            clock = ManualClock()
            table = build_table(config, clock, state_dir=tmp_path / f"{size[0]}-{n}", seed_source=lambda: 1)
            reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
            for i, action in enumerate(parse_script(script, table.catalog, source=name)):
                perform(action, table, reader, buttons, clock)
                view = build_view(table.controller, entry=action.arg[:i % 5] if i % 3 == 0 else "")
                view.suggestions = [(action.arg, action.arg)] if i % 2 else []
                composed, full = composed_and_full(display, view)
                assert composed == full, f"{name}, after {action.verb} {action.arg}"
                frames += 1
            if name == "table":
                composed, full = composed_and_full(display, open_player_menu(table.controller))
                assert composed == full, PLAYER_MENU
            table.journal.close()
        assert display.cache_hits > frames, "the frames were not composed from kept panels"
    finally:
        display.close()


def test_an_unchanged_frame_draws_nothing_again_and_a_change_redraws_only_its_panels(tmp_path: Path) -> None:
    config = parse_config({"display": {"sound": False}})
    clock = ManualClock()
    table = build_table(config, clock, state_dir=tmp_path, seed_source=lambda: 1)
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    for action in parse_script(SCENES["table"], table.catalog):
        perform(action, table, reader, buttons, clock)
    display = Display((800, 480), clock=ticking_clock())
    try:
        display.render(build_view(table.controller))
        misses = display.cache_misses
        display.render(build_view(table.controller))
        assert display.cache_misses == misses
        player_2 = pygame.image.tobytes(display.window.subsurface(display.panels["player-2"]), "RGB")
        for action in parse_script("tap player-3\npress help\npress undo\n", table.catalog):   # player 3 goes up a level
            perform(action, table, reader, buttons, clock)
        view = build_view(table.controller)
        assert view.state["players"][2]["level"] == 2 and view.menu is None and view.player_menu is None
        display.render(view)
        assert display.cache_misses - misses <= 4               # player 3, the message, the soft keys, the top bar
        assert pygame.image.tobytes(display.window.subsurface(display.panels["player-2"]), "RGB") == player_2
    finally:
        table.journal.close()
        display.close()


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_screen_that_comes_back_showing_the_same_is_blitted_not_drawn(tmp_path: Path, size: tuple[int, int]) -> None:
    """The table, the fight, the table again as it was (the monster undone), twice over: the
    third time the table comes back no panel is drawn (a panel goes into the store the second time
    it is drawn), each comes from the store, and the frame is the one drawn in full."""
    config = parse_config({"display": {"width": size[0], "height": size[1], "sound": False}})
    clock = ManualClock()
    table = build_table(config, clock, state_dir=tmp_path, seed_source=lambda: 1)
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    for action in parse_script(SCENES["table"], table.catalog):
        perform(action, table, reader, buttons, clock)
    display = Display(size, clock=ticking_clock())
    try:
        before = build_view(table.controller)
        display.render(before)
        display.tidy()
        perform(parse_script("tap net-troll\n", table.catalog)[0], table, reader, buttons, clock)
        fight = build_view(table.controller)
        assert display.layout(fight) != display.layout(before)
        for view in (fight, before, fight):
            display.render(view)
            display.tidy()                              # as the run loop does before it sleeps
        misses, moves = display.cache_misses, display.cache_moves
        display.render(before)
        assert display.cache_misses == misses, "a panel was drawn again"
        assert display.cache_moves - moves >= len(before.state["players"])
        back = snapshot(display)
        display.cache_enabled = False
        display.render(before)
        assert back == snapshot(display)
    finally:
        table.journal.close()
        display.close()


def test_the_die_stops_tumbling_and_leaves_the_screen(tmp_path: Path) -> None:
    now = [100.0]
    config = parse_config({"display": {"sound": False}})
    clock = ManualClock()
    table = build_table(config, clock, state_dir=tmp_path, seed_source=lambda: 1)
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    display = Display((800, 480), clock=lambda: now[0])
    try:
        for action in parse_script("tap player-1\ntap player-2\ntap player-3\n", table.catalog):
            perform(action, table, reader, buttons, clock)
        display.render(build_view(table.controller))
        assert not display.wants_frame()
        for action in parse_script("press roll\n", table.catalog):       # the die picks who starts
            perform(action, table, reader, buttons, clock)
        view = build_view(table.controller)
        display.render(view)
        rolling = pygame.image.tobytes(display.window, "RGB")
        assert display.animating() and display.wants_frame()
        now[0] += DIE_MS / 1000 + 0.01
        assert not display.animating()
        assert display.wants_frame()                 # the last frame still shows the die
        display.render(view)
        assert not display.wants_frame()
        still = pygame.image.tobytes(display.window, "RGB")
        assert still != rolling
        display.cache_enabled = False
        display.render(view)                         # the same view drawn in full, with no die
        assert pygame.image.tobytes(display.window, "RGB") == still
    finally:
        table.journal.close()
        display.close()


def test_text_under_a_clip_is_drawn_inside_it_alone_with_the_same_pixels() -> None:
    """Text goes straight onto the window (FreeType, which ignores the clip): a panel repainted
    inside an overlay's area alone must change nothing outside it, and the same pixels inside."""
    display = Display((800, 480))
    try:
        window, painter = display.window, display.painter
        box = pygame.Rect(40, 40, 600, 80)
        window.fill(BG)
        drawn = painter.text("Net Troll, level 10", 40, TEXT, box)
        assert drawn.w > 200
        whole = window.copy()
        clip = pygame.Rect(drawn.x + drawn.w // 3, drawn.y + 5, drawn.w // 3, drawn.h // 2)
        window.fill(BG)
        window.set_clip(clip)
        assert painter.text("Net Troll, level 10", 40, TEXT, box) == drawn
        window.set_clip(None)
        inside = pygame.image.tobytes(window.subsurface(clip), "RGB")
        assert inside == pygame.image.tobytes(whole.subsurface(clip), "RGB")
        assert inside != bytes(BG) * (clip.w * clip.h)
        window.fill(BG, clip)
        blank = pygame.Surface(window.get_size(), 0, window)
        blank.fill(BG)
        assert pygame.image.tobytes(window, "RGB") == pygame.image.tobytes(blank, "RGB")
    finally:
        display.close()


def test_a_kept_panel_shape_leaves_its_corners_to_what_is_under_them() -> None:
    """Panels drawn from a kept shape are the pixels a direct draw gives, over any background."""
    from table.ui.fonts import FontChoice
    from table.ui.screens.kit import ACTIVE, PANEL_HI, Painter

    pygame.display.init()
    try:
        window = pygame.display.set_mode((800, 480))
        painter = Painter(window, FontChoice(None))
        expected = pygame.Surface((800, 480), 0, window)
        for background in ((14, 16, 22), (200, 30, 40)):
            for _ in range(2):                           # drawn, then blitted from the kept shape
                window.fill(background)
                window.fill((90, 160, 255), (0, 0, 400, 100))         # something under a corner
                painter.panel(pygame.Rect(10, 20, 240, 150), PANEL_HI, border=ACTIVE, width=4)
                expected.fill(background)
                expected.fill((90, 160, 255), (0, 0, 400, 100))
                Painter._draw_panel(expected, pygame.Rect(10, 20, 240, 150), PANEL_HI, ACTIVE, 4, max(4, int(10 * painter.s)))
                assert pygame.image.tobytes(window, "RGB") == pygame.image.tobytes(expected, "RGB")
        assert len(painter._panels) == 1
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080), (720, 1280)])
def test_a_large_panel_is_composed_into_the_pixels_a_direct_draw_gives(size: tuple[int, int]) -> None:
    """A panel too large to keep (a menu, setup's halves) is laid as flat rectangles and four
    corners from a small panel drawn once: the pixels pygame's rounded rectangle gives, over any
    background, with and without a border, and through the Frame's way of filling."""
    from table.ui.fonts import FontChoice
    from table.ui.frame import Solids
    from table.ui.screens.kit import ACTIVE, PANEL, PANEL_HI, Painter

    pygame.display.init()
    try:
        window = pygame.display.set_mode(size)
        painter = Painter(window, FontChoice(None))
        solids = Solids(window)
        expected = pygame.Surface(size, 0, window)
        w, h = size
        for n, (rect, color, border, width) in enumerate([
                (pygame.Rect(w // 10, h // 20, w * 3 // 4, h * 9 // 10), PANEL_HI, ACTIVE, int(3 * painter.s)),
                (pygame.Rect(3, 40, w // 2 + 7, h // 2 + 1), PANEL, None, 0),
                (pygame.Rect(w // 3, h // 4, w // 2, h // 2), PANEL_HI, ACTIVE, 0)]):
            painter.fill = solids.fill if n % 2 else painter._fill
            for background in ((14, 16, 22), (200, 30, 40)):
                for surface in (window, expected):
                    surface.fill(background)
                    surface.fill((90, 160, 255), (0, 0, w // 2, h // 3))          # something under a corner
                painter.panel(rect, color, border=border, width=width)
                Painter._draw_panel(expected, rect, color, border, width, painter.radius())
                assert pygame.image.tobytes(window, "RGB") == pygame.image.tobytes(expected, "RGB"), (rect, border)
        assert painter._corners and not painter._panels      # composed, not kept whole
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1920, 1080)])
def test_a_players_menu_opened_again_unchanged_is_blitted_and_is_the_menu_drawn(tmp_path: Path,
                                                                             size: tuple[int, int]) -> None:
    """A player's menu, closed and opened again with the same level, sex and keys, comes back from
    the copy kept at the tidy after it was drawn, over another background (the other screen): the
    frame is the one drawn in full, records and all; a level gone up draws it afresh."""
    config = parse_config({"display": {"width": size[0], "height": size[1], "sound": False}})
    clock = ManualClock()
    table = build_table(config, clock, state_dir=tmp_path, seed_source=lambda: 1)
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    for action in parse_script(SCENES["table"], table.catalog):
        perform(action, table, reader, buttons, clock)
    display = Display(size, sim_strip=True, clock=ticking_clock())
    ctl = table.controller
    try:
        display.render(build_view(ctl))
        display.tidy()
        for script in ("tap player-2\n", "press undo\n", "tap net-troll\ntap player-2\n", "press undo\n"):
            for action in parse_script(script, table.catalog):
                perform(action, table, reader, buttons, clock)
            display.render(build_view(ctl))
            display.tidy()                              # as the run loop does before it sleeps
        assert display.frame.overlays_reused == 1       # the second opening, over the fight
        for action in parse_script("tap player-2\n", table.catalog):
            perform(action, table, reader, buttons, clock)
        view = build_view(ctl)
        assert view.player_menu is not None
        composed, full = composed_and_full(display, view)
        assert display.frame.overlays_reused == 2 and composed == full
        for action in parse_script("press help\ntap player-2\n", table.catalog):     # a level up, the menu again
            perform(action, table, reader, buttons, clock)
        view = build_view(ctl)
        assert view.player_menu is not None and view.player_menu["level"] == 2
        composed, full = composed_and_full(display, view)
        assert display.frame.overlays_reused == 2 and composed == full
    finally:
        table.journal.close()
        display.close()


def test_a_cards_menu_opened_again_unchanged_is_blitted_in_landscape(tmp_path: Path) -> None:
    """A card's menu (no basket, landscape) closed and opened again comes back from its kept copy,
    the frame the one drawn in full; in portrait (the holder's gear under it) it is drawn each time."""
    for size, reused in (((800, 480), 1), ((720, 1280), 0)):
        config = parse_config({"display": {"width": size[0], "height": size[1], "sound": False}})
        clock = ManualClock()
        table = build_table(config, clock, state_dir=tmp_path / str(size[0]), seed_source=lambda: 1)
        reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
        for action in parse_script(SCENES["table"], table.catalog):
            perform(action, table, reader, buttons, clock)
        display = Display(size, clock=ticking_clock())
        try:
            display.render(build_view(table.controller))
            for script in ("tap boots-of-butt-kicking\n", "press undo\n"):
                for action in parse_script(script, table.catalog):
                    perform(action, table, reader, buttons, clock)
                display.render(build_view(table.controller))
                display.tidy()
            perform(parse_script("tap boots-of-butt-kicking\n", table.catalog)[0], table, reader, buttons, clock)
            view = build_view(table.controller)
            assert view.menu is not None and not view.basket
            composed, full = composed_and_full(display, view)
            assert display.frame.overlays_reused == reused and composed == full, size
        finally:
            table.journal.close()
            display.close()


def test_an_overlay_is_kept_in_bands_of_rows_within_its_budget() -> None:
    """An overlay of half the window is copied and encoded a band of at most a sixteenth of the
    window at a time (the peak of memory: the latency game's 80 MB at 1080p), blits back its own
    pixels anywhere, and the least recently used go first past the budget."""
    from table.ui.frame import KeptOverlays, Shown, Solids

    pygame.display.init()
    try:
        window = pygame.display.set_mode((800, 480))
        rect = pygame.Rect(100, 40, 600, 300)
        for y in range(rect.top, rect.bottom, 7):                          # something of its own in each band
            window.fill((30 + y % 200, 90, 160), pygame.Rect(rect.x + y % 300, y, 40, 3))
        expected = pygame.image.tobytes(window.subsurface(rect), "RGB")
        kept = KeptOverlays(window, windows=0.25)
        shown = Shown(("menu",), None, [], [])
        kept.drawn(("menu",), rect, shown, frame=1, place=0)
        kept.tidy(1, [rect])
        overlay = kept.get(("menu",), rect.size)
        assert overlay is not None and len(overlay.bands) > 1 and kept.bytes <= kept.budget
        assert all(band.w * band.h <= 800 * 480 / 16 for band, _ in overlay.bands)
        window.fill((0, 0, 0))
        there = pygame.Rect(150, 100, 600, 300)
        overlay.blit(Solids(window), there, there)
        assert pygame.image.tobytes(window.subsurface(there), "RGB") == expected
        kept.budget = overlay.bytes                                         # room for this one alone
        kept.drawn(("other",), rect, shown, frame=2, place=0)
        kept.tidy(2, [rect])
        assert kept.get(("menu",), rect.size) is None and kept.get(("other",), rect.size) is not None
    finally:
        pygame.display.quit()
