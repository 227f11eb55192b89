"""``GameState.clone`` copies every mutable part (lists, dicts, unfrozen dataclasses, at any depth)
and shares the rest; ``Ruleset.to_dict`` hands out a dict of its own each time."""

from __future__ import annotations

from dataclasses import asdict, fields, is_dataclass
from typing import Any

from engine.rules import Ruleset
from engine.state import Combat, GameState, MonsterInPlay, Phase, Player


def mutable_ids(value: Any, out: dict[int, Any]) -> dict[int, Any]:
    """Every list, dict and unfrozen dataclass reachable from ``value``, by id."""
    if isinstance(value, (list, dict)) or (is_dataclass(value) and not getattr(value, "__dataclass_params__").frozen):
        out[id(value)] = value
    if isinstance(value, list):
        for v in value:
            mutable_ids(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            mutable_ids(v, out)
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            mutable_ids(getattr(value, f.name), out)
    return out


class Tags(list):                       # a subclass is copied as what it is a kind of
    pass


def test_a_clone_is_equal_and_shares_no_mutable_part_and_every_immutable_one() -> None:
    rules = Ruleset(winning_level=20)
    state = GameState(seed=3, ruleset=rules, phase=Phase.COMBAT, players=[
        Player("player-1", "Ann", level=4, races=["elf"], equipped=["boots-of-butt-kicking"], level_history=(1, 2, 4)),
        Player("player-2", "Bo", carried=["huge-rock"])])
    state.combat = Combat(monsters=[MonsterInPlay("net-troll", enhancers=["ancient"])], fighters=["player-1"])
    state.looting = {"body": "player-2", "items": Tags(["huge-rock"]), "order": [["player-1", {"took": []}]]}
    copy = state.clone()
    assert copy == state
    before, after = mutable_ids(state, {}), mutable_ids(copy, {})
    assert len(after) == len(before) and not set(before) & set(after)
    assert copy.ruleset is rules and copy.phase is Phase.COMBAT
    assert copy.players[0].level_history is state.players[0].level_history          # a tuple: shared
    assert copy.players[0].name is state.players[0].name
    assert type(copy.looting["items"]) is list and copy.looting["items"] == ["huge-rock"]
    copy.players[0].equipped.append("bow-with-ribbons")
    copy.combat.monsters[0].enhancers.clear()
    copy.looting["order"][0][1]["took"].append("huge-rock")
    assert state.players[0].equipped == ["boots-of-butt-kicking"] and state.combat.monsters[0].enhancers == ["ancient"]
    assert state.looting["order"][0][1]["took"] == []


def test_a_rulesets_dict_is_its_fields_and_a_new_one_each_time() -> None:
    rules = Ruleset(interference_seconds=0.0)
    first = rules.to_dict()
    assert first == asdict(rules)
    first["winning_level"] = 99
    assert rules.to_dict() == asdict(rules) and rules.to_dict() is not rules.to_dict()
    assert Ruleset.from_dict(rules.to_dict()) == rules
