"""ISO/IEC 14443-A checksums, shared by the MFRC522 driver and its emulator."""

from __future__ import annotations

from collections.abc import Iterable


def crc_a(data: Iterable[int]) -> bytes:
    """CRC_A (preset 0x6363, reflected polynomial 0x8408), low byte first: ``50 00`` -> ``57 CD``."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte ^= (byte << 4) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return bytes([crc & 0xFF, crc >> 8])


def bcc(data: Iterable[int]) -> int:
    """The block check character of an anticollision answer: XOR of the UID bytes."""
    out = 0
    for byte in data:
        out ^= byte
    return out
