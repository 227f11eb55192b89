"""The Frame the screens draw on, the die it shows, opening the screen once, and the screens' imports."""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

import pygame
import pytest

from drivers.events import BUTTONS
from table.config import parse_config
from table.ui.display import X11_NARROW_COST, Display, whole_is_cheaper
from table.ui.frame import DieRoll, Frame, Solids, uncovered
from table.words.i18n import language as current_language
from table.ui.keys import FKEYS, KEYS
from table.ui.screen import NoScreen, ScreenPlan, headless_display
from table.ui.screens.bars import draw_phases
from table.ui.screens.kit import BG, DIE_MS, Painter
from table.ui.fonts import FontChoice

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def frame():  # type: ignore[no-untyped-def]
    pygame.display.init()
    window = pygame.display.set_mode((400, 240))
    yield Frame(window, Painter(window, FontChoice(None)), size=(400, 240), s=0.5, portrait=False,
                die=DieRoll(lambda: 0.0))
    pygame.display.quit()


def draw_box(f: Frame, rect: pygame.Rect, color: tuple[int, int, int]) -> str:
    f.window.fill(color, rect)
    f.panels["box"] = rect
    f.hits.append((rect, ("button", "next")))
    f.t("hello", 20, (255, 255, 255), rect)
    return "drawn"


def test_a_kept_panel_is_left_on_the_screen_and_its_records_replayed(frame: Frame) -> None:
    rect = pygame.Rect(10, 10, 100, 50)
    calls: list[int] = []

    def draw() -> str:
        calls.append(1)
        return draw_box(frame, rect, (200, 0, 0))

    frame.begin(reuse=False)
    assert frame.cached(("box", 1), rect, draw) == "drawn"
    frame.end()
    frame.begin(reuse=True)
    assert frame.panels == {} and frame.hits == [] and frame.drawn == []
    assert frame.cached(("box", 1), rect, draw) == "drawn"       # the same data: not drawn again
    assert len(calls) == 1 and frame.cache_hits == 1
    assert frame.panels == {"box": rect} and frame.hit(rect.center) == ("button", "next")
    assert [d.text for d in frame.drawn] == ["hello"]
    frame.cached(("box", 2), rect, draw)                        # other data: drawn afresh
    assert len(calls) == 2 and frame.cache_misses == 2


def test_clear_blanks_only_over_a_kept_frame(frame: Frame) -> None:
    rect = pygame.Rect(0, 0, 20, 20)
    frame.begin(reuse=False)
    frame.window.fill((1, 2, 3), rect)
    frame.clear(rect)                                           # a full frame starts on the background anyway
    assert frame.window.get_at((5, 5))[:3] == (1, 2, 3)
    frame.begin(reuse=True)
    frame.clear(rect)
    assert frame.window.get_at((5, 5))[:3] == BG


def test_a_panel_drawn_afresh_is_cleared_only_where_it_does_not_cover_its_rect(frame: Frame) -> None:
    """A panel whose drawing fills all of its rect first (``covers=0``) is drawn straight over what
    was there, one that leaves its corners (``covers=n``) on the background there only; any other
    is drawn onto the background."""
    rect = pygame.Rect(0, 0, 40, 20)
    half = pygame.Rect(0, 0, 20, 20)
    for covers, corner, middle in ((0, (1, 2, 3), (1, 2, 3)), (4, BG, (1, 2, 3)), (None, BG, BG)):
        frame.begin(reuse=True)
        frame.window.fill((1, 2, 3), rect)
        frame.cached(("part", covers), rect, lambda: frame.window.fill((200, 0, 0), half), covers=covers)
        assert frame.window.get_at((5, 10))[:3] == (200, 0, 0)
        assert frame.window.get_at((38, 18))[:3] == corner and frame.window.get_at((35, 18))[:3] == (1, 2, 3) if covers == 4 \
            else frame.window.get_at((38, 18))[:3] == corner
        assert frame.window.get_at((30, 10))[:3] == middle
        assert frame.dirty == [rect]


def test_a_panel_not_drawn_in_a_frame_is_no_longer_kept(frame: Frame) -> None:
    rect = pygame.Rect(10, 10, 100, 50)
    calls: list[int] = []

    def draw() -> str:
        calls.append(1)
        return draw_box(frame, rect, (0, 200, 0))

    frame.begin(reuse=False)
    frame.cached(("box",), rect, draw)
    frame.end()
    frame.begin(reuse=True)                                     # a frame without the panel
    frame.end()
    frame.begin(reuse=True)
    frame.cached(("box",), rect, draw)
    assert len(calls) == 2


