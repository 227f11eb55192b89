"""What reaches the glass: a frame pushes only the rectangles it drew (``pygame.display.update``);
another screen pushes its body, and the window flips in full only for game over (setup keeps its
panels while the players join). Over a whole scripted game at three
sizes (kept panels, menus and the banner over them, the die tumbling, the interference bar
moving), the screen as built from those pushes equals, pixel for pixel, the frame drawn in full."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from drivers.base import ManualClock
from drivers.sim import SimButtons, SimReader
from table.config import parse_config
from table.control.assembly import build_table
from table.sim.harness import perform
from table.sim.script import parse_script
from table.ui.display import Display, merged
from table.ui.frame import Frame
from table.ui.scenes import GEARED, SCENES
from table.ui.screens import players
from table.ui.screens.kit import Painter
from table.ui.view import View, build_view

FRAME_S = 1 / 30                     # the loop's step while the die tumbles or a window runs out

# a game of four: the deal, menus opened and closed, a fight with a helper, the interference
# window running out, running away with the die, charity, a refusal, the next turns
GAME = GEARED + """
tap boots-of-butt-kicking
press undo
tap player-3
press undo
tap net-troll
press help
tap player-2
wait 1
press next
tap gelatinous-octahedron
press next
press roll
press next
press next
tap net-troll
press help
tap player-3
tap ancient
press run
die 2
press roll
press roll
press next
press roll
tap boots-of-butt-kicking
press help
tap bow-with-ribbons
press help
press undo
press next
press next
tap player-2
press help
press undo
"""


class Glass:
    """What a display server would show: the window copied in full on a flip, else only the
    rectangles the frame pushed."""

    def __init__(self, display: Display) -> None:
        self.display = display
        self.surface = pygame.Surface(display.window.get_size(), 0, display.window)
        self.flips = self.updates = self.empty = 0

    def take(self) -> None:
        pushed = self.display.pushed
        if pushed is None:
            self.surface.blit(self.display.window, (0, 0))
            self.flips += 1
            return
        self.updates += 1
        self.empty += not pushed
        for rect in pushed:
            self.surface.blit(self.display.window, rect, rect)


class Reference:
    """The same view drawn in full on a surface of its own, by the display's own drawing."""

    def __init__(self, display: Display) -> None:
        self.display = display
        self.surface = pygame.Surface(display.window.get_size(), 0, display.window)
        painter = Painter(self.surface, display.painter.font_choice)
        painter.s = display.s
        self.frame = Frame(self.surface, painter, size=display.size, s=display.s, portrait=display.portrait,
                           die=display.die)

    def draw(self, view: View) -> bytes:
        self.frame.begin(reuse=False)
        self.display.compose(self.frame, view)
        self.frame.end()
        return pygame.image.tobytes(self.surface, "RGB")


def play(tmp_path: Path, size: tuple[int, int], script: str, check) -> Display:  # type: ignore[no-untyped-def]
    """Play ``script`` frame by frame as the run loop draws it (a frame after each action, and every
    FRAME_S while the die tumbles or an interference window runs, then ``tidy``), calling ``check``
    after each frame."""
    config = parse_config({"display": {"width": size[0], "height": size[1], "sound": False}})
    clock = ManualClock()
    table = build_table(config, clock, state_dir=tmp_path, seed_source=lambda: 1)
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    display = Display(size, sim_strip=True, clock=clock.monotonic)
    try:
        for action in parse_script(script, table.catalog):
            perform(action, table, reader, buttons, clock)
            view = build_view(table.controller)
            display.render(view)
            check(display, view, f"{action.verb} {action.arg}")
            for _ in range(200):
                if not (display.wants_frame() or view.window_left is not None):
                    break
                clock.advance(FRAME_S)
                table.controller.tick()
                view = build_view(table.controller)
                display.render(view)
                check(display, view, f"{action.verb} {action.arg}, later")
            if not display.wants_frame():
                display.tidy()                  # as the run loop does before it sleeps: panels to the store
    finally:
        table.journal.close()
    return display


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1920, 1080)])
def test_the_glass_built_from_pushed_rectangles_is_the_frame_drawn_in_full(tmp_path: Path, size: tuple[int, int]) -> None:
    seen: dict[str, object] = {}

    def check(display: Display, view: View, what: str) -> None:
        if "glass" not in seen:
            seen["glass"], seen["reference"], seen["die"] = Glass(display), Reference(display), 0
        glass, reference = seen["glass"], seen["reference"]
        assert isinstance(glass, Glass) and isinstance(reference, Reference)
        glass.take()
        seen["die"] = int(seen["die"]) + (display.animating() and display.pushed is not None)  # type: ignore[call-overload]
        assert pygame.image.tobytes(glass.surface, "RGB") == reference.draw(view), f"{size}, {what}"

    display = play(tmp_path, size, GAME, check)
    try:
        glass = seen["glass"]
        assert isinstance(glass, Glass)
        assert glass.updates > 3 * glass.flips, "most frames were flipped in full"
        assert glass.empty > 0, "no frame was left as it was"
        assert int(seen["die"]) > 5, "the die never tumbled over kept panels"    # type: ignore[call-overload]
        assert display.cache_moves > 5, "no panel came back from the store"
        assert display.cache_scenes > 2, "no screen came back as it was left"
    finally:
        display.close()


