"""Screenshots of every screen, in English and Chinese, at 800x480, 1920x1080 and 720x1280 (portrait),
and of the main screens at 800x480 in each other language of the table that has a catalog.

    .venv/bin/python docs/make_screens.py            # writes docs/screens/*.png and docs/screens.md
    .venv/bin/python docs/make_screens.py de fr      # only these languages' pictures (the page lists all there are)

Each screen comes from a table script in table/ui/scenes.py run through the simulated
table (the same path as ``munchkin-table simulate --screenshot``); the enrollment screen
from ``munchkin-table enroll --sim`` itself (EnrollApp), fed simulated taps.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from table.ui.display import Display, use_headless_drivers  # noqa: E402
from table.ui.scenes import PLAYER_MENU, SCENES, open_player_menu  # noqa: E402
from table.ui.screen import headless_display  # noqa: E402

SIZES = [(800, 480), (1920, 1080), (720, 1280)]
NOTES = """## Notes

- **Language**: `[display] language = "en" | "es" | "zh" | "de" | "fr" | "it" | "pt" | "ru" | "pl" | "ja" | "ko"`
  (`pt` is Brazilian Portuguese). The game terms each language uses: `docs/glossary-<lang>.md`. Catalogs are
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
SHOWN_LANGUAGES = ["en", "zh"]      # every screen at every size; the tests render every language
# The main screens, at the 7" panel's size, in each other language of the table.
MAIN_SCREENS = ["setup", "table", "combat", "run-away", "card-menu", "sales-basket", "charity", "game-over",
                "standings"]
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


def _shots(languages: list[str]) -> list[tuple[str, str, tuple[int, int]]]:
    """(screen, language, size) of every picture to make for ``languages``."""
    from table.words.catalogs import po_path

    shots = []
    for language in languages:
        if language != "en" and not po_path(language).exists():
            print(f"skipped {language}: no catalog at {po_path(language).relative_to(ROOT)}")
            continue
        full = language in SHOWN_LANGUAGES
        for w, h in SIZES if full else SIZES[:1]:
            for name in [*SCENES, PLAYER_MENU, "enrollment"] if full else MAIN_SCREENS:
                shots.append((name, language, (w, h)))
    return shots


def _page() -> list[str]:
    """docs/screens.md's table: every picture in docs/screens, by language, size and screen."""
    from table.config import LANGUAGES

    order = [*SCENES, PLAYER_MENU, "enrollment"]
    rows = []
    for path in OUT.glob("*.png"):
        m = re.fullmatch(r"(.+)-([a-z]{2})-(\d+)x(\d+)\.png", path.name)
        if m and m[2] in LANGUAGES and m[1] in order:
            size = (int(m[3]), int(m[4]))
            rows.append(((LANGUAGES.index(m[2]) if m[2] in SHOWN_LANGUAGES else 100 + LANGUAGES.index(m[2]),
                          SIZES.index(size) if size in SIZES else 9, order.index(m[1])), m[1], m[2], f"{size[0]}x{size[1]}", path.name))
    return [f"| {name} | {language} | {size} | [![{name} {language} {size}](screens/{file})](screens/{file}) |"
            for _key, name, language, size, file in sorted(rows)]


def main(argv: list[str] | None = None) -> int:
    import tempfile
    from table.config import LANGUAGES

    languages = list(sys.argv[1:] if argv is None else argv) or list(LANGUAGES)
    unknown = [language for language in languages if language not in LANGUAGES]
    if unknown:
        print(f"make_screens: not a language of the table: {', '.join(unknown)}", file=sys.stderr)
        return 2
    use_headless_drivers()
    OUT.mkdir(parents=True, exist_ok=True)
    for name, language, (w, h) in _shots(languages):
        path = OUT / f"{name}-{language}-{w}x{h}.png"
        with tempfile.TemporaryDirectory() as tmp:
            if name == "enrollment":
                render_enrollment((w, h), language, Path(tmp), path)
            else:
                display = render_scene(name, (w, h), language, Path(tmp))
                display.save(path)
                display.close()
        print(f"wrote {path.relative_to(ROOT)}")
    lines = ["# Screens", "",
             "Every screen of the table, rendered by `docs/make_screens.py` through the simulated table",
             "(SDL's dummy driver), in English and Chinese at the 7\" panel's 800x480, at 1920x1080 and at",
             "the Touch Display 2's 720x1280 (portrait layouts, picked by `[display] width`/`height`); the",
             "main screens at 800x480 in each other language of the table that has a catalog.",
             "The enrollment rows are `munchkin-table enroll --sim` itself (EnrollApp, a temporary state",
             "directory): 39 tags bound, one copy skipped, and player token 5's tag tapped again, refused.", "",
             "| screen | language | size | image |", "| --- | --- | --- | --- |", *_page()]
    lines += ["", NOTES]
    (ROOT / "docs" / "screens.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