def test_a_panel_that_comes_back_elsewhere_is_blitted_from_the_store_with_its_records_moved(frame: Frame) -> None:
    first, there = pygame.Rect(10, 10, 100, 50), pygame.Rect(200, 150, 100, 50)
    calls: list[pygame.Rect] = []

    def draw(rect: pygame.Rect) -> None:
        calls.append(rect)
        draw_box(frame, rect, (200, 0, 0))

    for _ in range(2):                                          # drawn once, it is only remembered
        frame.begin(reuse=True, store=True)
        frame.clear(first)
        frame.end()
        frame.begin(reuse=True, store=True)
        frame.cached(("box", 1), first, lambda: draw(first))
        frame.end()
        assert len(frame.store) == 0                            # into the store between frames, not in one
        frame.tidy()
    assert calls == [first, first] and frame.cache_moves == 0 and len(frame.store) == 1
    frame.begin(reuse=True, store=True)                         # the panel leaves the screen
    frame.clear(first)
    frame.end()
    frame.begin(reuse=True, store=True)
    frame.cached(("box", 1), there, lambda: draw(there))        # back, the same data, elsewhere
    assert calls == [first, first] and frame.cache_moves == 1 and frame.cache_hits == 1
    assert frame.panels == {"box": there} and frame.hit(there.center) == ("button", "next")
    assert [(d.text, d.box) for d in frame.drawn] == [("hello", there)]
    assert frame.dirty == [there]
    blitted = pygame.image.tobytes(frame.window.subsurface(there), "RGB")
    frame.begin(reuse=False)                                    # drawn there in full, no store: the same pixels
    frame.cached(("box", 1), there, lambda: draw(there))
    assert calls == [first, first, there]
    assert pygame.image.tobytes(frame.window.subsurface(there), "RGB") == blitted
    frame.begin(reuse=False)
    frame.cached(("box", 2), there, lambda: draw(there))        # other data: drawn, whatever the store holds
    assert len(calls) == 4


def test_a_screen_that_comes_back_is_put_back_as_it_was_left_and_its_panels_stay(frame: Frame) -> None:
    """Scene A (two panels, and a mark between them) is kept between frames; scene B is laid out
    over the same area; back on A, its panels are hits (not drawn, not blitted from the store), the
    area is A's pixels again once the screen has drawn (``settle``), and a panel that changed
    meanwhile is drawn over it."""
    area = pygame.Rect(0, 0, 300, 200)
    one, two, mark = pygame.Rect(10, 10, 120, 60), pygame.Rect(10, 100, 120, 60), pygame.Rect(200, 80, 30, 30)
    calls: list[str] = []

    def box(name: str, rect: pygame.Rect, color: tuple[int, int, int]) -> None:
        calls.append(name)
        draw_box(frame, rect, color)

    frame.begin(reuse=False, scene="A")
    frame.cached(("one",), one, lambda: box("one", one, (200, 0, 0)))
    frame.cached(("two",), two, lambda: box("two", two, (0, 200, 0)))
    frame.window.fill((7, 7, 7), mark)
    frame.end()
    frame.keep_scene(area)
    left_as = pygame.image.tobytes(frame.window.subsurface(area), "RGB")
    frame.begin(reuse=True, blank=area, store=True, scene="B")          # another screen there
    frame.cached(("other",), one, lambda: box("other", one, (0, 0, 200)))
    frame.end()
    frame.keep_scene(area)
    assert pygame.image.tobytes(frame.window.subsurface(area), "RGB") != left_as
    frame.begin(reuse=True, blank=area, store=True, scene="A")          # back
    assert frame.dirty == [area] and frame.cache_scenes == 1
    frame.cached(("one",), one, lambda: box("one", one, (200, 0, 0)))
    frame.cached(("two",), two, lambda: box("two", two, (0, 200, 0)))
    frame.settle()
    assert pygame.image.tobytes(frame.window.subsurface(area), "RGB") == left_as
    frame.end()
    assert calls == ["one", "two", "other"] and frame.cache_moves == 0
    frame.begin(reuse=True, blank=area, store=True, scene="B")
    frame.end()
    frame.begin(reuse=True, blank=area, store=True, scene="A")
    frame.cached(("one",), one, lambda: box("one", one, (200, 0, 0)))
    frame.cached(("two", "changed"), two, lambda: box("two changed", two, (0, 0, 90)))
    frame.end()                                                         # settles too
    assert calls == ["one", "two", "other", "two changed"] and frame.cache_moves == 0
    assert frame.panels == {"box": two} and [d.text for d in frame.drawn] == ["hello", "hello"]
    assert frame.window.get_at(two.center)[:3] == (0, 0, 90) and frame.window.get_at(mark.center)[:3] == (7, 7, 7)
    frame.keep_scene(area)                                              # drawn there since: kept again
    frame.begin(reuse=True, blank=area, store=True, scene="B")
    frame.end()
    frame.begin(reuse=True, blank=area, store=True, scene="A")
    frame.end()                                                         # nothing drawn: all of it from the scene
    assert frame.window.get_at(two.center)[:3] == (0, 0, 90) and frame.window.get_at(one.center)[:3] == (200, 0, 0)
    frame.begin(reuse=True, blank=area, store=False, scene="B")         # no store, no scene: blanked
    frame.cached(("other",), one, lambda: box("other", one, (0, 0, 200)))
    assert frame.window.get_at(two.center)[:3] == (0, 0, 90)            # at settle, not before
    frame.end()
    assert frame.window.get_at(two.center)[:3] == BG and frame.window.get_at(one.center)[:3] == (0, 0, 200)


