"""Translations: the compact msgfmt, the catalogs' completeness, finished sentences, sounds."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest

from table import i18n
from table.sound import RATE, Sounds, synth_die, synth_victory

PLACEHOLDER = re.compile(r"\{(\w+)[^}]*\}")


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    i18n.set_language("en")


def test_compiled_mo_reads_back_through_gettext(tmp_path: Path) -> None:
    for lang in ("es", "zh"):
        po = i18n.po_path(lang)
        target = tmp_path / lang / "LC_MESSAGES"
        target.mkdir(parents=True)
        (target / po.name).write_text(po.read_text(encoding="utf-8"), encoding="utf-8")
    written = i18n.compile_all(tmp_path)
    assert len(written) == 2
    for lang in ("es", "zh"):
        messages = i18n.parse_po(i18n.po_path(lang).read_text(encoding="utf-8"))
        translation = gettext.translation(i18n.DOMAIN, tmp_path, [lang])
        for msgid, msgstr in messages.items():
            if msgid:
                assert translation.gettext(msgid) == msgstr


def test_parse_po_skips_fuzzy_and_joins_continued_lines() -> None:
    text = '#, fuzzy\nmsgid "a"\nmsgstr "x"\n\nmsgid ""\n"b"\n"c"\nmsgstr "y"\n"z"\n'
    assert i18n.parse_po(text) == {"bc": "yz"}
    with pytest.raises(i18n.PoError, match=":1:"):
        i18n.parse_po("msgid_plural \"x\"\n")


@pytest.mark.parametrize("lang", ["es", "zh"])
def test_every_template_is_translated_with_the_same_placeholders(lang: str) -> None:
    messages = i18n.parse_po(i18n.po_path(lang).read_text(encoding="utf-8"))
    for template in i18n.MESSAGE_TEMPLATES:
        assert template in messages, f"{lang}: {template!r} is not translated"
        assert set(PLACEHOLDER.findall(messages[template])) == set(PLACEHOLDER.findall(template)), template


def test_screen_strings_in_the_code_are_all_in_the_catalogs() -> None:
    root = Path(i18n.__file__).parent
    used = set()
    for name in ("display.py", "view.py"):
        used |= set(re.findall(r'\b_\("((?:[^"\\]|\\.)+)"\)', (root / name).read_text(encoding="utf-8")))
    for lang in ("es", "zh"):
        messages = i18n.parse_po(i18n.po_path(lang).read_text(encoding="utf-8"))
        missing = sorted(u for u in used if u not in messages)
        assert not missing, f"{lang}: {missing}"


def test_finished_sentences_are_translated_part_by_part() -> None:
    i18n.set_language("zh")
    text = i18n.translate_message("Ana rolled 2: caught by Net Troll; Ana: level 3 → 2")
    assert text == "Ana 掷出 2：被 Net Troll 抓住；Ana：等级 3 → 2"
    assert i18n.translate_message("something nobody wrote a template for") == "something nobody wrote a template for"
    i18n.set_language("es")
    assert i18n._("Kick") == "Patada"
    i18n.set_language("en")
    assert i18n.translate_message("Ana helps") == "Ana helps"


def test_controller_messages_match_their_templates(tmp_path: Path) -> None:
    """The templates track table/describe.py and the controller: a real game's messages translate."""
    from drivers.base import ManualClock
    from drivers.sim import SimButtons, SimReader
    from table.config import parse_config
    from table.script import parse_script
    from table.simulate import perform
    from table.wiring import build_table

    table = build_table(parse_config({}), ManualClock(), state_dir=tmp_path, seed_source=lambda: 1)
    clock = table.controller.clock
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    i18n.set_language("zh")
    seen = []
    for action in parse_script("tap player-1\ntap player-2\ntap player-3\npress next\ntap net-troll\npress next\n"
                               "press help\ntap player-2\npress undo\npress run\n", table.catalog):
        perform(action, table, reader, buttons, clock)
        seen.append(i18n.translate_message(table.controller.message.text))
    table.journal.close()
    untranslated = [t for t in seen if re.search(r"\b(joined|starts|fights|cannot win|helps|undone|running)\b", t)]
    assert not untranslated, untranslated


def test_sounds_are_short_and_silent_in_tests() -> None:
    assert 0.3 * RATE < len(synth_die()) < 0.5 * RATE
    assert 0.6 * RATE < len(synth_victory()) < 1.0 * RATE
    assert max(abs(x) for x in synth_victory()) < 32767
    sounds = Sounds(True)          # the dummy audio driver keeps tests silent
    assert not sounds.enabled
    sounds.play("die")
