"""The screen under SDL's dummy driver: every screen at both sizes, text inside its panel,
levels redrawn on change, Chinese without boxes, touch and the simulator picker."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pygame
import pytest

from drivers.base import ManualClock
from drivers.sim import SimButtons, SimReader
from table.config import parse_config
from table.ui.display import Display
from table.ui.screens.kit import Drawn, Painter
from table.ui.fonts import FontChoice, find_font
from table.ui.scenes import SCENES
from table.sim.script import parse_script
from table.sim.harness import perform
from table.ui.view import build_view
from table.control.assembly import build_table

SIZES = [(800, 480), (1920, 1080), (720, 1280)]


class Rig:
    """A simulated table with a display, driven by table-script lines."""

    def __init__(self, tmp: Path, size: tuple[int, int], language: str = "en") -> None:
        config = parse_config({"display": {"width": size[0], "height": size[1], "language": language, "sound": False}})
        self.clock = ManualClock()
        self.table = build_table(config, self.clock, state_dir=tmp, seed_source=lambda: 1)
        self.reader = SimReader(self.table.events, clock=self.clock)
        self.buttons = SimButtons(self.table.events, clock=self.clock)
        self.language = language
        self.display = Display(size, language=language)

    def run(self, script: str) -> Rig:
        for action in parse_script(script, self.table.catalog, source="test"):
            perform(action, self.table, self.reader, self.buttons, self.clock)
        self.render()
        return self

    def render(self) -> None:
        self.display.render(build_view(self.table.controller, language=self.language))

    def close(self) -> None:
        self.table.journal.close()
        self.display.close()


@pytest.fixture
def rig_factory(tmp_path: Path):
    rigs: list[Rig] = []

    def make(size: tuple[int, int] = (800, 480), language: str = "en") -> Rig:
        rig = Rig(tmp_path / f"state{len(rigs)}", size, language)
        rigs.append(rig)
        return rig

    yield make
    for rig in rigs:
        rig.close()


def assert_text_inside_panels(display: Display) -> None:
    screen = display.window.get_rect()
    assert display.drawn, "nothing was drawn"
    for d in display.drawn:
        assert d.rect.w > 0 and d.rect.h > 0
        assert d.box.contains(d.rect), f"{d.text!r} at {d.rect} spills out of its box {d.box}"
        assert screen.contains(d.box), f"box {d.box} of {d.text!r} is off the screen"
    for name, rect in display.panels.items():
        assert screen.contains(rect), f"panel {name} {rect} is off the screen"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", list(SCENES))
@pytest.mark.parametrize("language", ["en", "es", "zh"])
def test_every_screen_keeps_its_text_inside_its_panels(rig_factory, scene: str, size, language: str) -> None:
    rig = rig_factory(size, language).run(SCENES[scene])
    assert_text_inside_panels(rig.display)


@pytest.mark.parametrize("scene,phase,panel", [
    ("setup", "setup", "seats"), ("table", "kick-open-the-door", "player-4"), ("combat", "combat", "combat"),
    ("run-away", "run-away", "run-away"), ("charity", "charity", "charity"), ("game-over", "game-over", "chart"),
    ("card-menu", "kick-open-the-door", "card-menu"), ("helper-prompt", "combat", "prompt"),
    ("sales-basket", "kick-open-the-door", "basket"), ("game-over", "game-over", "game-facts"),
    ("standings", "setup", "records"), ("past-games", "setup", "records"), ("name-choice", "setup", "name-choice"),
    ("side-prompt", "combat", "prompt"), ("give-prompt", "kick-open-the-door", "prompt"),
    ("sell-from-hand", "kick-open-the-door", "prompt"),
])
def test_each_scene_reaches_its_screen(rig_factory, scene: str, phase: str, panel: str) -> None:
    rig = rig_factory().run(SCENES[scene])
    assert rig.table.controller.state.phase.value == phase
    assert panel in rig.display.panels


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_level_region_changes_after_a_level_up(rig_factory, size) -> None:
    rig = rig_factory(size).run(SCENES["table"])
    rect = rig.display.level_rects["player-1"]
    before = pygame.image.tobytes(rig.display.window.subsurface(rect), "RGB")
    other = rig.display.level_rects["player-2"]
    other_before = pygame.image.tobytes(rig.display.window.subsurface(other), "RGB")
    rig.run("tap boil-an-anthill\n")
    assert rig.table.controller.state.player("player-1").level == 2
    assert rig.display.level_rects["player-1"] == rect
    assert pygame.image.tobytes(rig.display.window.subsurface(rect), "RGB") != before
    assert pygame.image.tobytes(rig.display.window.subsurface(other), "RGB") == other_before


def test_portrait_screen_stacks_the_panels(rig_factory) -> None:
    """720x1280 (Touch Display 2): seats above the setup help, players above the combat, all at full width."""
    rig = rig_factory((720, 1280)).run(SCENES["setup"])
    seats, help_ = rig.display.panels["seats"], rig.display.panels["setup-help"]
    assert help_.top > seats.bottom and seats.w == help_.w > 600
    rig.run("press next\ntap net-troll\n")
    combat = rig.display.panels["combat"]
    assert all(rig.display.panels[p].bottom < combat.top for p in ("player-1", "player-4"))
    assert combat.w > 600 and combat.h > 640
    assert rig.display.panels["key-undo"].bottom <= 1280


def test_interference_bar_shrinks_as_the_window_runs_down(rig_factory) -> None:
    rig = rig_factory().run(SCENES["interference"])
    combat = rig.display.panels["combat"]
    first = pygame.image.tobytes(rig.display.window.subsurface(combat), "RGB")
    rig.run("wait 1\n")
    assert pygame.image.tobytes(rig.display.window.subsurface(combat), "RGB") != first


def test_refusal_stands_out_with_its_reason(rig_factory) -> None:
    rig = rig_factory().run(SCENES["refusal"])
    texts = [d.text for d in rig.display.drawn]
    assert any("ROLL does nothing" in t for t in texts)
    message = rig.display.panels["message"]
    assert rig.display.window.get_at((message.x + 4, message.centery))[:3] == (110, 24, 20)


def test_soft_keys_say_what_each_button_does(rig_factory) -> None:
    rig = rig_factory().run(SCENES["combat"])
    texts = {d.text for d in rig.display.drawn}
    assert {"Fight!", "Undo"} <= texts and "Run away" not in texts      # the players win: no running
    assert rig.display.hit(rig.display.panels["key-run"].center) == ("button", "run")


CJK = re.compile(r"[\u4e00-\u9fff]")


def test_chinese_screen_draws_real_glyphs_not_boxes(rig_factory) -> None:
    rig = rig_factory((800, 480), "zh").run(SCENES["combat"])
    painter = rig.display.painter
    assert painter.font_choice.has_cjk, "no CJK font: ./go installs fonts-wqy-microhei, and table/assets/fonts ships one"
    chars = sorted({ch for d in rig.display.drawn for ch in d.text if CJK.match(ch)})
    assert len(chars) >= 10, chars
    font = painter.font(32)
    box = pygame.image.tobytes(font.render("\U0010fffd", (255, 255, 255))[0], "RGBA")
    for ch in chars:
        glyph = pygame.image.tobytes(font.render(ch, (255, 255, 255))[0], "RGBA")
        assert glyph != box, f"{ch!r} renders as the missing-glyph box"


def test_a_missing_font_falls_back_without_crashing(tmp_path: Path, caplog) -> None:
    pygame.display.init()
    surface = pygame.Surface((800, 480))
    painter = Painter(surface, FontChoice(str(tmp_path / "nope.ttf")))
    rect = painter.text("hello", 24, (255, 255, 255), surface.get_rect())
    assert rect.w > 0
    assert painter.font_choice.path is None
    assert find_font("en", str(tmp_path / "nope.ttf")).path != str(tmp_path / "nope.ttf")
    assert "does not exist" in caplog.text


def test_die_animation_never_delays_the_result(rig_factory) -> None:
    before_roll, _sep, _rest = SCENES["run-away"].rpartition("press roll")
    rig = rig_factory().run(before_roll)
    assert not rig.display.animating()
    rig.run("press roll\n")
    assert rig.display.animating()
    assert any("rolled 2" in d.text for d in rig.display.drawn)


def test_simulator_strip_has_clickable_buttons_and_picker(tmp_path: Path) -> None:
    from table.ui.picker import suggest

    display = Display((800, 480), sim_strip=True)
    try:
        assert display.window.get_height() > 480
        config = parse_config({})
        table = build_table(config, ManualClock(), state_dir=tmp_path, seed_source=lambda: 1)
        view = build_view(table.controller)
        view.suggestions = suggest("net", view.names)
        display.render(view)
        assert ("card", "net-troll") in [a for _r, a in display.hits]
        assert ("button", "roll") in [a for _r, a in display.hits]
        table.journal.close()
    finally:
        display.close()


def test_picker_matches_names_ids_and_tokens() -> None:
    from table.ui.picker import suggest

    names = {"net-troll": "Net Troll", "boots-of-butt-kicking": "Boots of Butt-Kicking"}
    players = [("player-1", "Ana"), ("player-2", "Bo")]
    assert suggest("2", names, players)[0][0] == "player-2"
    assert suggest("ana", names, players)[0][0] == "player-1"
    assert suggest("butt", names, players)[0][0] == "boots-of-butt-kicking"
    assert suggest("net-t", names, players)[0][0] == "net-troll"
    assert suggest("", names, players) == []


def test_touch_is_a_press_and_emulated_mouse_events_are_skipped() -> None:
    from table.ui.screen import pointer_position

    display = SimpleNamespace(window=SimpleNamespace(get_size=lambda: (800, 480)))
    finger = SimpleNamespace(type=pygame.FINGERDOWN, x=0.5, y=0.95)
    assert pointer_position(finger, display) == (400, 456)
    emulated = SimpleNamespace(type=pygame.MOUSEBUTTONDOWN, button=1, pos=(400, 456), touch=True)
    assert pointer_position(emulated, display) is None
    mouse = SimpleNamespace(type=pygame.MOUSEBUTTONDOWN, button=1, pos=(10, 20), touch=False)
    assert pointer_position(mouse, display) == (10, 20)


def test_simulate_screenshot_writes_a_png_per_action(tmp_path: Path, capsys) -> None:
    from table.cli import main

    script = tmp_path / "s.txt"
    script.write_text("tap player-1\ntap player-2\n# a comment\ntap player-3\npress next\npress roll\n")
    shots = tmp_path / "shots"
    assert main(["simulate", str(script), "--screenshot", str(shots)]) == 0
    pngs = sorted(shots.glob("*.png"))
    assert len(pngs) == 5
    assert pygame.image.load(str(pngs[-1])).get_size() == (800, 480)


def test_typed_hex_uid_taps_that_tag_so_unknown_tags_can_be_enrolled_in_play(tmp_path: Path) -> None:
    """Simulator: 8, 14 or 20 hex digits and Enter tap that raw UID through the simulated reader."""
    from table.app.run import _key
    from table.ui.picker import Picker
    from table.ui.picker import as_uid

    assert as_uid("04a1b2c3") == "04A1B2C3"
    assert as_uid("04A1B2C3D4E5F6") == "04A1B2C3D4E5F6"
    assert as_uid("04a1b2c3d4e5f60718293a") is None        # 22 digits: no tag has that
    assert as_uid("04a1b2c") is None and as_uid("net-troll") is None

    pygame.display.init()
    table = build_table(parse_config({}), ManualClock(), state_dir=tmp_path, seed_source=lambda: 1)
    ctl = table.controller
    reader, buttons = SimReader(table.events, clock=ctl.clock), SimButtons(table.events, clock=ctl.clock)
    for action in parse_script("tap player-1\ntap player-2\ntap player-3\npress next\n", table.catalog):
        perform(action, table, reader, buttons, ctl.clock)
    picker = Picker()

    def type_and_enter(text: str) -> None:
        for ch in text:
            _key(SimpleNamespace(key=ord(ch.lower()), unicode=ch), picker, reader, buttons, ctl)
        picker.refresh(build_view(ctl))
        _key(SimpleNamespace(key=pygame.K_RETURN, unicode="\r"), picker, reader, buttons, ctl)
        for item in table.events.drain():
            ctl.handle(item)

    type_and_enter("04A1B2C3")
    assert ctl.prompt is not None and ctl.prompt.kind == "enroll" and ctl.prompt.card == "04A1B2C3"
    type_and_enter("elf")
    assert ctl.registry.lookup("04A1B2C3") == "elf"
    type_and_enter("04a1b2c3")
    assert ctl.state.player("player-1").races == ["elf"]
    table.journal.close()


def test_strip_says_a_typed_uid_will_be_tapped_as_a_tag(tmp_path: Path) -> None:
    display = Display((720, 1280), sim_strip=True)
    try:
        table = build_table(parse_config({}), ManualClock(), state_dir=tmp_path, seed_source=lambda: 1)
        display.render(build_view(table.controller, entry="04a1b2c3d4e5f6"))
        assert "tap a tag UID: 04A1B2C3D4E5F6_" in [d.text for d in display.drawn]
        assert_text_inside_panels(display)
        table.journal.close()
    finally:
        display.close()


def test_card_menu_shows_the_sales_basket_its_gold_and_the_levels_it_buys(rig_factory) -> None:
    rig = rig_factory().run(SCENES["sales-basket"])
    view = build_view(rig.table.controller)
    assert [item["card"] for item in view.basket] == ["boots-of-butt-kicking", "bow-with-ribbons"]
    assert (view.basket_gold, view.basket_levels) == (1200, 1)
    texts = [d.text for d in rig.display.drawn]
    assert {"Sales basket", "Boots of Butt-Kicking", "Bow with Ribbons", "400", "800", "1,200 gold"} <= set(texts)
    assert any("buys 1 level" in t and "levels" not in t for t in texts) and any("200 gold left over" in t for t in texts)
    basket, menu = rig.display.panels["basket"], rig.display.panels["card-menu"]
    assert menu.contains(basket)
    rig.run("press undo\n")                        # the menu closes; the basket stays, as a band
    assert "card-menu" not in rig.display.panels and "basket" in rig.display.panels
    rig.run("press undo\n")                        # UNDO empties the basket
    assert "basket" not in rig.display.panels


def test_a_small_basket_says_how_much_gold_a_level_still_needs(rig_factory) -> None:
    rig = rig_factory().run(SCENES["table"] + "tap helm-of-courage\npress help\ntap helm-of-courage\n")
    texts = [d.text for d in rig.display.drawn]
    assert "200 gold" in texts and any("800 gold short of a level" in t for t in texts)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", ["en", "es", "zh"])
def test_player_menu_shows_who_and_what_each_key_does(rig_factory, size, language: str) -> None:
    from table.ui.scenes import open_player_menu

    rig = rig_factory(size, language).run(SCENES["table"])
    view = open_player_menu(rig.table.controller, language, "player-2")
    assert view.prompt_kind == "player-menu" and view.player_menu["name"] == "Player 2"
    rig.display.render(view)
    assert "player-menu" in rig.display.panels
    assert_text_inside_panels(rig.display)
    texts = [d.text for d in rig.display.drawn]
    if language == "en":
        for expected in ("Player 2", "level 1 · male", "switch to female", "level 1 → 2", "Player 2 leaves the game",
                         "close this menu", "HELP: Level +1"):
            assert expected in texts, expected
    if language == "zh":
        assert "HELP: 等级 +1" not in texts and "求助: 等级 +1" in texts


def test_a_refusal_in_chinese_has_no_missing_glyph_box(rig_factory) -> None:
    rig = rig_factory((800, 480), "zh").run(SCENES["refusal"])
    panel = rig.display.panels["message"]
    line = [d.text for d in rig.display.drawn if panel.contains(d.rect)]
    assert len(line) == 1 and "掷骰" in line[0], line
    # The ✗ mark is drawn only where the font has it; the CJK fonts do not, and would show a box.
    assert line[0].startswith("✗ ") == rig.display.painter.has_glyph("✗", 22)


CROWDED_COMBAT = SCENES["combat"] + ("tap wandering-monster\ntap maul-rat\ntap enraged\ntap net-troll\ntap baby\ntap maul-rat\n"
                                     "tap flaming-poison-potion\n")


def texts_in(display: Display, panel: str) -> list[Drawn]:
    """What was drawn for ``panel`` (fitted to a box inside it), not what it covers."""
    box = display.panels[panel]
    return [d for d in display.drawn if box.contains(d.box)]


@pytest.mark.parametrize("language", ["en", "es", "zh"])
def test_a_crowded_portrait_combat_still_fits_its_panels(rig_factory, language: str) -> None:
    """Two fighters with their items, two monsters with enhancers, a potion: all inside the panel."""
    rig = rig_factory((720, 1280), language).run(CROWDED_COMBAT)
    assert_text_inside_panels(rig.display)
    texts = [d.text for d in texts_in(rig.display, "combat")]
    for expected in ("Hammer of Kneecapping", "Enraged", "Baby", "Flaming Poison Potion", "+4", "+5", "-5", "+3"):
        assert expected in texts, expected


def test_portrait_combat_breaks_each_side_down_in_large_type(rig_factory) -> None:
    """720x1280: the verdict and totals large, each fighter's level and every item's bonus by name,
    each monster's level, enhancers, treasures and bad stuff, reaching into the panel's lower half."""
    rig = rig_factory((720, 1280)).run(CROWDED_COMBAT)
    combat = rig.display.panels["combat"]
    drawn = texts_in(rig.display, "combat")
    texts = [d.text for d in drawn]
    s = rig.display.s
    verdict = next(d for d in drawn if d.text.startswith("MONSTERS WIN"))
    assert verdict.rect.h >= rig.display.painter.line_height(int(40 * s))
    totals = [d for d in drawn if d.text == "16"]
    assert len(totals) == 2 and all(d.rect.h >= rig.display.painter.line_height(int(80 * s)) for d in totals)
    for name in ("Player 1", "Bow with Ribbons", "Boots of Butt-Kicking", "Helm of Courage", "Player 2 (helper)",
                 "Hammer of Kneecapping", "Net Troll", "Maul Rat", "Enraged", "Baby", "treasures 3 · +1 level"):
        assert name in texts, name
    assert texts.count("level") == 4                      # two fighters, two monsters
    assert any(t.startswith("Bad stuff: lose 1 level") for t in texts)
    assert max(d.rect.bottom for d in drawn) > combat.centery + combat.h // 4
    assert max(d.rect.bottom for d in drawn) <= combat.bottom
    rig = rig_factory((720, 1280)).run(SCENES["combat"])           # one monster: the full 22-point lines
    line = next(d for d in rig.display.drawn if d.text == "Bow with Ribbons")
    assert line.rect.h >= rig.display.painter.line_height(int(22 * s)) > rig.display.painter.line_height(int(17 * s))


def test_the_breakdown_adds_up_to_each_fighters_strength(rig_factory) -> None:
    rig = rig_factory((720, 1280)).run(CROWDED_COMBAT)
    view = build_view(rig.table.controller)
    strength = {p["id"]: p["combat_strength"] for p in view.state["players"]}
    assert set(view.breakdown) == {"player-1", "player-2"}
    for pid, parts in view.breakdown.items():
        assert sum(n for _kind, _name, n in parts) == strength[pid]
    assert view.breakdown["player-1"] == [("level", "", 1), ("item", "Bow with Ribbons", 4),
                                          ("item", "Boots of Butt-Kicking", 2), ("item", "Helm of Courage", 1)]
    for m in view.state["combat"]["monsters"]:
        info = view.monsters[m["card"]]
        assert info["level"] + sum(b for _n, b in info["enhancers"]) + info["rest"] == m["strength"]
    assert view.monsters["maul-rat"]["enhancers"] == [("Baby", -5)] and view.monsters["maul-rat"]["rest"] == 5


def test_portrait_run_away_has_large_type_and_the_die_below(rig_factory) -> None:
    rig = rig_factory((720, 1280)).run(SCENES["run-away"])
    panel, die = rig.display.panels["run-away"], rig.display.panels["die"]
    assert die.top > panel.centery - panel.h // 8 and die.w >= 250
    needs = next(d for d in rig.display.drawn if d.text.startswith("needs "))
    assert needs.rect.h >= rig.display.painter.line_height(int(38 * rig.display.s))
    assert rig.display.window.get_at(die.center)[:3] != rig.display.window.get_at((panel.x + 4, panel.bottom - 4))[:3]


def test_portrait_card_menu_shows_the_holders_gear_in_the_lower_half(rig_factory) -> None:
    rig = rig_factory((720, 1280)).run(SCENES["card-menu"])
    menu, gear = rig.display.panels["card-menu"], rig.display.panels["holder-gear"]
    assert menu.contains(gear) and gear.top > menu.top + menu.h // 3 and gear.bottom > menu.centery + menu.h // 4
    texts = [d.text for d in texts_in(rig.display, "holder-gear")]
    assert "Player 1: strength 8" in texts
    assert {"Bow with Ribbons", "Boots of Butt-Kicking", "Helm of Courage", "+4", "+2", "+1"} <= set(texts)
    assert "holder-gear" not in rig_factory((800, 480)).run(SCENES["card-menu"]).display.panels


def test_portrait_prompt_banner_leaves_the_verdict_and_totals_readable(rig_factory) -> None:
    rig = rig_factory((720, 1280)).run(SCENES["helper-prompt"])
    banner = rig.display.panels["prompt"]
    covered = [d.text for d in rig.display.drawn if d.text in ("MONSTERS WIN by 2", "8", "10") and d.rect.colliderect(banner)]
    assert not covered, covered


SIX = SCENES["table"].replace("tap player-4\n", "tap player-4\ntap player-5\ntap player-6\n", 1)


def drawn_in(display: Display, rect: pygame.Rect) -> list[Drawn]:
    return [d for d in display.drawn if rect.contains(d.rect)]


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1920, 1080)])
def test_landscape_the_table_sets_each_players_gear_in_line_with_their_panel_in_the_strip(rig_factory, size) -> None:
    """The strip the fight and charity share holds name, level and strength; beside each player's
    panel, on its line, what they have (their cards), without their name again."""
    rig = rig_factory(size).run(SCENES["table"])
    panels = rig.display.panels
    for i in range(1, 5):
        strip, gear = panels[f"player-{i}"], panels[f"gear-player-{i}"]
        assert (gear.y, gear.h) == (strip.y, strip.h) and gear.x > strip.right
        assert not any(d.text == f"Player {i}" for d in drawn_in(rig.display, gear))
    texts = [d.text for d in drawn_in(rig.display, panels["gear-player-1"])]
    assert "Bow with Ribbons +4" in texts and "Helm of Courage +1" in texts
    rig.run("tap net-troll\n")
    assert all(rig.display.panels[f"player-{i}"] == panels[f"player-{i}"] for i in range(1, 5))


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_six_players_in_charity_each_gear_row_names_its_player_on_its_line(rig_factory, size) -> None:
    """Under the charity band (or, portrait, under the strip) the gear rows are not in line with
    the strip: each says whose it is, on the same line as what they have when only one line fits."""
    rig = rig_factory(size).run(SIX + "press next\npress next\n")
    assert rig.table.controller.state.phase.value == "charity"
    panels = rig.display.panels
    for i in range(1, 7):
        gear = panels[f"gear-player-{i}"]
        names = [d for d in drawn_in(rig.display, gear) if d.text == f"Player {i}"]
        others = [d for d in drawn_in(rig.display, gear) if d.text.startswith("male")]
        assert len(names) == 1 and len(others) == 1, f"player {i}"
        assert gear.top > panels["charity"].bottom
        if size == (800, 480):              # one line each: the name is its first cell
            assert abs(names[0].rect.centery - others[0].rect.centery) <= 2 and names[0].rect.right < others[0].rect.x
        else:                               # room for more: the name heads the row
            assert names[0].rect.bottom <= others[0].rect.top + 2


def test_the_charity_band_says_what_the_engine_does_with_the_extra_cards(rig_factory) -> None:
    """Charity (rules.md 7; the dead get nothing): the giver tied for the lowest level discards the
    extra cards; otherwise they go to the lowest-level living players. The band says what the
    engine's charity says, not a rule of its own."""
    rig = rig_factory((800, 480)).run(SCENES["table"] + "press next\npress next\n")
    state = rig.table.controller.state
    assert state.phase.value == "charity" and {p.level for p in state.players} == {1}
    band = [d.text for d in drawn_in(rig.display, rig.display.panels["charity"])]
    assert band == ["Charity: Player 1 keeps at most 5 cards", "you are lowest: discard the extra cards"]
    charity = build_view(rig.table.controller).state["charity"]
    assert charity["receivers"] == []


