"""Wire faults the simulated table injects on request, as pure byte makers.

The bridge's own byte-level mistakes: noise, a frame whose checksum fails (carrying wrong
points, which the host must never show), a frame cut short, a line too long to be a frame,
bytes sent at another baud rate. Flood, silence and restart are timing faults the simulator
plays itself.
"""
from __future__ import annotations

import random
from dataclasses import replace

from device.frames import Snapshot, encode_frame, snapshot_fields

FAULTS = ("garbage", "badcrc", "cut", "overlong", "flood", "silence", "restart")


def garbage(rng: random.Random) -> bytes:
    """Line noise: printable junk, control bytes, a stray line end, or another baud rate's bytes."""
    kind = rng.randrange(4)
    size = rng.randint(1, 120)
    if kind == 0:
        return bytes(rng.randrange(0x20, 0x7F) for _ in range(size)).replace(b"$", b"#")
    if kind == 1:
        return bytes(rng.randrange(0x80, 0x100) for _ in range(size))  # wrong baud rate
    if kind == 2:
        return b"\r\n" + bytes(rng.randrange(0, 0x100) for _ in range(size)) + b"\n"
    return b"MJ1,12,3,S,4*00\r\n*FFFF\r\n"  # pieces of frames without their `$`


def wrong_points(snapshot: Snapshot, rng: random.Random) -> Snapshot:
    """Points no honest reading shows, so a test can see they never get through."""
    seat = rng.randrange(snapshot.seats)
    points = tuple(99900 if i == seat else p for i, p in enumerate(snapshot.points))
    return replace(snapshot, points=points)


def bad_crc(frame: bytes) -> bytes:
    """The same frame with its checksum off by one bit."""
    star = frame.rindex(b"*")
    crc = int(frame[star + 1:star + 5], 16) ^ 0x0001
    return frame[:star + 1] + f"{crc:04X}".encode() + frame[star + 5:]


def cut(frame: bytes, rng: random.Random) -> bytes:
    """The frame stops part-way (a bridge reset mid-line, a loose wire); no line end follows."""
    return frame[:rng.randint(2, len(frame) - 3)]


def overlong(seq: int, dev_ms: int, snapshot: Snapshot) -> bytes:
    """A line with a valid checksum but longer than any frame may be: garbage by the protocol."""
    fields = snapshot_fields(snapshot) + ["x" * 40] * 5
    return encode_frame(seq, dev_ms, "S", fields)
