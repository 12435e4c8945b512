"""Table-link frames (protocol MJ1): what a frame holds, and how it is written and checked.

Both the host's decoder and the simulated table use `encode_frame` and `crc16`, so the two
sides can never disagree on the format. See docs/table-link.md.
"""
from __future__ import annotations

import binascii
import re
from dataclasses import dataclass, field

PROTOCOL_ID = "MJ1"
MAX_FRAME_BYTES = 160  # `$` and the line ending included
SEQ_MODULUS = 1 << 16
DEV_MS_MODULUS = 1 << 32
ROUNDS = tuple(f"{wind}{n}" for wind in "ESWN" for n in range(1, 5))


def crc16(body: bytes) -> int:
    """CRC-16/XMODEM, the frame checksum (check value of b"123456789" is 0x31C3)."""
    return binascii.crc_hqx(body, 0)


@dataclass(slots=True)
class Hello:
    seq: int
    dev_ms: int
    fw: str | None = None
    model: str | None = None
    seats: int | None = None
    total: int | None = None


@dataclass(slots=True)
class Snapshot:
    """What the table shows: points in each drawer, seats in table order from the first East."""
    points: tuple[int, ...]
    round: str | None = None      # "E1".."N4", None when the table cannot tell
    honba: int | None = None
    sticks: int | None = None     # riichi sticks on the table
    dealer: int | None = None     # seat 1..n
    riichi: tuple[bool, ...] | None = None

    @property
    def seats(self) -> int:
        return len(self.points)


@dataclass(slots=True)
class State:
    seq: int
    dev_ms: int
    snapshot: Snapshot


@dataclass(slots=True)
class Diagnostic:
    seq: int
    dev_ms: int
    code: str
    fields: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class Unknown:
    """A valid frame of a type this host does not know; it still proves the link is alive."""
    seq: int
    dev_ms: int
    type: str
    fields: tuple[str, ...] = ()


Frame = Hello | State | Diagnostic | Unknown


# ---------------------------------------------------------------- writing

def encode_frame(seq: int, dev_ms: int, type_: str, fields: list[str] | tuple[str, ...] = ()) -> bytes:
    body = ",".join([PROTOCOL_ID, str(seq % SEQ_MODULUS), str(dev_ms % DEV_MS_MODULUS), type_, *fields])
    raw = body.encode("ascii")
    return b"$" + raw + b"*" + f"{crc16(raw):04X}".encode("ascii") + b"\r\n"


def hello_fields(fw: str, model: str, seats: int, total: int) -> list[str]:
    return [f"fw={fw}", f"model={model}", f"seats={seats}", f"total={total}"]


def snapshot_fields(snap: Snapshot) -> list[str]:
    def opt(value: object) -> str:
        return "-" if value is None else str(value)

    riichi = "-" if snap.riichi is None else "".join("1" if r else "0" for r in snap.riichi)
    return [str(snap.seats), *(str(p) for p in snap.points),
            opt(snap.round), opt(snap.honba), opt(snap.sticks), opt(snap.dealer), riichi]


def encode(frame: Frame) -> bytes:
    if isinstance(frame, Hello):
        fields = [f"{k}={v}" for k, v in (("fw", frame.fw), ("model", frame.model),
                                           ("seats", frame.seats), ("total", frame.total)) if v is not None]
        return encode_frame(frame.seq, frame.dev_ms, "H", fields)
    if isinstance(frame, State):
        return encode_frame(frame.seq, frame.dev_ms, "S", snapshot_fields(frame.snapshot))
    if isinstance(frame, Diagnostic):
        return encode_frame(frame.seq, frame.dev_ms, "D", [frame.code, *(f"{k}={v}" for k, v in frame.fields.items())])
    return encode_frame(frame.seq, frame.dev_ms, frame.type, frame.fields)


# ---------------------------------------------------------------- reading one line