def test_the_charity_band_names_the_lowest_living_players_and_not_the_dead(rig_factory) -> None:
    """Player 1 at level 4 gives to the lowest-level living player (Player 3, level 2), not to the
    dead elf at level 2 nor to Player 4 at 3."""
    script = (Path(__file__).parents[1] / "golden" / "charity_skips_the_dead.txt").read_text()
    rig = rig_factory((1920, 1080)).run(script)             # the elf's failed roll ends the turn: charity
    assert rig.table.controller.state.phase.value == "charity"
    assert [p.alive for p in rig.table.controller.state.players] == [True, False, True, True]
    band = [d.text for d in drawn_in(rig.display, rig.display.panels["charity"])]
    assert band == ["Charity: Player 1 keeps at most 5 cards", "extra cards go to: Player 3"]


def test_the_player_menu_offers_only_the_level_corrections_the_engine_takes(rig_factory) -> None:
    """At level 1 (the floor) RUN's "Level −1" is off and no "level 1 → 1" is shown; one short of
    the winning level HELP's "Level +1" is off (level 10 comes only from a kill), RUN's is on."""
    from table.ui.scenes import open_player_menu

    rig = rig_factory((1920, 1080)).run(SCENES["table"])
    view = open_player_menu(rig.table.controller, "en", "player-2")
    assert view.soft_keys["run"] == "" and view.soft_keys["help"] == "Level +1"
    rig.display.render(view)
    texts = [d.text for d in rig.display.drawn]
    assert "level 1 → 2" in texts and "level 1 → 1" not in texts and "level 1 → 0" not in texts
    rig.run("press help\n" * 8)                       # the menu stays open while it is used: level 9
    assert rig.table.controller.state.player("player-2").level == 9
    view = build_view(rig.table.controller)
    assert view.soft_keys["help"] == "" and view.soft_keys["run"] == "Level −1"
    rig.display.render(view)
    texts = [d.text for d in rig.display.drawn]
    assert "level 9 → 8" in texts and "level 9 → 10" not in texts


