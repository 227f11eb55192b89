"""The Chinese font: the distribution's where installed, else the subset the project ships, which
holds every character the Chinese catalog and card names use."""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pygame.freetype
import pytest

from cards.names import shipped_path
from table.ui import fonts
from table.words.catalogs import po_path


@pytest.fixture
def no_system_cjk(monkeypatch):
    monkeypatch.setattr(fonts, "CJK_FONTS", [("/nonexistent/wqy-microhei.ttc", 0)])


def test_without_a_distribution_font_the_shipped_subset_is_chosen(no_system_cjk) -> None:
    choice = fonts.find_font("zh")
    assert choice.path == fonts.SHIPPED_CJK[0] and choice.has_cjk
    assert fonts.main(["--check", "zh"]) == 0
    assert fonts.main(["--check-system", "zh"]) == 1


def test_the_shipped_font_carries_its_licence() -> None:
    folder = Path(fonts.SHIPPED_CJK[0]).parent
    assert "SIL OPEN FONT LICENSE Version 1.1" in (folder / "OFL.txt").read_text(encoding="utf-8")
    assert Path(fonts.SHIPPED_CJK[0]).stat().st_size < 3 * 1024 * 1024


def _chinese_characters() -> set[str]:
    text = po_path("zh").read_text(encoding="utf-8") + shipped_path("zh").read_text(encoding="utf-8")
    strings = re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', text, re.M) + re.findall(r'= "(.*)"$', text, re.M)
    return {ch for s in strings for ch in s if ord(ch) > 0x7F and ch.isprintable()}


def test_the_shipped_subset_draws_every_character_of_the_chinese_catalog() -> None:
    pygame.freetype.init()
    font = pygame.freetype.Font(fonts.SHIPPED_CJK[0], 24)
    chars = _chinese_characters()
    assert len(chars) > 300
    missing = sorted(ch for ch in chars if font.get_metrics(ch)[0] is None)
    assert not missing, f"rebuild the subset (python -m table.ui.fonts subset): it lacks {''.join(missing)}"
    assert font.get_metrics("张伟")[0] is not None          # common hanzi, for players' names


def test_a_chinese_screen_with_the_shipped_font_has_no_boxes(no_system_cjk, tmp_path: Path) -> None:
    from tests.table.test_display import Rig
    from table.ui.scenes import SCENES

    rig = Rig(tmp_path, (800, 480), "zh")
    try:
        rig.run(SCENES["combat"])
        painter = rig.display.painter
        assert painter.font_choice.path == fonts.SHIPPED_CJK[0]
        drawn = {ch for d in rig.display.drawn for ch in d.text if "\u4e00" <= ch <= "\u9fff"}
        assert len(drawn) >= 10
        assert all(painter.has_glyph(ch, 24) for ch in drawn)
    finally:
        rig.close()
