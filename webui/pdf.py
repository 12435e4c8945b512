"""A small PDF writer: one or more A4 pages of text, lines, rectangles and polylines.

Enough for the settlement sheet and no more, so the app needs no PDF library. Latin text is
set in the base-14 Helvetica; text with Japanese (or any character outside Windows-1252) in a
CJK font found on the system, of which the glyphs used are embedded (`pdf_fonts`), a character
it lacks in the first other CJK font that has it, or, with none found, in Adobe-Japan1's
HeiseiKakuGo-W5 by reference.
Coordinates are in points from the top-left corner, like the screen, and flipped on output.
"""
from __future__ import annotations

import zlib
from collections.abc import Callable
from itertools import groupby
from dataclasses import dataclass, field

from .pdf_fonts import add_embedded, add_reference, cjk_font, fallbacks
from .truetype import TrueTypeFont

A4 = (595.28, 841.89)

# Helvetica advance widths (per 1000 em) for the characters the sheet sets; others ~ 556.
_HELVETICA = {" ": 278, ",": 278, ".": 278, "-": 333, "+": 584, ":": 278, "/": 278, "(": 333, ")": 333,
              "%": 889, "×": 584, "'": 191, "#": 556, "&": 667, "=": 584, "|": 260, "i": 222, "l": 222,
              "j": 222, "t": 278, "f": 278, "r": 333, "I": 278, "m": 833, "w": 722, "M": 833, "W": 944}
_HELVETICA_BOLD = {**_HELVETICA, "i": 278, "l": 278, "j": 278, "t": 333, "f": 333, "r": 389, "m": 889}


def _is_latin(text: str) -> bool:
    """True when Helvetica can set it: the text fits the Windows-1252 (WinAnsi) encoding."""
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def runs(text: str) -> list[tuple[bool, str]]:
    """Split text into (latin, part) runs, so only the Japanese parts use the CJK font."""
    return [(latin, "".join(chars)) for latin, chars in groupby(text, _is_latin)]


def text_width(text: str, size: float, bold: bool = False,
               font_for: Callable[[str], TrueTypeFont | None] = lambda c: None) -> float:
    """The width in points; `font_for` names the font that draws a wide character (None: the
    font by reference, whose characters are all 1 em wide)."""
    table = _HELVETICA_BOLD if bold else _HELVETICA

    def wide(c: str) -> int:
        font = font_for(c)
        return font.width(font.glyph(c)) if font is not None else 1000
    return sum((table.get(c, 556) if _is_latin(c) else wide(c)) for c in text) * size / 1000


def _latin_literal(text: str) -> str:
    raw = text.encode("cp1252")
    escaped = "".join(f"\\{b:03o}" if b > 126 or b < 32 else ("\\" + chr(b) if chr(b) in "()\\" else chr(b))
                      for b in raw)
    return f"({escaped})"


def _rgb(colour: str) -> tuple[float, float, float]:
    colour = colour.lstrip("#")
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


