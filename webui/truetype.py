"""Just enough of a TrueType font (.ttf, or one face of a .ttc) to embed a subset in a PDF.

The settlement PDF sets Japanese names and labels in a CJK font found on the system; a whole
CJK font is megabytes, so only the glyphs a sheet uses are kept. The subset keeps every glyph
number (the PDF addresses glyphs by number, CIDToGIDMap /Identity) and empties the glyphs not
used, which is what makes it small. Only fonts with TrueType outlines (`glyf`) are read; a font
with CFF outlines (most .otf, Noto CJK) is refused with `FontError`.
"""
from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass, field

# tables a PDF viewer needs from an embedded TrueType program (PDF 32000-1, 9.9), plus a cmap
# and OS/2 for the pickier ones; `loca` and `glyf` are rebuilt
_KEPT = ("head", "hhea", "maxp", "hmtx", "cvt ", "fpgm", "prep", "OS/2")

# glyf composite flags
_ARGS_ARE_WORDS, _HAS_SCALE, _MORE, _HAS_XY_SCALE, _HAS_2X2 = 0x0001, 0x0008, 0x0020, 0x0040, 0x0080


class FontError(ValueError):
    """The file is not a TrueType font this module can embed."""


@dataclass(frozen=True, eq=False)    # one object per font file: compared and hashed by identity
class TrueTypeFont:
    path: str
    name: str                          # PostScript name, safe as a PDF name
    units_per_em: int
    bbox: tuple[int, int, int, int]    # in font units
    ascent: int
    descent: int
    cap_height: int
    embeddable: bool                   # OS/2 fsType allows embedding in a document
    glyph_of: dict[int, int] = field(repr=False)     # code point -> glyph number
    advances: tuple[int, ...] = field(repr=False)    # per glyph, font units
    tables: dict[str, bytes] = field(repr=False)
    long_loca: bool = False

    def glyph(self, char: str) -> int:
        """The glyph for a character; 0 (the font's "missing" box) when it has none."""
        return self.glyph_of.get(ord(char), 0)

    def width(self, glyph: int) -> int:
        """Advance width in thousandths of the font size, as PDF widths are given."""
        advance = self.advances[min(glyph, len(self.advances) - 1)]
        return round(advance * 1000 / self.units_per_em)

    def scaled(self, value: int) -> int:
        return round(value * 1000 / self.units_per_em)

    def subset(self, glyphs: Iterable[int], chars: dict[int, str] | None = None) -> bytes:
        """The font file with only `glyphs` (and the pieces of composite ones) drawn; `chars`
        (glyph -> character) gives the small cmap some viewers want."""
        keep = self._with_components({0, *glyphs})
        glyf, loca = bytearray(), []
        for glyph in range(len(self.advances)):
            loca.append(len(glyf))
            if glyph in keep:
                glyf += self._glyph_data(glyph)
                glyf += b"\0" * (-len(glyf) % 4)
        loca.append(len(glyf))
        tables = {tag: self.tables[tag] for tag in _KEPT if tag in self.tables}
        head = bytearray(tables["head"])
        head[8:12] = b"\0\0\0\0"                      # checkSumAdjustment, set below
        head[50:52] = struct.pack(">h", 1)            # long loca offsets
        tables["head"] = bytes(head)
        tables["loca"] = struct.pack(f">{len(loca)}I", *loca)
        tables["glyf"] = bytes(glyf)
        tables["cmap"] = _cmap(chars or {})
        return _sfnt(tables)

    def _glyph_data(self, glyph: int) -> bytes:
        loca, glyf = self.tables["loca"], self.tables["glyf"]
        if self.long_loca:
            start, end = struct.unpack_from(">2I", loca, glyph * 4)
        else:
            start, end = (2 * v for v in struct.unpack_from(">2H", loca, glyph * 2))
        return glyf[start:end] if end > start else b""

    def _with_components(self, glyphs: set[int]) -> set[int]:
        """Composite glyphs (an accented kana, say) are drawn from others: keep those too."""
        todo, seen = list(glyphs), set()
        while todo:
            glyph = todo.pop()
            if glyph in seen or glyph >= len(self.advances):
                continue
            seen.add(glyph)
            data = self._glyph_data(glyph)
            if len(data) < 10 or struct.unpack_from(">h", data)[0] >= 0:
                continue
            at = 10
            while at + 4 <= len(data):
                flags, part = struct.unpack_from(">HH", data, at)
                todo.append(part)
                at += 4 + (4 if flags & _ARGS_ARE_WORDS else 2)
                at += 2 if flags & _HAS_SCALE else 4 if flags & _HAS_XY_SCALE else 8 if flags & _HAS_2X2 else 0
                if not flags & _MORE:
                    break
        return seen


