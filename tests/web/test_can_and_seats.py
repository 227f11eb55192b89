"""What the phones get beside the state: what the player whose turn it is can do (``can``, in the
table's language) and who sits at which pad."""

from __future__ import annotations

from pathlib import Path

from table.config import Config
from table.control.state_json import can
from table.sim.harness import SimTable
from table.ui.view import build_view
from table.web import board_payload
from table.words import i18n
from table.words.i18n import said

SEATED = "tap@1 player-1\ntap@2 player-2\ntap@3 player-3\npress next\n"


def test_the_board_names_each_players_seat_and_carries_what_can_be_done_in_words(tmp_path: Path) -> None:
    with SimTable(Config(), tmp_path, seed=3) as sim:
        for action in sim.parse(SEATED + "tap net-troll\n"):
            sim.perform(action)
        i18n.set_language("es")
        try:
            payload = board_payload(build_view(sim.controller, language="es"), said(can(sim.controller)))
        finally:
            i18n.set_language("en")
    assert payload["board"]["seats"] == {"player-1": 1, "player-2": 2, "player-3": 3}
    run = next(item for item in payload["can"] if item["how"] == "press run")
    assert run["what"].startswith("huir")
    assert payload["phase"] == "combat"


def test_without_seat_pads_the_board_has_no_seats(tmp_path: Path) -> None:
    with SimTable(Config(), tmp_path, seed=3) as sim:
        for action in sim.parse("tap player-1\ntap player-2\ntap player-3\n"):
            sim.perform(action)
        payload = board_payload(build_view(sim.controller))
    assert payload["board"]["seats"] == {} and payload["can"] == []