@dataclass
class Page:
    width: float = A4[0]
    height: float = A4[1]
    ops: list[str] = field(default_factory=list)
    cjk: TrueTypeFont | None = field(default_factory=cjk_font)   # None: the font by reference
    # the wide fonts this page sets text in -> their resource names (F3, F4, ...), and the
    # glyphs used of each embedded one -> the character each draws
    fonts: dict[TrueTypeFont | None, str] = field(default_factory=dict)
    glyphs: dict[TrueTypeFont, dict[int, str]] = field(default_factory=dict)

    def font_for(self, char: str) -> TrueTypeFont | None:
        """The font that draws a wide character: the chosen one, else a fallback that has it
        (with none, the chosen one's missing-glyph box)."""
        if self.cjk is None or self.cjk.glyph(char):
            return self.cjk
        return fallbacks().font_for(char, self.cjk) or self.cjk

    def _font_runs(self, part: str) -> list[tuple[TrueTypeFont | None, str]]:
        """Split wide text into runs drawn by one font each (fonts compare by identity)."""
        return [(font, "".join(chars)) for font, chars in groupby(part, self.font_for)]

    def text(self, x: float, y: float, text: str, size: float = 10, bold: bool = False,
             align: str = "left", colour: str = "#000000") -> None:
        """`y` is the baseline, from the top."""
        if not text:
            return
        width = text_width(text, size, bold, self.font_for)
        if align == "right":
            x -= width
        elif align == "center":
            x -= width / 2
        r, g, b = _rgb(colour)
        shows, thickened = [], False
        for latin, part in runs(text):
            if latin:
                shows.append(f"/{'F2' if bold else 'F1'} {size:.2f} Tf {_latin_literal(part)} Tj")
                continue
            # one weight of the CJK font: bold is drawn by stroking the outline as well
            thicken = f"2 Tr {size / 30:.2f} w " if bold else ""
            thickened |= bold
            for font, chars in self._font_runs(part):
                name = self.fonts.setdefault(font, f"F{3 + len(self.fonts)}")
                shows.append(f"/{name} {size:.2f} Tf {thicken}<{self._wide_codes(font, chars)}> Tj"
                             + (" 0 Tr" if bold else ""))
        text_object = (f"BT {r:.3f} {g:.3f} {b:.3f} rg {r:.3f} {g:.3f} {b:.3f} RG "
                       f"{x:.2f} {self.height - y:.2f} Td {' '.join(shows)} ET")
        # the outline's width is graphics state: kept to this text
        self.ops.append(f"q {text_object} Q" if thickened else text_object)

    def _wide_codes(self, font: TrueTypeFont | None, part: str) -> str:
        """The run as the font's codes: glyph numbers when embedded, else UCS-2."""
        if font is None:
            return part.encode("utf-16-be").hex().upper()
        used = self.glyphs.setdefault(font, {})
        codes = []
        for char in part:
            glyph = font.glyph(char)
            used.setdefault(glyph, char)
            codes.append(f"{glyph:04X}")
        return "".join(codes)

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = 0.5,
             colour: str = "#000000", dash: tuple[float, float] | None = None) -> None:
        self.polyline([(x1, y1), (x2, y2)], width, colour, dash)

    def polyline(self, points: list[tuple[float, float]], width: float = 1.0, colour: str = "#000000",
                 dash: tuple[float, float] | None = None) -> None:
        if len(points) < 2:
            return
        r, g, b = _rgb(colour)
        path = " ".join(f"{x:.2f} {self.height - y:.2f} {'m' if i == 0 else 'l'}" for i, (x, y) in enumerate(points))
        dashing = f"[{dash[0]:.1f} {dash[1]:.1f}] 0 d " if dash else ""
        self.ops.append(f"q {r:.3f} {g:.3f} {b:.3f} RG {width:.2f} w 1 j 1 J {dashing}{path} S Q")

    def rect(self, x: float, y: float, w: float, h: float, fill: str | None = None,
             stroke: str | None = None, width: float = 0.5) -> None:
        parts = ["q"]
        if fill:
            parts.append("{:.3f} {:.3f} {:.3f} rg".format(*_rgb(fill)))
        if stroke:
            parts.append("{:.3f} {:.3f} {:.3f} RG {:.2f} w".format(*_rgb(stroke), width))
        parts.append(f"{x:.2f} {self.height - y - h:.2f} {w:.2f} {h:.2f} re")
        parts.append("B" if fill and stroke else "f" if fill else "S")
        parts.append("Q")
        self.ops.append(" ".join(parts))


def _wide_fonts(add, pages: list[Page]) -> dict[TrueTypeFont | None, int]:
    """One font object for each wide font the pages use, with the glyphs of all of them."""
    objects: dict[TrueTypeFont | None, int] = {}
    for font in (font for page in pages for font in page.fonts):
        if font in objects:
            continue
        if font is None:
            objects[font] = add_reference(add)
            continue
        glyphs: dict[int, str] = {}
        for page in pages:
            for glyph, char in page.glyphs.get(font, {}).items():
                glyphs.setdefault(glyph, char)
        objects[font] = add_embedded(add, font, glyphs)
    return objects


def render(pages: list[Page], title: str = "") -> bytes:
    """The PDF file for these pages."""
    objects: list[bytes] = []

    def add(body: bytes | str) -> int:
        objects.append(body.encode("latin-1") if isinstance(body, str) else body)
        return len(objects)

    catalog = add("")          # filled once the page tree's number is known
    pages_obj = add("")
    f1 = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    f2 = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
    wide_objects = _wide_fonts(add, pages)
    kids = []
    for page in pages:
        wide = "".join(f" /{name} {wide_objects[font]} 0 R" for font, name in page.fonts.items())
        stream = zlib.compress("\n".join(page.ops).encode("latin-1"))
        content = add(f"<< /Length {len(stream)} /Filter /FlateDecode >>\nstream\n".encode("latin-1")
                      + stream + b"\nendstream")
        kids.append(add(f"<< /Type /Page /Parent {pages_obj} 0 R /MediaBox [0 0 {page.width:.2f} {page.height:.2f}] "
                        f"/Resources << /Font << /F1 {f1} 0 R /F2 {f2} 0 R{wide} >> >> "
                        f"/Contents {content} 0 R >>"))
    objects[catalog - 1] = f"<< /Type /Catalog /Pages {pages_obj} 0 R >>".encode("latin-1")
    objects[pages_obj - 1] = (f"<< /Type /Pages /Count {len(kids)} /Kids [{' '.join(f'{k} 0 R' for k in kids)}] >>"
                              .encode("latin-1"))
    info = add(f"<< /Producer (Tenbou) /Title <FEFF{title.encode('utf-16-be').hex().upper()}> >>")

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode("latin-1") + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode("latin-1")
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode("latin-1")
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R /Info {info} 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode("latin-1")
    return bytes(out)
