"""``munchkin-table cards checklist``: every tag to write, one row per physical copy, in the order
the enrollment wizard asks for them (the same function orders both), as text, JSON or a printable page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cards.enroll import EnrollmentSession
from cards.tags import TagRegistry
from table.cli import main
from table.cli.checklist import as_html, rows



def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_checklist_has_a_row_per_tag_174_for_the_base_deck(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cards", "checklist")
    lines = out.splitlines()
    numbered = [line for line in lines if re.match(r"\s*\d+  ", line)]
    assert code == 0 and len(numbered) == 174
    assert [int(line.split()[0]) for line in numbered] == list(range(1, 175))
    assert lines[-1] == "174 tags: 168 card copies and 6 player tokens"
    code, out, _ = run(capsys, "cards", "checklist", "--json")
    data = json.loads(out)
    assert len(data) == 174 and sum(1 for r in data if r["kind"] == "player token") == 6
    assert data[0] == {"number": 1, "card": "player-1", "name": "player token 1", "copy": 1, "copies": 1,
                       "kind": "player token", "set": ""}


def test_the_checklist_is_in_the_order_the_wizard_asks(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    session = EnrollmentSession(catalog, TagRegistry(tmp_path / "tags.csv", known=catalog), tmp_path / "progress.json")
    asked = []
    while (step := session.current()) is not None:
        asked.append((step.number, step.card, step.copy, step.copies))
        assert session.tap(f"04{len(asked):012X}").ok
    listed = [(r["number"], r["card"], r["copy"], r["copies"]) for r in rows(catalog)]
    assert len(asked) == 174 and listed == asked
    # A card with several copies has one row per copy, one after the other.
    several = next(r for r in rows(catalog) if r["copies"] > 1)
    assert [r["copy"] for r in rows(catalog) if r["card"] == several["card"]] == list(range(1, several["copies"] + 1))


def test_the_printable_page_is_self_contained_has_every_row_and_escapes_every_text(catalog) -> None:  # type: ignore[no-untyped-def]
    page = as_html(rows(catalog), "en")
    assert page.count('<tr class="') == 174 and page.startswith("<!DOCTYPE html>")
    for outside in ("http:", "https:", "<script", "<link", "src=", "@import"):
        assert outside not in page
    hostile = [{"number": 1, "card": "x<y", "name": "<b>Tom & Jerry</b>", "copy": 1, "copies": 1,
                "kind": "monster", "set": "a\"b"}]
    page = as_html(hostile, "en")
    assert "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;" in page and "<b>" not in page
    assert "x&lt;y" in page and "a&quot;b" in page


def test_checklist_html_is_printed_by_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cards", "checklist", "--html")
    assert code == 0 and out.count('<tr class="card">') == 168 and out.count('<tr class="token">') == 6


def test_checklist_takes_no_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "cards", "checklist", "dragon")
    assert code == 2 and out == "" and "unexpected 'dragon'" in err
