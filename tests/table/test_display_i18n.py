"""Translations: the compact msgfmt, the catalogs' completeness, finished sentences, sounds."""

from __future__ import annotations

import copy
import functools
import gettext
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from engine.messages import msg, nmsg
from engine.results import Rejected, RejectCode
from table.config import LANGUAGES
from table.words import catalogs
from table.words import i18n
from table.ui.sound import RATE, Sounds, synth_die, synth_victory

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def need_catalog(lang: str) -> None:
    """Skip a test that shows a language whose catalog is not in this tree (the check test fails on it instead)."""
    if not catalogs.po_path(lang).exists():
        pytest.skip(f"no {lang} catalog at {catalogs.po_path(lang).relative_to(catalogs.ROOT)}: "
                    f"test_every_message_in_the_code_is_translated_with_the_same_placeholders[{lang}] fails for it")

PLACEHOLDER = re.compile(r"\{(\w+)[^}]*\}")


@functools.cache
def _extracted() -> Catalog:
    return catalogs.extract()


def tree_template() -> Catalog:
    """The tree's template, extracted once per process (1.5-2.5 s each time), a copy for each test to change."""
    return copy.deepcopy(_extracted())


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    i18n.set_language("en")


def test_compiled_mo_reads_back_through_gettext(tmp_path: Path) -> None:
    present = [lang for lang in TRANSLATED if catalogs.po_path(lang).exists()]
    assert {"es", "zh", "de", "fr", "it", "pt"} <= set(present)
    for lang in present:
        po = catalogs.po_path(lang)
        target = tmp_path / lang / "LC_MESSAGES"
        target.mkdir(parents=True)
        (target / po.name).write_text(po.read_text(encoding="utf-8"), encoding="utf-8")
    written = catalogs.compile_all(tmp_path)
    assert len(written) == len(present)
    for lang in present:
        translation = gettext.translation(i18n.DOMAIN, tmp_path, [lang])
        for message in catalogs.read(lang):
            if message.id and not isinstance(message.id, tuple):
                assert translation.gettext(message.id) == message.string


@pytest.mark.catalogs
@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_in_the_code_is_translated_with_the_same_placeholders(lang: str) -> None:
    """What ``catalogs check`` says of one language: a language of the table without a catalog fails here."""
    template = tree_template()
    assert len(template) > 350
    assert catalogs.po_path(lang).exists(), f"no {lang} catalog: python -m table.words.catalogs update {lang} makes one"
    assert catalogs.problems(template, catalogs.read(lang), lang) == []


@pytest.mark.catalogs
def test_catalogs_check_fails_on_a_missing_catalog_and_on_a_stray_one(tmp_path: Path, monkeypatch, capsys) -> None:
    """``check`` covers every language of the table and every catalog directory there is."""
    for lang in ("es", "de"):
        target = tmp_path / lang / "LC_MESSAGES"
        target.mkdir(parents=True)
        (target / catalogs.po_path(lang).name).write_bytes(catalogs.po_path(lang).read_bytes())
    (tmp_path / "xx" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "xx" / "LC_MESSAGES" / catalogs.po_path("es").name).write_bytes(catalogs.po_path("es").read_bytes())
    monkeypatch.setattr(catalogs, "LOCALE_DIR", tmp_path)
    found = catalogs.check_all(tree_template())
    missing = {line.split(":")[0] for line in found if "no catalog at" in line}
    assert missing == set(TRANSLATED) - {"es", "de"}
    assert any(line.startswith("xx: ") and "not a language of the table" in line for line in found)
    assert not [line for line in found if line.startswith(("es:", "de:"))]
    assert catalogs.main(["check"]) == 1
    assert "fr: no catalog at" in capsys.readouterr().out


