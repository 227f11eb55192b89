"""The pads on screen (issue 26): each seated player's panel shows their pad; the simulator picks a seat."""

from __future__ import annotations

from pathlib import Path

from drivers.events import ReaderStatus
from drivers.said import Said
from drivers.sim import SimReader
from table.app.run import next_pad
from table.config import Config
from table.sim.harness import SimTable
from table.ui.display import Display
from table.ui.view import build_view


def seated_table(tmp_path: Path) -> SimTable:
    sim = SimTable(Config(), tmp_path, seed=3)
    for action in sim.parse("tap@1 player-1\ntap@2 player-2\ntap player-3\npress next\n"
                            "tap@2 potion-of-general-studliness\n"):
        sim.perform(action)
    for seat in (1, 2):
        sim.controller.handle(ReaderStatus(f"seat-{seat}", True, Said("ready"), 1.0))
    return sim


def test_each_seated_players_panel_shows_their_pad_online_or_offline_and_its_last_tap(tmp_path: Path) -> None:
    with seated_table(tmp_path) as sim:
        sim.controller.handle(ReaderStatus("seat-1", False, Said("reader offline: {why}", why="unplugged"), 2.0))
        view = build_view(sim.controller)
        assert view.pads == {"player-1": (1, False, "Player 1"), "player-2": (2, True, "Potion of General Studliness")}
        display = Display((800, 480))
        try:
            display.render(view)
            drawn = [d.text for d in display.drawn]
            assert "seat 1: PAD OFFLINE · last tap: Player 1" in drawn
            assert any(text.startswith("seat 2: pad online · last tap: Potion") for text in drawn)   # fitted to the panel
            assert not any("seat 3" in text for text in drawn)     # player 3 joined on the shared pad
        finally:
            display.close()


def test_the_simulators_strip_shows_the_seat_its_taps_go_to(tmp_path: Path) -> None:
    with seated_table(tmp_path) as sim:
        display = Display((800, 480), sim_strip=True)
        try:
            view = build_view(sim.controller)
            display.render(view)
            assert "F6 shared pad" in [d.text for d in display.drawn]
            view.pad_seat = 3
            display.render(view)
            assert "F6 seat 3" in [d.text for d in display.drawn]
            assert any(target == ("seat", "") for _, target in display.hits)
        finally:
            display.close()


def test_the_seat_selector_steps_through_the_seats_and_back_to_the_shared_pad(tmp_path: Path) -> None:
    with seated_table(tmp_path) as sim:
        keyboard = SimReader(sim.table.events, clock=sim.clock, name="keyboard")
        seen = []
        for _ in range(7):
            next_pad(keyboard, "keyboard")
            seen.append((keyboard.seat, keyboard.name))
        assert seen == [(1, "seat-1"), (2, "seat-2"), (3, "seat-3"), (4, "seat-4"), (5, "seat-5"), (6, "seat-6"),
                        (None, "keyboard")]
        next_pad(keyboard, "keyboard")
        next_pad(keyboard, "keyboard")
        keyboard.scan_card("potion-of-general-studliness")      # a typed tap through seat 2's pad
        for event in sim.table.events.drain():
            sim.controller.handle(event)
        assert sim.controller.state.player("player-2").level == 3


def test_the_pad_line_and_a_seats_refusal_are_in_the_screens_language(tmp_path: Path) -> None:
    with seated_table(tmp_path) as sim:
        sim.controller.handle(ReaderStatus("seat-1", False, Said("reader offline: {why}", why="unplugged"), 2.0))
        for action in sim.parse("tap@2 net-troll\n"):
            sim.perform(action)                   # refused: not player 2's turn, naming seat 2
        for language, pad, seat in (("es", "asiento 1: PLACA DESCONECTADA", "asiento 2 ("),
                                    ("zh", "1 号座位：感应板离线", "2 号座位（")):
            display = Display((800, 480), language=language)
            try:
                display.render(build_view(sim.controller, language=language))
                drawn = [d.text for d in display.drawn]
                assert any(text.startswith(pad) for text in drawn), drawn
                assert any(seat in text for text in drawn), drawn
            finally:
                display.close()
