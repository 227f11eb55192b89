"""The screen without GL: the table draws on an ordinary surface (SDL's dummy video driver) and
each frame's pushed rectangles are copied into the Linux framebuffer (``/dev/fb0``), mmap'd.

The path a box needs where SDL's kmsdrm shows nothing (no GL driver: Mesa's software renderer on
a virtual GPU, a Pi without its vc4/v3d driver). ``[display] output`` chooses it:

- ``"sdl"`` (the default): what SDL picks, kmsdrm full screen on a Pi's console, as before;
- ``"fbdev"``: this module, on ``[display] framebuffer`` (``/dev/fb0``);
- ``"auto"``: on a screen with no desktop (full screen), kmsdrm when the DRM card's kernel driver
  is one that Mesa drives with hardware GL (``GL_DRIVERS``), else the framebuffer; with a
  desktop, or SDL_VIDEODRIVER set to another driver than the unit's kmsdrm, what SDL picks.

- ``Geometry`` (table/ui/framebuffer.py, read without pygame): its size, stride and pixel format.
- ``Framebuffer``: the device mmap'd; ``write(surface, rects)`` copies those rectangles of the
  frame (all of it for None), centred, or scaled down to fit (keeping its shape) when larger.
- ``FbdevDisplay``: the Display whose ``push`` also writes what it pushed to the framebuffer.
- ``choose_output`` (table/ui/framebuffer.py), ``open_framebuffer``: the choice, and the device
  opened or one line why not.
"""

from __future__ import annotations

import logging
import mmap
import os
import sys
from pathlib import Path
from typing import Any

import pygame

from table.ui.display import Display
from table.ui.framebuffer import SYSFS, FramebufferError, Geometry, choose_output, drm_drivers, read_geometry

log = logging.getLogger(__name__)


