"""Sans-I/O stream decoder: bytes in, frames and counted errors out.

No port, no thread, no clock. It never raises on what the wire sends and never holds more than
one frame's worth of bytes: a `$` always starts a new frame (resynchronising after a cut one),
a line ends at `\\n` (an `\\r` before it is dropped), and a line longer than a frame is dropped
up to its end. Whole lines in one read are judged where they lie (the common case, and the
fast one); only a line split across reads is copied into the frame buffer, which stays bounded.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from device.frames import MAX_FRAME_BYTES, BadFrame, Frame, parse_after_dollar

# Bytes a frame may hold before its `\n`: `$` + body + `*` + CRC (+ `\r`).
_LINE_ROOM = MAX_FRAME_BYTES - 1

_HUNT, _FRAME, _SKIP = 0, 1, 2


@dataclass
class DecoderStats:
    frames: int = 0         # valid frames, unknown types included
    bad_crc: int = 0        # well-formed lines whose checksum failed (never trusted)
    malformed: int = 0      # lines from `$` that are not frames, cut frames included
    overlong: int = 0       # lines from `$` longer than 160 bytes
    garbage_bytes: int = 0  # bytes outside any frame

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


class FrameDecoder:
    def __init__(self) -> None:
        self.stats = DecoderStats()
        self._buf = bytearray()
        self._state = _HUNT

    @property
    def buffered(self) -> int:
        """Bytes held for an unfinished frame (never more than 160)."""
        return len(self._buf)

    def reset(self) -> None:
        """Forget a partial frame (the port closed under it); it counts as a cut frame."""
        if self._state == _FRAME:
            self.stats.malformed += 1
        self._buf.clear()
        self._state = _HUNT

    def feed(self, data: bytes) -> list[Frame]:
        frames: list[Frame] = []
        pos, end = 0, len(data)
        while pos < end:
            if self._state == _HUNT:
                last_nl = data.rfind(b"\n", pos, end)
                if last_nl >= 0:  # the usual case: whole lines in this read, taken where they lie
                    for line in data[pos:last_nl].split(b"\n"):
                        self._whole_line(line, frames)
                    pos = last_nl + 1
                    continue
                start = data.find(b"$", pos)
                if start < 0:
                    self.stats.garbage_bytes += end - pos
                    break
                self.stats.garbage_bytes += start - pos
                self._buf.clear()
                self._buf.append(0x24)
                self._state = _FRAME
                pos = start + 1
            elif self._state == _FRAME:
                pos = self._take_frame_bytes(data, pos, end, frames)
            else:  # _SKIP: the tail of an overlong line, up to its end or the next `$`
                stop = _first_of(data, pos, end)
                if stop < 0:
                    break
                self._state = _HUNT
                pos = stop if data[stop] == 0x24 else stop + 1  # a `$` starts the next frame
        return frames

    def _whole_line(self, line: bytes, frames: list[Frame]) -> None:
        """A complete line met from the hunting state: the same verdicts as byte by byte."""
        pieces = line.split(b"$")
        if len(pieces) == 1:
            self.stats.garbage_bytes += len(line) + 1  # its `\n` too
            return
        self.stats.garbage_bytes += len(pieces[0])
        for cut in pieces[1:-1]:  # each ended by the next `$`
            if len(cut) >= _LINE_ROOM:
                self.stats.overlong += 1
            else:
                self.stats.malformed += 1
        last = pieces[-1]
        if len(last) >= _LINE_ROOM:
            self.stats.overlong += 1
        else:
            self._emit(last, frames)

    def _take_frame_bytes(self, data: bytes, pos: int, end: int, frames: list[Frame]) -> int:
        stop = _first_of(data, pos, end)
        room = _LINE_ROOM - len(self._buf)
        upto = end if stop < 0 else stop
        if upto - pos > room:
            self.stats.overlong += 1
            self._buf.clear()
            self._state = _SKIP
            return pos + room
        self._buf += data[pos:upto]
        if stop < 0:
            return end
        if data[stop] == 0x24:  # a new frame began before this one ended: this one was cut
            self.stats.malformed += 1
            self._buf.clear()
            self._state = _HUNT
            return stop
        self._finish_line(frames)
        return stop + 1

    def _finish_line(self, frames: list[Frame]) -> None:
        rest = bytes(self._buf[1:])
        self._buf.clear()
        self._state = _HUNT
        self._emit(rest, frames)

    def _emit(self, rest: bytes, frames: list[Frame]) -> None:
        """Judge a line from just after its `$` to before its `\n`."""
        try:
            frames.append(parse_after_dollar(rest))
        except BadFrame as bad:
            if bad.kind == "bad_crc":
                self.stats.bad_crc += 1
            else:
                self.stats.malformed += 1
            return
        self.stats.frames += 1


def _first_of(data: bytes, pos: int, end: int) -> int:
    """Index of the first `\\n` or `$` at or after pos, or -1."""
    nl = data.find(b"\n", pos, end)
    dollar = data.find(b"$", pos, end if nl < 0 else nl)
    return dollar if dollar >= 0 else nl
