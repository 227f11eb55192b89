"""build_view derives what the state alone decides (its JSON, the bonuses, the fight) once per state:
the frames between two actions reuse it, and a new state, a catalog or a language is derived anew."""

from __future__ import annotations

from pathlib import Path

from table.ui import view as view_module
from table.ui.view import build_view
from table.words.i18n import set_language
from tests.storage.test_fault_syncs import a_legal_command
from tests.table.storage_helpers import close_table, play_game


def test_the_state_is_derived_once_per_state_and_anew_for_the_next(tmp_path: Path) -> None:
    table = play_game(tmp_path / "state", 12)
    try:
        ctl = table.controller
        views = view_module._of_state_views
        first = build_view(ctl)
        made = views.made_count
        again = build_view(ctl)                       # the same state: nothing derived again
        assert views.made_count == made and again.state is first.state
        assert ctl.session.submit(a_legal_command(table)).__class__.__name__ == "Saved"
        after = build_view(ctl)                       # a new state: derived anew, and it shows it
        assert views.made_count == made + 1
        assert after.state is not first.state and after.state != first.state
        build_view(ctl, language="es")                # another language: anew
        assert views.made_count == made + 2
        set_language("es")
        try:
            build_view(ctl, language="es")            # the words the fight is told in changed: anew
            assert views.made_count == made + 3
        finally:
            set_language("en")
    finally:
        close_table(table)


def test_a_new_state_makes_again_only_the_players_it_changed_and_equals_the_json_made_whole(tmp_path: Path) -> None:
    from engine.serialize import state_to_json

    table = play_game(tmp_path / "state", 30)
    try:
        ctl = table.controller
        views = view_module._of_state_views
        build_view(ctl)
        for _ in range(6):
            before = ctl.state
            made = views.players_made
            assert ctl.session.submit(a_legal_command(table)).__class__.__name__ == "Saved"
            view = build_view(ctl)
            assert view.state == state_to_json(ctl.state, ctl.catalog)        # the same JSON as made whole
            fighters = set(ctl.state.combat.fighters) if ctl.state.combat is not None else set()
            changed = {p.id for p in ctl.state.players
                       if p.id in fighters or not before.has_player(p.id) or before.player(p.id) != p}
            assert views.players_made - made == len(changed)
    finally:
        close_table(table)