def test_a_halflings_basket_is_valued_as_the_engine_sells_it(rig_factory) -> None:
    """A Halfling sells the dearest item of the turn's first sale at double price: the basket, its
    soft key and its band say so (800 gold fetches 1,600: a level); the turn's second sale does not."""
    lines = (Path(__file__).parents[1] / "golden" / "halfling_double_price_sale.txt").read_text().splitlines()
    setup = "\n".join(lines[:lines.index("tap staff-of-napalm", 10)]) + "\n"
    rig = rig_factory((800, 480)).run(setup + "tap staff-of-napalm\npress help\n")
    view = build_view(rig.table.controller)
    assert [item["card"] for item in view.basket] == ["staff-of-napalm"] and view.basket[0]["gold"] == 800
    assert (view.basket_gold, view.basket_levels) == (1600, 1)
    assert view.soft_keys["next"] == "Sell 1600 gold"
    rig.render()
    texts = [d.text for d in rig.display.drawn]
    assert any("1,600 gold" in t for t in texts) and any("buys 1 level" in t for t in texts), texts
    rig.run("tap sneaky-bastard-sword\npress help\npress next\n")        # sold: 800 x 2 + 400, two levels
    assert rig.table.controller.state.player("player-1").level == 3
    rig.run("tap tuba-of-charm\npress help\n")
    view = build_view(rig.table.controller)
    assert (view.basket_gold, view.basket_levels) == (300, 0)           # the double price is spent this turn
