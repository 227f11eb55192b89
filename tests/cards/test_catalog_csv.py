"""The base set agrees with the shared card facts, number for number."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from cards.loader import BASE_SET, load_catalog

# The card facts, copied into the project so the comparison runs in every clone.
CSV_PATH = Path(__file__).resolve().parents[1] / "data" / "munchkin-base-cards.csv"


@pytest.fixture(scope="module")
def base_catalog():
    return load_catalog([BASE_SET])


def _rows() -> list[dict[str, str]]:
    with CSV_PATH.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _int(text: str) -> int | None:
    return int(text) if text.strip() else None


def test_base_set_has_every_csv_id_and_copy() -> None:
    catalog = load_catalog([BASE_SET])
    rows = _rows()
    assert sorted(catalog) == sorted(r["id"] for r in rows)
    assert len(catalog) == 147
    assert sum(c.copies for c in catalog.values()) == 168


def test_the_card_facts_ship_with_the_tests() -> None:
    assert len(_rows()) == 147


@pytest.mark.parametrize("row", _rows(), ids=lambda r: r["id"])
def test_card_numbers_match_csv(row: dict[str, str], base_catalog) -> None:
    card = base_catalog[row["id"]]
    assert card.name == row["name"]
    assert card.deck == row["deck"]
    assert card.kind.value == row["kind"]
    assert card.copies == int(row["copies"])
    assert card.level == _int(row["level"])
    assert card.treasures == _int(row["treasures"])
    assert card.levels_gained == _int(row["levels_gained"])
    assert card.bonus == _int(row["bonus"])
    assert card.gold == _int(row["gold"])
    assert (card.slot.value if card.slot else "") == row["slot"]
    assert card.big == (row["big"] == "yes")
    assert card.undead == (row["undead"] == "yes")
