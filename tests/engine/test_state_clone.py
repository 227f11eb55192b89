"""``GameState.clone`` copies every mutable part (lists, dicts, unfrozen dataclasses, at any depth)
and shares the rest; ``Ruleset.to_dict`` hands out a dict of its own each time."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, is_dataclass
from typing import Any

from engine.rules import Ruleset
from engine.state import Combat, Flight, GameState, MonsterInPlay, OneShot, PendingLoss, Phase, Player, Promise


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


@dataclass(frozen=True)
class Stamp:                            # a frozen dataclass: shared, wherever it sits
    label: str


@dataclass
class Note:                             # an unfrozen dataclass the engine does not know
    text: str
    marks: list[Any]


def test_a_clone_copies_every_mutable_part_whatever_its_fields_annotation_says() -> None:
    """The copier made for a dataclass looks at every field: lists first, but a list, dict or
    dataclass in a field annotated otherwise is copied too, and a list holding mutable items is
    copied item by item while one of shared items is copied whole."""
    stamp = Stamp("x")
    odd: list[Any] = ["helm-of-courage", stamp, ("a", 1)]
    state = GameState(seed=5, phase=Phase.RUN_AWAY, players=[
        Player("player-1", "Ann", carried=["huge-rock"], curses=[]), Player("player-2", "Bo", equipped=odd)])
    setattr(state.players[0], "cheat_on", ["not", "a", "card"])        # annotated str | None
    setattr(state.players[1], "specials", {"half-breed": ["elf"]})      # annotated list[str]
    state.combat = Combat(monsters=[MonsterInPlay("net-troll")], fighters=["player-1", "player-2"],
                          one_shots=[OneShot("flask-of-glue", "players", 2)], bonuses={"player-1": 1},
                          backstabs=[("player-2", "player-1")], promises=[Promise("player-1", "huge-rock", "player-2")])
    state.flight = Flight(pending=[("player-1", 0)], before_roll=state.clone(), bonus={"player-1": 1})
    state.pending_loss = PendingLoss("player-2", "big", 1)
    state.looting = {"body": "player-2", "items": [Note("taken", [stamp, ["deep"]])], "stamp": stamp}
    setattr(state, "warnings", [["nested"], Note("w", [])])
    copy: Any = state.clone()
    assert copy == state
    before, after = mutable_ids(state, {}), mutable_ids(copy, {})
    assert len(after) == len(before) and not set(before) & set(after)
    assert copy.players[1].equipped[1] is stamp and copy.looting["stamp"] is stamp
    assert copy.looting["items"][0].marks[0] is stamp
    assert copy.flight.before_roll.players[0].carried == ["huge-rock"]
    copy.players[0].cheat_on.append("more")
    copy.players[1].specials["half-breed"].append("dwarf")
    copy.looting["items"][0].marks[1].append("deeper")
    copy.warnings[0].append("more")
    copy.flight.before_roll.players[0].carried.clear()
    original: Any = state
    assert original.players[0].cheat_on == ["not", "a", "card"]
    assert original.players[1].specials == {"half-breed": ["elf"]}
    assert original.looting["items"][0].marks[1] == ["deep"] and original.warnings[0] == ["nested"]
    assert original.flight.before_roll.players[0].carried == ["huge-rock"]


def test_a_dataclass_with_attributes_beside_its_fields_is_copied_attribute_by_attribute() -> None:
    extra: Any = Player("player-1", "Ann", carried=["huge-rock"])
    extra.seen = ["a"]
    swapped: Any = Player("player-2", "Bo", carried=["stepladder"])
    del swapped.curses                                                  # as many attributes as fields, not the same
    swapped.seen = [["b"]]
    state = GameState(seed=1, players=[extra, swapped])
    copy: Any = state.clone()
    for old, new in zip(state.players, copy.players):
        assert type(new) is Player and vars(new) == vars(old)
        assert new.carried is not old.carried and getattr(new, "seen") is not getattr(old, "seen")
    assert copy.players[1].seen[0] is not swapped.seen[0]
    assert not hasattr(copy.players[1], "curses")
