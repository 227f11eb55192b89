"""Every screen in Spanish and Chinese, checked on the text actually drawn: no English on it but
card names without a translation and the players' own names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from table.words import catalogs
from table.words import i18n
from table.ui.screens.kit import Painter
from table.ui.scenes import SCENES

from tests.table.test_display import Rig
from tests.table.test_display_i18n import MIXED


def _english_only_words() -> set[str]:
    """Words of the English messages that no Spanish translation uses ("no", "a", "de" are Spanish too)."""
    english, spanish = set(), set()
    for message in catalogs.read("es"):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in ids:
            english |= {w.lower() for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}", " ", text))}
        for text in strings:
            spanish |= {w.lower() for w in re.findall(r"[A-Za-zÁÉÍÓÚáéíóúñÑü]{3,}", re.sub(r"\{[^}]*\}", " ", text or ""))}
    return english - spanish - {"uid", "nfc", "ntag", "csv", "uart", "spi", "gpio", "hsu", "pn532", "mfrc522"}


def _names(rig: Rig) -> list[str]:
    catalog = rig.table.catalog
    names = [card.name for card in catalog.values()] + [card.id for card in catalog.values()]
    # the players' own names; the default "Player N" is not one and must be translated
    names += [p.name for p in rig.table.controller.state.players if not re.fullmatch(r"Player \d+", p.name)]
    return sorted(set(names), key=len, reverse=True)


def _left(text: str, names: list[str]) -> str:
    for name in names:
        text = text.replace(name, " ")
    return text


def _uncut(text: str, names: list[str]) -> str:
    """A line cut to fit ends in "…", maybe in the middle of a name: drop that name's start."""
    if not text.endswith("…"):
        return text
    words = text[:-1].split(" ")
    for i in range(len(words)):
        tail = " ".join(words[i:]).lstrip("(（「“:：")
        if tail and any(name.startswith(tail) for name in names):
            return " ".join(words[:i])
    return " ".join(words[:-1])


GOLDEN = sorted((Path(__file__).parent.parent / "golden").glob("*.txt"))
SCRIPTS = {**{f"scene {k}": v for k, v in SCENES.items()}, "mixed": MIXED,
           **{p.name: p.read_text(encoding="utf-8") for p in GOLDEN}}


@pytest.mark.parametrize("lang", ["es", "zh"])
def test_every_screen_draws_no_english_but_names(tmp_path: Path, monkeypatch, lang: str) -> None:
    drawn: list[str] = []
    wrapping = []
    original, original_wrap = Painter._draw, Painter.wrap

    def recording(self, text, size, color, at):
        if not wrapping:                 # a wrapped line is checked whole, not line by line
            drawn.append(text)
        return original(self, text, size, color, at)

    def recording_wrap(self, text, *args, **kwargs):
        drawn.append(text)
        wrapping.append(True)
        try:
            return original_wrap(self, text, *args, **kwargs)
        finally:
            wrapping.pop()

    monkeypatch.setattr(Painter, "_draw", recording)
    monkeypatch.setattr(Painter, "wrap", recording_wrap)
    english_words = _english_only_words()
    found: dict[str, str] = {}
    screens = 0
    try:
        for index, (name, script) in enumerate(SCRIPTS.items()):
            rig = Rig(tmp_path / f"{lang}{index}", (800, 480), lang)
            try:
                from table.sim.script import parse_script
                from table.sim.harness import perform

                for action in parse_script(script, rig.table.catalog, source=name):
                    perform(action, rig.table, rig.reader, rig.buttons, rig.clock)
                    drawn.clear()
                    rig.render()
                    screens += 1
                    names = _names(rig)
                    for text in drawn:
                        rest = _left(_uncut(text, names), names)
                        if lang == "zh":
                            bad = re.findall(r"[A-Za-z]{2,}", rest)
                        else:
                            bad = [w for w in re.findall(r"[A-Za-z]{3,}", rest) if w.lower() in english_words]
                            bad += re.findall(r"\bPlayer \d", rest)       # a default name left in English
                        if bad:
                            found.setdefault(text, f"{name}: {bad}")
            finally:
                rig.close()
    finally:
        i18n.set_language("en")
    assert screens > 100
    assert not found, "\n".join(f"{k!r} ({v})" for k, v in sorted(found.items()))
