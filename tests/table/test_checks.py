"""doctor's screen and font checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from table.cli.checks import display_checks
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
    monkeypatch.setattr("table.cli.checks.os.access", lambda path, mode: False)
    check = by_name(display_checks(Config(), needs_drm=True, dev_dir=tmp_path))["screen"]
    assert not check.ok and "video,render" in check.fix and str(card) in check.detail


def test_a_usable_drm_device_passes(tmp_path: Path) -> None:
    (tmp_path / "dri").mkdir()
    (tmp_path / "dri" / "card1").write_text("")
    check = by_name(display_checks(Config(), needs_drm=True, dev_dir=tmp_path))["screen"]
    assert check.ok and "card1" in check.detail


def test_chinese_without_a_cjk_font_fails_with_the_package_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from table.ui.fonts import FontChoice

    monkeypatch.setattr("table.cli.checks.find_font", lambda language, configured="": FontChoice(None))
    check = by_name(display_checks(Config(display=DisplayConfig(language="zh")), needs_drm=False))["font"]
    assert not check.ok and "fonts-noto-cjk" in check.fix
    english = by_name(display_checks(Config(), needs_drm=False))["font"]
    assert english.ok


# -- the screen when run would open a window (not full screen) ---------------------------------------

from drivers.doctor import System  # noqa: E402

DEBIAN = System(pi_os=False, raspi_config=False, boot_config="/boot/firmware/config.txt", user="munchkin-table")


def screen(tmp_path: Path, env: dict[str, str]):
    return by_name(display_checks(Config(), needs_drm=False, dev_dir=tmp_path, env=env, system=DEBIAN))["screen"]


def test_no_display_at_all_is_not_called_fine(tmp_path: Path) -> None:
    check = screen(tmp_path, {})
    assert not check.ok and "no DISPLAY or WAYLAND_DISPLAY" in check.detail and "no SDL_VIDEODRIVER" in check.detail
    assert "dtoverlay=vc4-kms-v3d to /boot/firmware/config.txt" in check.fix


@pytest.mark.parametrize("env, shown", [
    ({"DISPLAY": ":0"}, "DISPLAY=:0"),
    ({"WAYLAND_DISPLAY": "wayland-0"}, "WAYLAND_DISPLAY=wayland-0"),
    ({"SDL_VIDEODRIVER": "kmsdrm"}, "SDL_VIDEODRIVER=kmsdrm"),
])
def test_a_desktop_or_a_chosen_driver_is_a_display(tmp_path: Path, env: dict[str, str], shown: str) -> None:
    check = screen(tmp_path, env)
    assert check.ok and shown in check.detail


def test_a_usable_drm_device_without_a_desktop_is_a_display(tmp_path: Path) -> None:
    (tmp_path / "dri").mkdir()
    (tmp_path / "dri" / "card0").write_text("")
    check = screen(tmp_path, {})
    assert check.ok and "card0" in check.detail


def test_an_unusable_drm_device_without_a_desktop_names_the_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "dri").mkdir()
    (tmp_path / "dri" / "card0").write_text("")
    monkeypatch.setattr("table.cli.checks.os.access", lambda path, mode: False)
    check = screen(tmp_path, {})
    assert not check.ok and "sudo usermod -aG video,render munchkin-table" in check.fix


# -- buttons: doctor checks what run would open ---------------------------------------------------------

def laptop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("table.config.is_raspberry_pi", lambda: False)
    monkeypatch.setattr("table.app.drivers.is_raspberry_pi", lambda: False)     # what doctor's buttons check asks
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)


def test_a_laptop_with_the_default_config_does_not_fail_the_buttons(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from table.cli.checks import hardware_checks
    from table.config import StorageConfig

    laptop(monkeypatch)
    checks = by_name(hardware_checks(Config(storage=StorageConfig(state_dir=str(tmp_path))), system=DEBIAN))
    assert "buttons readable" not in checks and "hardware libraries" not in checks
    assert checks["buttons"].ok and "simulated" in checks["buttons"].detail
    assert all(c.ok for c in checks.values()), [str(c) for c in checks.values()]


def test_with_a_pin_factory_the_buttons_are_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from table.cli.checks import hardware_checks
    from table.config import StorageConfig

    laptop(monkeypatch)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    checks = by_name(hardware_checks(Config(storage=StorageConfig(state_dir=str(tmp_path))), system=DEBIAN,
                                     find_module=lambda m: True))
    assert checks["buttons readable"].ok and "buttons" not in checks


def test_doctor_on_a_laptop_passes_the_buttons(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from table.cli import main

    laptop(monkeypatch)
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\nstate_dir = "{tmp_path / "state"}"\n')
    code = main(["doctor", "--config", str(config)])
    out = capsys.readouterr().out
    assert "[ok] buttons: simulated" in out and "buttons readable" not in out
    assert code == 0, out


def _fb_config(device: Path) -> Config:
    return Config(display=DisplayConfig(output="fbdev", framebuffer=str(device)))


def test_a_framebuffer_box_is_checked_at_its_framebuffer_not_at_kms(tmp_path: Path) -> None:
    device, sysfs = tmp_path / "fb0", tmp_path / "sys"
    device.write_bytes(bytes(800 * 480 * 4))
    sysfs.mkdir()
    (sysfs / "virtual_size").write_text("800,480\n")
    (sysfs / "bits_per_pixel").write_text("32\n")
    (sysfs / "stride").write_text("3200\n")
    check = by_name(display_checks(_fb_config(device), needs_drm=True, dev_dir=tmp_path, fb_sysfs=sysfs))["screen"]
    assert check.ok and str(device) in check.detail and "800x480, 32 bpp" in check.detail and "KMS" not in check.detail
    (sysfs / "bits_per_pixel").write_text("24\n")
    check = by_name(display_checks(_fb_config(device), needs_drm=True, dev_dir=tmp_path, fb_sysfs=sysfs))["screen"]
    assert not check.ok and "24 bits per pixel" in check.detail and 'output = "sdl"' in check.fix


def test_a_missing_or_closed_framebuffer_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check = by_name(display_checks(_fb_config(tmp_path / "fb9"), needs_drm=True, dev_dir=tmp_path))["screen"]
    assert not check.ok and "no framebuffer" in check.detail and "fbdev emulation" in check.fix
    (tmp_path / "fb0").write_bytes(b"")
    monkeypatch.setattr("table.cli.checks.os.access", lambda path, mode: False)
    check = by_name(display_checks(_fb_config(tmp_path / "fb0"), needs_drm=True, dev_dir=tmp_path))["screen"]
    assert not check.ok and "not readable and writable" in check.detail and "video" in check.fix
