"""The enroll wizard on screen (SDL dummy driver), fed by the simulated reader and buttons."""

from __future__ import annotations

from pathlib import Path

import pytest

from cards.tags import TagRegistry
from table.cli import main
from table.config import load_config
from table.app.enroll import EnrollApp
from table.storage.paths import TAGS_FILE


@pytest.fixture
def config(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_text(f'[storage]\nstate_dir = "{tmp_path / "state"}"\n[reader]\ntype = "sim"\n')
    return load_config(path)


def uid(n: int) -> str:
    return f"04{n:012X}"


def test_whole_simulated_deck_with_a_restart_half_way(config, tmp_path: Path) -> None:
    app = EnrollApp(config, sim=True)
    app.reader.start()
    for n in range(1, 90):
        app.reader.scan(uid(n))
    app.buttons.press("next")                 # skip copy 90
    results = app.process()
    assert [r.kind for r in results].count("bound") == 89 and results[-1].kind == "skipped"
    app.render()
    app.screen.save(tmp_path / "half.png")
    app.close()

    again = EnrollApp(config, sim=True)       # restart: resumes after the skipped copy
    assert again.session.current().number == 91
    assert again.line.text.startswith("welcome back: 89 of 174")
    for n in range(91, 175):
        again.reader.scan(uid(n))
    again.process()
    assert again.session.is_finished and again.soft_keys()["next"] == "Skipped"
    again.buttons.press("next")               # back to the skipped copy
    again.reader.scan(uid(90))
    again.process()
    again.render()
    assert again.session.done == 174 and again.session.prompt() == "all 174 enrolled: the deck is ready"
    again.close()
    assert len(TagRegistry(config.state_dir / TAGS_FILE)) == 174
    assert (tmp_path / "half.png").stat().st_size > 0


def test_refusal_names_the_owner_and_undo_takes_back(config) -> None:
    app = EnrollApp(config, sim=True)
    app.reader.scan(uid(1))
    app.reader.scan(uid(1))
    app.process()
    assert app.line.kind == "refusal" and "already belongs to player token 1" in app.line.text
    app.buttons.press("undo")
    app.process()
    assert app.session.current().card == "player-1" and len(app.registry) == 0
    app.buttons.press("roll")
    app.process()
    assert "ROLL does nothing here" in app.line.text
    app.render()
    app.close()


def test_typing_a_uid_in_the_sim_window_is_a_tap(config) -> None:
    app = EnrollApp(config, sim=True)
    for ch in "04:a1:b2:c3":
        app.type_key(ch, ch)
    assert app.entry == "04:A1:B2:C3"
    app.render()
    app.type_key("return")
    app.process()
    assert app.registry.lookup("04A1B2C3") == "player-1"
    for ch in "0412":
        app.type_key(ch, ch)
    app.type_key("return")
    assert app.line.kind == "refusal" and "4, 7 or 10 bytes" in app.line.text
    app.type_key("f4")                        # NEXT skips
    app.process()
    assert app.session.current().card == "player-3"
    app.close()


def test_run_loop_stops_on_run_and_reports(config, capsys) -> None:
    app = EnrollApp(config, sim=True)
    app.reader.scan(uid(1))
    app.reader.scan(uid(2))
    app.buttons.press("run")
    assert app.run() == 0
    assert "enrolled 2 of 174" in capsys.readouterr().out


def test_enroll_one_set_only(tmp_path: Path) -> None:
    fixture = Path(__file__).resolve().parents[1] / "cards" / "fixtures" / "tiny_expansion.toml"
    path = tmp_path / "config.toml"
    path.write_text(f'[storage]\nstate_dir = "{tmp_path / "s"}"\n[cards]\nsets = ["{fixture}"]\n')
    app = EnrollApp(load_config(path), sim=True, set_id="tiny", tokens=False, screen=False)
    assert app.session.total == 3 and app.session.current().card == "plastic-dragon"


def test_enroll_cli_refuses_unknown_set(tmp_path: Path, capsys) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'[storage]\nstate_dir = "{tmp_path / "s"}"\n')
    assert main(["enroll", "--sim", "--set", "nope", "--config", str(path)]) == 2
    assert "no card set 'nope'" in capsys.readouterr().err


def test_docs_screenshot_comes_from_the_real_wizard(tmp_path: Path, monkeypatch) -> None:
    """docs/make_screens.py renders the enrollment screens through EnrollApp, part way with a refusal."""
    import importlib.util

    import pygame

    from table.ui.screens.kit import GOOD, REFUSAL
    from table.ui.display import Display

    spec = importlib.util.spec_from_file_location("make_screens", Path(__file__).parents[2] / "docs" / "make_screens.py")
    make_screens = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_screens)
    screens: list[Display] = []
    save = Display.save

    def keep(self, path: Path) -> None:
        screens.append(self)
        save(self, path)

    monkeypatch.setattr(Display, "save", keep)
    out = tmp_path / "enrollment.png"
    make_screens.render_enrollment((800, 480), "zh", tmp_path / "state", out)
    image = pygame.image.load(str(out))
    assert image.get_size() == (800, 480)
    panels = screens[0].panels
    bar, result = panels["progress"], panels["result"]
    assert image.get_at((bar.x + bar.w // 8, bar.centery))[:3] == GOOD
    assert image.get_at((result.centerx, result.bottom - 3))[:3] == REFUSAL
    assert any("登记牌组" == d.text for d in screens[0].drawn)


def test_touching_a_soft_key_works_as_its_button(config) -> None:
    import pygame

    app = EnrollApp(config, sim=True)
    app.process()
    app.render()
    skip = next(rect for rect, action in app.screen.hits if action == ("button", "next"))
    w, h = app.screen.window.get_size()
    app.touch(pygame.event.Event(pygame.FINGERDOWN, x=skip.centerx / w, y=skip.centery / h, touch_id=0,
                                 finger_id=0, dx=0, dy=0, pressure=1))
    app.touch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=skip.center, button=1, touch=True))  # SDL's copy
    results = app.process()
    assert [r.kind for r in results] == ["skipped"] and app.session.current().number == 2
    app.close()