def load(path: str, face: int = 0) -> TrueTypeFont:
    """Read a font file; raises FontError when it is not one with TrueType outlines, OSError
    when it cannot be read."""
    with open(path, "rb") as fh:
        data = fh.read()
    try:
        tables = _tables(data, face)
        return _font(path, tables)
    except (struct.error, KeyError, IndexError) as error:
        raise FontError(f"{path}: not a TrueType font this can read ({error})") from None


def _tables(data: bytes, face: int) -> dict[str, bytes]:
    start = 0
    if data[:4] == b"ttcf":
        count = struct.unpack_from(">I", data, 8)[0]
        if face >= count:
            raise FontError(f"the collection has {count} fonts")
        start = struct.unpack_from(">I", data, 12 + 4 * face)[0]
    version = data[start:start + 4]
    if version == b"OTTO":
        raise FontError("the font has CFF outlines; only TrueType outlines are embedded")
    if version not in (b"\x00\x01\x00\x00", b"true"):
        raise FontError("not a TrueType font")
    count = struct.unpack_from(">H", data, start + 4)[0]
    tables = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack_from(">4sIII", data, start + 12 + 16 * i)
        tables[tag.decode("latin-1")] = data[offset:offset + length]
    missing = {"head", "hhea", "maxp", "hmtx", "loca", "glyf", "cmap"} - set(tables)
    if missing:
        raise FontError(f"the font lacks {', '.join(sorted(missing))}")
    return tables


def _font(path: str, tables: dict[str, bytes]) -> TrueTypeFont:
    head, hhea = tables["head"], tables["hhea"]
    units = struct.unpack_from(">H", head, 18)[0]
    bbox = struct.unpack_from(">4h", head, 36)
    long_loca = struct.unpack_from(">h", head, 50)[0] == 1
    ascent, descent = struct.unpack_from(">2h", hhea, 4)
    metrics = struct.unpack_from(">H", hhea, 34)[0]
    glyphs = struct.unpack_from(">H", tables["maxp"], 4)[0]
    advances = struct.unpack_from(f">{metrics * 2}H", tables["hmtx"])[0::2]
    advances = advances + (advances[-1],) * (glyphs - metrics)
    os2 = tables.get("OS/2", b"")
    fs_type = struct.unpack_from(">H", os2, 8)[0] if len(os2) >= 10 else 0
    # 0x0002: restricted licence; 0x0200: bitmaps only. Either forbids embedding the outlines.
    embeddable = not fs_type & 0x0002 and not fs_type & 0x0200
    cap = struct.unpack_from(">h", os2, 88)[0] if len(os2) >= 90 else ascent
    return TrueTypeFont(path, _postscript_name(tables.get("name", b"")), units, bbox, ascent, descent, cap,
                        embeddable, _code_points(tables["cmap"]), advances, tables, long_loca)


def _code_points(cmap: bytes) -> dict[int, int]:
    """The font's character map, from its best Unicode subtable (format 12, else format 4)."""
    count = struct.unpack_from(">H", cmap, 2)[0]
    found: dict[int, int] = {}
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", cmap, 4 + 8 * i)
        if (platform, encoding) not in ((3, 10), (3, 1), (0, 3), (0, 4), (0, 6)):
            continue
        kind = struct.unpack_from(">H", cmap, offset)[0]
        if kind == 12:
            return _format12(cmap, offset)
        if kind == 4 and not found:
            found = _format4(cmap, offset)
    if not found:
        raise FontError("the font has no Unicode character map")
    return found


def _format12(cmap: bytes, at: int) -> dict[int, int]:
    groups = struct.unpack_from(">I", cmap, at + 12)[0]
    out = {}
    for i in range(groups):
        first, last, glyph = struct.unpack_from(">3I", cmap, at + 16 + 12 * i)
        for code in range(first, last + 1):
            out[code] = glyph + code - first
    return out


