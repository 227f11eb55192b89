"""Every catalog error names its file, line and field; the table refuses an invalid catalog."""

from __future__ import annotations

from pathlib import Path

import pytest

from cards.loader import BASE_SET, load_catalog, set_files, validate_files
from engine.errors import CatalogError
from table.cli import main

FIXTURES = Path(__file__).with_name("fixtures")


def problems_of(name: str) -> list[str]:
    _, problems = validate_files([FIXTURES / name])
    return [str(p) for p in problems]


@pytest.mark.parametrize("name, line, words", [
    ("unknown_key.toml", 13, ["shiny-hat", "unknown key 'colour'"]),
    ("missing_level.toml", 6, ["angry-teapot", "'level'"]),
    ("bonus_not_number.toml", 11, ["rubber-sword", "bonus must be a whole number", "'+2'"]),
    ("duplicate_id.toml", 13, ["tin-can", "duplicate id", "duplicate_id.toml:5"]),
    ("unknown_effect.toml", 13, ["sneezing-goblin", "unknown effect 'sneeze-on'"]),
    ("unknown_slot.toml", 10, ["glove-of-holding", "unknown slot 'hand'", "1-hand"]),
    ("syntax_error.toml", 10, ["not valid TOML"]),
    ("unterminated.toml", 3, ["not valid TOML"]),
])
def test_each_error_names_file_line_and_field(name: str, line: int, words: list[str]) -> None:
    problems = problems_of(name)
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{FIXTURES / name}:{line}: "), problems[0]
    for word in words:
        assert word in problems[0]


def test_every_error_of_a_file_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "many.toml"
    bad.write_text((FIXTURES / "unknown_key.toml").read_text()
                   + "\n[[card]]\nid = \"slot-less\"\nname = \"X\"\ndeck = \"treasure\"\nkind = \"item\"\nslot = \"tail\"\n")
    problems = [str(p) for p in validate_files([bad])[1]]
    assert len(problems) == 2
    assert "colour" in problems[0] and "tail" in problems[1]


def test_base_set_is_valid() -> None:
    cards, problems = validate_files([BASE_SET])
    assert problems == []
    assert len(cards) == 147


def test_cli_validate_reports_with_exit_2(capsys) -> None:
    assert main(["cards", "validate", str(FIXTURES / "bonus_not_number.toml")]) == 2
    err = capsys.readouterr().err
    assert f"{FIXTURES / 'bonus_not_number.toml'}:11:" in err


def test_cli_validate_without_path_checks_every_set(capsys) -> None:
    assert main(["cards", "validate"]) == 0
    assert "147 cards, 168 copies" in capsys.readouterr().out


def test_load_catalog_raises_with_the_same_message() -> None:
    with pytest.raises(CatalogError) as info:
        load_catalog([BASE_SET, FIXTURES / "unknown_slot.toml"])
    assert f"{FIXTURES / 'unknown_slot.toml'}:10:" in str(info.value)


def test_expansion_set_loads_beside_base() -> None:
    catalog = load_catalog(set_files([FIXTURES / "tiny_expansion.toml"]))
    assert len(catalog) == 149
    assert catalog["plastic-dragon"].set_id == "tiny"
    assert catalog["plastic-dragon"].copies == 2
    assert catalog["plutonium-dragon"].set_id == "base"


def test_expansion_clashing_with_base_is_a_duplicate(tmp_path: Path) -> None:
    clash = tmp_path / "clash.toml"
    clash.write_text('[set]\nid = "clash"\nname = "Clash"\n\n[[card]]\nid = "plutonium-dragon"\n'
                     'name = "Plutonium Dragon"\ndeck = "door"\nkind = "monster"\nlevel = 20\ntreasures = 5\n')
    problems = [str(p) for p in validate_files([BASE_SET, clash])[1]]
    assert problems == [f"{clash}:5: card 'plutonium-dragon': duplicate id (first in {BASE_SET}:"
                        + problems[0].split(f"{BASE_SET}:")[1]]


def test_a_set_file_is_parsed_once_for_the_same_text_and_its_problems_said_every_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tomllib

    import cards.loader

    parses: list[str] = []
    real = tomllib.loads
    monkeypatch.setattr(cards.loader.tomllib, "loads", lambda text: parses.append(text) or real(text))
    good = tmp_path / "hats.toml"
    good.write_text('[set]\nid = "hats"\nname = "Hats"\n\n[[card]]\nid = "tin-hat"\nname = "Tin Hat"\n'
                    'deck = "treasure"\nkind = "item"\nslot = "headgear"\nbonus = 1\ngold = 100\n', encoding="utf-8")
    first, second = load_catalog([good]), load_catalog([good])
    assert first["tin-hat"].bonus == second["tin-hat"].bonus == 1 and first is not second
    assert len(parses) == 1                        # every start and command loads the catalog: once is enough
    good.write_text(good.read_text(encoding="utf-8").replace("bonus = 1", "bonus = 2"), encoding="utf-8")
    assert load_catalog([good])["tin-hat"].bonus == 2       # the same size, maybe the same mtime: read afresh
    bad = FIXTURES / "unknown_key.toml"
    for _ in range(2):                              # a cached file's problems are not lost the second time
        with pytest.raises(CatalogError, match="unknown key 'colour'"):
            load_catalog([bad])
