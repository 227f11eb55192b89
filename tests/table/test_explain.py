"""The table explains itself: what can be done now (the state JSON's ``can``), the panel a long press
of HELP opens, and every ``how`` it offers is one the table then takes."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from engine.hints import hints
from table.config import LANGUAGES, Config, load_config
from table.sim.harness import SimTable
from table.sim.script import ScriptError
from table.sim.simulate import simulate
from table.words import i18n

FIGHT = "tap player-1\ntap player-2\ntap player-3\npress next\ntap net-troll\n"
CJK = re.compile(r"[\u4e00-\u9fff]")


def state_of(script: str, config: Config, tmp_path: Path) -> dict:
    path = tmp_path / "game.txt"
    path.write_text(script, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert simulate(path, config, out=out, err=err, config_named=False) == 0, err.getvalue()
    return json.loads(out.getvalue())


def config_in(language: str, tmp_path: Path) -> Config:
    path = tmp_path / "config.toml"
    path.write_text(f'[display]\nlanguage = "{language}"\n', encoding="utf-8")
    return load_config(path)


def hows(state: dict) -> list[str]:
    return [item["how"] for item in state["can"]]


def test_at_a_chinese_table_in_a_fight_run_and_help_are_offered_in_chinese(tmp_path: Path) -> None:
    state = state_of(FIGHT, config_in("zh", tmp_path), tmp_path)
    assert state["phase"] == "combat"
    assert {"press run", "press help"} <= set(hows(state))
    for item in state["can"]:
        assert CJK.search(item["what"]), item
        assert not re.search(r"[A-Za-z]{3,}", item["what"]), item     # no English words left
    run = next(item for item in state["can"] if item["how"] == "press run")
    assert "5" in run["what"]           # Net Troll: 5 or more gets away, as the engine counts it


def test_before_any_fight_there_is_no_run_to_offer(tmp_path: Path) -> None:
    state = state_of("tap player-1\ntap player-2\ntap player-3\npress next\n", Config(), tmp_path)
    assert state["phase"] == "kick-open-the-door"
    assert "press run" not in hows(state)
    assert "press next" in hows(state) and "tap a monster" in hows(state)
    assert state_of("tap player-1\n", Config(), tmp_path)["can"][0]["how"] == "tap a player token"


def test_every_button_the_table_offers_it_then_takes(tmp_path: Path) -> None:
    """Not a copy of the rules: each "press X" that ``can`` lists is accepted when pressed, at every
    step of a game with a fight, a run away and charity."""
    script = FIGHT + "press run\npress roll\n"
    with SimTable(Config(), tmp_path, seed=5) as sim:
        lines = sim.parse(script)
        checked = 0
        for action in lines:
            for item in sim.controller.state_json()["can"]:
                if item["how"].startswith("press ") and item["how"] != "press undo":
                    with SimTable(Config(), tmp_path / f"try-{checked}", seed=5) as twin:
                        for done in lines[: lines.index(action)]:
                            twin.perform(done)
                        outcomes = twin.perform(twin.parse(item["how"])[0])
                        assert outcomes and outcomes[-1].accepted, (action.text, item)
                        checked += 1
            sim.perform(action)
        assert checked >= 5


def test_the_hints_never_offer_what_the_engine_refuses(catalog) -> None:  # type: ignore[no-untyped-def]
    from engine import commands as c
    from engine.game import apply, new_game

    state = new_game(3)
    for n in (1, 2, 3):
        state = apply(state, c.Join(player=f"player-{n}", name_=f"P{n}"), catalog).state
    assert "press next" in [h.how for h in hints(state, catalog, "player-1", 0.0)]
    state = apply(state, c.StartGame(player="player-1"), catalog).state
    state = apply(state, c.PlayCard(player=state.active_player, card="net-troll"), catalog).state
    offered = {h.how for h in hints(state, catalog, state.active_player, 0.0)}
    assert "press run" in offered and "press next" not in offered      # net troll 10 against level 1


def test_a_long_press_of_help_opens_the_panel_and_any_press_only_closes_it(tmp_path: Path) -> None:
    with SimTable(Config(), tmp_path, seed=5) as sim:
        for action in sim.parse(FIGHT):
            sim.perform(action)
        ctl = sim.controller
        sim.perform(sim.parse("hold help")[0])
        assert ctl.explaining
        assert ctl.prompt is None       # the helper prompt the press itself opened is closed again
        before = ctl.history_len
        sim.perform(sim.parse("press run")[0])
        assert not ctl.explaining and ctl.history_len == before     # it closed the panel, and did not run
        assert ctl.state.phase.value == "combat"
        sim.perform(sim.parse("press run")[0])
        assert ctl.state.phase.value == "run-away"


def test_hold_takes_a_button_in_scripts(tmp_path: Path) -> None:
    with SimTable(Config(), tmp_path, seed=5) as sim:
        with pytest.raises(ScriptError, match="no button 'helpp'"):
            sim.parse("hold helpp")
        assert sim.parse("hold HELP")[0].arg == "help"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_panel_is_written_whole_at_every_size_in_every_language(language: str, size: tuple[int, int],
                                                                     tmp_path: Path) -> None:
    from table.ui.display import Display
    from table.ui.view import build_view

    with SimTable(Config(), tmp_path, seed=5) as sim:
        for action in sim.parse(FIGHT + "hold help"):
            sim.perform(action)
        display = Display(size, language=language)
        try:
            view = build_view(sim.controller, language=language)
            assert view.explain and len(view.explain) >= 5
            display.render(view)
            box = display.panels["explain"]
            written = [d for d in display.drawn if box.contains(d.rect)]
            for _how, what in view.explain:
                text = "".join(d.text for d in written)
                assert all(word in text for word in what.split()), (what, language)
            assert not any("…" in d.text for d in written)
        finally:
            display.close()
            i18n.set_language("en")
