"""The framebuffer output (table/ui/fbdev.py) with a regular file standing in for /dev/fb0 and a
fake sysfs folder for its geometry: over a scripted game, at 32 bpp (XRGB8888) and 16 bpp
(RGB565), each frame writes exactly the rectangles it pushed, and the file decoded back equals
the frame drawn in full; a frame of another size is centred or scaled down; the choice of output
and an unusable framebuffer (one line, SDL's path instead)."""

from __future__ import annotations

import logging
import os
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from table.config import ConfigError, parse_config
from table.ui import fbdev
from table.ui.display import Display, use_headless_drivers
from table.ui.fbdev import FbdevDisplay, Framebuffer, FramebufferError, choose_output
from table.ui.screen import ScreenPlan
from table.ui.view import View
from tests.table import test_display_glass
from tests.table.test_display_glass import GAME, Reference

SENTINEL = 0xA5


def fake_fb(tmp_path: Path, size: tuple[int, int], bpp: int, pad: int = 64) -> tuple[Path, Path]:
    """A file the size of the framebuffer (rows padded: stride > width) and its sysfs folder."""
    w, h = size
    stride = w * bpp // 8 + pad
    device, sysfs = tmp_path / "fb0", tmp_path / "sys-fb0"
    sysfs.mkdir()
    (sysfs / "virtual_size").write_text(f"{w},{h}\n")
    (sysfs / "bits_per_pixel").write_text(f"{bpp}\n")
    (sysfs / "stride").write_text(f"{stride}\n")
    device.write_bytes(bytes([SENTINEL]) * stride * h)
    return device, sysfs


def decode(data: bytes, fb: Framebuffer, box: pygame.Rect) -> bytes:
    """The RGB bytes of ``box`` in the framebuffer's raw ``data``, decoded by hand (not by pygame)."""
    g = fb.geometry
    out = bytearray()
    for y in range(box.y, box.bottom):
        row = data[y * g.stride + box.x * g.bytes_per_pixel:y * g.stride + box.right * g.bytes_per_pixel]
        if g.bpp == 32:                      # little-endian XRGB8888: B, G, R, X
            for i in range(0, len(row), 4):
                out += bytes((row[i + 2], row[i + 1], row[i]))
        else:                                # little-endian RGB565
            for i in range(0, len(row), 2):
                v = row[i] | row[i + 1] << 8
                out += bytes(((v >> 11) << 3, ((v >> 5) & 0x3F) << 2, (v & 0x1F) << 3))
    return bytes(out)


