"""The enroll wizard in the configured language, laid out like the table at every size."""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest

from cards import enroll as cards_enroll
from cards.enroll import say
from drivers.events import ReaderStatus
from engine.cards import Kind
from table.app import enroll as table_enroll
from table.words import i18n
from table.config import LANGUAGES, parse_config
from table.app.enroll import EnrollApp
from table.ui.screens import enroll as enroll_screen

SIZES = [(800, 480), (1920, 1080), (720, 1280)]
PLACEHOLDER = re.compile(r"\{(\w+)\}")
SAY = re.compile(r'\bsay\(\s*"((?:[^"\\]|\\.)+)"(?:\s*\n?\s*"((?:[^"\\]|\\.)+)")?')
GETTEXT = re.compile(r'\b_\("((?:[^"\\]|\\.)+)"\)')


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    i18n.set_language("en")


def uid(n: int) -> str:
    return f"04{n:012X}"


def screen_strings() -> set[str]:
    """Every sentence and word the wizard can put on screen, as written in the code."""
    found: set[str] = set()
    for module in (cards_enroll, table_enroll, enroll_screen):
        source = Path(module.__file__).read_text(encoding="utf-8")
        found |= {a + b for a, b in SAY.findall(source)}
        found |= set(GETTEXT.findall(source))
    found |= {k.value for k in Kind} | {"door", "treasure"}
    found |= {"Skip", "Undo", "Stop", "Done", "Skipped", "ROLL", "HELP", "RUN", "NEXT", "UNDO"}
    # a bare placeholder is a name shown as it is (a card's own name, the registry's report)
    return {t for t in found if PLACEHOLDER.sub("", t).strip()}


def test_the_code_is_read_for_its_strings() -> None:
    strings = screen_strings()
    assert "tag {uid} already belongs to {card}; tap {card2} instead (NEXT skips, UNDO takes back)" in strings
    assert "Enroll the deck" in strings and "copy {i} of {n}" in strings and "player token {n}" in strings
    assert len(strings) > 50


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_wizard_string_is_translated_with_the_same_placeholders(lang: str) -> None:
    from table.words import catalogs

    if not catalogs.po_path(lang).exists():
        pytest.skip(f"no {lang} catalog in this tree (the catalogs check fails for it)")
    catalog = catalogs.read(lang)
    messages = {m.id: m.string for m in catalog if m.id and not isinstance(m.id, tuple) and m.string}
    missing = sorted(t for t in screen_strings() if t not in messages)
    assert not missing, f"{lang}: {missing}"
    for template in screen_strings():
        assert set(PLACEHOLDER.findall(messages[template])) == set(PLACEHOLDER.findall(template)), template


def test_a_sentence_translates_with_its_nested_names_and_keeps_card_names() -> None:
    i18n.set_language("zh")
    text = say("tag {uid} already belongs to {card}; tap {card2} instead (NEXT skips, UNDO takes back)",
               uid="04A1B2C3", card=say("player token {n}", n=2),
               card2=say("{name} (copy {i} of {n})", name=say("{name}", name="Thief"), i=2, n=3))
    assert text.text(i18n._) == "标签 04A1B2C3 已属于 玩家标记 2；请改刷 Thief（第 2 张，共 3 张）（「下一步」跳过，「撤销」收回）"
    assert str(text).startswith("tag 04A1B2C3 already belongs to player token 2; tap Thief (copy 2 of 3)")
    # a translation that lost a placeholder shows the English rather than failing
    assert say("{n} of {total}", n=1, total=2).text(lambda t: "{n} de {totl}") == "1 of 2"


# ------------------------------------------------------------------ on screen

def app_for(tmp_path: Path, size: tuple[int, int], language: str, **kw) -> EnrollApp:
    config = parse_config({"display": {"width": size[0], "height": size[1], "language": language, "sound": False},
                           "reader": {"type": "sim"}})
    return EnrollApp(config, sim=True, state_dir=tmp_path / f"{language}-{size[0]}x{size[1]}", **kw)


