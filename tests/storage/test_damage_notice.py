"""Case 8: the damage notice fits the screen: at 800x480, 1024x600 and 1920x1080, in English,
Spanish and Chinese, every word of what the start says about a damaged game is drawn inside the
notice's band, nothing cut off (the message line alone has room for one line of it)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pygame
import pytest

from table.storage.paths import JOURNAL_FILE
from table.words import i18n
from table.ui.view import build_view
from tests.table.storage_helpers import close_table, play_game
from tests.table.test_display import Rig

SIZES = [(800, 480), (1024, 600), (1920, 1080)]


@pytest.fixture(autouse=True)
def _english_afterwards():  # type: ignore[no-untyped-def]
    yield
    i18n.set_language("en")


@pytest.fixture(scope="module")
def damaged(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A journal of 60 actions whose action 55 fails its checksum."""
    state = tmp_path_factory.mktemp("damaged")
    close_table(play_game(state, 60))
    db = sqlite3.connect(state / JOURNAL_FILE)
    db.execute("UPDATE command SET crc = crc + 1 WHERE seq = 55")
    db.commit()
    db.close()
    return (state / JOURNAL_FILE).read_bytes()


def _squeezed(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("language", ["en", "es", "zh"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_damage_notice_fits_every_screen_in_every_language(damaged: bytes, tmp_path: Path, size: tuple[int, int],
                                                               language: str) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / JOURNAL_FILE).write_bytes(damaged)
    rig = Rig(state, size, language)
    try:
        rig.render()
        display = rig.display
        band = display.panels.get("damage-notice")
        assert band is not None, "the start's damage notice is not shown"
        screen = display.window.get_rect()
        assert screen.contains(band)
        inside = [d for d in display.drawn if d.box == display.panels["damage-notice-text"]]
        assert inside and all(d.box.contains(d.rect) and not d.text.endswith("…") for d in inside)
        notice = build_view(rig.table.controller, language=language).damage_notice
        assert "55" in notice and _squeezed("".join(d.text for d in inside)) == _squeezed(notice)
        where = os.environ.get("MUNCHKIN_NOTICE_PNGS")
        if where:                                    # to look at them: MUNCHKIN_NOTICE_PNGS=DIR
            pygame.image.save(display.window, str(Path(where) / f"notice-{size[0]}x{size[1]}-{language}.png"))
    finally:
        rig.close()


def test_a_journal_that_cannot_be_opened_at_start_shows_the_fault_not_an_empty_setup(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import table.control.assembly as assembly
    from drivers.base import ManualClock
    from table.storage.faults import JournalFault
    from table.storage.journal import Journal
    from table.ui.display import Display
    from tests.table.storage_helpers import config_for

    state = tmp_path / "state"
    close_table(play_game(state, 12))

    class Refused(Journal):
        def __new__(cls, path: Path, **kwargs: object) -> Journal:  # type: ignore[misc]
            raise JournalFault("the disk holding it reports an input/output error")

    monkeypatch.setattr(Refused, "unavailable", classmethod(lambda cls, path: Journal.unavailable(path)))
    monkeypatch.setattr(assembly, "Journal", Refused)              # neither to write nor to look
    table = assembly.build_table(config_for(state), ManualClock(), retry_faults=True)
    display = Display((800, 480))
    try:
        view = build_view(table.controller)
        assert "cannot be read now" in view.damage_notice and "input/output error" in view.damage_notice
        display.render(view)
        assert "damage-notice" in display.panels
    finally:
        display.close()
        table.journal.close()
