"""Screen captures and their comparison, for the boot bench (standard library only).

QEMU's ``screendump`` writes a binary PPM (P6); the guest-side framebuffer readback is turned into
the same ``Image``. A capture matches a reference frame (drawn by the same version for the same
state under SDL's dummy driver) when every pixel that differs lies inside one of the masks: the
places that show the time of day or a countdown, which no two runs draw alike.
"""

from __future__ import annotations

from dataclasses import dataclass

Box = tuple[int, int, int, int]          # x, y, width, height


@dataclass(frozen=True)
class Image:
    width: int
    height: int
    rgb: bytes                           # width * height * 3 bytes, row by row

    def __post_init__(self) -> None:
        if len(self.rgb) != self.width * self.height * 3:
            raise ValueError(f"{self.width}x{self.height} image needs {self.width * self.height * 3} bytes, got {len(self.rgb)}")

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        i = (y * self.width + x) * 3
        return self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]

    def is_blank(self) -> bool:
        """One colour all over (the black of a screen nothing was drawn on)."""
        return self.rgb == self.rgb[:3] * (self.width * self.height)

    def __repr__(self) -> str:
        return f"<Image {self.width}x{self.height}{' blank' if self.is_blank() else ''}>"


def parse_ppm(data: bytes) -> Image:
    """A binary PPM (P6, maxval 255, '#' comments allowed in the header); ValueError otherwise."""
    fields: list[bytes] = []
    i = 0
    while len(fields) < 4:
        while i < len(data) and data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            while i < len(data) and data[i:i + 1] != b"\n":
                i += 1
            continue
        start = i
        while i < len(data) and not data[i:i + 1].isspace():
            i += 1
        if start == i:
            raise ValueError("PPM header ends early: expected P6 WIDTH HEIGHT 255")
        fields.append(data[start:i])
    if fields[0] != b"P6":
        raise ValueError(f"not a binary PPM: magic {fields[0]!r}, expected b'P6'")
    try:
        width, height, maxval = (int(f) for f in fields[1:])
    except ValueError:
        raise ValueError(f"PPM header {b' '.join(fields)!r}: expected P6 WIDTH HEIGHT 255") from None
    if maxval != 255:
        raise ValueError(f"PPM maxval {maxval}: only 8-bit (255) is read")
    body = data[i + 1:i + 1 + width * height * 3]       # one whitespace byte ends the header
    return Image(width, height, body)


def to_ppm(image: Image) -> bytes:
    return b"P6\n%d %d\n255\n" % (image.width, image.height) + image.rgb


def from_xrgb(data: bytes, width: int, height: int, pitch: int) -> Image:
    """A KMS framebuffer in XRGB8888 (bytes B, G, R, X in memory, rows ``pitch`` bytes apart)."""
    rows = []
    for y in range(height):
        row = data[y * pitch:y * pitch + width * 4]
        out = bytearray(width * 3)
        out[0::3], out[1::3], out[2::3] = row[2::4], row[1::4], row[0::4]
        rows.append(bytes(out))
    return Image(width, height, b"".join(rows))


def centred(shot: Image, width: int, height: int) -> Image:
    """The ``width`` x ``height`` middle of a larger capture, where the fbdev output centres a frame
    smaller than the framebuffer (virtio-gpu's 800x600 for an 800x480 table); ``shot`` otherwise."""
    if shot.width < width or shot.height < height or (shot.width, shot.height) == (width, height):
        return shot
    x, y = (shot.width - width) // 2, (shot.height - height) // 2
    rows = (shot.rgb[((y + r) * shot.width + x) * 3:((y + r) * shot.width + x + width) * 3] for r in range(height))
    return Image(width, height, b"".join(rows))


def inside(x: int, y: int, boxes: list[Box]) -> bool:
    return any(bx <= x < bx + bw and by <= y < by + bh for bx, by, bw, bh in boxes)


@dataclass(frozen=True)
class Difference:
    pixels: int                          # pixels that differ outside the masks
    masked: int                          # pixels that differ inside them
    box: Box | None                      # the bounding box of those outside
    size_mismatch: bool = False

    @property
    def same(self) -> bool:
        return not self.size_mismatch and self.pixels == 0

    def __str__(self) -> str:
        if self.size_mismatch:
            return "different sizes"
        if self.same:
            return f"the same{f' but for {self.masked} masked pixel(s)' if self.masked else ''}"
        return f"{self.pixels} pixel(s) differ, within {self.box}"


def compare(shot: Image, reference: Image, *, masks: list[Box] | None = None, tolerance: int = 0) -> Difference:
    """Where ``shot`` differs from ``reference`` (a channel more than ``tolerance`` apart), masks aside."""
    if (shot.width, shot.height) != (reference.width, reference.height):
        return Difference(0, 0, None, size_mismatch=True)
    masks = masks or []
    a, b, w = shot.rgb, reference.rgb, shot.width
    pixels = masked = 0
    x0, y0, x1, y1 = w, shot.height, -1, -1
    row_bytes = w * 3
    for y in range(shot.height):
        ra, rb = a[y * row_bytes:(y + 1) * row_bytes], b[y * row_bytes:(y + 1) * row_bytes]
        if ra == rb:
            continue
        for x in range(w):
            i = x * 3
            if ra[i:i + 3] == rb[i:i + 3] or max(abs(ra[i + k] - rb[i + k]) for k in range(3)) <= tolerance:
                continue
            if inside(x, y, masks):
                masked += 1
                continue
            pixels += 1
            x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
    box = (x0, y0, x1 - x0 + 1, y1 - y0 + 1) if pixels else None
    return Difference(pixels, masked, box)
