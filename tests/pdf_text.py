"""Read back the text an fpdf2 PDF shows, as a viewer copies it: each `Tj` string through the
font it is set in (Helvetica's WinAnsi bytes, or an embedded font's ToUnicode map). Just enough
PDF for the settlement sheet's tests, so they need no PDF library."""
from __future__ import annotations

import re
import zlib

_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def objects(data: bytes) -> dict[int, bytes]:
    return {int(n): body for n, body in re.findall(rb"(?m)^(\d+) 0 obj\s*(.*?)\s*endobj", data, re.S)}


def stream(body: bytes) -> bytes:
    # The dictionary's /Length says where the data ends: compressed data may itself end in a
    # carriage return, which a search for the line before "endstream" would cut off.
    start = re.search(rb"stream\r?\n", body)
    length = int(re.search(rb"/Length (\d+)", body[:start.start()]).group(1))
    raw = body[start.end():start.end() + length]
    return zlib.decompress(raw) if b"/FlateDecode" in body[:start.start()] else raw


def pages(data: bytes) -> list[bytes]:
    return [body for body in objects(data).values() if re.search(rb"/Type /Page\b(?!s)", body)]


def _ref(body: bytes, key: bytes) -> int:
    return int(re.search(rb"/" + key + rb" (\d+) 0 R", body).group(1))


def fonts(data: bytes) -> dict[str, bytes]:
    """The page's font resources: name (F1, F2...) -> font dictionary."""
    found = objects(data)
    (page,) = pages(data)
    resources = found[_ref(page, b"Resources")]
    names = re.search(rb"/Font\s*<<(.*?)>>", resources, re.S).group(1)
    return {name.decode(): found[int(number)] for name, number in re.findall(rb"/(F\d+) (\d+) 0 R", names)}


def to_unicode(font: bytes, found: dict[int, bytes]) -> dict[int, str]:
    """An embedded font's codes -> the text each stands for."""
    cmap = stream(found[_ref(font, b"ToUnicode")]).decode("latin-1")
    return {int(code, 16): bytes.fromhex(text).decode("utf-16-be")
            for block in re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.S)
            for code, text in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block)}


def _unescape(literal: bytes) -> bytes:
    out, i = bytearray(), 0
    while i < len(literal):
        if literal[i:i + 1] != b"\\":
            out += literal[i:i + 1]
            i += 1
            continue
        octal = re.match(rb"[0-7]{1,3}", literal[i + 1:i + 4])
        if octal:
            out.append(int(octal.group(0), 8) & 0xFF)
            i += 1 + len(octal.group(0))
        else:
            out += _ESCAPES.get(literal[i + 1:i + 2], literal[i + 1:i + 2])
            i += 2
    return bytes(out)


def content(data: bytes) -> bytes:
    (page,) = pages(data)
    return stream(objects(data)[_ref(page, b"Contents")])


def lines(data: bytes) -> list[list[tuple[str, str]]]:
    """What the page shows, one list per text object (BT ... ET, one `Page.text` run or cell):
    (base font name, text) for each string in it, in drawing order."""
    found, resources = objects(data), fonts(data)
    maps: dict[str, dict[int, str]] = {}
    out: list[list[tuple[str, str]]] = []
    font = ""
    tokens = rb"(?<!\S)(BT)(?!\S)|/(F\d+) [\d.]+ Tf|\(((?:\\.|[^\\()])*)\) Tj"
    for begin, name, literal in re.findall(tokens, content(data), re.S):
        if begin:
            out.append([])
        elif name:
            font = name.decode()
        else:
            out[-1].append(_decode(_unescape(literal), resources[font], found, maps.setdefault(font, {})))
    return [line for line in out if line]


def _decode(raw: bytes, font: bytes, found: dict[int, bytes], cache: dict[int, str]) -> tuple[str, str]:
    base = re.search(rb"/BaseFont /(\S+)", font).group(1).decode()
    if b"/Identity-H" not in font:
        return base, raw.decode("cp1252")
    if not cache:
        cache.update(to_unicode(font, found))
    codes = [int.from_bytes(raw[i:i + 2], "big") for i in range(0, len(raw), 2)]
    assert 0 not in codes, f"{base} shows the missing-glyph box"
    return base, "".join(cache[code] for code in codes)


def shown(data: bytes) -> list[tuple[str, str]]:
    """(base font name, text) for every string the page shows, in drawing order."""
    return [part for line in lines(data) for part in line]


def text(data: bytes) -> str:
    """Everything the page shows, a line for each text object."""
    return "\n".join("".join(part for _, part in line) for line in lines(data))


def strokes(data: bytes) -> list[tuple[str, float, bool, list[tuple[float, float]]]]:
    """(colour as #rrggbb, line width, dashed, points from the top-left) for every stroked
    path, such as the chart's lines."""
    height = float(re.search(rb"/MediaBox \[0 0 [\d.]+ ([\d.]+)\]", b"".join(objects(data).values())).group(1))
    colour = rb"(?:([\d.]+) ([\d.]+) ([\d.]+) RG|([\d.]+) G)"
    path = rb"([\d.]+) w\s+(?:" + colour + rb"\s+)?(\[[\d. ]*\] [\d.]+ d\s+)?((?:[\d.]+ [\d.]+ [ml]\s+)+)S"
    out = []
    for width, r, g, b, grey, dash, points in re.findall(path, content(data)):
        rgb = (r, g, b) if r else (grey or b"0",) * 3     # no colour set: black
        hex_colour = "#" + "".join(f"{round(float(c) * 255):02x}" for c in rgb)
        xy = [(float(x), height - float(y)) for x, y in re.findall(rb"([\d.]+) ([\d.]+) [ml]", points)]
        out.append((hex_colour, float(width), bool(dash), xy))
    return out
