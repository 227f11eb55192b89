"""The framebuffer as the kernel describes it, read without pygame (doctor reads it, and so does
the choice of output when a screen opens; table/ui/fbdev.py draws on it).

- ``Geometry``, ``read_geometry``: the framebuffer's size, stride and pixel format, from sysfs
  (``virtual_size``, ``bits_per_pixel``, ``stride``) and, on a real device, FBIOGET_VSCREENINFO
  (the visible size and where each colour sits); 32 bpp XRGB8888 and 16 bpp RGB565.
- ``choose_output``, ``drm_drivers``: ``[display] output`` decided (see table/ui/fbdev.py).
"""

from __future__ import annotations

import fcntl
import struct
from dataclasses import dataclass
from pathlib import Path

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
    alpha: int = 0                          # bits of its transp field: 0, the fourth byte of XRGB8888 is ignored

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
    alpha = 0
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
            alpha = v[18]
    if width <= 0 or height <= 0 or stride < width * bpp // 8:
        raise FramebufferError(f"{device}: {width}x{height} at {bpp} bpp does not fit a stride of {stride} bytes")
    return Geometry(width, height, bpp, stride, masks, alpha)


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


__all__ = ["FramebufferError", "Geometry", "choose_output", "drm_drivers", "read_geometry"]