def walk(app: EnrollApp):
    """Drive the wizard through its states, yielding after each frame."""
    app.render()
    yield "start"
    for n in range(1, 12):
        app.reader.scan(uid(n))
    app.process()
    app.render()
    yield "eleven enrolled"
    app.reader.scan(uid(3))
    app.process()
    app.render()
    yield "refused: a token's tag"
    app.reader.scan(uid(8))
    app.process()
    app.render()
    yield "refused: a card's tag"
    app.buttons.press("next")
    app.buttons.press("roll")
    app.process()
    app.render()
    yield "ROLL refused"
    app.buttons.press("undo")
    app.buttons.press("undo")
    app.process()
    app.render()
    yield "undone"
    for ch in "04a1":
        app.type_key(ch, ch)
    app.render()
    yield "typing"
    app.type_key("return")
    app.render()
    yield "not a UID"
    app.handle(ReaderStatus("sim", False, "SPI read failed", 0.0))
    app.render()
    yield "reader offline"
    app.handle(ReaderStatus("sim", True, "", 0.0))
    app.render()
    yield "reader back"
    for n in range(100, 100 + app.session.total):
        if app.session.is_finished:
            break
        app.buttons.press("next")
    app.process()
    app.render()
    yield "all skipped"
    app.buttons.press("next")
    app.reader.scan(uid(3))
    app.process()
    app.render()
    yield "revisit"


def card_words(app: EnrollApp) -> list[str]:
    words = [c.name for c in app.catalog.values()] + [c.id for c in app.catalog.values()]
    words += ["munchkin-table enroll --card", "munchkin-table enroll", "SPI read failed"]
    return sorted(words, key=len, reverse=True)


def english_left(text: str, names: list[str]) -> list[str]:
    for name in names:
        text = text.replace(name, " ")
    text = re.sub(r"\b(?:[0-9A-F]{2}:?){2,}\b|\b[0-9A-F]{4,}_?", " ", text)        # tag UIDs, typed or shown
    return re.findall(r"[A-Za-z]{2,}", text)


def assert_inside(app: EnrollApp) -> None:
    display = app.screen
    screen = display.window.get_rect()
    assert display.drawn
    for d in display.drawn:
        assert d.rect.w > 0 and d.rect.h > 0
        assert d.box.contains(d.rect), f"{d.text!r} at {d.rect} spills out of its box {d.box}"
        assert screen.contains(d.box), f"box {d.box} of {d.text!r} is off the screen"
    panels = display.panels
    for name, rect in panels.items():
        assert screen.contains(rect), f"panel {name} {rect} is off the screen"
    body = [panels[k] for k in ("card", "progress", "result", "hint") if k in panels]
    for i, a in enumerate(body):
        for b in body[i + 1:]:
            assert not a.colliderect(b), f"{a} overlaps {b}"
    keys = [panels[f"key-{b}"] for b in ("roll", "help", "run", "next", "undo")]
    assert all(k.top > max(r.bottom for r in body) for k in keys), "the soft keys sit under the wizard"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_in_chinese_only_card_names_and_uids_stay_english(tmp_path: Path, size) -> None:
    app = app_for(tmp_path, size, "zh")
    names = card_words(app)
    left: dict[str, str] = {}
    seen = 0
    for state in walk(app):
        assert_inside(app)
        blocks: dict[tuple[int, int, int, int], list[str]] = {}
        for d in app.screen.drawn:          # the lines of a wrapped sentence share its box
            seen += 1
            blocks.setdefault(tuple(d.box), []).append(d.text)
        for lines in blocks.values():
            text = " ".join(lines)
            words = english_left(text, names)
            if words:
                left.setdefault(state, f"{text!r}: {words}")
    assert seen > 150
    assert not left, "\n".join(f"{k}: {v}" for k, v in left.items())
    app.close()


def test_chinese_glyphs_are_real_not_boxes(tmp_path: Path) -> None:
    app = app_for(tmp_path, (800, 480), "zh")
    app.reader.scan(uid(1))
    app.reader.scan(uid(1))
    app.process()
    app.render()
    painter = app.screen.painter
    assert painter.font_choice.has_cjk
    font = painter.font(32)
    box = pygame.image.tobytes(font.render("\U0010fffd", (255, 255, 255))[0], "RGBA")
    chars = sorted({ch for d in painter.drawn for ch in d.text if ord(ch) > 0x2000})
    assert len(chars) > 20
    for ch in chars:
        assert pygame.image.tobytes(font.render(ch, (255, 255, 255))[0], "RGBA") != box, f"{ch!r} is a box"
    assert app.line.kind == "refusal" and not any("✗" in d.text for d in painter.drawn)   # no ✗ in the CJK font
    app.close()


