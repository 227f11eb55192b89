"""doctor's checks of the screen side: a KMS/DRM device to draw on, and a font for the language."""

from __future__ import annotations

import os
from pathlib import Path

from drivers.doctor import Check
from table.config import Config
from table.fonts import find_font


def display_checks(config: Config, *, needs_drm: bool, dev_dir: Path = Path("/dev")) -> list[Check]:
    checks = []
    if needs_drm:
        cards = sorted((dev_dir / "dri").glob("card*"))
        usable = [c for c in cards if os.access(c, os.R_OK | os.W_OK)]
        if not cards:
            checks.append(Check("screen", False, f"no KMS/DRM device in {dev_dir / 'dri'}",
                                "enable the KMS driver (dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt) and reboot"))
        elif not usable:
            checks.append(Check("screen", False, f"{', '.join(str(c) for c in cards)} not readable and writable",
                                "add the user to the video and render groups: sudo usermod -aG video,render munchkin-table"))
        else:
            checks.append(Check("screen", True, f"{usable[0]} (full screen on KMS/DRM)"))
    else:
        checks.append(Check("screen", True, "a window on the desktop (full screen only on a Pi without one)"))
    language = config.display.language
    font = find_font(language, config.display.font)
    if language == "zh" and not font.has_cjk:
        checks.append(Check("font", False, "no font with Chinese glyphs: Chinese would show as boxes",
                            "sudo apt-get install fonts-noto-cjk (or fonts-wqy-microhei), or set [display] font"))
    else:
        checks.append(Check("font", True, f"{font.path or 'pygame built-in'} for {language}"))
    return checks
