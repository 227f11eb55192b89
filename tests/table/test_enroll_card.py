"""`munchkin-table enroll --card ID` (tags for one card until RUN) and `tags export` in deck order."""

from __future__ import annotations

from pathlib import Path

import pytest

from cards.tags import TagRegistry
from table.cli import main
from table.config import ConfigError, load_config
from table.app.enroll import EnrollApp
from table.storage.paths import TAGS_FILE


@pytest.fixture
def cfg(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[storage]\nstate_dir = "{tmp_path / "state"}"\n[reader]\ntype = "sim"\n')
    return path


@pytest.fixture
def config(cfg: Path):
    return load_config(cfg)


def registry(config) -> TagRegistry:
    return TagRegistry(config.state_dir / TAGS_FILE)


def app_for(config, card: str, screen: bool = False) -> EnrollApp:
    app = EnrollApp(config, sim=True, card=card, screen=screen)
    app.reader.start()
    return app


def test_every_tag_tapped_is_bound_to_the_one_card_until_run(config) -> None:
    app = app_for(config, "plutonium-dragon")
    assert app.line.text.startswith("tap a tag for Plutonium Dragon: 0 tags bound")
    for uid in ("04000001", "04000002", "04A1B2C3D4E5F6"):
        app.reader.scan(uid)
    results = app.process()
    assert [r.kind for r in results] == ["bound"] * 3
    assert not app.finished
    app.buttons.press("run")
    app.process()
    assert app.finished
    assert sorted(registry(config).uids_of("plutonium-dragon")) == ["04000001", "04000002", "04A1B2C3D4E5F6"]
    app.close()


def test_undo_takes_back_the_last_tag_and_with_nothing_left_ends(config) -> None:
    registry(config).bind("04EEEEEE", "plutonium-dragon")   # bound before: not this session's to take back
    app = app_for(config, "plutonium-dragon")
    app.reader.scan("04000001")
    app.reader.scan("04000002")
    app.buttons.press("undo")
    [_, _, undone] = app.process()
    assert undone.kind == "undone" and "04000002" in undone.message and not app.finished
    app.buttons.press("undo")
    app.buttons.press("undo")
    *_, last = app.process()
    assert last.kind == "quit" and app.finished
    assert registry(config).uids_of("plutonium-dragon") == ["04EEEEEE"]
    app.close()


def test_a_tag_of_another_card_is_refused_and_kept(config) -> None:
    registry(config).bind("04000001", "thief")
    app = app_for(config, "player-3")
    app.reader.scan("04000001")
    app.buttons.press("next")
    refused, next_pressed = app.process()
    assert not refused.ok and "already belongs to Thief" in refused.message
    assert not next_pressed.ok and "NEXT does nothing here" in next_pressed.message
    assert registry(config).lookup("04000001") == "thief"
    assert app.soft_keys()["next"] == "" and app.soft_keys()["run"] == "Done"
    app.close()


def test_the_same_tag_twice_is_refused_politely(config) -> None:
    app = app_for(config, "thief")
    app.reader.scan("04000001")
    app.reader.scan("04000001")
    bound, again = app.process()
    assert bound.ok and not again.ok and "already bound to Thief" in again.message
    app.close()


def test_the_single_card_screen_renders(config, tmp_path: Path) -> None:
    app = app_for(config, "plutonium-dragon", screen=True)
    for n in range(3):                       # more tags than the deck has copies: shown, not a crash
        app.reader.scan(f"0400000{n + 1}")
    app.process()
    app.render()
    app.screen.save(tmp_path / "card.png")
    assert (tmp_path / "card.png").stat().st_size > 0 and app.session.progress == 1.0
    app.close()


def test_an_unknown_card_id_is_an_error_with_suggestions(config) -> None:
    with pytest.raises(ConfigError, match="no card 'plutonium-dragn'.*did you mean plutonium-dragon"):
        EnrollApp(config, sim=True, card="plutonium-dragn", screen=False)


def test_the_cli_refuses_an_unknown_card_naming_it(cfg: Path, capsys) -> None:
    assert main(["enroll", "--sim", "--card", "no-such-card", "--config", str(cfg)]) == 2
    assert "no card 'no-such-card'" in capsys.readouterr().err


def test_export_lists_tokens_then_cards_in_deck_order(cfg: Path, config, capsys, catalog) -> None:
    reg = registry(config)
    reg.bind("04000009", "thief")
    reg.bind("04000003", "3872-orcs")
    reg.bind("04000002", "player-2")
    reg.bind("04000001", "3872-orcs")
    reg.bind("04000004", "amazon")
    reg.bind("04000005", "wannabe-vampire")   # a monster: in the door deck, before the treasures
    reg.bind("04000006", "ancient")
    assert main(["tags", "export", "--config", str(cfg)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "uid,card"
    cards = [line.split(",")[1] for line in lines[1:]]
    order = list(catalog)
    assert cards[0] == "player-2"
    assert sorted(cards[1:], key=order.index) == cards[1:]             # the catalog's (deck) order, not a-z
    assert [line for line in lines if "3872-orcs" in line] == ["04000001,3872-orcs", "04000003,3872-orcs"]
    assert cards.index("wannabe-vampire") < cards.index("ancient")     # deck order: a-z would put it last


def test_export_of_a_damaged_registry_names_the_bad_rows_and_exports_the_good(cfg: Path, config, capsys) -> None:
    config.state_dir.mkdir(parents=True, exist_ok=True)
    (config.state_dir / TAGS_FILE).write_text("uid,card\n04000001,thief\n04ZZ,elf\n")
    assert main(["tags", "export", "--config", str(cfg)]) == 0
    out, err = capsys.readouterr()
    assert out == "uid,card\n04000001,thief\n"
    assert "tags.csv:3: " in err
