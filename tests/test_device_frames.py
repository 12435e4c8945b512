"""The MJ1 frame format and the sans-I/O decoder: the pymodbus framer test list, and more."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from device.decoder import FrameDecoder
from device.frames import (MAX_FRAME_BYTES, Diagnostic, Hello, Snapshot, State, Unknown, crc16, encode,
                           encode_frame)

HELLO = b"$MJ1,0,812,H,fw=1.0.0,model=DIY-ESP32,seats=4,total=100000*79BA\r\n"
STATE = b"$MJ1,1234,5123456,S,4,33000,17000,24000,26000,E2,1,0,2,0000*C1BB\r\n"


def state_frame(seq: int, points=(25000, 25000, 25000, 25000), sticks: int = 0) -> bytes:
    return encode(State(seq, 1000 + seq, Snapshot(tuple(points), "E1", 0, sticks, 1, (False,) * len(points))))


def decode(*chunks: bytes) -> tuple[list, FrameDecoder]:
    decoder = FrameDecoder()
    frames = []
    for chunk in chunks:
        frames += decoder.feed(chunk)
    return frames, decoder


def test_crc_is_xmodem_with_the_standard_check_value():
    assert crc16(b"123456789") == 0x31C3


def test_the_spec_examples_decode():
    frames, decoder = decode(HELLO + STATE)
    assert frames == [
        Hello(0, 812, "1.0.0", "DIY-ESP32", 4, 100000),
        State(1234, 5123456, Snapshot((33000, 17000, 24000, 26000), "E2", 1, 0, 2, (False,) * 4)),
    ]
    assert decoder.stats.frames == 2 and decoder.stats.garbage_bytes == 0


def test_encoder_writes_the_spec_examples_byte_for_byte():
    assert encode(Hello(0, 812, "1.0.0", "DIY-ESP32", 4, 100000)) == HELLO
    assert encode(State(1234, 5123456, Snapshot((33000, 17000, 24000, 26000), "E2", 1, 0, 2, (False,) * 4))) == STATE


def test_split_reads_byte_by_byte_give_the_same_frames():
    frames, _ = decode(*(bytes([b]) for b in HELLO + STATE))
    assert [f.seq for f in frames] == [0, 1234]


def test_garbage_before_between_and_after_frames_is_counted_and_skipped():
    frames, decoder = decode(b"\x00\xffnoise" + HELLO + b"junk\r\n" + STATE + b"tail")
    assert len(frames) == 2
    assert decoder.stats.garbage_bytes == len(b"\x00\xffnoise") + len(b"junk\r\n") + len(b"tail")


def test_garbage_inside_a_frame_fails_its_checksum():
    corrupted = STATE.replace(b"33000", b"93000")
    frames, decoder = decode(corrupted + HELLO)
    assert [type(f) for f in frames] == [Hello]
    assert decoder.stats.bad_crc == 1


def test_bad_crc_frame_with_wrong_points_is_never_returned():
    good = state_frame(5, (25000, 25000, 25000, 25000))
    wrong = bytearray(state_frame(6, (99900, 25000, 25000, 25000)))
    wrong[-3] ^= 0x01  # last CRC digit off
    frames, decoder = decode(good + bytes(wrong))
    assert all(99900 not in f.snapshot.points for f in frames)
    assert decoder.stats.bad_crc == 1 and decoder.stats.frames == 1


def test_a_cut_frame_is_dropped_and_the_next_frame_still_reads():
    frames, decoder = decode(STATE[:30] + HELLO)
    assert frames == [Hello(0, 812, "1.0.0", "DIY-ESP32", 4, 100000)]
    assert decoder.stats.malformed == 1


def test_a_bare_newline_ends_a_frame():
    frames, _ = decode(STATE[:-2] + b"\n" + HELLO[:-2] + b"\n")
    assert len(frames) == 2


def test_two_frames_in_one_read():
    frames, _ = decode(HELLO + STATE)
    assert len(frames) == 2


def test_an_overlong_line_is_garbage_even_with_a_valid_checksum():
    long_frame = encode_frame(7, 100, "S", ["4", "1", "2", "3", "4", "E1", "0", "0", "1", "0000", "x" * 200])
    assert len(long_frame) > MAX_FRAME_BYTES
    frames, decoder = decode(long_frame + HELLO)
    assert [type(f) for f in frames] == [Hello]
    assert decoder.stats.overlong == 1 and decoder.stats.frames == 1


def test_a_frame_of_exactly_160_bytes_is_accepted_and_161_is_not():
    def frame_of(length: int) -> bytes:
        base = encode_frame(1, 1, "D", ["PAD", "k="])
        return encode_frame(1, 1, "D", ["PAD", "k=" + "v" * (length - len(base))])

    assert len(frame_of(160)) == 160 and len(frame_of(161)) == 161
    frames, decoder = decode(frame_of(160), frame_of(161))
    assert len(frames) == 1 and decoder.stats.overlong == 1


def test_an_endless_line_never_grows_the_buffer():
    decoder = FrameDecoder()
    decoder.feed(b"$MJ1,")
    for _ in range(100):
        decoder.feed(b"A" * 1000)
        assert decoder.buffered <= MAX_FRAME_BYTES
    assert decoder.feed(b"\r\n" + HELLO)[0].seq == 0
    assert decoder.stats.overlong == 1


def test_unknown_types_and_extra_fields_are_accepted():
    frames, _ = decode(encode_frame(3, 9, "X", ["future"]) +
                       encode_frame(4, 10, "S", ["3", "1", "2", "3", "-", "-", "-", "-", "-", "extra", "more"]))
    assert frames[0] == Unknown(3, 9, "X", ("future",))
    assert frames[1] == State(4, 10, Snapshot((1, 2, 3), None, None, None, None, None))


def test_diagnostic_frame():
    frames, _ = decode(encode_frame(8, 1, "D", ["STICK_ERR", "seat=2"]))
    assert frames == [Diagnostic(8, 1, "STICK_ERR", {"seat": "2"})]


def test_negative_points_are_fine():
    frames, _ = decode(state_frame(1, (-1200, 40000, 31200, 30000)))
    assert frames[0].snapshot.points == (-1200, 40000, 31200, 30000)


def test_frames_with_bad_fields_are_malformed_not_errors():
    bad_bodies = [
        ["4", "1", "2", "3", "E1", "0", "0", "1", "0000"],             # a seat missing
        ["5", "1", "2", "3", "4", "5", "E1", "0", "0", "1", "00000"],  # five seats
        ["4", "1", "2", "3", "4", "Z9", "0", "0", "1", "0000"],        # no such round
        ["4", "1", "2", "3", "4", "E1", "0", "0", "5", "0000"],        # dealer seat 5
        ["4", "1", "2", "3", "4", "E1", "0", "0", "1", "010"],         # riichi mask too short
        ["4", "1", "x", "3", "4", "E1", "0", "0", "1", "0000"],        # points not a number
    ]
    data = b"".join(encode_frame(1, 1, "S", body) for body in bad_bodies)
    data += encode_frame(1, 1, "H", ["seats=7"]) + b"$MJ2,1,1,S*0000\r\n" + b"$MJ1,1,1,S\r\n"
    frames, decoder = decode(data)
    assert frames == []
    assert decoder.stats.malformed == len(bad_bodies) + 2 and decoder.stats.bad_crc == 1


def test_a_non_printable_body_is_malformed():
    frames, decoder = decode(b"$MJ1,1,1,S,\x01*0000\r\n")
    assert frames == [] and decoder.stats.malformed == 1


snapshots = st.builds(
    lambda pts, rnd, honba, sticks, dealer, mask: Snapshot(tuple(pts), rnd, honba, sticks, dealer, mask),
    st.lists(st.integers(-99999, 199999), min_size=4, max_size=4),
    st.sampled_from(["E1", "S4", None]), st.none() | st.integers(0, 20), st.none() | st.integers(0, 9),
    st.none() | st.integers(1, 4), st.none() | st.tuples(*[st.booleans()] * 4))
frames_st = st.builds(State, st.integers(0, 65535), st.integers(0, 2**32 - 1), snapshots)


# noise rich in the bytes that matter to framing, as well as any bytes at all
noise = st.binary(max_size=300) | st.lists(
    st.sampled_from([b"$", b"\n", b"\r", b"*", b"MJ1,", b"1,2,S,4", b"*31C3", b"x" * 170, b"\xff\xfe"]),
    max_size=12).map(b"".join)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(noise, frames_st), max_size=12), noise,
       st.lists(st.integers(1, 64), min_size=1, max_size=20))
def test_random_bytes_mixed_with_frames(pieces, tail, cuts):
    """Whatever surrounds them, every whole frame comes out, in order, and nothing else does."""
    stream = b"".join(noise + encode(frame) for noise, frame in pieces) + tail
    decoder = FrameDecoder()
    out, pos, i = [], 0, 0
    while pos < len(stream):  # fed in reads of random sizes
        size = cuts[i % len(cuts)]
        out += decoder.feed(stream[pos:pos + size])
        assert decoder.buffered <= MAX_FRAME_BYTES
        pos, i = pos + size, i + 1
    assert out == [frame for _, frame in pieces]
    assert decoder.stats.frames == len(pieces)
    whole = FrameDecoder()
    whole.feed(stream)
    assert whole.stats == decoder.stats  # how the reads were cut changes nothing


@settings(max_examples=150, deadline=None)
@given(noise | st.binary(max_size=2000))
def test_any_bytes_never_raise_and_stay_bounded(data):
    decoder = FrameDecoder()
    for start in range(0, len(data), 97):
        decoder.feed(data[start:start + 97])
        assert decoder.buffered <= MAX_FRAME_BYTES
    byte_by_byte = FrameDecoder()
    for i in range(len(data)):
        byte_by_byte.feed(data[i:i + 1])
    assert byte_by_byte.stats == decoder.stats


def test_every_frame_in_the_bridge_builders_guide_is_valid():
    import re
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[1] / "docs" / "table-link.md").read_text()
    lines = re.findall(r"^\$MJ1,\d\S+\*[0-9A-F]{4}$", guide, flags=re.MULTILINE)
    assert len(lines) >= 3
    frames, decoder = decode(*(line.encode() + b"\r\n" for line in lines))
    assert len(frames) == len(lines) and decoder.stats.bad_crc == 0
    assert "*5449" in guide and f"{crc16(b'MJ1,7,91500,S,4,25000,24000,25000,25000,E1,0,1,1,0100'):04X}" == "5449"


def test_parse_line_reads_one_line_and_names_what_is_wrong():
    import pytest

    from device.frames import BadFrame, parse_line

    assert parse_line(HELLO.rstrip(b"\n")) == Hello(0, 812, "1.0.0", "DIY-ESP32", 4, 100000)
    with pytest.raises(BadFrame) as no_dollar:
        parse_line(HELLO[1:].rstrip())
    assert no_dollar.value.kind == "malformed"
    with pytest.raises(BadFrame) as wrong_crc:
        parse_line(HELLO.rstrip().replace(b"*79BA", b"*79BB"))
    assert wrong_crc.value.kind == "bad_crc"
