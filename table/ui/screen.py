"""Opening the screen, once for ``run``, ``enroll`` and ``simulate``; where a touch went down.

- ``ScreenPlan``: ``check`` says whether there is a screen to draw on at all and picks SDL's
  video driver (KMS/DRM full screen on a Pi's console) before anything is created; ``open``
  opens the Display for the config and notices SDL falling back to a driver that draws where
  nobody sees. A screen that cannot be had raises ``NoScreen`` with one line saying what to do.
- ``open_display``: the Display at the config's size, language and font, with no checks.
- ``headless_display``: the Display under SDL's dummy drivers, for simulate's screenshots.
- ``pointer_position``: where a finger or a click went down (the simulator's keys are
  ``table.ui.keys``).

pygame is imported when a screen is opened, not with this module.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from table.config import Config, is_raspberry_pi
from table.ui.framebuffer import choose_output, drm_drivers
from table.ui.sound import native_stderr_to_log

if TYPE_CHECKING:          # the plan is read (doctor, the no-screen check) without loading pygame
    from table.ui.display import Display
    from table.ui.fbdev import Framebuffer

HEADLESS_VIDEO = ("offscreen", "dummy")     # SDL drivers that draw where nobody sees
NO_SCREEN_FIX = ("run it inside the graphical session, on a Pi's console set [display] fullscreen = \"yes\", "
                 "or play a table script headless with 'munchkin-table simulate'")


class NoScreen(Exception):
    """There is no screen to draw on; the message says why and what to do."""


def wants_fullscreen(config: Config) -> bool:
    if config.display.fullscreen == "auto":
        return is_raspberry_pi() and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")
    return config.display.fullscreen == "yes"


def no_screen_reason(*, fullscreen: bool, asked_driver: str | None, driver: str | None = None) -> str | None:
    """Why a screen would be drawn where nobody sees (one line saying what to do), or None.

    Before the window opens (``driver`` None): on Linux, neither a desktop session nor full screen
    on KMS/DRM. After (``driver`` is SDL's choice): SDL fell back to an invisible driver. A driver
    asked for with SDL_VIDEODRIVER (dummy in tests, kmsdrm on the box) is always taken as meant.
    """
    if asked_driver:
        return None
    if driver is None:
        desktop = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
        if sys.platform.startswith("linux") and not fullscreen and not desktop:
            return f"no screen to draw on: no desktop session (DISPLAY and WAYLAND_DISPLAY are unset); {NO_SCREEN_FIX}"
        return None
    if driver in HEADLESS_VIDEO:
        return f"no screen to draw on: SDL found only its invisible {driver!r} video driver; {NO_SCREEN_FIX}"
    return None


class ScreenPlan:
    """What the config and the environment say about the screen, decided before anything is opened:
    ``check`` (raises NoScreen) comes first, so that a table with no screen creates nothing."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.fullscreen = wants_fullscreen(config)
        self.asked_driver = os.environ.get("SDL_VIDEODRIVER")
        self.framebuffer: Framebuffer | None = None      # check() opened it: [display] output

    def check(self) -> None:
        if self.framebuffer_wanted() and self._open_framebuffer():
            return
        reason = no_screen_reason(fullscreen=self.fullscreen, asked_driver=self.asked_driver)
        if reason is not None:
            raise NoScreen(reason)
        if self.fullscreen and not os.environ.get("SDL_VIDEODRIVER"):
            os.environ["SDL_VIDEODRIVER"] = "kmsdrm"

    def framebuffer_wanted(self) -> bool:
        """``[display] output`` says the framebuffer (fbdev, or auto finding no GL driver: table.ui.fbdev)."""
        output = self.config.display.output
        if output == "sdl":
            return False
        return choose_output(output, fullscreen=self.fullscreen, asked_driver=self.asked_driver,
                             drivers=drm_drivers()) == "fbdev"

    def _open_framebuffer(self) -> bool:
        """The framebuffer opened, drawn on under SDL's dummy driver; False (one line logged) when it cannot be."""
        from table.ui import fbdev     # pygame is loaded only when a screen is opened (doctor reads the plan)

        self.framebuffer = fbdev.open_framebuffer(self.config.display.framebuffer)
        if self.framebuffer is not None:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        return self.framebuffer is not None

    def open(self, *, title: str = "munchkin-table", sim_strip: bool = False) -> Display:
        """The Display the config asks for; NoScreen when SDL has none, or only an invisible one."""
        import pygame


        try:
            with native_stderr_to_log():        # SDL's probing of absent video drivers writes to fd 2
                if self.framebuffer is not None:
                    return open_display(self.config, title=title, framebuffer=self.framebuffer)
                opened = open_display(self.config, fullscreen=self.fullscreen, title=title, sim_strip=sim_strip)
        except pygame.error as exc:
            driver = os.environ.get("SDL_VIDEODRIVER") or "the default"
            raise NoScreen(f"no screen to draw on ({exc}; SDL video driver: {driver}); {NO_SCREEN_FIX}") from None
        reason = no_screen_reason(fullscreen=self.fullscreen, asked_driver=self.asked_driver,
                                  driver=pygame.display.get_driver())
        if reason is not None:
            opened.close()
            raise NoScreen(reason)
        return opened


def open_display(config: Config, *, fullscreen: bool = False, title: str = "munchkin-table",
                 sim_strip: bool = False, framebuffer: Framebuffer | None = None) -> Display:
    """The Display at the config's size, language and font (pygame.error when SDL cannot open it);
    with ``framebuffer``, one whose frames are also copied there (SDL's dummy driver underneath)."""
    from table.ui.display import Display     # the plan is read (doctor, the no-screen check) without loading pygame

    display = config.display
    if framebuffer is not None:
        from table.ui.fbdev import FbdevDisplay     # the plan is read (doctor, the no-screen check) without loading pygame

        return FbdevDisplay((display.width, display.height), framebuffer=framebuffer, title=title,
                            language=display.language, font=display.font)
    return Display((display.width, display.height), fullscreen=fullscreen, title=title, language=display.language,
                   font=display.font, sim_strip=sim_strip)


def headless_display(config: Config) -> Display:
    """The Display for ``config`` under SDL's dummy drivers (nothing shown, pixels kept: screenshots)."""
    from table.ui.display import use_headless_drivers     # the plan is read (doctor, the no-screen check) without loading pygame

    use_headless_drivers()
    return open_display(config)


def pointer_position(event: object, display: Display) -> tuple[int, int] | None:
    """Where a finger or a click went down; mouse events that SDL made from touches are skipped."""
    import pygame

    kind = getattr(event, "type", None)
    if kind == pygame.FINGERDOWN:
        w, h = display.window.get_size()
        return int(getattr(event, "x") * w), int(getattr(event, "y") * h)
    if kind == pygame.MOUSEBUTTONDOWN and getattr(event, "button") == 1 and not getattr(event, "touch", False):
        x, y = getattr(event, "pos")
        return int(x), int(y)
    return None


__all__ = ["NoScreen", "ScreenPlan", "headless_display", "no_screen_reason", "open_display", "pointer_position",
           "wants_fullscreen"]