def test_in_spanish_the_wizard_speaks_spanish(tmp_path: Path) -> None:
    app = app_for(tmp_path, (800, 480), "es")
    app.reader.scan(uid(1))
    app.reader.scan(uid(1))
    app.process()
    app.render()
    shown = " | ".join(d.text for d in app.screen.drawn)
    assert "Registrar el mazo" in shown and "ficha de jugador 2" in shown and "Saltar" in shown
    assert "la etiqueta 04000000000001 ya es de ficha de jugador 1;" in shown
    app.close()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_layout_like_the_table_at_every_size(tmp_path: Path, size, language: str) -> None:
    from table.ui.screens.kit import BUTTON_COLORS, GOOD, REFUSAL
    from table.words import catalogs

    if language != "en" and not catalogs.po_path(language).exists():
        pytest.skip(f"no {language} catalog in this tree (the catalogs check fails for it)")

    app = app_for(tmp_path, size, language)
    for n in range(1, 60):
        app.reader.scan(uid(n))
    app.reader.scan(uid(2))
    app.process()
    app.render()
    assert_inside(app)
    display = app.screen
    panels = display.panels
    w, h = display.size
    # the table's soft-key bar: five keys across the bottom, each with its button's colour strip
    keys = [panels[f"key-{b}"] for b in ("roll", "help", "run", "next", "undo")]
    assert keys[-1].bottom > h * 0.95 and all(k.y == keys[0].y for k in keys)
    for b, k in zip(("roll", "help", "run", "next", "undo"), keys):
        assert display.window.get_at((k.centerx, k.y + 1))[:3] == BUTTON_COLORS[b]
    # the refusal on the table's refusal red, its whole sentence shown
    result = panels["result"]
    assert display.window.get_at((result.x + result.w // 2, result.bottom - 3))[:3] == REFUSAL
    shown = " ".join(d.text for d in display.drawn if result.contains(d.rect))
    assert "…" not in shown
    # progress: a third of the bar green
    bar = panels["progress"]
    assert display.window.get_at((bar.x + bar.w // 4, bar.y + bar.h // 2))[:3] == GOOD
    # legible across a table: the card's name big, nothing smaller than the table's own key captions
    name = next(d for d in display.drawn if "Plutonium" in d.text or "Dragon" in d.text or d.rect.h > 50 * display.s)
    assert name.rect.h >= 50 * display.s
    assert min(d.rect.h for d in display.drawn) >= 15 * display.s
    # the simulator's hint in full-size type (on two lines when the screen is narrow), not shrunk to fit
    hint = [d for d in display.drawn if panels["hint"].contains(d.rect)]
    assert hint and all(d.rect.h >= 0.9 * display.painter.line_height(int(16 * display.s)) for d in hint)
    assert "…" not in " ".join(d.text for d in hint)
    app.close()


def test_a_long_name_wraps_on_a_portrait_screen_rather_than_cut(tmp_path: Path) -> None:
    app = app_for(tmp_path, (720, 1280), "en")
    while app.session.current().name != "Unspeakably Awful Indescribable Horror":
        app.buttons.press("next")
        app.process()
    app.render()
    card = app.screen.panels["card"]
    lines = [d.text for d in app.screen.drawn if card.contains(d.rect)]
    assert "Unspeakably Awful" in lines and "Indescribable Horror" in lines
    app.close()


def test_single_card_session_on_screen_in_chinese(tmp_path: Path) -> None:
    app = app_for(tmp_path, (800, 480), "zh", card="plutonium-dragon")
    app.reader.scan(uid(1))
    app.buttons.press("next")
    app.process()
    app.render()
    assert_inside(app)
    shown = [d.text for d in app.screen.drawn]
    assert "完成" in shown and not english_left(" ".join(shown), card_words(app))
    app.close()