def test_update_creates_a_missing_catalog_with_the_languages_plural_forms(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(catalogs, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(catalogs, "POT", tmp_path / "template.pot")
    written = catalogs.update(["fr", "de"])
    assert written == [tmp_path / "template.pot", catalogs.po_path("fr"), catalogs.po_path("de")]
    fr, de = catalogs.read("fr"), catalogs.read("de")
    assert fr.num_plurals == 3 and de.num_plurals == 2            # CLDR through Babel: French has "many" too
    template = tree_template()
    assert len(fr) == len(template) and all(not m.string or m.string == ("", "", "") for m in fr if m.id)
    assert len(catalogs.problems(template, fr, "fr")) == len(template)         # every message untranslated
    with pytest.raises(ValueError, match="not a language of the table: xx"):
        catalogs.update(["xx"])


# The plural forms players see: n = 0 is singular in French and Brazilian Portuguese, plural in German and Italian.
PLURALS = {
    "de": {0: "+0 Stufen", 1: "+1 Stufe", 2: "+2 Stufen", 5: "+5 Stufen", 21: "+21 Stufen", 22: "+22 Stufen"},
    "fr": {0: "+0 niveau", 1: "+1 niveau", 2: "+2 niveaux", 5: "+5 niveaux", 21: "+21 niveaux", 25: "+25 niveaux",
           1_000_000: "+1000000 niveaux"},
    "it": {0: "+0 livelli", 1: "+1 livello", 2: "+2 livelli", 21: "+21 livelli", 1_000_000: "+1000000 livelli"},
    "pt": {0: "+0 nível", 1: "+1 nível", 2: "+2 níveis", 5: "+5 níveis", 22: "+22 níveis"},
}


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_counts_take_the_languages_own_plural_forms(lang: str) -> None:
    need_catalog(lang)
    i18n.set_language(lang)
    for n, shown in PLURALS[lang].items():
        assert i18n.text(nmsg("+{n} level", "+{n} levels", "n", n=n)) == shown


def test_a_new_or_reworded_english_sentence_fails_until_the_catalogs_have_it() -> None:
    template = tree_template()
    template.add("{who} rolled {roll} and ran for it")
    found = catalogs.problems(template, catalogs.read("zh"), "zh")
    assert found == ["zh: no translation for '{who} rolled {roll} and ran for it'"]


def test_a_translation_with_other_placeholders_fails() -> None:
    catalog = catalogs.read("es")
    catalog["{who} helps"].string = "{player} ayuda"
    template = tree_template()
    found = catalogs.problems(template, catalog, "es")
    assert len(found) == 1 and "'{who} helps'" in found[0] and "['player']" in found[0]


def test_the_engine_refuses_with_a_template_and_values() -> None:
    from engine.messages import CardRef, PlayerRef

    refusal = Rejected(RejectCode.ILLEGAL_PLAY, msg("{card} is not equipped", card=CardRef("net-troll", "Net Troll")))
    assert str(refusal.message) == "Net Troll is not equipped"
    assert refusal.message.id == "{card} is not equipped" and refusal.values["card"].id == "net-troll"
    i18n.set_language("zh")
    assert i18n.text(refusal.message) == i18n._("{card} is not equipped").format(card="Net Troll")
    i18n.set_card_names({"zh": {"net-troll": "网巨魔"}})
    try:
        assert "网巨魔" in i18n.text(refusal.message)
    finally:
        i18n.set_card_names({})
    assert i18n.text(msg("{who} helps", who=PlayerRef("player-2", "Player 2"))) == "玩家 2 前来帮忙"
    assert i18n.text(msg("{who} helps", who=PlayerRef("player-2", "Ana"))) == "Ana 前来帮忙"


def test_counts_take_their_plural_form_through_ngettext() -> None:
    one = nmsg("+{n} level", "+{n} levels", "n", n=1)
    two = nmsg("+{n} level", "+{n} levels", "n", n=2)
    assert (str(one), str(two)) == ("+1 level", "+2 levels")
    i18n.set_language("es")
    assert (i18n.text(one), i18n.text(two)) == ("+1 nivel", "+2 niveles")
    i18n.set_language("zh")
    assert (i18n.text(one), i18n.text(two)) == ("+1 级", "+2 级")
    from cards.enroll import say_n

    bound = say_n("{uid} bound to {card} ({n} tag now)", "{uid} bound to {card} ({n} tags now)", "n",
                  uid="04A1B2C3", card="Elf", n=2)
    assert str(bound) == "04A1B2C3 bound to Elf (2 tags now)"
    i18n.set_language("es")
    assert i18n.text(bound) == "04A1B2C3 asignada a Elf (2 etiquetas ahora)"


# Table scripts that bring up the messages players see often: every scene, the golden games, and
# a game that sells, enrolls an unknown tag during play, steals a level, uses an ability and a
# number chosen with ROLL, and is refused along the way.
MIXED = """
tap player-1
tap player-2
tap player-3
press roll
press next
tap warrior
tap boots-of-butt-kicking
tap helm-of-courage
tap boots-of-butt-kicking
press help
tap helm-of-courage
press help
press next
press undo
tap boots-of-butt-kicking
press run
press undo
tap uid:04A1B2C3
tap uid:04A1B2C3
tap elf
tap uid:04A1B2C3
tap steal-a-level
tap player-2
tap player-2
tap curse-lose-a-level
tap player-3
press help
press run
press next
tap net-troll
press help
tap player-1
tap player-2
tap warrior
press help
press next
press undo
tap loaded-die
press roll
press help
press next
press next
press run
die 1
press roll
press next
press next
"""


def _english_left(text: str, catalog, names: list[str]) -> list[str]:
    """Latin words left in ``text`` once card names, card texts and player names are taken out."""
    for name in names:
        text = text.replace(name, " ")
    return re.findall(r"[A-Za-z]{2,}", text)


def _card_words(catalog) -> list[str]:
    words = [card.name for card in catalog.values()]
    words += [str(e.get("text", "")) for card in catalog.values() for e in [*card.effects, *card.bad_stuff]]
    words += [card.id for card in catalog.values()]
    return sorted((w for w in words if w), key=len, reverse=True)


def _scripts() -> list[tuple[str, str]]:
    from table.ui.scenes import SCENES

    golden = sorted((Path(__file__).parent.parent / "golden").glob("*.txt"))
    return [*((f"scene {k}", v) for k, v in SCENES.items()), *((p.name, p.read_text()) for p in golden), ("mixed", MIXED)]


def test_what_the_table_shows_in_chinese_is_chinese_but_for_names(tmp_path: Path) -> None:
    """Messages, prompts and soft keys along many table scripts: no English left in zh but card and player names."""
    from drivers.base import ManualClock
    from drivers.sim import SimButtons, SimReader
    from table.config import parse_config
    from table.sim.script import parse_script
    from table.sim.harness import perform
    from table.control.assembly import build_table

    left: dict[str, str] = {}
    shown = 0
    for index, (name, script) in enumerate(_scripts()):
        table = build_table(parse_config({}), ManualClock(), state_dir=tmp_path / str(index), seed_source=lambda: 1)
        ctl = table.controller
        clock = ctl.clock
        reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
        card_words = _card_words(table.catalog)
        for action in parse_script(script, table.catalog, source=name):
            perform(action, table, reader, buttons, clock)
            players = sorted((p.name for p in ctl.state.players), key=len, reverse=True)
            texts = [ctl.message.text if ctl.message else "", ctl.prompt.text if ctl.prompt else ""]
            i18n.set_language("zh")
            shown_now = [i18n.text(t) for t in texts if t]
            shown_now += [i18n.text(k) for k in ctl.soft_keys().values() if k]
            i18n.set_language("en")
            for english, chinese in zip([t for t in texts if t] + [k for k in ctl.soft_keys().values() if k], shown_now):
                shown += 1
                if _english_left(chinese, table.catalog, [*players, *card_words]):
                    left.setdefault(english, f"{name}: {chinese}")
        table.journal.close()
    assert shown > 300
    assert not left, "\n".join(f"{k!r} -> {v}" for k, v in left.items())


def _fake_event_data(name: str, catalog, state) -> dict:
    """Plausible data for an engine event, enough for describe() to write its sentence."""
    ids = [p.id for p in state.players]
    values = {"player": ids[0], "victim": ids[1], "to": ids[1], "from": ids[1], "first": ids[0], "players": ids[:2],
              "winners": ids[:2], "card": "boots-of-butt-kicking", "monster": "net-troll", "by": "elf",
              "source": "curse-lose-a-level", "old": "net-troll", "cards": ["boots-of-butt-kicking", "helm-of-courage"],
              "seat": 2, "roll": 3, "levels": 1, "treasures": 2, "n": 2, "count": 1, "gold": 1200, "bonus": 3,
              "seconds": 2.6, "side": "monsters", "sex": "female", "ability": "berserk", "why": msg("{player}'s hands are full", player=state.players[0]),
              "text": "lose your armor", "automatic": name == "RunAwaySucceeded",
              # the rest the typed events need built, though their sentences do not show them
              "name": "Ann", "total": 3, "face_up": False, "wasted": 0, "double": False, "monsters": ["net-troll"],
              "loot_order": [], "turn": 2, "deal": {"door": 4, "treasure": 4}, "until": 1.0, "index": 0, "lost": [],
              "kind": "any", "replaced": []}
    if name in ("LevelGained", "LevelLost"):
        values.update({"from": 2, "to": 3})

    return values


def test_every_engine_event_sentence_has_a_chinese_template(tmp_path: Path) -> None:
    """Each event table/describe.py puts in words, with plausible data, comes out in Chinese."""
    from drivers.base import ManualClock
    from engine.events import EVENT_TYPES, event_from_data
    from table.session import describe
    from table.config import parse_config
    from table.control.assembly import build_table

    from drivers.sim import SimButtons, SimReader
    from table.sim.script import parse_script
    from table.sim.harness import perform

    table = build_table(parse_config({}), ManualClock(), state_dir=tmp_path, seed_source=lambda: 1)
    clock = table.controller.clock
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    for action in parse_script("tap player-1\ntap player-2\ntap player-3\npress next\n", table.catalog):
        perform(action, table, reader, buttons, clock)
    state, catalog = table.controller.state, table.catalog
    table.journal.close()
    names = sorted(n for n, kind in EVENT_TYPES.items() if not getattr(kind, "automatic"))   # automatic: no sentence
    assert len(names) > 60
    skip = {"PlayersMustAct"}       # "{who}: {text}": the text is the card's own words
    card_words = _card_words(catalog)
    players = [p.name for p in state.players]
    left = {}
    for name in names:
        if name in skip:
            continue
        english = describe.describe(event_from_data(name, _fake_event_data(name, catalog, state)), state, catalog)
        assert english, name
        i18n.set_language("zh")
        chinese = i18n.text(english)
        i18n.set_language("en")
        if _english_left(chinese, catalog, [*players, *card_words]):
            left[name] = f"{english} -> {chinese}"
    assert not left, "\n".join(left.values())


def test_soft_key_labels_with_numbers_and_words_inside_translate() -> None:
    from engine.messages import Seq, word
    from engine.state import Phase

    i18n.set_language("zh")
    assert i18n.text(msg("Sell {gold} gold", gold=1200)) == "出售 1200 金币"
    assert i18n.text(msg("Use {n}", n=4)) == "使用 4"
    assert i18n.text(word("Berserk")) == "狂暴"
    refused = msg("cannot {tried} during {phase}; only during {allowed}", tried=word("ask for help"),
                  phase=Phase.LOOK_FOR_TROUBLE, allowed=Seq([Phase.COMBAT], "or"))
    assert str(refused) == "cannot ask for help during look for trouble; only during combat"
    assert i18n.text(refused) == "找麻烦阶段不能求助；只能在战斗阶段"
    i18n.set_language("es")
    assert i18n.text(word("Empty basket")) == "Vaciar cesta"


def test_sounds_are_short_and_silent_in_tests() -> None:
    assert 0.3 * RATE < len(synth_die()) < 0.5 * RATE
    assert 0.6 * RATE < len(synth_victory()) < 1.0 * RATE
    assert max(abs(x) for x in synth_victory()) < 32767
    sounds = Sounds(True)          # the dummy audio driver keeps tests silent
    assert not sounds.enabled
    sounds.play("die")


# ------------------------------------------------------------------ the tag registry's and the readers' own sentences

# The English words of those sentences; what is left after translating may name files, devices,
# chips and pins (and the operating system's own error text) but none of these ("no", "pin" and "cable" are Spanish too).
ENGLISH_WORDS = {"was", "damaged", "skipped", "kept", "cannot", "read", "starting", "tags", "does", "not", "exist",
                 "enabled", "plugged", "permission", "answers", "check", "wiring", "power", "switches", "after", "tries",
                 "enable", "reboot", "reads", "nothing", "stopped", "answering", "reader", "offline", "the",
                 "and", "to", "header", "on", "old", "file", "bad", "row", "add", "user", "group", "its"}


def _own_words(lang: str) -> set[str]:
    """The words ``lang``'s catalog itself uses."""
    words: set[str] = set()
    for message in catalogs.read(lang):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            words |= {w.lower() for w in re.findall(r"\w+", re.sub(r"\{[^}]*\}", " ", text or ""))}
    return words


def _english_words(text: str) -> set[str]:
    names = re.sub(r"\S*[/=.]\S*", " ", text)            # paths, file names, sudo … dtparam=spi=on
    return {w for w in re.findall(r"[A-Za-z]+", names) if w.lower() in ENGLISH_WORDS}


def _damage_reports(tmp_path: Path) -> list[str]:
    """What cards/tags.py itself says about a damaged and an unreadable tags file."""
    from cards.tags import TagRegistry

    damaged = tmp_path / "damaged" / "tags.csv"
    damaged.parent.mkdir()
    damaged.write_text("04A1B2C3,player-1\n04A1B2C4,player-2\njunk\n")
    unreadable = tmp_path / "unreadable" / "tags.csv"
    unreadable.mkdir(parents=True)                  # a directory where the file should be
    return [TagRegistry(damaged).damage_report() or "", TagRegistry(unreadable).damage_report() or ""]


def _reader_reasons(tmp_path: Path) -> list[str]:
    """The ReaderStatus messages the PN532 and MFRC522 drivers send, from their emulators."""
    import queue

    from drivers.base import ManualClock
    from drivers.emulators.mfrc522 import Mfrc522Chip, install_fakes
    from drivers.emulators.pn532 import Pn532Emulator
    from drivers.mfrc522_spi import Mfrc522Reader
    from drivers.pn532 import Pn532Reader, describe
    from drivers.said import Said

    sink: queue.Queue = queue.Queue()
    clock = ManualClock(1.0)
    Pn532Reader(sink, clock=clock, port=str(tmp_path / "ttyNOPE")).connect()             # no such port
    with Pn532Emulator(directory=str(tmp_path)) as emu:                                 # a silent chip
        reader = Pn532Reader(sink, clock=clock, port=emu.path, ack_timeout=0.05, answer_timeout=0.1)
        emu.inject("silence", times=3)
        reader.connect()
        reader.close()
    said = [Said("reader offline: {why}", why=describe(PermissionError(13, "Permission denied"), "/dev/serial0"))]
    hw = install_fakes()
    hw.clear()
    try:
        Mfrc522Reader(sink, clock=clock).connect()                                      # SPI not enabled
        hw.attach(Mfrc522Chip(reset_pin=25))
        Mfrc522Reader(sink, clock=clock, reset_pin=24).connect()                        # wrong reset pin: wiring
        for fault in ({"reads": 0x00}, {"error": True}):                                # unplugged while polling
            hw.clear()
            chip = hw.attach(Mfrc522Chip(reset_pin=25))
            reader = Mfrc522Reader(sink, clock=clock)
            reader.connect()
            chip.unplug(**fault)
            reader.poll_once()
            reader.close()
    finally:
        hw.clear()
    while not sink.empty():
        said.append(sink.get().message)
    return said


@pytest.mark.parametrize("lang", TRANSLATED)
def test_tag_damage_and_reader_reasons_are_translated(tmp_path: Path, lang: str) -> None:
    need_catalog(lang)
    reports, reasons = _damage_reports(tmp_path), _reader_reasons(tmp_path)
    assert reports[0].startswith("tags.csv was damaged: skipped 1 bad row(s), kept 2 tag(s); the old file is kept as ")
    assert "cannot read it" in reports[1] and reports[1].endswith("; starting with no tags")
    offline = [r for r in reasons if r.startswith("reader offline: ")]
    assert len(offline) == 7 and len(reasons) == 9                 # and two MFRC522 "ready" lines
    for needle in ("does not exist (is the UART", "no PN532 answers", "dialout", "enable SPI", "check the wiring",
                   "stopped answering", "SPI error on spi0.0"):
        assert any(needle in r for r in offline), needle
    i18n.set_language(lang)
    own = _own_words(lang)          # "tags" is German, French and Portuguese too; "file" Italian
    for english in reports + reasons:
        shown = i18n.text(english)
        assert shown != english and not {w for w in _english_words(shown) if w.lower() not in own}, f"{english!r} -> {shown!r}"
    if lang == "zh":
        assert i18n.text(offline[0]).startswith("读卡器离线：")


def test_a_damaged_tags_file_and_an_offline_reader_reach_the_screen_translated(tmp_path: Path) -> None:
    """Through the table itself: the start-up message and the controller's reader-offline line, in zh."""
    from drivers.base import ManualClock
    from drivers.events import ReaderStatus
    from table.config import parse_config
    from table.ui.view import build_view
    from table.control.assembly import build_table

    state = tmp_path / "state"
    state.mkdir()
    (state / "tags.csv").write_text("04A1B2C3,player-1\njunk\n")
    table = build_table(parse_config({}), ManualClock(), state_dir=state, seed_source=lambda: 1)
    try:
        english = table.controller.message.text
        assert english.startswith("tags.csv was damaged")
        i18n.set_language("zh")
        shown = build_view(table.controller, language="zh").message
        assert shown.startswith("tags.csv 已损坏") and not _english_words(shown), shown
        reason = [r for r in _reader_reasons(tmp_path) if "stopped answering" in r][0]
        table.controller.handle(ReaderStatus("pad", False, reason, 1.0))
        shown = build_view(table.controller, language="zh").message
        assert shown.startswith("读卡器离线：") and not _english_words(shown), shown
    finally:
        table.journal.close()


@pytest.mark.parametrize("lang", ["de", "fr", "it", "pt"])
def test_the_font_for_a_latin_language_draws_every_character_its_catalog_uses(lang: str) -> None:
    """Accents, the French no-break space, „quotes“, « guillemets », −, → and …: none drawn as a box."""
    import pygame.freetype

    from table.ui.fonts import find_font

    need_catalog(lang)
    pygame.freetype.init()
    choice = find_font(lang)
    font = pygame.freetype.Font(choice.path, 20, font_index=choice.index) if choice.path else pygame.freetype.Font(None, 20)
    used: set[str] = set()
    for message in catalogs.read(lang):
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            used |= set(text or "")
    assert any(ch in used for ch in "äéàíüçãè")                 # the catalog's own letters are there to check
    missing = sorted(ch for ch in used if (ch == "\xa0" or not ch.isspace()) and font.get_metrics(ch)[0] is None)
    assert not missing, f"{choice} has no glyph for {missing}"


@pytest.mark.parametrize("lang, warrior", [("de", "Krieger"), ("fr", "Guerrier"), ("it", "Guerriero"), ("pt", "Guerreiro")])
def test_a_race_or_class_shows_the_name_its_edition_prints(lang: str, warrior: str) -> None:
    from cards.loader import load_catalog
    from cards.names import with_names

    need_catalog(lang)
    i18n.use_catalog_names(with_names(load_catalog()))
    try:
        i18n.set_language(lang)
        assert i18n.card_name("warrior", "Warrior") == warrior
        assert i18n.card_name("net-troll", "Net Troll") == "Net Troll"     # no published name known: English
    finally:
        i18n.set_card_names({})
