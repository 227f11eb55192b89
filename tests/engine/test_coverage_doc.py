"""docs/rules-coverage.md names a test (or a reason) for every rule sentence of the seed rulebooks and
for every ability on the race and class cards; every test it names must exist, a row says "(engine
only)" exactly when none of its tests goes through the table, and only the tests of files that drive the
simulated table or the controller count as going through the table."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules-coverage.md"
CITED = re.compile(r"`([\w/]+\.py)::(test_\w+)`")
GOLDEN = re.compile(r"`golden/test_golden\.py::test_golden_replay` \(([a-z_]+(?:, [a-z_]+)*)\)")
THROUGH_THE_TABLE = ("table/", "golden/")
# What a test file under tests/table or tests/golden uses when it drives the table.
TABLE_DRIVERS = ("build_table", "Controller(", "SimTable", "simulate", "perform(", "parse_script")


def rows(text: str | None = None) -> list[list[str]]:
    out = []
    for line in (DOC.read_text(encoding="utf-8") if text is None else text).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith(("| es ", "| zh ", "| card ")):
            out.append(cells)
    return out


def problems(text: str) -> list[str]:
    """What is wrong with the coverage table ``text``: a row without a test or a reason, a named test
    that does not exist, an "(engine only)" that is not true either way."""
    found = []
    for cells in rows(text):
        answer = cells[-1]
        where = " ".join(cells[:3])
        if not all(cells):
            found.append(f"an empty cell in {where}")
        if not ("::test_" in answer or "cannot" in answer or "decides" in answer or "advice" in answer):
            found.append(f"{where}: names neither a test nor why the box cannot see it")
        cited = CITED.findall(answer)
        through = [c for c in cited if drives_the_table(c[0])]
        if cited and not through and "(engine only)" not in answer:
            found.append(f"{where}: only engine tests, and the row does not say '(engine only)'")
        if through and "(engine only)" in answer:
            found.append(f"{where}: says '(engine only)' but cites a test through the table")
    for names in GOLDEN.findall(text):
        for name in names.split(", "):
            if not (ROOT / "tests" / "golden" / f"{name}.txt").exists():
                found.append(f"golden script {name} does not exist")
    for path, test in sorted(set(CITED.findall(text))):
        source = ROOT / "tests" / path
        body = source.read_text(encoding="utf-8") if source.exists() else ""
        if not re.search(rf"^def {test}\(", body, re.M):
            found.append(f"{path}::{test} does not exist")
    return found


def drives_the_table(path: str) -> bool:
    """Whether the test file ``path`` (under tests/) plays at the table: a table script, the simulated
    table or the controller (a test of the config file, say, does not)."""
    source = ROOT / "tests" / path
    if not path.startswith(THROUGH_THE_TABLE) or not source.exists():
        return False
    body = source.read_text(encoding="utf-8")
    return any(d in body for d in TABLE_DRIVERS)


def test_every_row_has_a_test_or_a_reason() -> None:
    found = rows()
    assert sum(r[0] == "es" for r in found) > 60 and sum(r[0] == "zh" for r in found) > 60
    assert sum(r[0] == "card" for r in found) >= 14
    assert problems(DOC.read_text(encoding="utf-8")) == []


def test_every_named_test_exists() -> None:
    named = set(CITED.findall(DOC.read_text(encoding="utf-8")))
    assert len(named) > 80


def test_a_cited_test_that_does_not_exist_fails() -> None:
    row = "| zh | 行动 | at any time: play a Hireling | `table/test_controller_abilities.py::test_no_such_thing` |\n"
    assert problems(row) == ["table/test_controller_abilities.py::test_no_such_thing does not exist"]


def test_a_golden_script_that_does_not_exist_fails() -> None:
    row = "| es | intro | 3 to 6 | `golden/test_golden.py::test_golden_replay` (win_by_kill, no_such_game) |\n"
    assert problems(row) == ["golden script no_such_game does not exist"]


def test_engine_only_is_said_exactly_when_true() -> None:
    engine = "`engine/test_core.py::test_a_seventh_player_is_refused`"
    table = "`table/test_controller_abilities.py::test_a_hireling_and_go_up_a_level_in_a_fight`"
    assert problems(f"| es | intro | 3 to 6 | {engine} |\n") != []                       # unsaid
    assert problems(f"| es | intro | 3 to 6 | {engine} (engine only) |\n") == []
    assert problems(f"| es | intro | 3 to 6 | {engine}, {table} (engine only) |\n") != []  # untrue
    assert problems(f"| es | intro | 3 to 6 | {engine}, {table} |\n") == []
