"""After an unclean stop, the offer to abandon the game takes no press in its first two seconds
(issue 44, item 5): a NEXT in the first second after the restart must not answer it. By the
table's own clock (the simulated one here)."""

from __future__ import annotations

from pathlib import Path

from drivers.base import ManualClock
from drivers.events import Press
from table.control.assembly import build_table
from table.control.prompts import PromptKind

from tests.table.storage_helpers import close_table, config_for, play_game


def _restarted(directory: Path, *, clean: bool):  # type: ignore[no-untyped-def]
    table = play_game(directory, 40)
    game = table.controller.game_id
    if clean:
        close_table(table)
    # else: the table is gone without closing its journal, as after a kill or a power cut
    clock = ManualClock(1000.0)
    again = build_table(config_for(directory), clock)
    assert again.controller.prompt is not None and again.controller.prompt.kind is PromptKind.RESUME
    return again, clock, game


def test_next_in_the_first_second_after_a_crash_does_not_abandon_the_game(tmp_path: Path) -> None:
    table, clock, game = _restarted(tmp_path, clean=False)
    ctl = table.controller
    assert table.journal.unclean
    for _ in range(3):                                   # a mashed NEXT through the restart
        clock.advance(0.3)
        out = ctl.handle(Press("next", clock.monotonic()))
        assert out is not None and not out.accepted
    assert ctl.prompt is not None and ctl.prompt.kind is PromptKind.RESUME and ctl.prompt.value == 0
    assert ctl.game_id == game and "wait a moment" in str(ctl.message.text)
    clock.advance(1.2)                                    # two seconds on screen: it answers now
    ctl.handle(Press("next", clock.monotonic()))
    assert ctl.prompt is not None and ctl.prompt.value == 1   # "abandon this game? NEXT again to confirm"
    ctl.handle(Press("next", clock.monotonic()))          # the confirmation is as calm
    assert ctl.game_id == game and ctl.prompt is not None and ctl.prompt.value == 1
    clock.advance(2.0)
    ctl.handle(Press("next", clock.monotonic()))
    assert ctl.game_id != game                            # asked, waited, confirmed: abandoned
    close_table(table)


def test_after_a_clean_stop_the_offer_answers_at_once(tmp_path: Path) -> None:
    table, clock, game = _restarted(tmp_path, clean=True)
    ctl = table.controller
    assert not table.journal.unclean
    ctl.handle(Press("next", clock.monotonic()))
    ctl.handle(Press("next", clock.monotonic()))
    assert ctl.game_id != game
    close_table(table)


def test_a_box_from_before_the_marker_tells_an_unclean_stop_by_the_wal_it_left(tmp_path: Path) -> None:
    table = play_game(tmp_path, 40)                     # killed: never closed, its -wal left
    (tmp_path / "journal.known.json").unlink()          # as an older table left it: no marker
    assert (tmp_path / "journal.sqlite3-wal").stat().st_size > 0
    clock = ManualClock(1000.0)
    again = build_table(config_for(tmp_path), clock)
    assert again.journal.unclean
    out = again.controller.handle(Press("next", clock.monotonic()))
    assert out is not None and not out.accepted and again.controller.prompt.value == 0
    close_table(again)
    close_table(table)