class Framebuffer:
    """The framebuffer mmap'd; ``write`` copies a frame's rectangles into it in its pixel format."""

    def __init__(self, device: Path, sysfs: Path | None = None) -> None:
        try:
            fd = os.open(device, os.O_RDWR)
        except OSError as exc:
            raise FramebufferError(f"{device}: {exc.strerror}") from None
        try:
            self.geometry = read_geometry(device, sysfs if sysfs is not None else SYSFS / device.name, fd)
            self.map = mmap.mmap(fd, self.geometry.stride * self.geometry.height)
        except (OSError, ValueError) as exc:
            os.close(fd)
            raise FramebufferError(f"{device}: cannot map it ({exc})") from None
        self.fd: int | None = fd        # whole rows go in by pwrite while the device takes them
        self.device = device
        self.direct = self._direct()
        self.frame_size: tuple[int, int] | None = None
        self.place = pygame.Rect(0, 0, 0, 0)     # where the frame goes on the framebuffer
        self.bytes_written = 0

    def _direct(self) -> pygame.Surface | None:
        """The mapping itself as a surface, where its pixels are XRGB8888 in memory order B, G, R, X:
        a rectangle then goes in by one blit, copied by SDL, not row by row in Python (which took
        about half of a tap's time at the Zero 2 W class: docs/benchmarks.md, "Pi-class time"). The
        X byte is written 0xFF, which the screen ignores. None for other formats (the rows' way)."""
        g = self.geometry
        if g.bpp != 32 or g.masks != (0xFF0000, 0x00FF00, 0x0000FF) or sys.byteorder != "little":
            return None
        try:
            return pygame.image.frombuffer(self.map, (g.width, g.height), "BGRA", pitch=g.stride)
        except (ValueError, pygame.error) as exc:
            log.info("%s: rows copied one by one (%s)", self.device, exc)
            return None

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

    def write(self, surface: pygame.Surface, rects: list[pygame.Rect] | None) -> list[pygame.Rect] | None:
        """Copy ``rects`` of ``surface`` (all of it for None) to where the frame goes; what was
        written, in the frame's coordinates (None: all of it). Where the frame's rows are the
        framebuffer's, byte for byte (``by_rows``), each rectangle goes as the whole rows it spans."""
        size = surface.get_size()
        if size != self.frame_size:
            self.fit(size)
            rects = None
        whole = pygame.Rect((0, 0), size)
        clipped = [r for r in (rect.clip(whole) for rect in ([whole] if rects is None else rects)) if r.w and r.h]
        if self.by_rows(surface):
            return self._write_rows(surface, clipped, rects is None)
        for rect in clipped:
            self._write_rect(surface, rect)
        return rects

    def by_rows(self, surface: pygame.Surface) -> bool:
        """Whether a frame on ``surface`` goes in as whole rows, each band by one copy of its bytes:
        the frame fills the framebuffer, its rows are laid out as the framebuffer's (the same
        stride, XRGB8888 with the same masks, whole rows of its window) and the fourth byte is ignored
        (no transp field). A rectangle's own pixels from one XRGB8888 surface into the mapping's
        (which pygame gives an alpha channel) are converted one by one by SDL; whole rows are
        copied as memory, which under the Pi-class bench's instruction counting costs a tenth as
        many instructions for the wider area (docs/benchmarks.md, "Pi-class time")."""
        g = self.geometry
        return (self.direct is not None and g.alpha == 0 and self.place == surface.get_rect()
                and surface.get_pitch() == g.stride and surface.get_bytesize() == 4 and surface.get_abs_offset()[0] == 0
                and tuple(surface.get_masks()[:3]) == g.masks)

    def _write_rows(self, surface: pygame.Surface, rects: list[pygame.Rect], whole: bool) -> list[pygame.Rect] | None:
        """``rects`` as the bands of whole rows they span (overlapping or touching bands as one)."""
        stride, width = self.geometry.stride, surface.get_width()
        bands: list[list[int]] = []
        for top, bottom in sorted((r.top, r.bottom) for r in rects):
            if bands and top <= bands[-1][1]:
                bands[-1][1] = max(bands[-1][1], bottom)
            else:
                bands.append([top, bottom])
        at = surface.get_abs_offset()[1] * stride        # a subsurface's rows (the simulator's strip below)
        # locked while this view lives; pygame's stub misses that a BufferProxy exports the buffer protocol
        pixels = memoryview(surface.get_abs_parent().get_buffer())  # type: ignore[arg-type]  # see the line above
        try:
            for top, bottom in bands:
                self._put(top * stride, pixels[at + top * stride:at + bottom * stride])
                self.bytes_written += (bottom - top) * stride
        finally:
            pixels.release()
        return None if whole else [pygame.Rect(0, top, width, bottom - top) for top, bottom in bands]

    def _put(self, offset: int, data: memoryview) -> None:
        """``data`` into the framebuffer at ``offset``: by ``pwrite`` (the driver copies it into its
        buffer; written through the mapping instead, a DRM driver's emulated framebuffer takes a page
        fault for every page of every frame, to learn what changed), or through the mapping when
        the device refuses writes."""
        fd = self.fd
        while fd is not None and len(data):
            try:
                done = os.pwrite(fd, data, offset)
            except OSError as exc:
                log.info("%s: written through its mapping (pwrite: %s)", self.device, exc.strerror or exc)
                self.fd = fd = None
                break
            if done <= 0:
                self.fd = fd = None
                break
            data, offset = data[done:], offset + done
        if len(data):
            self.map[offset:offset + len(data)] = data

    def _write_rect(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        g, place = self.geometry, self.place
        if place.size == surface.get_size() and self.direct is not None:
            self.direct.blit(surface, rect.move(place.topleft), rect)
            self.bytes_written += rect.w * rect.h * g.bytes_per_pixel
            return
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
        self.direct = None               # its hold on the mapping first: an exported mmap cannot close
        self.map.close()
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


class FbdevDisplay(Display):
    """The Display drawn under SDL's dummy driver whose every push also goes to the framebuffer."""

    def __init__(self, size: tuple[int, int], *, framebuffer: Framebuffer, **kwargs: Any) -> None:
        self.framebuffer = framebuffer
        super().__init__(size, **kwargs)

    def push(self, dirty: list[pygame.Rect] | None) -> None:
        super().push(dirty)
        self.pushed = self.framebuffer.write(self.screen, self.pushed)    # whole rows, where it copies rows

    def close(self) -> None:
        self.framebuffer.close()
        super().close()


def open_framebuffer(device: str) -> Framebuffer | None:
    """The framebuffer, or None after one line saying why not (the table then tries SDL's kmsdrm)."""
    try:
        return Framebuffer(Path(device))
    except FramebufferError as exc:
        log.warning("framebuffer not used, trying SDL's kmsdrm: %s", exc)
        return None


__all__ = ["FbdevDisplay", "Framebuffer", "FramebufferError", "Geometry", "choose_output", "drm_drivers",
           "open_framebuffer", "read_geometry"]
