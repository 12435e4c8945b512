"""A small PDF writer: one or more A4 pages of text, lines, rectangles and polylines.

Enough for the settlement sheet and no more, so the app needs no PDF library. Latin text is
set in the base-14 Helvetica; text with Japanese (or any character outside Latin-1) uses the
Adobe-Japan1 font HeiseiKakuGo-W5 by reference, which PDF readers supply without embedding.
Coordinates are in points from the top-left corner, like the screen, and flipped on output.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field

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
    out: list[tuple[bool, str]] = []
    for ch in text:
        latin = _is_latin(ch)
        if out and out[-1][0] == latin:
            out[-1] = (latin, out[-1][1] + ch)
        else:
            out.append((latin, ch))
    return out


def text_width(text: str, size: float, bold: bool = False) -> float:
    table = _HELVETICA_BOLD if bold else _HELVETICA
    return sum((table.get(c, 556) if _is_latin(c) else 1000) for c in text) * size / 1000


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

    def text(self, x: float, y: float, text: str, size: float = 10, bold: bool = False,
             align: str = "left", colour: str = "#000000") -> None:
        """`y` is the baseline, from the top."""
        if not text:
            return
        width = text_width(text, size, bold)
        if align == "right":
            x -= width
        elif align == "center":
            x -= width / 2
        r, g, b = _rgb(colour)
        shows = []
        for latin, part in runs(text):
            if latin:
                shows.append(f"/{'F2' if bold else 'F1'} {size:.2f} Tf {_latin_literal(part)} Tj")
            else:
                shows.append(f"/F3 {size:.2f} Tf <{part.encode('utf-16-be').hex().upper()}> Tj")
        self.ops.append(f"BT {r:.3f} {g:.3f} {b:.3f} rg {x:.2f} {self.height - y:.2f} Td {' '.join(shows)} ET")

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


def _font_objects() -> list[str]:
    return [
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
        "<< /Type /Font /Subtype /Type0 /BaseFont /HeiseiKakuGo-W5 /Encoding /UniJIS-UCS2-H "
        "/DescendantFonts [{cid} 0 R] >>",
        "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HeiseiKakuGo-W5 "
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> "
        "/FontDescriptor {desc} 0 R /DW 1000 /W [1 95 500] >>",
        "<< /Type /FontDescriptor /FontName /HeiseiKakuGo-W5 /Flags 4 /FontBBox [-92 -250 1010 922] "
        "/ItalicAngle 0 /Ascent 752 /Descent -221 /CapHeight 737 /StemV 114 >>",
    ]


def render(pages: list[Page], title: str = "") -> bytes:
    """The PDF file for these pages."""
    objects: list[bytes] = []

    def add(body: bytes | str) -> int:
        objects.append(body.encode("latin-1") if isinstance(body, str) else body)
        return len(objects)

    catalog = add("")          # filled once the page tree's number is known
    pages_obj = add("")
    fonts = _font_objects()
    f1, f2 = add(fonts[0]), add(fonts[1])
    f3 = len(objects) + 1
    cid, desc = f3 + 1, f3 + 2
    add(fonts[2].format(cid=cid))
    add(fonts[3].format(desc=desc))
    add(fonts[4])
    kids = []
    for page in pages:
        stream = zlib.compress("\n".join(page.ops).encode("latin-1"))
        content = add(f"<< /Length {len(stream)} /Filter /FlateDecode >>\nstream\n".encode("latin-1")
                      + stream + b"\nendstream")
        kids.append(add(f"<< /Type /Page /Parent {pages_obj} 0 R /MediaBox [0 0 {page.width:.2f} {page.height:.2f}] "
                        f"/Resources << /Font << /F1 {f1} 0 R /F2 {f2} 0 R /F3 {f3} 0 R >> >> "
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