def test_uncovered_is_the_area_less_the_covers_in_rectangles_apart() -> None:
    area = pygame.Rect(0, 0, 50, 40)
    covers = [pygame.Rect(5, 5, 10, 10), pygame.Rect(10, 10, 30, 5), pygame.Rect(-5, 30, 100, 20), pygame.Rect(60, 0, 5, 5)]
    parts = uncovered(area, covers)
    for x in range(-2, 52):
        for y in range(-2, 42):
            inside = sum(r.collidepoint(x, y) for r in parts)
            expected = area.collidepoint(x, y) and not any(c.collidepoint(x, y) for c in covers)
            assert inside == expected, (x, y)


def test_a_scene_is_not_kept_while_an_overlay_waits_to_be_put_back_nor_past_its_budget(frame: Frame) -> None:
    area = pygame.Rect(0, 0, 300, 200)
    frame.begin(reuse=False, scene="A")
    frame.window.fill((9, 9, 9), (20, 20, 40, 40))
    frame.overlay(pygame.Rect(20, 20, 40, 40))                         # the die, this frame only
    frame.end()
    frame.keep_scene(area)
    frame.begin(reuse=True, blank=area, store=True, scene="A")
    assert frame.cache_scenes == 0 and frame.window.get_at((30, 30))[:3] == BG
    frame.end()
    window_bytes = 400 * 240 * frame.window.get_bytesize()
    frame.SCENE_WINDOWS = 2.5 * area.w * area.h * frame.window.get_bytesize() / window_bytes   # two scenes and a half
    for name in "ABC":
        frame.begin(reuse=True, blank=area, store=True, scene=name)
        frame.end()
        frame.keep_scene(area)
    assert [key[0] for key in frame._scenes] == ["B", "C"]                # the least recently used went


def test_the_store_keeps_panels_drawn_twice_run_length_encoded_within_its_budget(frame: Frame) -> None:
    frame.store.budget = 4_000                                  # a few of the panels below
    for _ in range(2):                                          # each drawn twice: kept the second time
        for n in range(40):
            frame.begin(reuse=False, store=True)
            rect = pygame.Rect(n % 4 * 100, 0, 100, 50)
            frame.cached(("box", n), rect, lambda rect=rect: draw_box(frame, rect, (30, 30, 30)) and None)  # type: ignore[misc]
            frame.end()
            frame.tidy()
    store = frame.store
    assert 0 < store.bytes <= store.budget and len(store) < 40       # the oldest went
    kept = store.get((current_language(), "box", 39), (100, 50))
    assert kept is not None and kept.surface.get_flags() & pygame.RLEACCEL and kept.flat == (30, 30, 30)
    assert store.get((current_language(), "box", 0), (100, 50)) is None
    assert kept.bytes < 100 * 50 * frame.window.get_bytesize() / 2          # mostly one colour: kept small
    big = pygame.Rect(0, 0, 400, 120)                                      # half the window: not kept
    for _ in range(2):
        frame.begin(reuse=False, store=True)
        frame.cached(("big",), big, lambda: draw_box(frame, big, (30, 30, 30)) and None)  # type: ignore[func-returns-value]
        frame.end()
        frame.tidy()
    assert store.get((current_language(), "big"), big.size) is None
    once = pygame.Rect(0, 0, 100, 50)                                      # drawn once: not kept
    frame.begin(reuse=False, store=True)
    frame.cached(("once",), once, lambda: draw_box(frame, once, (30, 30, 30)) and None)  # type: ignore[func-returns-value]
    frame.end()
    frame.tidy()
    assert store.get((current_language(), "once"), once.size) is None


def test_a_panel_under_an_overlay_at_tidy_time_does_not_go_into_the_store(frame: Frame) -> None:
    rect = pygame.Rect(10, 10, 100, 50)
    for _ in range(2):
        frame.begin(reuse=False, store=True)
        frame.cached(("box",), rect, lambda: draw_box(frame, rect, (30, 30, 30)) and None)  # type: ignore[func-returns-value]
        frame.window.fill((255, 255, 255), (20, 20, 10, 10))    # a die over it
        frame.overlay(pygame.Rect(20, 20, 10, 10))
        frame.end()
        frame.tidy()
    assert len(frame.store) == 0


