"""The screen without GL: the table draws on an ordinary surface (SDL's dummy video driver) and
each frame's pushed rectangles are copied into the Linux framebuffer (``/dev/fb0``), mmap'd.

The path a box needs where SDL's kmsdrm shows nothing (no GL driver: Mesa's software renderer on
a virtual GPU, a Pi without its vc4/v3d driver). ``[display] output`` chooses it:

- ``"sdl"`` (the default): what SDL picks, kmsdrm full screen on a Pi's console, as before;
- ``"fbdev"``: this module, on ``[display] framebuffer`` (``/dev/fb0``);
- ``"auto"``: on a screen with no desktop (full screen), kmsdrm when the DRM card's kernel driver
  is one that Mesa drives with hardware GL (``GL_DRIVERS``), else the framebuffer; with a
  desktop, or SDL_VIDEODRIVER set to another driver than the unit's kmsdrm, what SDL picks.

- ``Geometry``: the framebuffer's size, stride and pixel format, from sysfs (``virtual_size``,
  ``bits_per_pixel``, ``stride``) and, on a real device, FBIOGET_VSCREENINFO (the visible size and
  where each colour sits); 32 bpp XRGB8888 and 16 bpp RGB565.
- ``Framebuffer``: the device mmap'd; ``write(surface, rects)`` copies those rectangles of the
  frame (all of it for None), centred, or scaled down to fit (keeping its shape) when larger.
- ``FbdevDisplay``: the Display whose ``push`` also writes what it pushed to the framebuffer.
- ``choose_output``, ``open_framebuffer``: the choice, and the device opened or one line why not.
"""

from __future__ import annotations

import fcntl
import logging
import mmap
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from table.ui.display import Display

log = logging.getLogger(__name__)

SYSFS = Path("/sys/class/graphics")
DRM_SYSFS = Path("/sys/class/drm")
FBIOGET_VSCREENINFO = 0x4600
VSCREENINFO = struct.Struct("8I12I")        # xres .. grayscale, then red/green/blue/transp (offset, length, msb_right)
VSCREENINFO_SIZE = 160                      # struct fb_var_screeninfo
# kernel DRM drivers that Mesa drives with hardware GL (kmsdrm draws through them)
GL_DRIVERS = ("vc4", "v3d", "i915", "amdgpu", "radeon", "nouveau", "panfrost", "lima", "etnaviv", "msm")
# (red, green, blue) masks by depth where the device does not say (a regular file, or no ioctl)
MASKS = {32: (0xFF0000, 0x00FF00, 0x0000FF), 16: (0xF800, 0x07E0, 0x001F)}


class FramebufferError(Exception):
    """The framebuffer cannot be used; the message says which file and why."""


@dataclass(frozen=True)
class Geometry:
    width: int
    height: int
    bpp: int
    stride: int                             # bytes from one row to the next
    masks: tuple[int, int, int]             # red, green, blue

    @property
    def bytes_per_pixel(self) -> int:
        return self.bpp // 8


def _sysfs_int_pair(path: Path) -> tuple[int, int]:
    w, h = path.read_text().strip().split(",")
    return int(w), int(h)


def read_geometry(device: Path, sysfs: Path | None = None, fd: int | None = None) -> Geometry:
    """The framebuffer's geometry from sysfs (``sysfs`` or /sys/class/graphics/<name>), refined by
    FBIOGET_VSCREENINFO on ``fd`` when it is a framebuffer device; FramebufferError otherwise."""
    folder = sysfs if sysfs is not None else SYSFS / device.name
    try:
        width, height = _sysfs_int_pair(folder / "virtual_size")
        bpp = int((folder / "bits_per_pixel").read_text())
        stride = int((folder / "stride").read_text())
    except (OSError, ValueError) as exc:
        raise FramebufferError(f"{device}: no geometry in {folder} ({exc})") from None
    if bpp not in MASKS:
        raise FramebufferError(f"{device}: {bpp} bits per pixel; only 32 (XRGB8888) and 16 (RGB565) are drawn")
    masks = MASKS[bpp]
    if fd is not None:
        try:
            raw = fcntl.ioctl(fd, FBIOGET_VSCREENINFO, bytes(VSCREENINFO_SIZE))
        except OSError:
            raw = b""                        # a regular file standing in for the device: sysfs says it all
        if raw:
            v = VSCREENINFO.unpack_from(raw)
            width, height = v[0], v[1]       # the visible part of a virtual size kept for panning
            red, green, blue = ((((1 << v[i + 1]) - 1) << v[i]) for i in (8, 11, 14))
            masks = (red, green, blue)
    if width <= 0 or height <= 0 or stride < width * bpp // 8:
        raise FramebufferError(f"{device}: {width}x{height} at {bpp} bpp does not fit a stride of {stride} bytes")
    return Geometry(width, height, bpp, stride, masks)


