"""HSU framing, fed bytes directly: no port."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers.hsu import ACK, ERROR_FRAME, NACK, MAX_DATA, Frame, FrameKind, FrameParser, FrameTooLong, encode


def test_get_firmware_version_encodes_as_in_the_manual():
    assert encode(b"\x02") == bytes.fromhex("0000FF02FED4022A00")


def test_ack_nack_and_error_frames_are_recognised():
    assert FrameParser().feed(ACK + NACK + ERROR_FRAME) == [
        Frame(FrameKind.ACK),
        Frame(FrameKind.NACK),
        Frame(FrameKind.ERROR, 0x7F),
    ]


def test_a_response_frame_gives_its_tfi_and_data():
    wire = encode(b"\x03\x32\x01\x06\x07", tfi=0xD5)
    assert FrameParser().feed(wire) == [Frame(FrameKind.DATA, 0xD5, b"\x03\x32\x01\x06\x07")]


def test_a_frame_split_byte_by_byte_comes_out_once_complete():
    parser = FrameParser()
    wire = ACK + encode(b"\x4b\x00", tfi=0xD5)
    out = []
    for i, byte in enumerate(wire):
        out += parser.feed(bytes([byte]))
        if i < len(ACK) - 3:
            assert out == []
    assert [f.kind for f in out] == [FrameKind.ACK, FrameKind.DATA]


def test_a_bad_data_checksum_is_dropped_and_counted_and_the_next_frame_still_read():
    bad = bytearray(encode(b"\x4b\x00", tfi=0xD5))
    bad[-2] ^= 0x01
    parser = FrameParser()
    assert parser.feed(bytes(bad) + encode(b"\x15", tfi=0xD5)) == [Frame(FrameKind.DATA, 0xD5, b"\x15")]
    assert parser.bad_checksum == 1


def test_a_bad_length_checksum_is_dropped_and_counted():
    parser = FrameParser()
    assert parser.feed(bytes.fromhex("0000FF0300D54B00E000") + ACK) == [Frame(FrameKind.ACK)]
    assert parser.bad_length == 1


def test_extended_frames_are_skipped_cleanly_and_counted():
    body = bytes([0xD5]) + bytes(300)
    ext = bytes([0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x01, 0x2D, (-(0x01 + 0x2D)) & 0xFF]) + body + bytes([(-sum(body)) & 0xFF, 0])
    parser = FrameParser()
    assert parser.feed(ext + ACK) == [Frame(FrameKind.ACK)]
    assert parser.refused == 1


def test_encode_refuses_what_would_need_an_extended_frame():
    encode(bytes(MAX_DATA))
    with pytest.raises(FrameTooLong, match="extended frames are not supported"):
        encode(bytes(MAX_DATA + 1))


def test_reset_forgets_a_partial_frame():
    parser = FrameParser()
    parser.feed(b"\x00\xff\x40\xc0\xd5")  # a header promising 64 bytes that never come
    parser.reset()
    assert parser.feed(ACK) == [Frame(FrameKind.ACK)]


payloads = st.binary(min_size=1, max_size=MAX_DATA)


@given(st.lists(payloads, max_size=5), st.lists(st.integers(1, 40), min_size=1))
def test_any_frames_split_anywhere_come_back_in_order(payloads, cuts):
    wire = b"".join(ACK + encode(p, tfi=0xD5) for p in payloads)
    parser = FrameParser()
    out, pos, i = [], 0, 0
    while pos < len(wire):
        step = cuts[i % len(cuts)]
        out += parser.feed(wire[pos : pos + step])
        pos, i = pos + step, i + 1
    data = [f for f in out if f.kind is FrameKind.DATA]
    assert [f.data for f in data] == payloads
    assert [f.tfi for f in data] == [0xD5] * len(payloads)
    assert parser.bad_checksum == parser.bad_length == 0


@given(st.binary(max_size=400))
def test_garbage_never_raises_and_only_yields_well_formed_frames(noise):
    for frame in FrameParser().feed(noise):
        if frame.kind is FrameKind.DATA:
            assert frame.tfi is not None
            assert len(frame.data) < 0xFF


@given(st.binary(max_size=200).filter(lambda b: b"\x00\xff" not in b and not b.endswith(b"\x00")), payloads)
def test_a_frame_after_garbage_without_a_start_code_is_found(noise, payload):
    assert FrameParser().feed(noise + encode(payload, tfi=0xD5)) == [Frame(FrameKind.DATA, 0xD5, payload)]
