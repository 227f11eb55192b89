"""Screenshots of every screen, in English and Chinese, at 800x480, 1920x1080 and 720x1280 (portrait).

    .venv/bin/python docs/make_screens.py        # writes docs/screens/*.png and docs/screens.md

Each screen comes from a table script in table/ui/scenes.py run through the simulated
table (the same path as ``munchkin-table simulate --screenshot``); the enrollment screen
from ``munchkin-table enroll --sim`` itself (EnrollApp), fed simulated taps.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from table.ui.display import Display, use_headless_drivers  # noqa: E402
from table.ui.scenes import PLAYER_MENU, SCENES, open_player_menu  # noqa: E402
from table.ui.screen import headless_display  # noqa: E402

SIZES = [(800, 480), (1920, 1080), (720, 1280)]
NOTES = """## Notes

- **Language**: `[display] language = "en" | "es" | "zh"`. Catalogs are
  `table/locale/<lang>/LC_MESSAGES/munchkin_table.po`, kept with Babel; `./go` compiles them
  (`python -m table.words.catalogs compile`). The engine and the controller hand over messages as
  templates with values; `table/words/i18n.py` turns them into words in the screen's language.
- **Chinese font**: `python -m table.ui.fonts` shows the font per language. `./go` installs
  `fonts-wqy-microhei` with apt when it may; otherwise the subset of Noto Sans SC shipped in
  `table/assets/fonts` is used (SIL Open Font License). Noto Sans CJK SC (`fonts-noto-cjk`, face 2 of the .ttc) is
  preferred when installed. `[display] font = "/path/to/font.ttc"` overrides.
  A missing font is logged and the screen falls back to a Latin font.
- **Sound**: die roll and victory, synthesised in `table/ui/sound.py`; `[display] sound = false`
  turns them off; the dummy audio driver (tests, simulate) is always silent.
- **Screen blanking**: `run` sets `SDL_VIDEO_ALLOW_SCREENSAVER=0` unless
  `[display] blank_screen = true`. On the Linux console the kernel also blanks after
  10 minutes; that needs root, so set it once on the Pi: add `consoleblank=0` to
  `/boot/firmware/cmdline.txt` (or `echo 0 | sudo tee /sys/module/kernel/parameters/consoleblank`).
- **Simulator** (`run --sim`): a strip under the screen with clickable ROLL…UNDO
  (also F1–F5) and a card picker: type part of a card's name, its id, a player's name or
  a seat number; Up/Down choose, Tab completes, Enter taps, Esc clears; a click on a
  suggestion taps it. A tag UID in hex (8, 14 or 20 digits, e.g. `04A1B2C3`) and Enter tap
  that raw tag through the simulated reader, so an unknown tag can be enrolled during play.
- **Touch**: touching a soft key presses its button (finger events; the mouse events
  SDL makes from touches are skipped).
- **Figures** (this laptop, SDL dummy driver): `bench/display_idle.py` and `bench/render.py`.
"""
SHOWN_LANGUAGES = ["en", "zh"]      # the docs show English and Chinese; the tests render every language
OUT = ROOT / "docs" / "screens"


def render_scene(name: str, size: tuple[int, int], language: str, tmp: Path) -> Display:
    from drivers.base import ManualClock
    from drivers.sim import SimButtons, SimReader
    from table.config import parse_config
    from table.sim.script import parse_script
    from table.sim.harness import perform
    from table.ui.view import build_view
    from table.control.assembly import build_table

    config = parse_config({"display": {"width": size[0], "height": size[1], "language": language, "sound": False}})
    clock = ManualClock()
    table = build_table(config, clock, state_dir=tmp, seed_source=lambda: 1)
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    display = headless_display(config)
    script = SCENES["table"] if name == PLAYER_MENU else SCENES[name]
    for action in parse_script(script, table.catalog, source=name):
        perform(action, table, reader, buttons, clock)
        display.render(build_view(table.controller, language=language))
    if name == PLAYER_MENU:
        display.render(open_player_menu(table.controller, language))
    table.journal.close()
    return display


def render_enrollment(size: tuple[int, int], language: str, tmp: Path, path: Path) -> None:
    """``munchkin-table enroll --sim`` itself, part way through the deck: 39 tags bound, one copy
    skipped, and a tag tapped a second time, so the progress bar and a refusal show."""
    from drivers.base import ManualClock
    from table.config import parse_config
    from table.app.enroll import EnrollApp

    config = parse_config({"display": {"width": size[0], "height": size[1], "language": language, "sound": False},
                           "reader": {"type": "sim"}})
    app = EnrollApp(config, sim=True, clock=ManualClock(), state_dir=tmp)
    for n in range(1, 40):
        app.reader.scan(f"04{n:012X}")
    app.buttons.press("next")
    app.reader.scan(f"04{5:012X}")              # player token 5's tag again: refused, with the reason
    app.process()
    app.render()
    assert app.screen is not None
    app.screen.save(path)
    app.close()


def main() -> int:
    import tempfile

    use_headless_drivers()
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    for language in SHOWN_LANGUAGES:
        for w, h in SIZES:
            for name in [*SCENES, PLAYER_MENU, "enrollment"]:
                path = OUT / f"{name}-{language}-{w}x{h}.png"
                with tempfile.TemporaryDirectory() as tmp:
                    if name == "enrollment":
                        render_enrollment((w, h), language, Path(tmp), path)
                    else:
                        display = render_scene(name, (w, h), language, Path(tmp))
                        display.save(path)
                        display.close()
                rows.append((name, language, f"{w}x{h}", path.name))
                print(f"wrote {path.relative_to(ROOT)}")
    lines = ["# Screens", "",
             "Every screen of the table, rendered by `docs/make_screens.py` through the simulated table",
             "(SDL's dummy driver), in English and Chinese at the 7\" panel's 800x480, at 1920x1080 and at",
             "the Touch Display 2's 720x1280 (portrait layouts, picked by `[display] width`/`height`).",
             "The enrollment rows are `munchkin-table enroll --sim` itself (EnrollApp, a temporary state",
             "directory): 39 tags bound, one copy skipped, and player token 5's tag tapped again, refused.", "",
             "| screen | language | size | image |", "| --- | --- | --- | --- |"]
    for name, language, size, file in rows:
        lines.append(f"| {name} | {language} | {size} | [![{name} {language} {size}](screens/{file})](screens/{file}) |")
    lines += ["", NOTES]
    (ROOT / "docs" / "screens.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