class BadFrame(Exception):
    """A line that is not a readable frame; `kind` is the counter it belongs to."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind  # "bad_crc" or "malformed"


_ROUND_SET = frozenset(ROUNDS)
_RIICHI_MASKS = {format(bits, f"0{n}b"): tuple(c == "1" for c in format(bits, f"0{n}b"))
                 for n in (3, 4) for bits in range(2 ** n)}
_SEAT_COUNTS = {"3": 3, "4": 4}
_DEALERS = {n: {"-": None, **{str(seat): seat for seat in range(1, n + 1)}} for n in (3, 4)}
_SMALL_COUNTS: dict[str, int | None] = {"-": None, **{str(i): i for i in range(100)}}
# `$`, a body of printable ASCII without `$` or `*`, `*`, four hex digits
# after the `$`: a body of printable ASCII without `$` or `*`, `*`, four hex digits, maybe `\r`
_AFTER_DOLLAR = re.compile(rb"([\x20-\x23\x25-\x29\x2b-\x7e]*)\*([0-9A-Fa-f]{4})\r?")


def parse_line(line: bytes) -> Frame:
    """Check and read one line (from `$` up to, not including, the `\n`)."""
    if not line.startswith(b"$"):
        raise BadFrame("malformed", "a frame starts with $")
    return parse_after_dollar(line[1:])


def parse_after_dollar(rest: bytes) -> Frame:
    """Check and read a frame from just after its `$` up to, not including, the `\n`."""
    match = _AFTER_DOLLAR.fullmatch(rest)
    if match is None:
        raise BadFrame("malformed", "not a <printable body>*<4 hex digits> line")
    body = match.group(1)
    # crc16 spelled out: a call less per frame on the parser's hot path (bench/table_link.py)
    if int(match.group(2), 16) != binascii.crc_hqx(body, 0):
        raise BadFrame("bad_crc", "checksum does not match")
    return _parse_body(body.decode("ascii").split(","))


def _int(text: str, low: int | None = None, high: int | None = None) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise BadFrame("malformed", f"{text!r} is not a number") from None
    if (low is not None and value < low) or (high is not None and value > high):
        raise BadFrame("malformed", f"{value} out of range")
    return value


def _opt_int(text: str, low: int | None = None, high: int | None = None) -> int | None:
    return None if text == "-" else _int(text, low, high)


def _parse_body(parts: list[str]) -> Frame:
    if len(parts) < 4 or parts[0] != PROTOCOL_ID:
        raise BadFrame("malformed", "not an MJ1 frame")
    try:
        seq, dev_ms = int(parts[1]), int(parts[2])
    except ValueError:
        raise BadFrame("malformed", "seq and uptime must be numbers") from None
    if not (0 <= seq < SEQ_MODULUS and 0 <= dev_ms < DEV_MS_MODULUS):
        raise BadFrame("malformed", "seq or uptime out of range")
    type_, fields = parts[3], parts[4:]
    if type_ == "H":
        return _parse_hello(seq, dev_ms, fields)
    if type_ == "S":
        return State(seq, dev_ms, _parse_snapshot(fields))
    if type_ == "D":
        if not fields or not fields[0]:
            raise BadFrame("malformed", "diagnostic without a code")
        return Diagnostic(seq, dev_ms, fields[0], _key_values(fields[1:]))
    return Unknown(seq, dev_ms, type_, tuple(fields))


def _key_values(fields: list[str]) -> dict[str, str]:
    return dict(f.split("=", 1) for f in fields if "=" in f)


def _parse_hello(seq: int, dev_ms: int, fields: list[str]) -> Hello:
    kv = _key_values(fields)
    seats = _opt_int(kv["seats"]) if "seats" in kv else None
    if seats is not None and seats not in (3, 4):
        raise BadFrame("malformed", "a table has 3 or 4 seats")
    total = _int(kv["total"], 0) if "total" in kv else None
    return Hello(seq, dev_ms, kv.get("fw"), kv.get("model"), seats, total)


def _parse_snapshot(fields: list[str]) -> Snapshot:
    n = _SEAT_COUNTS.get(fields[0]) if fields else None
    if n is None:
        raise BadFrame("malformed", "a table has 3 or 4 seats")
    if len(fields) < 1 + n + 5:
        raise BadFrame("malformed", "state frame is missing fields")
    try:
        points = tuple(map(int, fields[1:1 + n]))
    except ValueError:
        raise BadFrame("malformed", "points are not numbers") from None
    round_, honba, sticks, dealer, riichi = fields[1 + n:1 + n + 5]
    if round_ != "-" and round_ not in _ROUND_SET:
        raise BadFrame("malformed", f"unknown round {round_!r}")
    mask = None
    if riichi != "-":
        mask = _RIICHI_MASKS.get(riichi)
        if mask is None or len(mask) != n:
            raise BadFrame("malformed", "riichi mask must be one 0/1 digit a seat")
    if dealer not in _DEALERS[n]:
        raise BadFrame("malformed", f"dealer {dealer!r} is not a seat")
    # honba and riichi sticks are small numbers: looked up, as frames come often
    honba_n = _SMALL_COUNTS.get(honba, -1)
    sticks_n = _SMALL_COUNTS.get(sticks, -1)
    return Snapshot(points, None if round_ == "-" else round_,
                    _opt_int(honba, 0) if honba_n == -1 else honba_n,
                    _opt_int(sticks, 0) if sticks_n == -1 else sticks_n, _DEALERS[n][dealer], mask)