def quantized(rgb: bytes, bpp: int) -> bytes:
    """What an RGB565 pixel keeps of each colour (the top 5, 6, 5 bits); all of it at 32 bpp."""
    if bpp == 32:
        return rgb
    return bytes(v & m for v, m in zip(rgb, (0xF8, 0xFC, 0xF8) * (len(rgb) // 3)))


def untouched(data: bytes, fb: Framebuffer, boxes: list[pygame.Rect], fill: int = SENTINEL) -> bool:
    """Every byte outside ``boxes`` (framebuffer coordinates) holds ``fill`` (still the sentinel)."""
    g = fb.geometry
    poisoned = bytearray(data)
    for box in boxes:
        for y in range(box.y, box.bottom):
            at = y * g.stride + box.x * g.bytes_per_pixel
            poisoned[at:at + box.w * g.bytes_per_pixel] = bytes([fill]) * (box.w * g.bytes_per_pixel)
    return bytes(poisoned) == bytes([fill]) * len(data)


@pytest.mark.parametrize("bpp,fb_size,pad", [(32, (800, 600), 64), (16, (800, 480), 64), (32, (800, 480), 0)])
def test_a_scripted_game_reaches_the_framebuffer_rectangle_by_rectangle(tmp_path: Path, bpp: int,
                                                                      fb_size: tuple[int, int], pad: int,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """After each frame the file holds the sentinel everywhere but the pushed rectangles (poisoned
    again before the next); a glass built from what was written equals the frame drawn in full.
    A frame that fills an XRGB8888 framebuffer row for row (no padding: the box's case) pushes
    whole rows, each band copied as memory."""
    use_headless_drivers()
    device, sysfs = fake_fb(tmp_path, fb_size, bpp, pad)
    fb = Framebuffer(device, sysfs)
    rows = bpp == 32 and fb_size == (800, 480) and pad == 0
    size = (800, 480)
    offset = ((fb_size[0] - size[0]) // 2, (fb_size[1] - size[1]) // 2)
    place, screen = pygame.Rect(offset, size), pygame.Rect((0, 0), size)
    glass = bytearray(size[0] * size[1] * 3)
    references: list[Reference] = []
    counts = {"full": 0, "partial": 0, "empty": 0}

    def check(display: Display, view: View, what: str) -> None:
        if not references:
            references.append(Reference(display))
        data = device.read_bytes()
        # the simulator's strip under the screen is pushed too, and is not the framebuffer's
        pushed = [place] if display.pushed is None else [r.clip(screen).move(offset) for r in display.pushed]
        first = not any(counts.values())     # the first frame blackens the margins and the stride's padding
        counts["full" if display.pushed is None else "partial" if display.pushed else "empty"] += 1
        assert fb.by_rows(display.screen) == rows
        if rows and display.pushed:
            assert all(r.x == 0 and r.w == size[0] for r in display.pushed), display.pushed
            assert all(a.bottom < b.top for a, b in zip(display.pushed, display.pushed[1:])), "bands apart, in order"
        assert untouched(data, fb, pushed, 0 if first else SENTINEL), f"{what}: bytes outside the pushed rectangles"
        for box in pushed:
            rgb = decode(data, fb, box)
            for row in range(box.h):
                at = ((box.y - offset[1] + row) * size[0] + box.x - offset[0]) * 3
                glass[at:at + box.w * 3] = rgb[row * box.w * 3:(row + 1) * box.w * 3]
        drawn = references[0].draw(view)[:len(glass)]       # the window's rows above the strip
        assert bytes(glass) == quantized(drawn, bpp), f"{bpp} bpp, {what}"
        fb.map[:] = bytes([SENTINEL]) * len(fb.map)     # poisoned: the next frame must write what it pushes

    monkeypatch.setattr(test_display_glass, "Display",
                        lambda size, **kwargs: FbdevDisplay(size, framebuffer=fb, **kwargs))
    test_display_glass.play(tmp_path, size, GAME, check).close()
    assert counts["full"] >= 1 and counts["partial"] > 3 * counts["full"] and counts["empty"] > 0, counts


def framebuffer_and_frame(tmp_path: Path, bpp: int, frame_size: tuple[int, int]) -> tuple[Path, Framebuffer,
                                                                                       pygame.Surface]:
    """An 800x600 framebuffer file at ``bpp``, opened, and a blank frame of ``frame_size`` to write."""
    use_headless_drivers()
    pygame.display.init()
    device, sysfs = fake_fb(tmp_path, (800, 600), bpp)
    return device, Framebuffer(device, sysfs), pygame.Surface(frame_size)


def test_the_first_frame_clears_the_margins_round_a_centred_frame(tmp_path: Path) -> None:
    device, fb, frame = framebuffer_and_frame(tmp_path, 32, (800, 480))
    frame.fill((10, 200, 30))
    fb.write(frame, [pygame.Rect(0, 0, 10, 10)])        # a new size is written in full, whatever was pushed
    data = device.read_bytes()
    assert decode(data, fb, pygame.Rect(0, 0, 800, 60)) == bytes(800 * 60 * 3)
    assert decode(data, fb, pygame.Rect(0, 60, 800, 480)) == bytes((10, 200, 30)) * (800 * 480)
    assert decode(data, fb, pygame.Rect(0, 540, 800, 60)) == bytes(800 * 60 * 3)
    fb.close()


def test_a_frame_larger_than_the_framebuffer_is_scaled_down_keeping_its_shape(tmp_path: Path) -> None:
    device, fb, frame = framebuffer_and_frame(tmp_path, 16, (1920, 1080))
    frame.fill((0, 0, 255))
    frame.fill((255, 0, 0), pygame.Rect(0, 0, 960, 1080))   # left half red
    fb.write(frame, None)
    assert fb.place == pygame.Rect(0, 75, 800, 450)
    data = device.read_bytes()
    assert decode(data, fb, pygame.Rect(0, 0, 800, 75)) == bytes(800 * 75 * 3)
    assert decode(data, fb, pygame.Rect(10, 100, 380, 400)) == bytes((248, 0, 0)) * (380 * 400)
    assert decode(data, fb, pygame.Rect(410, 100, 380, 400)) == bytes((0, 0, 248)) * (380 * 400)
    frame.fill((0, 255, 0), pygame.Rect(1440, 0, 480, 540))  # the top right quarter pushed alone
    fb.map[:] = bytes(len(fb.map))
    fb.write(frame, [pygame.Rect(1440, 0, 480, 540)])
    data = device.read_bytes()
    assert decode(data, fb, pygame.Rect(610, 80, 180, 215)) == bytes((0, 252, 0)) * (180 * 215)
    assert decode(data, fb, pygame.Rect(0, 75, 590, 450)) == bytes(590 * 450 * 3), "outside the push was written"
    fb.close()


def test_rows_are_copied_only_where_they_are_the_framebuffers_byte_for_byte(tmp_path: Path) -> None:
    """Whole rows need the same size, stride and masks, and a fourth byte the screen ignores."""
    _, padded, frame = framebuffer_and_frame(tmp_path, 32, (800, 600))
    padded.write(frame, None)
    assert not padded.by_rows(frame)                    # a padded stride (fake_fb's 64 bytes)
    padded.close()
    (tmp_path / "unpadded").mkdir()
    device, sysfs = fake_fb(tmp_path / "unpadded", (800, 480), 32, pad=0)
    fb = Framebuffer(device, sysfs)
    window = pygame.Surface((800, 480), 0, 32, (0xFF0000, 0x00FF00, 0x0000FF, 0))
    window.fill((1, 2, 3))
    assert fb.write(window, [pygame.Rect(10, 20, 30, 40), pygame.Rect(0, 50, 5, 5), pygame.Rect(0, 200, 1, 1)]) is None
    assert fb.by_rows(window)                           # the first write of a size is whole; rows from then on
    window.fill((9, 8, 7), pygame.Rect(10, 20, 30, 40))
    written = fb.write(window, [pygame.Rect(10, 20, 30, 40), pygame.Rect(0, 50, 5, 5), pygame.Rect(0, 200, 1, 1)])
    assert written == [pygame.Rect(0, 20, 800, 40), pygame.Rect(0, 200, 800, 1)]   # touching bands as one
    assert decode(device.read_bytes(), fb, pygame.Rect(10, 20, 30, 40)) == bytes((9, 8, 7)) * (30 * 40)
    assert not fb.by_rows(pygame.Surface((800, 480), 0, 32, (0x0000FF, 0x00FF00, 0xFF0000, 0)))   # other masks
    assert not fb.by_rows(pygame.Surface((800, 480), 0, 16))
    fb.geometry = replace(fb.geometry, alpha=8)         # a transp field: the fourth byte would be read
    assert not fb.by_rows(window)
    fb.close()


@pytest.mark.parametrize("refuses", [False, True])
def test_whole_rows_go_in_by_pwrite_or_through_the_mapping_when_the_device_refuses_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, refuses: bool) -> None:
    """pwrite, not the mapping: a DRM driver's emulated framebuffer takes a page fault for each page
    written through its mapping, every frame. A device that refuses writes gets the mapping, with one line."""
    device, sysfs = fake_fb(tmp_path, (800, 480), 32, pad=0)
    fb = Framebuffer(device, sysfs)
    window = pygame.Surface((800, 480), 0, 32, (0xFF0000, 0x00FF00, 0x0000FF, 0))
    fb.write(window, None)
    writes: list[tuple[int, int]] = []
    real = os.pwrite

    def pwrite(fd: int, data: memoryview, offset: int) -> int:
        writes.append((offset, len(data)))
        if refuses:
            raise OSError(22, "Invalid argument")
        return real(fd, data, offset)

    monkeypatch.setattr(fbdev.os, "pwrite", pwrite)
    window.fill((9, 8, 7), pygame.Rect(10, 20, 30, 40))
    with caplog.at_level(logging.INFO, logger="table.ui.fbdev"):
        fb.write(window, [pygame.Rect(10, 20, 30, 40)])
        window.fill((4, 5, 6), pygame.Rect(0, 300, 8, 2))
        fb.write(window, [pygame.Rect(0, 300, 8, 2)])
    stride = fb.geometry.stride
    assert writes[0] == (20 * stride, 40 * stride)
    assert writes == ([(20 * stride, 40 * stride)] if refuses else [(20 * stride, 40 * stride), (300 * stride, 2 * stride)])
    assert ("written through its mapping" in caplog.text) is refuses
    fb.close()
    data = device.read_bytes()
    assert decode(data, fb, pygame.Rect(10, 20, 30, 40)) == bytes((9, 8, 7)) * (30 * 40)
    assert decode(data, fb, pygame.Rect(0, 300, 8, 2)) == bytes((4, 5, 6)) * 16


def test_an_unusable_framebuffer_raises_one_line(tmp_path: Path) -> None:
    with pytest.raises(FramebufferError, match="fb0: No such file"):
        Framebuffer(tmp_path / "fb0", tmp_path)
    device, sysfs = fake_fb(tmp_path, (800, 480), 24)
    with pytest.raises(FramebufferError, match="24 bits per pixel"):
        Framebuffer(device, sysfs)
    (sysfs / "bits_per_pixel").write_text("32\n")
    (sysfs / "stride").write_text("100\n")
    with pytest.raises(FramebufferError, match="does not fit a stride"):
        Framebuffer(device, sysfs)
    with pytest.raises(FramebufferError, match="no geometry"):
        Framebuffer(device, tmp_path / "nowhere")


def test_auto_takes_kmsdrm_only_where_a_gl_driver_drives_the_card() -> None:
    assert choose_output("auto", fullscreen=True, asked_driver=None, drivers=["vc4"]) == "sdl"
    assert choose_output("auto", fullscreen=True, asked_driver=None, drivers=["virtio_gpu"]) == "fbdev"
    assert choose_output("auto", fullscreen=True, asked_driver=None, drivers=[]) == "fbdev"
    assert choose_output("auto", fullscreen=False, asked_driver=None, drivers=[]) == "sdl"     # a desktop
    assert choose_output("auto", fullscreen=True, asked_driver="dummy", drivers=[]) == "sdl"   # tests
    assert choose_output("auto", fullscreen=True, asked_driver="kmsdrm", drivers=[]) == "fbdev"  # the unit's
    assert choose_output("fbdev", fullscreen=False, asked_driver="x11", drivers=["i915"]) == "fbdev"
    assert choose_output("sdl", fullscreen=True, asked_driver=None, drivers=[]) == "sdl"


def test_drm_drivers_are_read_from_each_cards_driver_link(tmp_path: Path) -> None:
    for card, driver in (("card0", "virtio_gpu"), ("card1", "vc4")):
        (tmp_path / "drivers" / driver).mkdir(parents=True)
        (tmp_path / card / "device").mkdir(parents=True)
        (tmp_path / card / "device" / "driver").symlink_to(tmp_path / "drivers" / driver)
    (tmp_path / "card0-HDMI-A-1").mkdir()                # a connector, not a card
    assert fbdev.drm_drivers(tmp_path) == ["virtio_gpu", "vc4"]


def test_the_config_chooses_the_output_and_refuses_an_unknown_one() -> None:
    assert parse_config({}).display.output == "sdl"
    assert parse_config({"display": {"output": "fbdev", "framebuffer": "/dev/fb1"}}).display.framebuffer == "/dev/fb1"
    with pytest.raises(ConfigError, match="output"):
        parse_config({"display": {"output": "vga"}})


def test_the_plan_draws_on_the_framebuffer_it_opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    device, sysfs = fake_fb(tmp_path, (800, 480), 32)
    (tmp_path / "class").mkdir()
    sysfs.rename(tmp_path / "class" / "fb0")             # /sys/class/graphics/fb0 for the device named fb0
    monkeypatch.setattr(fbdev, "SYSFS", tmp_path / "class")
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    config = parse_config({"display": {"output": "fbdev", "framebuffer": str(device), "sound": False}})
    plan = ScreenPlan(config)
    plan.check()                                         # no desktop, no full screen: the framebuffer is the screen
    display = plan.open()
    try:
        assert isinstance(display, FbdevDisplay) and pygame.display.get_driver() == "dummy"
        display.show(lambda f: f.window.fill((1, 2, 3)))
        assert decode(device.read_bytes(), display.framebuffer, pygame.Rect(0, 0, 800, 480)) == bytes((1, 2, 3)) * 384000
    finally:
        display.close()


def test_a_framebuffer_that_cannot_be_opened_is_one_line_and_sdls_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    config = parse_config({"display": {"output": "fbdev", "framebuffer": str(tmp_path / "fb9"), "fullscreen": "yes"}})
    plan = ScreenPlan(config)
    with caplog.at_level(logging.WARNING, logger="table.ui.fbdev"):
        plan.check()
    assert plan.framebuffer is None
    assert os.environ.get("SDL_VIDEODRIVER") == "kmsdrm"
    lines = [r.getMessage() for r in caplog.records if r.name == "table.ui.fbdev"]
    assert len(lines) == 1 and "fb9: No such file" in lines[0] and "kmsdrm" in lines[0]



@pytest.mark.parametrize("bpp", [32, 16])
def test_xrgb8888_goes_in_by_one_blit_into_the_mapping_and_closes(tmp_path: Path, bpp: int) -> None:
    """At 32 bpp the mapping is itself a surface (a rectangle is one blit by SDL, not a Python loop
    over its rows: the push's cost at the Zero 2 W class); 16 bpp keeps the rows' way. Both write the
    rectangle's pixels and nothing else, and the mapping closes though the surface held it."""
    device, fb, frame = framebuffer_and_frame(tmp_path, bpp, (800, 600))
    assert (fb.direct is not None) == (bpp == 32)
    fb.write(frame, None)                                  # the first frame: all of it
    fb.map[:] = bytes([SENTINEL]) * len(fb.map)
    frame.fill((200, 40, 8), pygame.Rect(10, 20, 30, 5))
    box = pygame.Rect(10, 20, 30, 5)
    fb.write(frame, [box])
    data = bytes(fb.map)
    assert decode(data, fb, box) == quantized(bytes((200, 40, 8)) * 150, bpp)
    assert untouched(data, fb, [box])
    fb.close()
    assert fb.map.closed
