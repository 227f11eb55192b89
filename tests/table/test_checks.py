"""doctor's screen and font checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from table.checks import display_checks
from table.config import Config, DisplayConfig


def by_name(checks):
    return {c.name: c for c in checks}


def test_no_drm_device_says_how_to_enable_kms(tmp_path: Path) -> None:
    check = by_name(display_checks(Config(), needs_drm=True, dev_dir=tmp_path))["screen"]
    assert not check.ok and "vc4-kms-v3d" in check.fix


def test_an_unwritable_drm_device_names_the_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "dri").mkdir()
    card = tmp_path / "dri" / "card0"
    card.write_text("")
    monkeypatch.setattr("table.checks.os.access", lambda path, mode: False)
    check = by_name(display_checks(Config(), needs_drm=True, dev_dir=tmp_path))["screen"]
    assert not check.ok and "video,render" in check.fix and str(card) in check.detail


def test_a_usable_drm_device_passes(tmp_path: Path) -> None:
    (tmp_path / "dri").mkdir()
    (tmp_path / "dri" / "card1").write_text("")
    check = by_name(display_checks(Config(), needs_drm=True, dev_dir=tmp_path))["screen"]
    assert check.ok and "card1" in check.detail


def test_chinese_without_a_cjk_font_fails_with_the_package_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from table.fonts import FontChoice

    monkeypatch.setattr("table.checks.find_font", lambda language, configured="": FontChoice(None))
    check = by_name(display_checks(Config(display=DisplayConfig(language="zh")), needs_drm=False))["font"]
    assert not check.ok and "fonts-noto-cjk" in check.fix
    english = by_name(display_checks(Config(), needs_drm=False))["font"]
    assert english.ok
