"""docs/rules-coverage.md names a test (or a reason) for every rule sentence of the seed rulebooks;
every test it names must exist, so the table cannot point at nothing."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules-coverage.md"


def rows() -> list[list[str]]:
    out = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| es ") or line.startswith("| zh "):
            out.append(cells)
    return out


def test_every_row_has_a_test_or_a_reason() -> None:
    found = rows()
    assert sum(r[0] == "es" for r in found) > 60 and sum(r[0] == "zh" for r in found) > 60
    for seed, section, gist, answer in found:
        assert gist and section and answer, f"an empty cell in {seed} {section}"
        assert "::test_" in answer or "cannot" in answer or "decides" in answer or "advice" in answer, \
            f"{seed} {section} '{gist}' names neither a test nor why the box cannot see it"


def test_every_named_test_exists() -> None:
    named = set(re.findall(r"`([\w/]+\.py)::(test_\w+)`", DOC.read_text(encoding="utf-8")))
    assert len(named) > 80
    missing = []
    for path, test in sorted(named):
        source = ROOT / "tests" / path
        if not source.exists() or not re.search(rf"^def {test}\(", source.read_text(encoding="utf-8"), re.M):
            missing.append(f"{path}::{test}")
    assert missing == []
