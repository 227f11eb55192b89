"""A game's facts log (table/session/facts.py ``GameFacts.log_json``): written whole on most
fact-changing actions, so its entries are encoded once each; the text is json.dumps's, always."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from table.session.facts import GameFacts


def reference(facts: GameFacts) -> str:
    return json.dumps({"entries": facts.entries, "started": facts.started, "ended": facts.ended, "last": facts.last,
                       "abandoned": facts.abandoned}, separators=(",", ":"))


entry = st.tuples(st.sampled_from(["start", "fight", "run", "death", "level", "help", "retract"]),
                  st.integers(1, 500),
                  st.dictionaries(st.sampled_from(["player", "to", "monster", "über"]),
                                  st.one_of(st.integers(), st.text(max_size=5), st.none()), max_size=3))
step = st.one_of(st.tuples(st.just("add"), entry), st.tuples(st.just("cut"), st.integers(0, 30)),
                 st.tuples(st.just("undo"), st.integers(0, 500)), st.tuples(st.just("time"), st.floats(0, 1e9)),
                 st.tuples(st.just("reload"), st.none()))


@settings(max_examples=200, deadline=None)
@given(st.lists(step, max_size=40))
def test_the_log_is_json_dumps_text_after_any_adds_cuts_undos_and_reloads(steps: list[tuple[str, Any]]) -> None:
    facts = GameFacts()
    for kind, arg in steps:
        if kind == "add":
            facts.entries.append([arg[0], arg[1], dict(arg[2])])
        elif kind == "cut":
            facts.restore((min(arg, len(facts.entries)), facts.started, facts.ended, facts.last, facts.abandoned))
        elif kind == "undo":
            facts.entries = [e for e in facts.entries if e[1] <= arg]
        elif kind == "time":
            facts.last = arg
        else:
            facts = GameFacts.from_log(facts.log_json())
        assert facts.log_json() == reference(facts)


def test_an_entry_is_encoded_once_however_often_the_log_is_written(monkeypatch) -> None:
    facts = GameFacts(entries=[["level", n, {"player": "player-1", "to": 2}] for n in range(1, 201)])
    facts.log_json()
    calls: list[Any] = []
    real = json.dumps
    monkeypatch.setattr(json, "dumps", lambda obj, **kw: calls.append(obj) or real(obj, **kw))
    facts.entries.append(["death", 201, {"player": "player-2"}])
    assert facts.log_json() == reference(facts)
    encoded_entries = [c for c in calls if isinstance(c, list)]
    assert encoded_entries == [["death", 201, {"player": "player-2"}]]