def _format4(cmap: bytes, at: int) -> dict[int, int]:
    segments = struct.unpack_from(">H", cmap, at + 6)[0] // 2
    ends = struct.unpack_from(f">{segments}H", cmap, at + 14)
    starts = struct.unpack_from(f">{segments}H", cmap, at + 16 + 2 * segments)
    deltas = struct.unpack_from(f">{segments}h", cmap, at + 16 + 4 * segments)
    ranges_at = at + 16 + 6 * segments
    ranges = struct.unpack_from(f">{segments}H", cmap, ranges_at)
    out = {}
    for i, (first, last, delta, rng) in enumerate(zip(starts, ends, deltas, ranges)):
        for code in range(first, min(last, 0xFFFE) + 1):
            if rng == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                glyph = struct.unpack_from(">H", cmap, ranges_at + 2 * i + rng + 2 * (code - first))[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                out[code] = glyph
    return out


def _postscript_name(table: bytes) -> str:
    """Name ID 6, reduced to what a PDF name may hold without escapes."""
    name = ""
    if len(table) >= 6:
        count, strings = struct.unpack_from(">HH", table, 2)
        for i in range(count):
            platform, _, _, name_id, length, offset = struct.unpack_from(">6H", table, 6 + 12 * i)
            if name_id != 6:
                continue
            raw = table[strings + offset:strings + offset + length]
            name = raw.decode("utf-16-be", "ignore") if platform in (0, 3) else raw.decode("latin-1")
            break
    name = "".join(c for c in name if c.isascii() and (c.isalnum() or c == "-"))
    return name or "CJKFont"


def _cmap(chars: dict[int, str]) -> bytes:
    """A Unicode cmap for the kept glyphs: format 4 (one segment a character) for the basic
    plane, and format 12 beside it when a character lies beyond."""
    pairs = sorted((ord(c), glyph) for glyph, c in chars.items() if len(c) == 1)
    basic = [(code, glyph) for code, glyph in pairs if code < 0xFFFF] + [(0xFFFF, 0)]
    n = len(basic)
    search = 2 ** (n.bit_length() - 1)
    ends = [code for code, _ in basic]
    deltas = [(glyph - code) % 65536 if code != 0xFFFF else 1 for code, glyph in basic]
    body = struct.pack(f">{n}H", *ends) + b"\0\0" + struct.pack(f">{n}H", *ends) \
        + struct.pack(f">{n}H", *deltas) + struct.pack(f">{n}H", *([0] * n))
    fmt4 = struct.pack(">7H", 4, 14 + len(body), 0, 2 * n, 2 * search, search.bit_length() - 1, 2 * (n - search)) + body
    subtables = [((3, 1), fmt4)]
    if any(code > 0xFFFF for code, _ in pairs):
        groups = b"".join(struct.pack(">3I", code, code, glyph) for code, glyph in pairs)
        subtables.append(((3, 10), struct.pack(">HHIII", 12, 0, 16 + len(groups), 0, len(pairs)) + groups))
    out = struct.pack(">HH", 0, len(subtables))
    offset = 4 + 8 * len(subtables)
    for (platform, encoding), sub in subtables:
        out += struct.pack(">HHI", platform, encoding, offset)
        offset += len(sub)
    return out + b"".join(sub for _, sub in subtables)


def _checksum(data: bytes) -> int:
    data += b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(data) // 4}I", data)) & 0xFFFFFFFF


def _sfnt(tables: dict[str, bytes]) -> bytes:
    tags = sorted(tables)
    n = len(tags)
    search = 2 ** (n.bit_length() - 1)
    directory = struct.pack(">IHHHH", 0x00010000, n, search * 16, search.bit_length() - 1, n * 16 - search * 16)
    offset = 12 + 16 * n
    body = b""
    for tag in tags:
        data = tables[tag]
        directory += struct.pack(">4sIII", tag.encode("latin-1"), _checksum(data), offset + len(body), len(data))
        body += data + b"\0" * (-len(data) % 4)
    font = bytearray(directory + body)
    head_at = offset + sum(len(tables[t]) + (-len(tables[t]) % 4) for t in tags[:tags.index("head")])
    struct.pack_into(">I", font, head_at + 8, (0xB1B0AFBA - _checksum(bytes(font))) & 0xFFFFFFFF)
    return bytes(font)
