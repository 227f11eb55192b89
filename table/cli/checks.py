"""doctor's checks of the table as ``run`` would open it: the reader and buttons it would use, a
display to draw on, and a font for the language. Each failure names this system's fix."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from drivers.doctor import Check, System, run_checks
from table.config import Config
from table.ui.fonts import NAMES, FontChoice, catalog_characters, find_font, install_hint, is_cjk, lacking
from table.ui.framebuffer import FramebufferError, choose_output, drm_drivers, read_geometry
from table.app.drivers import uses_gpio


def hardware_checks(config: Config, *, sim: bool = False, system: System | None = None, **options: Any) -> list[Check]:
    """The reader, buttons and state directory checks for what ``run`` would open. Where ``run``
    would use simulated buttons (no GPIO pins here), there are no pins to check."""

    gpio = uses_gpio(sim=sim)
    checks = run_checks(config.reader_type(sim=sim), spi_bus=config.reader.spi_bus, spi_device=config.reader.spi_device,
                        reset_pin=config.reader.reset_pin, port=config.reader.port, baudrate=config.reader.baudrate,
                        readers=config.reader_specs(sim=sim) if config.readers else None,
                        button_pins=config.buttons.pins() if gpio else None, state_dir=str(config.state_dir),
                        system=system, **options)
    if not gpio:
        at = next((i for i, c in enumerate(checks) if c.name == "state directory writable"), len(checks))
        checks.insert(at, Check("buttons", True, "simulated (keyboard and on-screen buttons): no GPIO pins here, "
                                "so run uses these too"))
    return checks


def framebuffer_check(device: Path, system: System, sysfs: Path | None = None) -> Check:
    """The screen when frames go to the framebuffer (``[display] output``, table/ui/fbdev.py): the
    device there, readable and writable, in a format the table draws."""
    sdl = 'or set [display] output = "sdl" (SDL draws on KMS/DRM)'
    if not device.exists():
        return Check("screen", False, f"no framebuffer {device}", f"enable the kernel's fbdev emulation, {sdl}")
    if not os.access(device, os.R_OK | os.W_OK):
        return Check("screen", False, f"{device} not readable and writable", system.join(["video"]))
    try:
        geometry = read_geometry(device, sysfs)
    except FramebufferError as exc:
        return Check("screen", False, str(exc), sdl)
    return Check("screen", True, f"{device} ({geometry.width}x{geometry.height}, {geometry.bpp} bpp: frames copied "
                 "there without GL, [display] output)")


def display_checks(config: Config, *, needs_drm: bool, dev_dir: Path = Path("/dev"),
                   env: Mapping[str, str] = os.environ, system: System | None = None,
                   fb_sysfs: Path | None = None) -> list[Check]:
    system = system or System.detect()
    checks = []
    cards = sorted((dev_dir / "dri").glob("card*"))
    usable = [c for c in cards if os.access(c, os.R_OK | os.W_OK)]
    kms = f"add dtoverlay=vc4-kms-v3d to {system.boot_config} (the KMS driver), then reboot (sudo reboot)"
    output = choose_output(config.display.output, fullscreen=needs_drm, asked_driver=env.get("SDL_VIDEODRIVER"),
                           drivers=drm_drivers() if config.display.output == "auto" else [])
    if output == "fbdev":
        checks.append(framebuffer_check(Path(config.display.framebuffer), system, fb_sysfs))
    elif needs_drm:
        if not cards:
            checks.append(Check("screen", False, f"no KMS/DRM device in {dev_dir / 'dri'}", kms))
        elif not usable:
            checks.append(Check("screen", False, f"{', '.join(str(c) for c in cards)} not readable and writable",
                                system.join(["video", "render"])))
        else:
            checks.append(Check("screen", True, f"{usable[0]} (full screen on KMS/DRM)"))
    elif env.get("SDL_VIDEODRIVER"):
        checks.append(Check("screen", True, f"SDL_VIDEODRIVER={env['SDL_VIDEODRIVER']} chooses the display"))
    elif env.get("WAYLAND_DISPLAY") or env.get("DISPLAY"):
        shown = f"WAYLAND_DISPLAY={env['WAYLAND_DISPLAY']}" if env.get("WAYLAND_DISPLAY") else f"DISPLAY={env['DISPLAY']}"
        checks.append(Check("screen", True, f"a window on the desktop ({shown})"))
    elif usable:
        checks.append(Check("screen", True, f"{usable[0]} (no desktop here: SDL draws on KMS/DRM)"))
    else:
        why = (f"{', '.join(str(c) for c in cards)} not readable and writable" if cards
               else f"no KMS/DRM device in {dev_dir / 'dri'}")
        fix = system.join(["video", "render"]) if cards else kms
        checks.append(Check("screen", False, f"no display: no DISPLAY or WAYLAND_DISPLAY, {why}, no SDL_VIDEODRIVER",
                            f"run it in a desktop session, or {fix}"))
    language = config.display.language
    checks.append(font_check(language, find_font(language, config.display.font), system))
    return checks


def font_check(language: str, font: FontChoice, system: System) -> Check:
    """The font the screen would use draws every character of ``language``'s catalog."""
    fix = system.install_font(install_hint(language))
    if is_cjk(language) and not font.has_cjk:
        name = NAMES[language]
        return Check("font", False, f"no font with {name} glyphs: {name} would show as boxes", fix)
    missing = lacking(font, catalog_characters(language))
    if missing:
        shown = missing if len(missing) <= 12 else f"{missing[:12]}…"
        return Check("font", False, f"{font} has no glyph for {len(missing)} characters of the {language} "
                     f"catalog ({shown}): they would show as boxes", fix)
    return Check("font", True, f"{font.path or 'pygame built-in'} for {language}")

