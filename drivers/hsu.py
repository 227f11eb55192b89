"""PN532 HSU (UART) framing, as a pure class: bytes in, frames out. No I/O.

Normal frame:  00 | 00 FF | LEN | LCS | TFI | data | DCS | 00
  (LEN + LCS) & 0xFF == 0,  (TFI + sum(data) + DCS) & 0xFF == 0, LEN counts TFI + data.
ACK  00 00 FF 00 FF 00,  NACK 00 00 FF FF 00 00,
error frame  00 00 FF 01 FF 7F 81 00 (the chip's "syntax error" answer).
Extended frames (LEN LCS = FF FF, then LENM LENL LCS) are never sent by us
and are skipped, counted in ``refused``, when received. (NXP UM0701-02 §6.2.1)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

HOST_TFI = 0xD4
CHIP_TFI = 0xD5
ERROR_TFI = 0x7F
START = b"\x00\xff"
ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
MAX_DATA = 253  # data bytes after the TFI; LEN (TFI + data) stays below FF


class FrameKind(enum.Enum):
    ACK = "ack"
    NACK = "nack"
    ERROR = "error"
    DATA = "data"


@dataclass(frozen=True)
class Frame:
    kind: FrameKind
    tfi: int | None = None
    data: bytes = b""

    def __repr__(self) -> str:
        if self.kind is FrameKind.DATA:
            return f"<Frame DATA tfi={self.tfi:02X} {self.data.hex(' ').upper()}>"
        return f"<Frame {self.kind.name}>"


class FrameTooLong(ValueError):
    """The data does not fit a normal frame; extended frames are not supported."""


def encode(data: bytes, tfi: int = HOST_TFI) -> bytes:
    """Frame ``data`` (command code first) for sending."""
    if len(data) > MAX_DATA:
        raise FrameTooLong(f"{len(data)} data bytes do not fit a normal frame (at most {MAX_DATA}); extended frames are not supported")
    body = bytes([tfi]) + bytes(data)
    length = len(body)
    return bytes([0x00, 0x00, 0xFF, length, (-length) & 0xFF]) + body + bytes([(-sum(body)) & 0xFF, 0x00])


class FrameParser:
    """Turn a byte stream into frames, skipping noise and bad frames.

    ``feed`` may be given any split of the stream; incomplete frames wait
    for more bytes. Counters say what was thrown away.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self.bad_length = 0  # LCS did not match LEN
        self.bad_checksum = 0  # DCS did not match the data
        self.refused = 0  # extended frames skipped
        self.garbage = 0  # bytes skipped outside frames (pre- and postambles included)

    def reset(self) -> None:
        """Forget a partial frame (after a timeout, so noise cannot stall the next answer)."""
        self.garbage += len(self._buf)
        self._buf.clear()

    @property
    def buffered(self) -> int:
        """Bytes held for a frame not yet complete."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[Frame]:
        self._buf += data
        frames: list[Frame] = []
        buf = self._buf
        while True:
            start = buf.find(START)
            if start < 0:
                # keep a trailing 00: it may be the first half of a start code
                keep = 1 if buf[-1:] == b"\x00" else 0
                self._drop(len(buf) - keep)
                break
            if start:
                self._drop(start)
            if len(buf) < 4:
                break
            length, lcs = buf[2], buf[3]
            if (length, lcs) == (0x00, 0xFF):
                frames.append(Frame(FrameKind.ACK))
                del buf[:4]
            elif (length, lcs) == (0xFF, 0x00):
                frames.append(Frame(FrameKind.NACK))
                del buf[:4]
            elif (length, lcs) == (0xFF, 0xFF):
                if len(buf) < 7:
                    break
                lenm, lenl, lcs2 = buf[4], buf[5], buf[6]
                if (lenm + lenl + lcs2) & 0xFF:
                    self.bad_length += 1
                    self._drop(2)
                    continue
                total = 7 + (lenm << 8 | lenl) + 1
                if len(buf) < total:
                    break
                self.refused += 1
                del buf[:total]
            elif (length + lcs) & 0xFF:
                self.bad_length += 1
                self._drop(2)
            else:
                if len(buf) < 4 + length + 1:
                    break
                body = bytes(buf[4 : 4 + length])
                dcs = buf[4 + length]
                if (sum(body) + dcs) & 0xFF:
                    self.bad_checksum += 1
                    self._drop(2)
                    continue
                del buf[: 4 + length + 1]
                if body == bytes([ERROR_TFI]):
                    frames.append(Frame(FrameKind.ERROR, ERROR_TFI))
                else:
                    frames.append(Frame(FrameKind.DATA, body[0], body[1:]))
        return frames

    def _drop(self, n: int) -> None:
        self.garbage += n
        del self._buf[:n]

    def __repr__(self) -> str:
        return (
            f"<FrameParser buffered={len(self._buf)} bad_length={self.bad_length} "
            f"bad_checksum={self.bad_checksum} refused={self.refused} garbage={self.garbage}>"
        )
