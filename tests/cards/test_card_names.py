"""Card names per language: the shipped files, `cards names export|import`, search and the picker by any name,
and the names on a Spanish screen."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from cards.loader import load_catalog
from engine.errors import CatalogError
from cards.names import LANGUAGES, imported_path, read_shipped, shipped_path, with_names
from table.cli import main


SHIPPED = ("es", "zh", "de", "fr", "it", "pt")         # the languages whose names file is shipped


def test_every_language_of_the_table_can_be_named_and_the_shipped_ones_name_races_and_classes() -> None:
    from table.config import LANGUAGES as TABLE_LANGUAGES

    assert set(TABLE_LANGUAGES) == {"en", "es", "zh", "de", "fr", "it", "pt", "ru", "pl", "ja", "ko"}
    catalog = load_catalog()
    for lang in SHIPPED:
        names = read_shipped(lang, catalog)
        assert {"dwarf", "elf", "warrior", "wizard", "thief", "cleric"} <= set(names), lang


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[storage]\nstate_dir = "{tmp_path / "state"}"\n', encoding="utf-8")
    return path


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_shipped_names_file_lists_every_card_and_only_known_ones(lang: str) -> None:
    catalog = load_catalog()
    import tomllib

    if not shipped_path(lang).exists():
        assert lang not in SHIPPED, f"{shipped_path(lang)} is missing"
        pytest.skip(f"no published {lang} names are shipped yet (a group imports its own)")

    listed = tomllib.loads(shipped_path(lang).read_text(encoding="utf-8"))["names"]
    assert set(listed) == set(catalog)          # every card has its line, filled in or empty
    read_shipped(lang, catalog)                  # raises on a card that does not exist


def _export(capsys, config: Path, lang: str) -> list[list[str]]:
    assert main(["cards", "names", "export", "--lang", lang, "--config", str(config)]) == 0
    return list(csv.reader(io.StringIO(capsys.readouterr().out)))


def test_export_lists_every_card_with_its_english_name(capsys, config: Path) -> None:
    rows = _export(capsys, config, "es")
    assert rows[0] == ["card", "english", "es"]
    assert len(rows) == 1 + 147
    assert ["plutonium-dragon", "Plutonium Dragon", ""] in rows


def test_imported_names_are_kept_and_found_by_search_and_listing(capsys, config: Path, tmp_path: Path) -> None:
    rows = _export(capsys, config, "es")
    for row in rows:
        if row[0] == "plutonium-dragon":
            row[2] = "Dragón de Plutonio Casero"
    typed = tmp_path / "es.csv"
    with typed.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(rows)
    assert main(["cards", "names", "import", str(typed), "--config", str(config)]) == 0
    shipped = len(read_shipped("es", load_catalog()))      # the export carries the shipped names along
    assert f"imported {1 + shipped} es card name(s)" in capsys.readouterr().out
    assert imported_path(tmp_path / "state", "es").exists()
    assert main(["cards", "search", "casero", "--json", "--config", str(config)]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [c["id"] for c in found] == ["plutonium-dragon"] and found[0]["name_es"] == "Dragón de Plutonio Casero"
    assert ["plutonium-dragon", "Plutonium Dragon", "Dragón de Plutonio Casero"] in _export(capsys, config, "es")


def test_a_bad_import_names_every_bad_line_and_changes_nothing(capsys, config: Path, tmp_path: Path) -> None:
    good = tmp_path / "good.csv"
    good.write_text("card,english,zh\nnet-troll,Net Troll,网巨魔\n", encoding="utf-8")
    assert main(["cards", "names", "import", str(good), "--config", str(config)]) == 0
    stored = imported_path(tmp_path / "state", "zh").read_bytes()
    capsys.readouterr()
    bad = tmp_path / "bad.csv"
    bad.write_text("card,english,zh\n"
                   "plutonium-dragon,Plutonium Dragon,钚龙\n"
                   "no-such-card,,名字\n"
                   "net-troll,Net Troll\n"
                   "plutonium-dragon,Plutonium Dragon,又一个\n"
                   "elf,Elf,精\x07灵\n", encoding="utf-8")
    assert main(["cards", "names", "import", str(bad), "--config", str(config)]) == 2
    err = capsys.readouterr().err
    for line in (3, 4, 5, 6):
        assert f"{bad}:{line}: " in err
    assert f"{bad}:2:" not in err and "nothing imported: 4 bad line(s)" in err
    assert imported_path(tmp_path / "state", "zh").read_bytes() == stored


@pytest.mark.parametrize("text, reason", [
    ("", "empty"),
    ("card,english,xx\n", "header"),          # not a language of the table
    ("net-troll,Net Troll,x\n", "header"),
])
def test_an_import_without_its_language_header_is_refused(capsys, config: Path, tmp_path: Path, text: str,
                                                           reason: str) -> None:
    path = tmp_path / "x.csv"
    path.write_text(text, encoding="utf-8")
    assert main(["cards", "names", "import", str(path), "--config", str(config)]) == 2
    assert reason in capsys.readouterr().err
    assert not (tmp_path / "state").exists() or not list((tmp_path / "state").glob("names.*"))


def test_export_needs_a_language_and_import_a_readable_file(capsys, config: Path, tmp_path: Path) -> None:
    assert main(["cards", "names", "export", "--config", str(config)]) == 2
    assert main(["cards", "names", "import", str(tmp_path / "missing.csv"), "--config", str(config)]) == 2
    assert main(["cards", "names", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "--lang" in err and "cannot read" in err


def test_the_picker_finds_a_card_by_any_of_its_names() -> None:
    from table.ui.picker import suggest

    names = {"net-troll": "Net Troll", "elf": "Elf"}
    other = {"net-troll": ("Net Troll", "网巨魔", "Trol de la Red")}
    assert suggest("网巨", names, other_names=other) == [("net-troll", "Net Troll")]
    assert suggest("trol de", names, other_names=other) == [("net-troll", "Net Troll")]
    assert suggest("trol de", names) == []


def test_a_spanish_table_shows_the_imported_name(tmp_path: Path) -> None:
    from drivers.base import ManualClock
    from table.words import i18n
    from table.config import parse_config
    from table.ui.view import build_view
    from table.control.assembly import build_table

    state = tmp_path / "state"
    state.mkdir()
    imported_path(state, "es").write_text("card,english,es\nnet-troll,Net Troll,Trol de la Red\n", encoding="utf-8")
    table = build_table(parse_config({}), ManualClock(), state_dir=state, seed_source=lambda: 1)
    try:
        from table.sim.script import parse_script
        from table.sim.harness import perform
        from drivers.sim import SimButtons, SimReader

        clock = table.controller.clock
        reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
        for action in parse_script("tap player-1\ntap player-2\ntap player-3\npress next\ntap net-troll\n", table.catalog):
            perform(action, table, reader, buttons, clock)
        i18n.set_language("es")
        view = build_view(table.controller, language="es")
        assert view.names["net-troll"] == "Trol de la Red"
        assert "Trol de la Red" in view.message and "Net Troll" not in view.message
        i18n.set_language("en")
        assert "Net Troll" in build_view(table.controller, language="en").message
    finally:
        i18n.set_language("en")
        table.journal.close()


def test_with_names_keeps_english_where_no_name_is_known() -> None:
    catalog = with_names(load_catalog())
    assert catalog["plutonium-dragon"].name_in("es") == "Plutonium Dragon"


def test_the_catalogs_names_in_a_language_are_each_cards_own_and_made_once(catalog) -> None:  # type: ignore[no-untyped-def]
    for language in ("en", "es", "zh"):
        names = catalog.names_in(language)
        assert names == {cid: catalog[cid].name_in(language) for cid in catalog}
        assert catalog.names_in(language) is names


def test_a_shipped_file_is_parsed_once_and_again_when_it_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tomllib

    import cards.names

    monkeypatch.setattr(cards.names, "NAMES_DIR", tmp_path)
    catalog = load_catalog()
    parses: list[str] = []
    real = tomllib.loads
    monkeypatch.setattr(cards.names.tomllib, "loads", lambda text: parses.append(text) or real(text))
    path = tmp_path / "es.toml"
    path.write_text('[names]\ndwarf = "Enano"\n', encoding="utf-8")
    assert read_shipped("es", catalog) == {"dwarf": "Enano"}
    assert read_shipped("es", catalog) == {"dwarf": "Enano"}
    assert len(parses) == 1                        # every start reads every language: once is enough
    path.write_text('[names]\ndwarf = "Enana"\n', encoding="utf-8")      # the same size, maybe the same mtime
    assert read_shipped("es", catalog) == {"dwarf": "Enana"}
    assert len(parses) == 2
    path.write_text('[names]\nno-such-card = "X"\n', encoding="utf-8")
    with pytest.raises(CatalogError, match="no-such-card"):
        read_shipped("es", catalog)                 # a bad card is refused every time, cached or not
    with pytest.raises(CatalogError, match="no-such-card"):
        read_shipped("es", catalog)


def test_a_shipped_names_file_that_is_not_utf8_is_a_catalog_error_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cards.names

    monkeypatch.setattr(cards.names, "NAMES_DIR", tmp_path)
    (tmp_path / "es.toml").write_bytes(b'[names]\ndwarf = "Enano \xff"\n')
    with pytest.raises(CatalogError, match="es.toml"):
        read_shipped("es", load_catalog())
