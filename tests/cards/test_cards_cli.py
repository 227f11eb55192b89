"""`munchkin-table cards`: the listing, the JSON contract, the search, extra sets from the config."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.errors import CatalogError
from table.cli import main
from table.config import load_config

FIXTURES = Path(__file__).with_name("fixtures")


def run_json(capsys, *argv: str) -> list[dict]:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_cards_json_lists_147_ids_and_168_copies(capsys) -> None:
    cards = run_json(capsys, "cards")
    assert len({c["id"] for c in cards}) == len(cards) == 147
    assert sum(c["copies"] for c in cards) == 168
    for card in cards:
        assert {"id", "name", "kind", "copies"} <= set(card)


def test_cards_text_listing_ends_with_totals(capsys) -> None:
    assert main(["cards"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "147 cards, 168 copies"
    assert any(line.startswith("plutonium-dragon ") and "Plutonium Dragon" in line for line in out)


@pytest.mark.parametrize("text, expected", [
    ("DRAGON", ["plutonium-dragon"]),
    ("boots of butt", ["boots-of-butt-kicking"]),
    ("curse-lose-a-level", ["curse-lose-a-level"]),
])
def test_search_is_case_insensitive_over_names_and_ids(capsys, text: str, expected: list[str]) -> None:
    found = [c["id"] for c in run_json(capsys, "cards", "search", text)]
    assert found[: len(expected)] == expected


def test_search_puts_exact_match_first() -> None:
    from cards.listing import search
    from engine.cards import CardDef, Catalog, Kind

    catalog = Catalog([CardDef("elven-cloak", "Elven Cloak", Kind.ITEM, "treasure"),
                       CardDef("shelf-elf", "Shelf Elf", Kind.MONSTER, "door", level=1, treasures=1),
                       CardDef("elf", "Elf", Kind.RACE, "door", names={"es": "Elfo"})])
    assert [c.id for c in search(catalog, "ELF")] == ["elf", "shelf-elf"]
    assert [c.id for c in search(catalog, "elfo")] == ["elf"]


def test_search_without_match_exits_2(capsys) -> None:
    assert main(["cards", "search", "zzzz-no-such-card"]) == 2
    assert "no card matches" in capsys.readouterr().err


def config_with(tmp_path: Path, sets: list[str]) -> Path:
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[storage]\nstate_dir = "{tmp_path / "state"}"\n[cards]\nsets = {json.dumps(sets)}\n')
    return cfg


def test_config_sets_add_an_expansion(tmp_path: Path, capsys) -> None:
    cfg = config_with(tmp_path, [str(FIXTURES / "tiny_expansion.toml")])
    cards = run_json(capsys, "cards", "--config", str(cfg))
    assert len(cards) == 149
    assert {c["id"]: c["set"] for c in cards}["plastic-dragon"] == "tiny"


def test_config_set_paths_are_relative_to_the_config(tmp_path: Path) -> None:
    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "tiny.toml").write_text((FIXTURES / "tiny_expansion.toml").read_text())
    config = load_config(config_with(tmp_path, ["sets/tiny.toml"]))
    assert config.card_set_files()[-1] == tmp_path / "sets" / "tiny.toml"


def test_table_refuses_to_start_on_an_invalid_catalog(tmp_path: Path, capsys) -> None:
    cfg = config_with(tmp_path, [str(FIXTURES / "unknown_slot.toml")])
    assert main(["state", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert f"{FIXTURES / 'unknown_slot.toml'}:10:" in err and "unknown slot 'hand'" in err


def test_validate_with_config_checks_its_sets(tmp_path: Path, capsys) -> None:
    cfg = config_with(tmp_path, [str(FIXTURES / "bonus_not_number.toml")])
    assert main(["cards", "validate", "--config", str(cfg)]) == 2
    assert "bonus_not_number.toml:11:" in capsys.readouterr().err


def test_build_table_raises_catalog_error(tmp_path: Path) -> None:
    from drivers.base import ManualClock
    from table.control.assembly import build_table

    config = load_config(config_with(tmp_path, [str(FIXTURES / "duplicate_id.toml")]))
    with pytest.raises(CatalogError, match="duplicate id"):
        build_table(config, ManualClock())
