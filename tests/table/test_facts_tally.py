"""A game's summary (table/session/facts.py) is folded an entry at a time as the game goes on; after
any adds, refusals, undos, retracted rolls and reloads it is the summary worked out from scratch."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.events import CombatEnd
from engine.state import GameState, Player
from table.session.facts import MONSTER_WINS, GameFacts

PIDS = ["player-1", "player-2", "player-3", "player-9"]          # player-9 never sits at the table


def from_scratch(facts: GameFacts, state: GameState) -> dict[str, Any]:
    """What the live entries amount to, worked out over all of them (the definition)."""
    entries = facts.live_entries()
    start = next((e for e in entries if e[0] == "start"), None)
    seats = start[2]["players"] if start else [[p.id, p.name] for p in state.players]
    names = {pid: name for pid, name in seats}
    for p in state.players:
        names.setdefault(p.id, p.name)
    per = {pid: {"kills": 0, "deaths": 0, "runs": 0, "escaped": 0, "highest_level": 1, "helped": 0} for pid, _ in seats}
    monsters: dict[str, dict[str, int]] = {}
    helps: dict[tuple[str, str], int] = {}
    fights = []
    for kind, _n, d in entries:
        if kind == "fight":
            fights.append(d)
            for card in d["monsters"]:
                m = monsters.setdefault(card, {"fought": 0, "won": 0, "killed": 0})
                m["fought"] += 1
                m["won"] += d["how"] in MONSTER_WINS
                m["killed"] += d["how"] == CombatEnd.KILLED
            if d["fighters"] and d["how"] == CombatEnd.KILLED and d["fighters"][0] in per:
                per[d["fighters"][0]]["kills"] += len(d["monsters"])
        elif kind == "run" and d["player"] in per:
            per[d["player"]]["runs"] += 1
            per[d["player"]]["escaped"] += bool(d["escaped"])
        elif kind == "death" and d["player"] in per:
            per[d["player"]]["deaths"] += 1
        elif kind == "help" and d["helper"] in per:
            per[d["helper"]]["helped"] += 1
            key = (names.get(d["helper"], d["helper"]), names.get(d["player"], d["player"]))
            helps[key] = helps.get(key, 0) + 1
        elif kind == "level" and d["player"] in per and isinstance(d["to"], int):
            per[d["player"]]["highest_level"] = max(per[d["player"]]["highest_level"], d["to"])
    top = max(fights, key=lambda f: (f["monsters_strength"], f["players"])) if fights else None
    return {"players": [name for _pid, name in seats], "monsters": monsters,
            "per": [(pid, {k: per[pid][k] if k != "highest_level" else max(per[pid][k], state.player(pid).level)
                           for k in per[pid]}) for pid, _ in seats],
            "biggest": None if top is None else (top["monsters"], top["players"], top["monsters_strength"], top["how"]),
            "helps": [[a, b, n] for (a, b), n in sorted(helps.items(), key=lambda kv: -kv[1])]}


def seen(summary: dict[str, Any]) -> dict[str, Any]:
    keys = ("kills", "deaths", "runs", "escaped", "highest_level", "helped")
    top = summary["biggest_fight"]
    return {"players": summary["players"], "monsters": summary["monsters"],
            "per": [(p["id"], {k: p[k] for k in keys}) for p in summary["per_player"]],
            "biggest": None if top is None else (top["monsters"], top["players"], top["monsters_strength"], top["how"]),
            "helps": summary["helps"]}


pid = st.sampled_from(PIDS)
entry = st.one_of(
    st.tuples(st.just("start"), st.lists(st.sampled_from(PIDS[:3]), min_size=1, max_size=3, unique=True)),
    st.tuples(st.just("fight"), st.tuples(st.lists(st.sampled_from(["net-troll", "plutonium-dragon"]), min_size=1, max_size=2),
                                          st.lists(pid, max_size=2), st.sampled_from([str(h) for h in CombatEnd]),
                                          st.integers(0, 9), st.integers(0, 9))),
    st.tuples(st.just("run"), st.tuples(pid, st.booleans())),
    st.tuples(st.just("death"), pid),
    st.tuples(st.just("help"), st.tuples(pid, pid)),
    st.tuples(st.just("level"), st.tuples(pid, st.one_of(st.integers(1, 10), st.none()))),
    st.tuples(st.just("retract"), st.none()))
step = st.one_of(st.tuples(st.just("add"), entry), st.tuples(st.just("cut"), st.integers(0, 3)),
                 st.tuples(st.just("undo"), st.integers(0, 60)), st.tuples(st.just("summary"), st.none()),
                 st.tuples(st.just("reload"), st.none()), st.tuples(st.just("copy"), st.none()))


def made(kind: str, n: int, arg: Any) -> list[Any]:
    if kind == "start":
        return ["start", n, {"players": [[p, p.upper()] for p in arg]}]
    if kind == "fight":
        monsters, fighters, how, ps, ms = arg
        return ["fight", n, {"monsters": monsters, "fighters": fighters, "how": how, "players": ps, "monsters_strength": ms}]
    if kind == "run":
        return ["run", n, {"player": arg[0], "monster": "net-troll", "escaped": arg[1]}]
    if kind == "death":
        return ["death", n, {"player": arg}]
    if kind == "help":
        return ["help", n, {"helper": arg[0], "player": arg[1]}]
    if kind == "level":
        return ["level", n, {"player": arg[0], "to": arg[1]}]
    return ["retract", n, {}]


@settings(max_examples=300, deadline=None)
@given(st.lists(step, max_size=60))
@example([("add", ("run", ("player-1", True))), ("add", ("retract", None))])          # a roll taken back
@example([("add", ("death", "player-1")), ("add", ("death", "player-2")), ("cut", 1),  # refused, then another
          ("add", ("run", ("player-3", False)))])
def test_the_summary_folded_as_the_game_goes_is_the_one_worked_out_from_scratch(steps: list[tuple[str, Any]]) -> None:
    state = GameState(seed=1, players=[Player("player-1", "Ann", level=3), Player("player-2", "Bo"), Player("player-3", "Ann")])
    facts = GameFacts()
    for n, (kind, arg) in enumerate(steps, 1):
        if kind == "add":
            facts.entries.append(made(arg[0], n, arg[1]))
        elif kind == "cut":                         # a refused action's entries taken back: the last few
            facts.restore((max(0, len(facts.entries) - arg), facts.started, facts.ended, facts.last, facts.abandoned))
        elif kind == "undo":
            facts.undo_to(arg, state, float(n))
        elif kind == "reload":
            facts = GameFacts.from_log(facts.log_json())
        elif kind == "copy":
            facts = copy.deepcopy(facts)
        if kind in ("summary", "add"):              # as the table does: a summary after each action's entries
            assert seen(facts.summary(1, state, n)) == from_scratch(facts, state), steps[:n]
    assert seen(facts.summary(1, state, len(steps))) == from_scratch(facts, state)


def test_the_summary_takes_each_seat_level_from_the_table_and_marks_who_left() -> None:
    """The seated players are looked up once per summary (by id, the first of that id as
    ``state.player`` finds it); a seat whose player has left has no level and is marked as left."""
    import json

    from table.session.facts import _json, brief_and_tally

    state = GameState(seed=1, players=[Player("player-1", "Ann", level=5), Player("player-3", "Zoë", level=2),
                                       Player("player-3", "Second", level=9)])
    facts = GameFacts(entries=[["start", 1, {"players": [["player-1", "Ann"], ["player-2", "Bo"], ["player-3", "Zoë"]]}],
                               ["level", 2, {"player": "player-2", "to": 4}], ["level", 3, {"player": "player-1", "to": 3}]],
                      started=1.0, last=2.0)
    per = {p["id"]: p for p in facts.summary(1, state, 3)["per_player"]}
    assert (per["player-1"]["level"], per["player-1"]["left"], per["player-1"]["highest_level"]) == (5, False, 5)
    assert (per["player-2"]["level"], per["player-2"]["left"], per["player-2"]["highest_level"]) == (None, True, 4)
    assert (per["player-3"]["level"], per["player-3"]["left"], per["player-3"]["highest_level"]) == (2, False, 2)
    brief, tally = brief_and_tally(facts.summary(1, state, 3))
    assert _json(tally) == json.dumps(tally, separators=(",", ":"), ensure_ascii=False) and "Zoë" in _json(brief)
    assert json.loads(facts.log_json()) == {"entries": facts.entries, "started": 1.0, "ended": None, "last": 2.0, "abandoned": None}
    assert facts.entry_texts() == [json.dumps(e, separators=(",", ":")) for e in facts.entries]
    assert facts.stored_log() == json.dumps({"kept": 3, "started": 1.0, "ended": None, "last": 2.0, "abandoned": None},
                                            separators=(",", ":"))


def test_an_undo_of_an_action_that_left_no_entry_folds_nothing_again(monkeypatch) -> None:
    """Most actions leave no fact: taking one back keeps the tally, so the summary after it folds no
    entry again (made afresh it would go over the whole game's entries at every such undo)."""
    from table.session import facts as facts_module

    state = GameState(seed=1, players=[Player("player-1", "Ann"), Player("player-2", "Bo")])
    facts = GameFacts(entries=[made("start", 1, ["player-1", "player-2"])])
    facts.entries += [made("run", n, ("player-1", n % 2 == 0)) for n in range(2, 400)]
    before = seen(facts.summary(1, state, 420))
    folded: list[Any] = []
    real_fold = facts_module.Tally.fold
    monkeypatch.setattr(facts_module.Tally, "fold", lambda self, entry: (folded.append(entry), real_fold(self, entry))[1])
    facts.undo_to(419, state, 5.0)              # actions 400-420 left no entry
    assert seen(facts.summary(1, state, 419)) == before == from_scratch(facts, state)
    assert folded == []
    facts.undo_to(398, state, 6.0)              # action 399 left one: the tally is made again, and right
    assert len(facts.entries) == 398
    assert seen(facts.summary(1, state, 398)) == from_scratch(facts, state)
    assert len(folded) == 398