def _under_an_overlay(frame: Frame, draw, rect: pygame.Rect, *, scene: object = None,  # type: ignore[no-untyped-def]
                      area: pygame.Rect | None = None) -> bytes:
    """``rect``'s panel drawn and its frame kept (``area``'s scene too, when given); the next
    frame has a die over it; the pixels of the panel as it was before the die."""
    frame.begin(reuse=False, store=True, scene=scene)
    frame.cached(("box",), rect, draw)
    frame.end()
    frame.tidy()
    if area is not None:
        frame.keep_scene(area)
    before = pygame.image.tobytes(frame.window.subsurface(rect), "RGB")
    frame.begin(reuse=True, store=True, scene=scene)
    frame.cached(("box",), rect, draw)
    frame.window.fill((255, 255, 255), (20, 20, 30, 30))        # a die over it
    frame.overlay(pygame.Rect(20, 20, 30, 30))
    frame.end()
    frame.tidy()
    return before


def test_a_panel_under_an_overlay_is_put_back_from_a_kept_scene_that_holds_it_not_drawn(frame: Frame) -> None:
    rect, area = pygame.Rect(10, 10, 100, 50), pygame.Rect(0, 0, 200, 100)
    calls: list[int] = []

    def draw() -> None:
        calls.append(1)
        draw_box(frame, rect, (30, 30, 30))

    before = _under_an_overlay(frame, draw, rect, scene="A", area=area)
    assert len(calls) == 1 and len(frame.store) == 0            # drawn once: in no store, in the scene
    frame.begin(reuse=True, store=True, scene="A")
    frame.cached(("box",), rect, draw)
    frame.end()
    assert len(calls) == 1, "a panel the kept scene holds was drawn again under the die"
    assert frame.cache_repaints == 1
    assert pygame.image.tobytes(frame.window.subsurface(rect), "RGB") == before


def test_a_panel_drawn_again_under_an_overlay_goes_into_the_store_for_the_next(frame: Frame) -> None:
    rect = pygame.Rect(10, 10, 100, 50)
    calls: list[int] = []

    def draw() -> None:
        calls.append(1)
        draw_box(frame, rect, (30, 30, 30))

    before = _under_an_overlay(frame, draw, rect)               # no scene: nowhere to put it back from
    frame.begin(reuse=True, store=True)
    frame.cached(("box",), rect, draw)
    frame.end()
    assert len(calls) == 2                                      # drawn again inside the die's area
    assert pygame.image.tobytes(frame.window.subsurface(rect), "RGB") == before
    assert frame.store.get((current_language(), "box"), rect.size) is None
    frame.tidy()
    assert frame.store.get((current_language(), "box"), rect.size) is not None
    frame.begin(reuse=True, store=True)                         # a die over it again: from the store
    frame.cached(("box",), rect, draw)
    frame.window.fill((255, 255, 255), (20, 20, 30, 30))
    frame.overlay(pygame.Rect(20, 20, 30, 30))
    frame.end()
    frame.begin(reuse=True, store=True)
    frame.cached(("box",), rect, draw)
    frame.end()
    assert len(calls) == 2
    assert pygame.image.tobytes(frame.window.subsurface(rect), "RGB") == before


def test_the_die_tumbles_for_die_ms_after_a_roll() -> None:
    now = [10.0]
    die = DieRoll(lambda: now[0])
    assert not die.animating() and die.progress() == 1.0 and die.value is None
    die.roll(4)
    assert die.animating() and die.value == 4 and die.progress() == 0.0
    now[0] += DIE_MS / 2000
    assert die.progress() == pytest.approx(0.5)
    now[0] += DIE_MS / 1000
    assert not die.animating()


