"""Every word of the phones' pages in the table's language: default names, plurals, and the check."""

from __future__ import annotations

from pathlib import Path

import pytest

from table.words.i18n import set_language
from table.web.records import history_page, stats_page

ROW = {"id": 1, "started": "2026-12-01T20:00:00", "ended": None, "status": "finished",
       "players": ["Player 1", "Ana"], "winners": ["Player 1"], "turns": 1, "actions": 9, "minutes": 12}
STATS = {"games": 1, "monsters": [], "players": [
    {"name": "Player 1", "games": 1, "wins": 1, "kills": 2, "deaths": 0, "runs": {"attempted": 1, "escaped": 1},
     "highest_level": 10, "helped": 0}]}


@pytest.fixture
def language():  # type: ignore[no-untyped-def]
    yield set_language
    set_language("en")


def test_one_turn_is_singular_in_english(language) -> None:
    language("en")
    page = history_page([ROW])
    assert "1 turn, 12 min" in page and "1 turns" not in page


@pytest.mark.parametrize("lang, player, turn", [("zh", "玩家 1", "1"), ("es", "Jugador 1", "1 turno")])
def test_default_names_and_lengths_are_in_the_tables_language(language, lang: str, player: str, turn: str) -> None:
    language(lang)
    page = history_page([ROW], lang) + stats_page(STATS, lang)
    assert "Player 1" not in page and player in page and turn in page
    assert ">Game<" not in page and "Past games" not in page and "Standings" not in page


def test_the_board_gives_each_players_name_as_the_screen_shows_it(language) -> None:
    from table.web import board_payload

    class View:
        state = {"players": [{"id": "player-1", "name": "Player 1"}, {"id": "player-2", "name": "Maximiliano"}]}
        message = prompt = prompt_kind = acting = actions = window_left = window_total = message_kind = None
        monsters: dict = {}
        pads: dict = {}

    language("zh")
    names = board_payload(View())["board"]["names"]
    assert names == {"player-1": "玩家 1", "player-2": "Maximiliano"}


def test_the_catalog_check_fails_on_an_f_string_handed_to_gettext(tmp_path: Path) -> None:
    from table.words.catalogs import f_string_messages

    probe = tmp_path / "probe.py"
    probe.write_text('def f(n, m):\n    return _(f"{n} turns, {m} min") + ngettext("a", f"{n} b", n) + _("ok {n}")\n',
                     encoding="utf-8")
    found = f_string_messages((probe,))
    assert len(found) == 2 and all(":2: " in line for line in found)
    assert f_string_messages() == []        # and the code has none


def test_a_message_inside_an_f_string_is_in_the_template_so_the_check_sees_it() -> None:
    from table.words.catalogs import _calls_babel_misses, extract

    misses = {m for _f, _l, m in _calls_babel_misses()}
    assert "Game" in misses                                 # f'<a ...>{html.escape(_("Game"))}</a>' in records.py
    assert "Game" in extract()
