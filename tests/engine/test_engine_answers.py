"""What the engine answers for the table: the roll that escapes, the levels gold buys, and the
one replay loop every fold uses."""

from __future__ import annotations

from engine import commands as c
from engine.errors import ReplayError
from engine.game import apply, new_game, replay, replay_steps
from engine.results import Accepted, Rejected
from engine.rules import Ruleset
from engine.run_away import ESCAPE_ON, roll_to_escape
from engine.selling import GOLD_PER_LEVEL, levels_for_gold
from engine.serialize import state_to_json

import pytest

from tests.engine.scenario import scenario

START = [c.Join(player="player-1"), c.Join(player="player-2"), c.Join(player="player-3"),
         c.StartGame(player="player-1")]


def _needed(t, player: str = "player-1") -> int:  # type: ignore[no-untyped-def]
    flight, combat = t.state.flight, t.state.combat
    index = next(i for p, i in flight.pending if p == player)
    return roll_to_escape(t.state, t.state.player(player), combat.monsters[index], t.catalog)


def _mod(catalog, monster: str) -> int:  # type: ignore[no-untyped-def]
    effect = catalog[monster].effect("run-away-mod")
    return int(effect.get("n")) if effect is not None else 0


MONSTERS = ["flying-frogs", "harpies", "snails-on-speed", "lame-goblin", "gelatinous-octahedron"]


def test_the_roll_to_escape_is_five_less_the_modifiers(catalog):
    for monster in MONSTERS:
        assert _needed(scenario(catalog, monster=monster).run()) == max(1, ESCAPE_ON - _mod(catalog, monster)), monster
        elf = scenario(catalog, races={1: ["elf"]}, monster=monster).run()
        assert _needed(elf) == max(1, ESCAPE_ON - 1 - _mod(catalog, monster)), monster
    tuba = scenario(catalog, items={1: ["tuba-of-charm"]}, monster="harpies").run()
    assert _needed(tuba) == max(1, ESCAPE_ON - 3 - _mod(catalog, "harpies"))


def test_the_roll_to_escape_counts_the_monster_not_only_the_player(catalog):
    from engine.strength import run_away_bonus

    assert _mod(catalog, "snails-on-speed") < 0
    t = scenario(catalog, monster="snails-on-speed").run()
    assert _needed(t) > ESCAPE_ON - run_away_bonus(t.p(1), catalog)


@pytest.mark.parametrize("monster", MONSTERS)
def test_the_roll_to_escape_is_what_the_die_must_show(catalog, monster: str):
    for races in ([], ["elf"]):
        for roll in range(1, 7):
            t = scenario(catalog, levels={1: 4}, races={1: races}, monster=monster).run()
            need = _needed(t)
            t.roll(roll)
            escaped = [e for e in t.events if e.name.startswith("RunAway")][0].name == "RunAwaySucceeded"
            assert escaped == (roll >= need), (races, roll)


def test_gold_buys_a_level_per_thousand_and_gives_no_change():
    assert GOLD_PER_LEVEL == 1000
    assert [levels_for_gold(g) for g in (0, 999, 1000, 1999, 2000, 3500)] == [0, 0, 1, 1, 2, 3]


def test_replay_steps_yields_each_command_with_the_state_it_met_and_its_result(catalog):
    steps = list(replay_steps(catalog, new_game(5), START))
    assert [s.n for s in steps] == [1, 2, 3, 4] and [s.command for s in steps] == START
    state = new_game(5)
    for step in steps:
        assert step.before == state
        result = apply(state, step.command, catalog)
        assert isinstance(result, Accepted) and step.state == result.state and step.events == result.events
        state = result.state
    assert state == replay(catalog, Ruleset(), 5, START)


def test_replay_steps_starts_from_any_state_and_numbers_on(catalog):
    middle = replay(catalog, Ruleset(), 5, START[:2])
    steps = list(replay_steps(catalog, middle, START[2:], first=3))
    assert [s.n for s in steps] == [3, 4]
    assert state_to_json(steps[-1].state, catalog) == state_to_json(replay(catalog, Ruleset(), 5, START), catalog)


def test_replay_steps_stops_after_the_first_refusal(catalog):
    cmds = [*START[:3], c.Join(player="player-3"), c.StartGame(player="player-1")]
    steps = list(replay_steps(catalog, new_game(5), cmds))
    assert len(steps) == 4 and isinstance(steps[-1].result, Rejected)
    assert steps[-1].state is steps[-1].before and steps[-1].events == ()
    with pytest.raises(ReplayError, match="command 4"):
        replay(catalog, Ruleset(), 5, cmds)