def test_a_rolls_first_tumbling_frame_is_built_once_per_face(frame: Frame, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The frame a roll's tap waits for shows the die's first turn: kept for each face, however
    many other turned frames the tumble builds between two rolls."""
    from table.ui.screens import die

    monkeypatch.setattr(die, "_DIE_FIRST", {})
    monkeypatch.setattr(die, "_DIE_FRAMES", {})
    now = [0.0]
    frame.die = DieRoll(lambda: now[0])
    turned: list[float] = []
    real = pygame.transform.rotozoom
    monkeypatch.setattr(pygame.transform, "rotozoom", lambda surf, angle, zoom: turned.append(angle) or real(surf, angle, zoom))
    rect = pygame.Rect(100, 50, 120, 120)
    for _ in range(2):
        frame.die.roll(4)
        now[0] += 0.001                             # a millisecond after the roll: still its first step
        frame.begin(reuse=False)
        die.draw_die(frame, rect, 4)
        for step in range(1, die.TUMBLE_STEPS):     # the rest of the tumble
            now[0] += DIE_MS / 1000 / die.TUMBLE_STEPS
            frame.begin(reuse=False)
            die.draw_die(frame, rect, 4)
    first = round(360 * 1.5)
    assert turned.count(first) == 1 and len(turned) > die.TUMBLE_STEPS


def test_show_draws_a_whole_frame_that_is_not_a_view() -> None:
    display = Display((400, 240))
    try:
        display.show(lambda f: draw_box(f, pygame.Rect(0, 0, 50, 50), (9, 9, 9)) and None)
        assert display.panels == {"box": pygame.Rect(0, 0, 50, 50)}
        assert display.window.get_at((25, 25))[:3] == (9, 9, 9)
        assert display.window.get_at((200, 200))[:3] == BG
        assert display.hit((25, 25)) == ("button", "next") and display.frames == 1
    finally:
        display.close()


def test_a_screenshot_that_cannot_be_written_is_an_os_error(tmp_path: Path) -> None:
    """Callers (simulate --screenshot) catch OSError alone, with no pygame of their own."""
    display = Display((400, 240))
    try:
        display.save(tmp_path / "shot.png")
        assert pygame.image.load(str(tmp_path / "shot.png")).get_size() == (400, 240)
        with pytest.raises(OSError):
            display.save(tmp_path / "no-such-folder" / "shot.png")
    finally:
        display.close()


def test_the_simulators_keys_are_the_buttons_in_order() -> None:
    assert list(KEYS) == ["f1", "f2", "f3", "f4", "f5"]
    assert list(KEYS.values()) == list(BUTTONS)
    assert {key.upper(): button for key, button in KEYS.items()} == {v: k for k, v in FKEYS.items()}


def test_no_screen_is_said_before_anything_is_opened(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("table.ui.screen.is_raspberry_pi", lambda: False)
    monkeypatch.setattr(sys, "platform", "linux")
    with pytest.raises(NoScreen, match="no desktop session"):
        ScreenPlan(parse_config({})).check()


def test_full_screen_on_a_console_asks_sdl_for_kms(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    ScreenPlan(parse_config({"display": {"fullscreen": "yes"}})).check()
    assert os.environ["SDL_VIDEODRIVER"] == "kmsdrm"


def test_the_headless_display_has_the_configs_size_and_draws(tmp_path: Path) -> None:
    display = headless_display(parse_config({"display": {"width": 720, "height": 1280}}))
    try:
        assert display.size == (720, 1280) and display.frame.portrait
        assert os.environ["SDL_VIDEODRIVER"] == "dummy"
    finally:
        display.close()


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_screens_never_import_the_display_or_the_app() -> None:
    """Screens draw on the Frame they are handed (type-only import); the Display and the app import them."""
    bad = {str(p.relative_to(ROOT)): sorted(n for n in imported_modules(p)
                                             if n == "table.ui.display" or n.startswith("table.app"))
           for p in sorted((ROOT / "table" / "ui" / "screens").glob("*.py"))}
    assert {k: v for k, v in bad.items() if v} == {}
    assert "table.ui.frame" in imported_modules(ROOT / "table" / "ui" / "screens" / "bars.py")   # the walker sees imports


TYPED = ["table/ui/frame.py", "table/ui/screen.py", "table/ui/keys.py", "table/ui/display.py", "table/ui/screens", "table/ui/picker.py",
         "table/ui/fonts.py", "table/ui/sound.py", "table/ui/qr.py", "table/words/catalogs.py", "table/words/i18n.py",
         "table/ui/scenes.py", "table/app"]


def test_the_whole_window_is_pushed_when_its_narrow_rectangles_would_cost_the_server_more() -> None:
    """Rectangles narrower than the window cost X11_NARROW_COST times per pixel what full-width
    ones do (measured through Xvfb): a screen switch's phase area is dearer than the window, one
    panel, the message line and a key are not, and full-width bands cost what their pixels do."""
    size = (1920, 1080)
    phase, message, key = pygame.Rect(601, 90, 1301, 748), pygame.Rect(18, 851, 1884, 81), pygame.Rect(9, 945, 366, 126)
    gear = pygame.Rect(601, 90, 1301, 109)
    assert whole_is_cheaper([phase, message, key], size, X11_NARROW_COST)
    assert not whole_is_cheaper([gear, message, key], size, X11_NARROW_COST)
    assert not whole_is_cheaper([pygame.Rect(0, 0, 1920, 1000)], size, X11_NARROW_COST)
    assert whole_is_cheaper([pygame.Rect(0, 0, 1920, 1080)], size, X11_NARROW_COST)
    assert not whole_is_cheaper([phase, message, key], size, 1.0)      # where every pixel costs the same
    assert not whole_is_cheaper([], size, X11_NARROW_COST)


def test_without_a_display_server_the_rectangles_drawn_are_what_is_pushed() -> None:
    display = Display((800, 480))
    try:
        assert display.narrow_cost is None
        display.push([pygame.Rect(0, 0, 700, 400)])
        assert display.pushed == [pygame.Rect(0, 0, 700, 400)]
    finally:
        display.close()


@pytest.mark.parametrize("way", ["fill", "bands", None])
def test_solids_fill_the_pixels_surface_fill_does_either_way(frame: Frame, way: str | None) -> None:
    """Flat colour from ``Solids``, decided either way or still trying both: the pixels of
    ``Surface.fill``, inside the clip, for rects taller than a band, off the edge, too small to
    time, and more colours than it keeps bands for."""
    window = frame.window
    expected = pygame.Surface(window.get_size(), 0, window)
    solids = Solids(window)
    solids.way = way
    rects = [pygame.Rect(3, 5, 201, 3 * Solids.BAND + 90), pygame.Rect(-10, 100, 250, 120), pygame.Rect(390, 0, 40, 10),
             pygame.Rect(7, 7, 0, 9), pygame.Rect(-30, 150, 500, 60)]      # the last wider than the window
    for clip in (None, pygame.Rect(20, 20, 300, 200)):
        for n in range(Solids.KEPT + 3):
            color = (n * 20, 255 - n * 7, (n * 53) % 256)
            window.fill((1, 2, 3))
            expected.fill((1, 2, 3))
            window.set_clip(clip)
            expected.set_clip(clip)
            for rect in rects:
                solids.fill(color, rect.move(n, n))
                expected.fill(color, rect.move(n, n))
            window.set_clip(None)
            expected.set_clip(None)
            assert pygame.image.tobytes(window, "RGB") == pygame.image.tobytes(expected, "RGB")
    assert len(solids._bands) == (0 if way == "fill" else Solids.KEPT)


@pytest.mark.parametrize(("fill_cost", "band_cost", "chosen"), [(5.0, 2.0, "bands"), (2.0, 5.0, "fill")])
def test_solids_keep_to_the_way_this_machine_fills_faster(frame: Frame, fill_cost: float, band_cost: float,
                                                          chosen: str) -> None:
    """The first TRIALS fills big enough to time alternate the two ways; then the faster one (per
    pixel, median) is the only one used. Small rects are never timed."""
    now = [0.0]
    used: list[str] = []

    class Timed(Solids):
        def _by_fill(self, color, rect):  # type: ignore[no-untyped-def]
            used.append("fill")
            now[0] += fill_cost
            super()._by_fill(color, rect)

        def _by_bands(self, band, rect):  # type: ignore[no-untyped-def]
            used.append("bands")
            now[0] += band_cost
            super()._by_bands(band, rect)

    solids = Timed(frame.window, clock=lambda: now[0])
    big, small = pygame.Rect(0, 0, 200, 100), pygame.Rect(0, 0, 20, 20)
    for _ in range(Solids.TRIALS - 1):
        solids.fill((9, 9, 9), small)
        solids.fill((9, 9, 9), big)
    assert solids.way is None and sorted(set(used)) == ["bands", "fill"]
    assert abs(used.count("fill") - used.count("bands")) <= 1
    solids.fill((9, 9, 9), big)
    assert solids.way == chosen
    used.clear()
    for _ in range(10):
        solids.fill((9, 9, 9), big)
    assert used == ([chosen] * 10 if chosen == "bands" else [])      # decided: SDL's fill is called directly


@pytest.mark.parametrize("learn", [True, False])
def test_frames_drawn_in_full_with_learn_feed_the_store_with_what_changed(frame: Frame, learn: bool) -> None:
    """Frames drawn in full that learn put into the store (at tidy) the panels they drew that the frame
    before did not show as they are: a kept frame later blits one of those from the store, not drawn."""
    here, there = pygame.Rect(10, 10, 100, 50), pygame.Rect(200, 100, 100, 50)
    calls: list[int] = []

    def draw() -> None:                         # a panel that returns nothing is one the store keeps
        calls.append(1)
        draw_box(frame, here, (0, 0, 200))

    for key in (1, 2, 1, 1):                    # key 1 drawn, changed, back: the store keeps what is drawn twice
        frame.begin(reuse=False, learn=learn)
        frame.cached(("box", key), here, draw)
        frame.end()
        queued = len(frame._to_store)
        frame.tidy()
    assert queued == 0                          # the last frame showed box 1 there already: nothing new to learn
    assert len(calls) == 4
    frame.begin(reuse=True, store=True)
    frame.cached(("box", 1), there, draw)
    frame.end()
    assert frame.cache_moves == (1 if learn else 0)
    assert len(calls) == (4 if learn else 5)


def test_bands_are_blitted_from_where_no_row_starts_on_16_bytes(frame: Frame) -> None:
    """SDL copies a rect whose source rows start on 16 bytes (and the destination's too) with
    streaming stores, as slow as its fill on some machines; a band is blitted from its second
    column, so no source row starts there, for any rect, and it still reaches the window's right edge."""
    window = frame.window
    blitted: list[tuple[pygame.Surface, pygame.Rect]] = []

    class Recording(pygame.Surface):
        def blits(self, sequence, doreturn=True):  # type: ignore[no-untyped-def]
            sequence = list(sequence)
            blitted.extend((source, pygame.Rect(area)) for source, _at, area in sequence)
            return super().blits(sequence, doreturn)

    surface = Recording(window.get_size(), 0, window)
    solids = Solids(surface)
    for x in range(0, 16):
        solids._by_bands(solids._band((10, 20, 30)), pygame.Rect(x * 4, 3, window.get_width() - x * 4, Solids.BAND * 2 + 5))
    assert blitted
    for band, area in blitted:
        start = band._pixels_address + area.y * band.get_pitch() + area.x * band.get_bytesize()
        assert start % 16 != 0
        assert area.right <= band.get_width()
    assert surface.get_at((window.get_width() - 1, 3))[:3] == (10, 20, 30)


def test_a_panel_kept_already_and_drawn_again_stays_as_it_went_in_and_is_the_most_recent(frame: Frame) -> None:
    """The same key at the same size is the same pixels: drawing it again (a frame drawn in full
    that learns) does not copy and encode it again; it only moves to the end of the least-recently-used order."""
    rects = [pygame.Rect(0, 0, 100, 50), pygame.Rect(100, 0, 100, 50)]
    for _ in range(2):                                          # both kept
        for n, rect in enumerate(rects):
            frame.begin(reuse=False, store=True)
            frame.cached(("box", n), rect, lambda rect=rect: draw_box(frame, rect, (30, 30, 30)) and None)  # type: ignore[misc]
            frame.end()
            frame.tidy()
    store = frame.store
    first = store.get((current_language(), "box", 0), (100, 50))
    assert first is not None and len(store) == 2
    used = store.bytes
    store.get((current_language(), "box", 1), (100, 50))        # box 1 the most recent: box 0 would go first
    frame.begin(reuse=False, learn=True)                        # box 0 drawn once more, as a frame in full draws
    frame.cached(("box", 0), rects[0], lambda: draw_box(frame, rects[0], (30, 30, 30)) and None)  # type: ignore[func-returns-value]
    frame.end()
    frame.tidy()
    assert store.get((current_language(), "box", 0), (100, 50)) is first and store.bytes == used
    store.budget = used
    store._seen.add(((current_language(), "box", 2), (100, 50)))    # drawn before: it goes in
    frame.begin(reuse=False, store=True)                        # a third panel, with room for two
    frame.cached(("box", 2), rects[1], lambda: draw_box(frame, rects[1], (30, 30, 30)) and None)  # type: ignore[func-returns-value]
    frame.end()
    frame.tidy()
    assert store.get((current_language(), "box", 1), (100, 50)) is None      # box 1 went, not box 0
    assert store.get((current_language(), "box", 0), (100, 50)) is first


def test_a_stored_panel_placed_where_it_was_last_shares_its_records_and_elsewhere_they_move(frame: Frame) -> None:
    first, there = pygame.Rect(10, 10, 100, 50), pygame.Rect(200, 150, 100, 50)
    for _ in range(2):
        frame.begin(reuse=False, store=True)
        frame.cached(("box", 1), first, lambda: draw_box(frame, first, (200, 0, 0)) and None)  # type: ignore[func-returns-value]
        frame.end()
        frame.tidy()
    kept = frame.store.get((current_language(), "box", 1), (100, 50))
    assert kept is not None
    here = kept.placed(there.topleft)
    assert kept.placed(there.topleft) is here                   # the same place again: the same records
    assert here.panels == {"box": there} and here.hits[0][0] == there
    back = kept.placed(first.topleft)
    assert back is not here and back.panels == {"box": first} and [d.box for d in back.drawn] == [first]
    assert kept.shown.panels == {"box": pygame.Rect(0, 0, 100, 50)}           # the kept records stay at 0, 0


class ServerClock:
    """A clock that a push moves on by what the display server would take: ``per_pixel`` seconds
    a pixel in rows as wide as the window, ``narrow`` times that in a rectangle narrower than it;
    the first push each way (the warm-up) takes ``stall`` seconds more."""

    def __init__(self, size: tuple[int, int], narrow: float, *, per_pixel: float = 0.5e-9, stall: float = 0.05) -> None:
        self.size, self.narrow, self.per_pixel, self.stall = size, narrow, per_pixel, stall
        self.now = 0.0
        self.pushes: list[str] = []

    def __call__(self) -> float:
        return self.now

    def update(self, rects: list[pygame.Rect]) -> None:
        (rect,) = rects
        wide = rect.w >= self.size[0]
        self.now += rect.w * rect.h * self.per_pixel * (1.0 if wide else self.narrow) + (self.stall if len(self.pushes) < 2 else 0.0)
        self.pushes.append(("wide" if wide else "narrow", rect.w * rect.h))


@pytest.mark.parametrize("narrow", [0.8, 1.2, 2.5])
def test_the_cost_of_narrow_rectangles_is_measured_on_the_window_warm_up_aside(narrow: float) -> None:
    from table.ui.display import PUSH_TRIALS, measure_narrow_cost

    size = (1920, 1080)
    clock = ServerClock(size, narrow)
    measured = measure_narrow_cost(size, update=clock.update, clock=clock)
    assert measured == pytest.approx(narrow)
    assert [kind for kind, _ in clock.pushes] == ["wide", "narrow"] * (PUSH_TRIALS + 1)
    assert all(pixels <= size[0] * size[1] // 3 for _, pixels in clock.pushes)     # never the whole window
    phase, message, key = pygame.Rect(601, 90, 1301, 748), pygame.Rect(18, 851, 1884, 81), pygame.Rect(9, 945, 366, 126)
    # where narrow rectangles are dear a screen switch flips the window; where they are cheap enough, not
    assert whole_is_cheaper([phase, message, key], size, measured) == (narrow >= 2.0)


def test_a_stalled_or_blind_measure_of_narrow_rectangles_stays_within_reason() -> None:
    from table.ui.display import NARROW_COSTS, X11_NARROW_COST, measure_narrow_cost

    size = (800, 480)
    dear = ServerClock(size, 50.0)
    assert measure_narrow_cost(size, update=dear.update, clock=dear) == NARROW_COSTS[1]
    cheap = ServerClock(size, 0.01)
    assert measure_narrow_cost(size, update=cheap.update, clock=cheap) == NARROW_COSTS[0]
    still = ServerClock(size, 1.0, per_pixel=0.0, stall=0.0)        # a clock too coarse to see a push
    assert measure_narrow_cost(size, update=still.update, clock=still) == X11_NARROW_COST


def test_a_bare_panel_over_a_bare_one_clears_and_pushes_only_the_text(frame: Frame) -> None:
    """Text on the background alone (``bare``, the message line): the next text clears the last
    one's box, not the whole line, and only the two boxes go to the glass; the pixels are those of
    the new text drawn on a blank line. Over a panel that is not bare (a refusal's), or one an
    overlay lay over, the whole line is cleared and pushed."""
    line = pygame.Rect(0, 200, 400, 30)

    def say(text: str, *, bare: bool = True) -> None:
        def draw() -> None:
            if not bare:
                frame.window.fill((120, 30, 30), line)
            frame.t(text, 30, (255, 255, 255), line)
        frame.cached(("message", text, bare), line, draw, bare=bare)

    def blank_with(text: str) -> bytes:
        frame.window.fill(BG, line)
        frame.t(text, 30, (255, 255, 255), line)
        return pygame.image.tobytes(frame.window.subsurface(line), "RGB")

    frame.begin(reuse=False)
    say("a long message about the fight")
    frame.end()
    old = [d.rect for d in frame.drawn]
    frame.begin(reuse=True)
    say("short")
    frame.end()
    new = [d.rect for d in frame.drawn]
    assert frame.dirty == [old[0].union(new[0])] and frame.dirty[0].w < line.w
    shown = pygame.image.tobytes(frame.window.subsurface(line), "RGB")
    assert shown == blank_with("short")

    frame.begin(reuse=True)
    say("refused", bare=False)
    frame.end()
    frame.begin(reuse=True)
    say("after a refusal")                                      # over a panel that was not bare: all of it
    frame.end()
    assert frame.dirty == [line]
    assert pygame.image.tobytes(frame.window.subsurface(line), "RGB") == blank_with("after a refusal")

    frame.begin(reuse=True)
    say("under a menu")
    frame.overlay(pygame.Rect(100, 150, 100, 80))               # something over the line this frame
    frame.window.fill((0, 0, 200), pygame.Rect(100, 150, 100, 80))
    frame.end()
    frame.begin(reuse=True)
    say("the menu went")
    frame.end()
    assert line in frame.dirty
    assert pygame.image.tobytes(frame.window.subsurface(line), "RGB") == blank_with("the menu went")


def test_a_new_phase_redraws_and_pushes_only_the_chips_whose_light_moved(frame: Frame) -> None:
    strip = pygame.Rect(4, 4, 392, 14)
    frame.begin(reuse=False)
    draw_phases(frame, "kick-open-the-door", strip)
    frame.end()
    frame.begin(reuse=True)
    misses = frame.cache_misses
    draw_phases(frame, "look-for-trouble", strip)
    frame.end()
    assert frame.cache_misses - misses == 2                     # "Kick" goes dark, "Trouble / Loot" lights up
    dirty = frame.dirty
    assert dirty is not None and dirty
    boxes = {d.text: d.rect for d in frame.drawn}
    assert boxes["Kick"].collidelist(dirty) != -1 and boxes["Trouble / Loot"].collidelist(dirty) != -1
    assert boxes["Combat"].collidelist(dirty) == -1 and boxes["Charity"].collidelist(dirty) == -1
