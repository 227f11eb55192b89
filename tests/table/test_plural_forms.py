"""Russian and Polish count in three forms (one, few, many): gettext picks the right one for 1, 2, 5,
21, 22 and 25, as CLDR's plural rule (through Babel) says, and the form holds the word as the
language inflects it. Japanese and Korean have one form."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from table.words.catalogs import DOMAIN, po_path

COUNTS = (1, 2, 5, 21, 22, 25)
CLDR_FORM = {"one": 0, "few": 1, "many": 2}     # the order of msgstr[i] in a Babel catalog for ru and pl

# (singular, plural, {language: (form for one, few, many)})
WORDS = [
    ("+{n} level", "+{n} levels", {"ru": ("уровень", "уровня", "уровней"), "pl": ("poziom", "poziomy", "poziomów")}),
    ("draw {n} treasure", "draw {n} treasures",
     {"ru": ("сокровище", "сокровища", "сокровищ"), "pl": ("skarb", "skarby", "skarbów")}),
    ("{n} game", "{n} games", {"ru": ("игра", "игры", "игр"), "pl": ("gra", "gry", "gier")}),
    ("{n} turn, {m} min", "{n} turns, {m} min", {"ru": ("ход", "хода", "ходов"), "pl": ("tura", "tury", "tur")}),
]


def compiled(lang: str, tmp_path: Path) -> gettext.GNUTranslations:
    with po_path(lang).open("rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    folder = tmp_path / lang / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / f"{DOMAIN}.mo").open("wb") as fh:
        write_mo(fh, catalog)
    return gettext.translation(DOMAIN, tmp_path, [lang])   # type: ignore[return-value]


@pytest.mark.parametrize("lang", ("ru", "pl"))
def test_ngettext_picks_the_cldr_form_for_each_count(lang: str, tmp_path: Path) -> None:
    translation = compiled(lang, tmp_path)
    rule = Locale.parse(lang).plural_form
    expected_forms = {"ru": [0, 1, 2, 0, 1, 2], "pl": [0, 1, 2, 2, 1, 2]}[lang]
    assert [CLDR_FORM[rule(n)] for n in COUNTS] == expected_forms
    for singular, plural, words in WORDS:
        for n, form in zip(COUNTS, expected_forms):
            text = translation.ngettext(singular, plural, n).format(n=n, m=3)
            said = text.replace(",", " ").split()
            assert str(n) in text
            word = words[lang][form]
            others = [w for w in words[lang] if w != word and w not in word]
            assert word in said, f"{lang} n={n}: {text!r} should say {word!r} (CLDR {rule(n)})"
            assert not any(w in said for w in others), f"{lang} n={n}: {text!r}"


@pytest.mark.parametrize("lang, forms", [("ru", 3), ("pl", 3), ("ja", 1), ("ko", 1)])
def test_every_plural_message_fills_the_forms_babel_gives_the_locale(lang: str, forms: int) -> None:
    assert Catalog(locale=lang).num_plurals == forms
    with po_path(lang).open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    assert catalog.num_plurals == forms
    plurals = [m for m in catalog if m.id and m.pluralizable]
    assert len(plurals) >= 15
    for message in plurals:
        assert len(message.string) == forms and all(message.string), f"{lang}: {message.id[0]!r} {message.string!r}"
    assert all(m.string for m in catalog if m.id), f"{lang}: a message has no translation"
