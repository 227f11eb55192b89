"""The tag registry and `tags import` / `tags export`: all or nothing, bad rows by line number."""

from __future__ import annotations

from pathlib import Path

import pytest

from cards.tags import TagRegistry, parse_tag_csv, parse_uid
from table.cli import main
from table.config import load_config
from table.storage.paths import TAGS_FILE


@pytest.fixture
def cfg(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[storage]\nstate_dir = "{tmp_path / "state"}"\n')
    return path


def registry_of(cfg: Path) -> TagRegistry:
    return TagRegistry(load_config(cfg).state_dir / TAGS_FILE)


@pytest.mark.parametrize("text, expected", [
    ("04a1b2c3", "04A1B2C3"), ("04:A1:B2:C3:D4:E5:F6", "04A1B2C3D4E5F6"), (" 04 a1 b2 c3 ", "04A1B2C3"),
])
def test_parse_uid_accepts_4_and_7_bytes(text: str, expected: str) -> None:
    assert parse_uid(text) == expected


@pytest.mark.parametrize("text", ["", "04A1B2", "04A1B2C3D4", "ZZA1B2C3", "plutonium-dragon"])
def test_parse_uid_refuses_malformed(text: str) -> None:
    with pytest.raises(ValueError):
        parse_uid(text)


def test_several_uids_per_card_and_atomic_file(tmp_path: Path) -> None:
    reg = TagRegistry(tmp_path / "tags.csv")
    reg.bind("04A1B2C3", "thief")
    reg.bind("04A1B2C4", "thief")
    reg.bind("04A1B2C5D6E7F8", "player-1")
    again = TagRegistry(tmp_path / "tags.csv")
    assert sorted(again.uids_of("thief")) == ["04A1B2C3", "04A1B2C4"]
    assert again.lookup("04A1B2C5D6E7F8") == "player-1"
    assert [p.name for p in tmp_path.iterdir()] == ["tags.csv"]      # no temporary file left behind
    with pytest.raises(ValueError, match="already belongs to thief"):
        again.bind("04A1B2C3", "elf")


def test_export_import_round_trip(cfg: Path, tmp_path: Path, capsys) -> None:
    reg = registry_of(cfg)
    reg.bind("04A1B2C3", "plutonium-dragon")
    reg.bind("04A1B2C3D4E5F6", "plutonium-dragon")
    reg.bind("04000001", "player-2")
    out = tmp_path / "tags.csv"
    assert main(["tags", "export", str(out), "--config", str(cfg)]) == 0
    assert out.read_text().splitlines()[0] == "uid,card"
    assert main(["tags", "export", "--config", str(cfg)]) == 0
    assert capsys.readouterr().out == out.read_text()

    other = tmp_path / "other.toml"
    other.write_text(f'[storage]\nstate_dir = "{tmp_path / "state2"}"\n')
    assert main(["tags", "import", str(out), "--config", str(other)]) == 0
    assert "3 new" in capsys.readouterr().out
    assert registry_of(other).items() == reg.items()
    assert main(["tags", "import", str(out), "--config", str(other)]) == 0   # importing again is harmless
    assert "0 new, 3 already known" in capsys.readouterr().out


BAD_ROWS = [
    ("04A1B2C3,no-such-card", "unknown card id 'no-such-card'"),
    ("04A1B2,thief", "is not a tag UID"),
    ("04A1B2C3,thief,extra", "expected 2 columns"),
    ("04EEEEEE,elf", "already belongs to 'thief' in the registry"),
    ("04A1B2C3,elf\n04A1B2C3,dwarf", "bound to 'elf' on line 3 of the same file"),
]


@pytest.mark.parametrize("row, message", BAD_ROWS)
def test_import_reports_bad_row_by_line_and_imports_nothing(cfg: Path, tmp_path: Path, capsys, row: str, message: str) -> None:
    registry_of(cfg).bind("04EEEEEE", "thief")
    csv_file = tmp_path / "in.csv"
    csv_file.write_text(f"uid,card\n04000001,player-1\n{row}\n")
    assert main(["tags", "import", str(csv_file), "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    bad_line = 3 + row.count("\n")
    assert f"{csv_file}:{bad_line}: " in err and message in err
    assert "nothing imported" in err
    assert registry_of(cfg).items() == [("04EEEEEE", "thief")]


def test_import_reports_every_bad_row(tmp_path: Path) -> None:
    rows, problems = parse_tag_csv("uid,card\nxx,thief\n04A1B2C3,elf\n04A1B2C4,nope\n", {"elf", "thief"}, {})
    assert rows == [("04A1B2C3", "elf")]
    assert [p.line for p in problems] == [2, 4]


def test_import_skips_blank_and_comment_lines() -> None:
    rows, problems = parse_tag_csv("# my deck\n\n04a1b2c3 , elf\n", {"elf"}, {})
    assert problems == [] and rows == [("04A1B2C3", "elf")]
