"""Reads back the KMS framebuffer the first lit CRTC scans out (installed in the guest as
/usr/local/sbin/boot-bench-fbgrab; root: DRM hands out a framebuffer's buffer handle only to the
DRM master or CAP_SYS_ADMIN).

Prints ``WIDTH HEIGHT PITCH`` on one line and then the XRGB8888 pixels in base64. It reads what the
guest's CPU wrote into the buffer (Mesa's software path writes there), which is what a display
device that copies the buffer out would show; it cannot tell whether the host side received it.
Standard library only: DRM_IOCTL_MODE_GETRESOURCES, GETCRTC, GETFB, MAP_DUMB, then mmap.
"""

from __future__ import annotations

import base64
import ctypes
import fcntl
import mmap
import os
import struct
import sys


def iowr(nr: int, size: int) -> int:
    return (3 << 30) | (size << 16) | (ord("d") << 8) | nr


GETRESOURCES, GETCRTC, GETFB, MAP_DUMB = iowr(0xA0, 64), iowr(0xA1, 104), iowr(0xAD, 28), iowr(0xB3, 16)
GEM_CLOSE = (1 << 30) | (8 << 16) | (ord("d") << 8) | 0x09


def crtc_ids(fd: int) -> list[int]:
    res = bytearray(64)
    fcntl.ioctl(fd, GETRESOURCES, res)
    count = struct.unpack_from("=I", res, 36)[0]
    ids = (ctypes.c_uint32 * max(count, 1))()
    res = bytearray(64)
    struct.pack_into("=Q", res, 8, ctypes.addressof(ids))
    struct.pack_into("=I", res, 36, count)
    fcntl.ioctl(fd, GETRESOURCES, res)
    return list(ids)[:count]


def scanned_fb(fd: int) -> int:
    for crtc in crtc_ids(fd):
        buf = bytearray(104)
        struct.pack_into("=I", buf, 12, crtc)
        fcntl.ioctl(fd, GETCRTC, buf)
        fb_id = struct.unpack_from("=I", buf, 16)[0]
        if fb_id:
            return fb_id
    raise SystemExit("no CRTC scans out a framebuffer (nothing has set a mode)")


def main(device: str) -> int:
    fd = os.open(device, os.O_RDWR)
    fb = bytearray(28)
    struct.pack_into("=I", fb, 0, scanned_fb(fd))
    fcntl.ioctl(fd, GETFB, fb)
    _, width, height, pitch, bpp, _, handle = struct.unpack("=7I", fb)
    if not handle:
        raise SystemExit("DRM gave no buffer handle (run as root)")
    if bpp != 32:
        raise SystemExit(f"framebuffer of {bpp} bits per pixel: only XRGB8888 is read")
    req = bytearray(16)
    struct.pack_into("=I", req, 0, handle)
    fcntl.ioctl(fd, MAP_DUMB, req)
    offset = struct.unpack_from("=Q", req, 8)[0]
    with mmap.mmap(fd, pitch * height, mmap.MAP_SHARED, mmap.PROT_READ, offset=offset) as m:
        data = m.read(pitch * height)
    fcntl.ioctl(fd, GEM_CLOSE, struct.pack("=II", handle, 0))
    sys.stdout.write(f"{width} {height} {pitch}\n")
    sys.stdout.write(base64.b64encode(data).decode() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "/dev/dri/card0"))
