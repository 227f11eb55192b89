"""Russian, Polish, Japanese and Korean on the glass: the font the table picks for each draws every
character of that language's catalog (nothing shows as a box), Japanese and Korean get their own
faces (a distribution font where installed, else the subset the project ships), and doctor says when
the font for the chosen language is missing."""

from __future__ import annotations

from pathlib import Path

import pygame.freetype
import pytest
from babel.messages.pofile import read_po

from drivers.doctor import System
from table.cli.checks import font_check
from table.ui import fonts
from table.words.catalogs import po_path

LANGS = ("ru", "pl", "ja", "ko")
DEBIAN = System(pi_os=False, raspi_config=False, boot_config="/boot/firmware/config.txt", user="munchkin-table")


def translated_characters(lang: str) -> set[str]:
    """Every character of every msgstr (every plural form) of ``lang``'s catalog, read through Babel."""
    with po_path(lang).open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    chars: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        for text in strings:
            chars.update(c for c in text if not c.isspace())
    return chars


def no_glyph(path: str | None, index: int, chars: set[str]) -> str:
    pygame.freetype.init()
    font = pygame.freetype.Font(path, 24, font_index=index)
    return "".join(sorted(c for c in chars if font.get_metrics(c)[0] is None))


@pytest.fixture
def no_system_fonts(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CJK_FONTS", "JA_FONTS", "KO_FONTS"):
        monkeypatch.setattr(fonts, name, [("/nonexistent/font.ttc", 0)])


@pytest.mark.parametrize("lang", LANGS)
def test_the_chosen_font_draws_every_character_of_the_catalog(lang: str) -> None:
    chars = translated_characters(lang)
    script = {"ru": "\u0400-\u04ff", "pl": "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ", "ja": "\u3040-\u30ff", "ko": "\uac00-\ud7a3"}[lang]
    native = [c for c in chars if (c in script) or (len(script) == 3 and script[0] <= c <= script[2])]
    assert len(native) >= (9 if lang == "pl" else 30), f"the {lang} catalog holds too few of its own letters"
    choice = fonts.find_font(lang)
    missing = no_glyph(choice.path, choice.index, chars)
    assert not missing, f"{choice} draws no glyph for {missing} of the {lang} catalog: they would be boxes"
    assert fonts.lacking(choice, fonts.catalog_characters(lang)) == ""


@pytest.mark.parametrize("lang", ("ja", "ko"))
def test_without_a_distribution_font_the_shipped_subset_draws_the_catalog(lang: str, no_system_fonts) -> None:
    choice = fonts.find_font(lang)
    assert choice.path == fonts.SHIPPED[lang][0] and choice.has_cjk
    assert fonts.main(["--check", lang]) == 0 and fonts.main(["--check-system", lang]) == 1
    missing = no_glyph(choice.path, choice.index, translated_characters(lang))
    assert not missing, f"rebuild the subset (python -m table.ui.fonts subset {lang}): it lacks {missing}"
    common = "あいうえおアイウエオー山田太郎佐藤鈴木" if lang == "ja" else "김이박최정민수지영한글"
    assert not no_glyph(choice.path, choice.index, set(common)), "players' names need the common characters"
    assert Path(choice.path).stat().st_size < 3 * 1024 * 1024


def test_the_catalog_characters_are_read_from_every_line_of_a_wrapped_msgstr() -> None:
    """A long translation wraps over several lines of the .po: its later lines count too."""
    text = po_path("ru").read_text(encoding="utf-8")
    assert 'msgstr ""\n"' in text                     # the catalog has wrapped translations
    assert fonts.catalog_characters("ru") >= translated_characters("ru")
    assert fonts.catalog_characters("xx") == set()


def test_japanese_and_korean_get_their_own_face_of_the_noto_cjk_collection() -> None:
    ttc = Path(fonts.NOTO_CJK.format("Bold"))
    if not ttc.exists():
        pytest.skip("fonts-noto-cjk is not installed (apt-get install fonts-noto-cjk)")
    faces = {lang: fonts.find_font(lang) for lang in ("zh", "ja", "ko")}
    assert {lang: (c.path, c.index) for lang, c in faces.items()} == {
        "zh": (str(ttc), 2), "ja": (str(ttc), 0), "ko": (str(ttc), 1)}
    assert fonts.find_font("ja", str(ttc)).index == 0 and fonts.find_font("ko", str(ttc)).index == 1
    assert fonts.find_font("ru").has_cjk is False


@pytest.mark.parametrize("lang", ("ja", "ko"))
def test_doctor_warns_when_the_font_for_the_language_is_missing(lang: str) -> None:
    check = font_check(lang, fonts.FontChoice(None), DEBIAN)
    assert not check.ok and "boxes" in check.detail
    assert check.fix.startswith("sudo apt-get install fonts-noto-cjk")
    assert ("fonts-ipafont-gothic" if lang == "ja" else "fonts-nanum") in check.fix
    found = font_check(lang, fonts.find_font(lang), DEBIAN)
    assert found.ok, found.detail


def test_doctor_warns_when_the_font_lacks_the_cyrillic_of_the_catalog() -> None:
    """The Korean subset has ASCII but no Cyrillic: Russian in it would be boxes."""
    korean = fonts.FontChoice(fonts.SHIPPED["ko"][0], 0, has_cjk=True)
    check = font_check("ru", korean, DEBIAN)
    assert not check.ok and "ru catalog" in check.detail and "Д" in check.detail
    assert "fonts-dejavu-core" in check.fix
    assert font_check("ru", fonts.find_font("ru"), DEBIAN).ok
    assert font_check("en", korean, DEBIAN).ok         # English has no catalog to check