def test_another_screen_pushes_its_area_beside_the_players_and_only_game_over_flips_the_window(
        tmp_path: Path) -> None:
    """Table, fight and charity share the players' strip: another of them pushes the phase's area
    beside it (whole), not the body. Setup keeps its panels while the players join (a join pushes
    its two panels and the message line, not the window), and the game's start pushes the body."""
    frames: list[tuple[str, list[pygame.Rect] | None, pygame.Rect, pygame.Rect]] = []
    last: list[tuple[object, ...] | None] = [None]

    def check(display: Display, view: View, what: str) -> None:
        layout, before = display.layout(view), last[0]
        kind = "full" if layout is None or before is None else "switch" if layout != before else "same"
        if kind == "switch" and before is not None and before[0] == "setup":
            kind = "started"
        if kind == "same" and layout is not None and layout[0] == "setup":
            kind = "joined"
        body = display.bands()[1]
        frames.append((kind, display.pushed, body, players.split(display.frame, body, len(view.state["players"]))[1]))
        last[0] = layout

    play(tmp_path, (800, 480), GAME, check).close()
    kinds = {kind for kind, _, _, _ in frames}
    assert kinds == {"full", "switch", "same", "started", "joined"}
    for kind, pushed, body, area in frames:
        assert (pushed is None) == (kind == "full")
        if kind == "started":
            assert pushed is not None and any(rect.contains(body) for rect in pushed)
            assert not any(rect.contains(pygame.Rect(0, 0, 800, 480)) for rect in pushed)
        if kind == "joined":
            assert pushed is not None and sum(r.w * r.h for r in pushed) < body.w * body.h * 1.2
            assert not any(rect.contains(pygame.Rect(0, 0, 800, 480)) for rect in pushed)
        if kind == "switch":
            assert pushed is not None and any(rect.contains(area) for rect in pushed)
            assert not any(rect.contains(body) for rect in pushed), "another screen pushed the whole body"
            covered = pygame.Mask((800, 480))
            for rect in pushed:
                covered.draw(pygame.Mask(rect.size, fill=True), rect.topleft)
            assert covered.count() < 800 * 480 * 0.75, "another screen pushed most of the window"


def test_the_die_pushes_its_own_rectangle_only(tmp_path: Path) -> None:
    """Running away at 1080p: while the die tumbles, each frame pushes one rectangle, the last
    frame's die and this one's, clear of the players, the message and the keys; over the table
    (the roll after), the die's rectangle alone too, the panels under it repainted inside it."""
    pushes: dict[str, list[tuple[list[pygame.Rect], list[pygame.Rect]]]] = {"run-away": [], "charity": []}

    def check(display: Display, view: View, what: str) -> None:
        phase = view.state["phase"]
        if display.animating() and what.endswith("later") and display.pushed is not None and phase in pushes:
            others = [r for name, r in display.panels.items() if name not in ("run-away", "run-away-flight", "die")]
            pushes[phase].append((display.pushed, others))

    display = play(tmp_path, (1920, 1080), SCENES["run-away"] + "press roll\n", check)
    display.close()
    assert len(pushes["run-away"]) > 10 and len(pushes["charity"]) > 10, "the tumble was not drawn over kept panels"
    _, body, _, _ = display.bands()
    for phase, frames in pushes.items():
        for rects, others in frames:
            assert len(rects) == 1
            assert rects[0].w * rects[0].h < body.w * body.h * 0.15
            if phase == "run-away":
                assert rects[0].collidelist(others) == -1, "the tumble pushed a player, the message or a key"


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1920, 1080)])
def test_a_fight_that_changes_no_player_pushes_no_player_panel(tmp_path: Path, size: tuple[int, int]) -> None:
    """Table -> fight, a monster fought whose arrival changes no player's level, strength or turn:
    the fight is laid out in the phase's area, and not one rectangle pushed touches a player's
    panel in the strip (they stay where and as they were); the frame is still the frame in full
    (the glass test)."""
    seen: dict[str, object] = {}

    def check(display: Display, view: View, what: str) -> None:
        if what == "tap net-troll":
            seen["pushed"], seen["layout"] = display.pushed, display.layout(view)
            seen["panels"] = {p["id"]: display.panels[p["id"]] for p in view.state["players"]}
            seen["players"] = [(p["level"], p["combat_strength"], p["alive"]) for p in view.state["players"]]
        elif "pushed" not in seen and view.state["phase"] not in ("setup", "game-over"):
            seen["before"] = {p["id"]: display.panels[p["id"]] for p in view.state["players"]}
            seen["before_players"] = [(p["level"], p["combat_strength"], p["alive"]) for p in view.state["players"]]
            seen["before_layout"] = display.layout(view)

    play(tmp_path, size, GEARED + "tap net-troll\n", check).close()
    pushed, strip = seen["pushed"], seen["panels"]
    assert isinstance(pushed, list) and isinstance(strip, dict)
    assert seen["before_layout"][0] == "table" and seen["layout"][0] == "combat"  # type: ignore[index]
    assert seen["players"] == seen["before_players"], "the fight changed a player: not this test's case"
    assert strip == seen["before"], "a player's panel moved"
    assert pushed, "the fight was not pushed"
    for pid, rect in strip.items():
        assert rect.collidelist(pushed) == -1, f"{size}: {pid}'s panel was pushed"