class Framebuffer:
    """The framebuffer mmap'd; ``write`` copies a frame's rectangles into it in its pixel format."""

    def __init__(self, device: Path, sysfs: Path | None = None) -> None:
        try:
            fd = os.open(device, os.O_RDWR)
        except OSError as exc:
            raise FramebufferError(f"{device}: {exc.strerror}") from None
        try:
            self.geometry = read_geometry(device, sysfs, fd)
            self.map = mmap.mmap(fd, self.geometry.stride * self.geometry.height)
        except (OSError, ValueError) as exc:
            raise FramebufferError(f"{device}: cannot map it ({exc})") from None
        finally:
            os.close(fd)
        self.device = device
        self.frame_size: tuple[int, int] | None = None
        self.place = pygame.Rect(0, 0, 0, 0)     # where the frame goes on the framebuffer
        self.bytes_written = 0

    def fit(self, size: tuple[int, int]) -> None:
        """Where a frame of ``size`` goes: centred, or scaled down to fit keeping its shape."""
        g = self.geometry
        w, h = size
        factor = min(1.0, g.width / w, g.height / h)
        sw, sh = max(1, round(w * factor)), max(1, round(h * factor))
        self.frame_size = size
        self.place = pygame.Rect((g.width - sw) // 2, (g.height - sh) // 2, sw, sh)
        self.clear()

    def clear(self) -> None:
        """Black all over (the margins round a frame that does not fill the screen)."""
        self.map.seek(0)
        self.map.write(bytes(len(self.map)))

    def write(self, surface: pygame.Surface, rects: list[pygame.Rect] | None) -> None:
        """Copy ``rects`` of ``surface`` (all of it for None) to where the frame goes."""
        size = surface.get_size()
        if size != self.frame_size:
            self.fit(size)
            rects = None
        whole = pygame.Rect((0, 0), size)
        for rect in [whole] if rects is None else rects:
            rect = rect.clip(whole)
            if rect.w and rect.h:
                self._write_rect(surface, rect)

    def _write_rect(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        g, place = self.geometry, self.place
        if place.size == surface.get_size():
            source, target = surface.subsurface(rect), rect.move(place.topleft)
        else:
            fx, fy = place.w / surface.get_width(), place.h / surface.get_height()
            left, top = int(rect.x * fx), int(rect.y * fy)
            right, bottom = min(place.w, -int(-rect.right * fx)), min(place.h, -int(-rect.bottom * fy))
            if right <= left or bottom <= top:
                return
            target = pygame.Rect(place.x + left, place.y + top, right - left, bottom - top)
            back = pygame.Rect(int(left / fx), int(top / fy), 0, 0)
            back.w = min(surface.get_width(), -int(-right / fx)) - back.x
            back.h = min(surface.get_height(), -int(-bottom / fy)) - back.y
            source = pygame.transform.smoothscale(surface.subsurface(back), target.size)
        out = pygame.Surface(target.size, 0, g.bpp, (*g.masks, 0))
        out.blit(source, (0, 0))
        pitch, row = out.get_pitch(), target.w * g.bytes_per_pixel
        pixels = out.get_buffer().raw
        for y in range(target.h):
            at = (target.y + y) * g.stride + target.x * g.bytes_per_pixel
            self.map[at:at + row] = pixels[y * pitch:y * pitch + row]
        self.bytes_written += row * target.h

    def close(self) -> None:
        self.map.close()


class FbdevDisplay(Display):
    """The Display drawn under SDL's dummy driver whose every push also goes to the framebuffer."""

    def __init__(self, size: tuple[int, int], *, framebuffer: Framebuffer, **kwargs: Any) -> None:
        self.framebuffer = framebuffer
        super().__init__(size, **kwargs)

    def push(self, dirty: list[pygame.Rect] | None) -> None:
        super().push(dirty)
        self.framebuffer.write(self.screen, self.pushed)

    def close(self) -> None:
        self.framebuffer.close()
        super().close()


def drm_drivers(root: Path = DRM_SYSFS) -> list[str]:
    """The kernel drivers of the DRM cards (card0, card1 ...), by their sysfs ``device/driver`` link."""
    names = []
    for card in sorted(root.glob("card[0-9]")):
        link = card / "device" / "driver"
        if link.exists():
            names.append(link.resolve().name)
    return names


def choose_output(output: str, *, fullscreen: bool, asked_driver: str | None, drivers: list[str]) -> str:
    """``"fbdev"`` or ``"sdl"`` for a ``[display] output`` of sdl, fbdev or auto (see the module)."""
    if output != "auto":
        return output
    if (asked_driver and asked_driver != "kmsdrm") or not fullscreen:
        return "sdl"                         # a desktop, or a driver asked for (dummy in tests); the unit asks kmsdrm
    return "sdl" if any(name in GL_DRIVERS for name in drivers) else "fbdev"


def open_framebuffer(device: str) -> Framebuffer | None:
    """The framebuffer, or None after one line saying why not (the table then tries SDL's kmsdrm)."""
    try:
        return Framebuffer(Path(device))
    except FramebufferError as exc:
        log.warning("framebuffer not used, trying SDL's kmsdrm: %s", exc)
        return None


__all__ = ["FbdevDisplay", "Framebuffer", "FramebufferError", "Geometry", "choose_output", "drm_drivers",
           "open_framebuffer", "read_geometry"]