def test_a_tap_that_changes_one_player_pushes_that_panel_and_the_message_line_only(tmp_path: Path) -> None:
    """An item played onto the active player from the table: their panel in the strip (strength),
    their gear beside it and the message line are pushed, nothing else — not the other players,
    the bars or the keys."""
    pushed: dict[str, list[pygame.Rect] | None] = {}
    panels: dict[str, pygame.Rect] = {}

    texts: dict[str, list[pygame.Rect]] = {}

    def check(display: Display, view: View, what: str) -> None:
        pushed[what] = display.pushed
        panels.update(display.panels)
        texts[what] = [d.rect for d in display.drawn]

    play(tmp_path, (800, 480), GEARED + "tap spiky-knees\n", check).close()
    rects = pushed["tap spiky-knees"]
    assert rects is not None
    others = only_the_message_text(rects, panels["message"], texts["tap spiky-knees"])
    assert sorted(map(tuple, others)) == sorted(map(tuple, merged([panels["player-1"], panels["gear-player-1"]])))


def only_the_message_text(rects: list[pygame.Rect], message: pygame.Rect, drawn: list[pygame.Rect]) -> list[pygame.Rect]:
    """``rects`` but the message line's: one rectangle inside the line, around its text alone (the
    line's text is drawn on the background: the old text and the new go, not the whole line)."""
    inside = [r for r in rects if message.contains(r)]
    assert len(inside) == 1, f"the message line pushed as {inside}"
    new = [r.clip(message) for r in drawn if r.colliderect(message)]
    assert new and all(inside[0].contains(r) for r in new), "the new message's text was not pushed"
    assert inside[0].w * inside[0].h < message.w * message.h, "the whole message line was pushed"
    return [r for r in rects if r not in inside]


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_tap_in_the_fight_that_changes_one_player_pushes_that_panel_the_strength_and_the_message_only(
        tmp_path: Path, size: tuple[int, int]) -> None:
    """A level potion drunk by the fighter: their panel, the fight's strength (the verdict and the
    players' side) and the message line are pushed; not the monsters' side, the others, the bars
    or the keys."""
    pushed: dict[str, list[pygame.Rect] | None] = {}
    panels: dict[str, pygame.Rect] = {}

    texts: dict[str, list[pygame.Rect]] = {}

    def check(display: Display, view: View, what: str) -> None:
        pushed[what] = display.pushed
        panels.update(display.panels)
        texts[what] = [d.rect for d in display.drawn]

    play(tmp_path, size, SCENES["combat"] + "tap potion-of-general-studliness\n", check).close()
    rects = pushed["tap potion-of-general-studliness"]
    assert rects is not None
    strength = [panels["combat-verdict"], panels["combat-players"]]
    others = only_the_message_text(rects, panels["message"], texts["tap potion-of-general-studliness"])
    assert sorted(map(tuple, others)) == sorted(map(tuple, merged([panels["player-1"], *strength])))
    assert panels["combat-monsters"].collidelist(rects) == -1


def test_a_roll_while_running_away_pushes_what_was_rolled_and_the_die_not_the_title(tmp_path: Path) -> None:
    """Two fleeing, the first rolls: the lines under the title (who rolled, who rolls next) and the
    die are pushed; the title and the players beside it stay."""
    pushed: dict[str, list[pygame.Rect] | None] = {}
    panels: dict[str, pygame.Rect] = {}

    def check(display: Display, view: View, what: str) -> None:
        pushed.setdefault(what, display.pushed)
        panels.update(display.panels)

    script = SCENES["combat"] + "tap player-3\ntap ancient\npress run\ndie 2\npress roll\n"
    play(tmp_path, (1920, 1080), script, check).close()
    rects = pushed["press roll"]
    assert rects is not None
    flight, run = panels["run-away-flight"], panels["run-away"]
    assert any(rect.contains(flight) for rect in rects)
    assert all(rect.top >= flight.top for rect in rects if rect.colliderect(run)), "the title was pushed"
    assert all(rect.collidelist([panels[p] for p in ("player-1", "player-2", "player-3", "player-4")]) == -1
               for rect in rects)


def test_pushed_rectangles_cover_what_was_drawn_without_the_empty_and_the_inner() -> None:
    rects = [pygame.Rect(0, 0, 100, 100), pygame.Rect(10, 10, 20, 20), pygame.Rect(0, 0, 0, 5),
             pygame.Rect(90, 90, 50, 50), pygame.Rect(300, 300, 10, 10)]
    out = merged(rects)
    assert out == [pygame.Rect(0, 0, 100, 100), pygame.Rect(90, 90, 50, 50), pygame.Rect(300, 300, 10, 10)]
    for rect in rects:
        if rect.w and rect.h:
            assert any(o.contains(rect) for o in out)
