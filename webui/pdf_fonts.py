"""The font the settlement PDF sets Japanese (or any non-Latin) text in.

A PDF viewer can only be trusted to have the base-14 Latin fonts. So a CJK TrueType font is
looked for on this machine at run time (`TENBOU_PDF_FONT`, then the usual Debian, macOS and
Windows places, then fontconfig) and the glyphs a sheet uses are embedded as a subset; no font
ships with Tenbou. With none found, the text refers to Adobe's HeiseiKakuGo-W5 as before, which
only viewers with Japanese fonts of their own can show, and the log says what to install.
A character the chosen font lacks (simplified Chinese or Korean in a player's name, with a
Japanese font chosen) is set in the first other CJK font on this machine that has it.
"""
from __future__ import annotations

import hashlib
import logging
import os
import struct
import subprocess
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

from .truetype import FontError, TrueTypeFont, load

log = logging.getLogger("tenbou.pdf")

ENV = "TENBOU_PDF_FONT"
# Japanese Gothic faces first (the sheet is Japanese when it is not Latin), then CJK fonts
# that cover kana too. (path, face in a collection)
CANDIDATES: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf", 0),
    ("/usr/share/fonts/opentype/ipafont-gothic/ipagp.ttf", 0),
    ("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf", 0),
    ("/usr/share/fonts/truetype/fonts-japanese-gothic.ttf", 0),
    ("/usr/share/fonts/truetype/takao-gothic/TakaoGothic.ttf", 0),
    ("/usr/share/fonts/truetype/vlgothic/VL-Gothic-Regular.ttf", 0),
    ("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 0),
    ("/Library/Fonts/Arial Unicode.ttf", 0),
    ("/System/Library/Fonts/Supplemental/Arial Unicode.ttf", 0),
    ("C:/Windows/Fonts/YuGothM.ttc", 0),
    ("C:/Windows/Fonts/meiryo.ttc", 0),
    ("C:/Windows/Fonts/msgothic.ttc", 0),
)
SAMPLE = "精算点山田あアー"      # kanji, kana and the long vowel mark a Japanese sheet needs
MISSING = ("No CJK TrueType font found to embed in the settlement PDF: its Japanese text will show "
           "only in viewers that have Japanese fonts. Install one (Debian: apt-get install "
           "fonts-ipafont-gothic) or set TENBOU_PDF_FONT to a .ttf or .ttc file.")


def usable_font(path: str, face: int, sample: str) -> TrueTypeFont | None:
    """The font at `path` when it reads, may be embedded, has every `sample` glyph and subsets."""
    if not os.path.isfile(path):
        return None
    try:
        font = load(path, face)
    except (FontError, OSError) as error:
        log.info("PDF font %s not used: %s", path, error)
        return None
    if not font.embeddable or not all(font.glyph(c) for c in sample):
        log.info("PDF font %s not used: %s", path, "its licence forbids embedding" if not font.embeddable
                 else f"it lacks some of {sample}")
        return None
    try:    # a font that fails to subset now would fail a PDF later, after its text is laid out
        font.subset({font.glyph(c): c for c in sample})
    except (FontError, ValueError, IndexError, struct.error) as error:
        log.info("PDF font %s not used: %s", path, error)
        return None
    return font


def find_cjk_font(places: Iterable[tuple[str, int]]) -> TrueTypeFont | None:
    """The first font among `places` usable for a Japanese sheet (every SAMPLE glyph)."""
    return next((font for path, face in places if (font := usable_font(path, face, SAMPLE))), None)


class Fallbacks:
    """The other CJK fonts of this machine, opened one by one only when a character needs them
    (a CJK font file is megabytes): the first with a glyph for a character draws it."""

    def __init__(self, places: Iterable[tuple[str, int]]) -> None:
        self._places = iter(places)
        self._opened: list[TrueTypeFont] = []
        self._seen: set[tuple[str, int]] = set()

    def font_for(self, char: str, primary: TrueTypeFont) -> TrueTypeFont | None:
        # Every usable font opened is kept, whether or not it has this character: a font
        # without one name's characters may have the next name's.
        found = next((font for font in self._opened if font is not primary and font.glyph(char)), None)
        while found is None:
            place = next(self._places, None)
            if place is None:
                return None
            path, face = place
            if place in self._seen or os.path.realpath(path) == os.path.realpath(primary.path):
                continue
            self._seen.add(place)
            font = usable_font(path, face, "")
            if font is not None:
                self._opened.append(font)
                found = font if font.glyph(char) else None
        return found


def search_places() -> list[tuple[str, int]]:
    """Where to look, in order: the setting, the usual places, what fontconfig knows."""
    places = []
    chosen = os.environ.get(ENV)
    if chosen:
        if not os.path.isfile(chosen):
            log.warning("%s=%s: no such file; looking for a font elsewhere", ENV, chosen)
        places.append((chosen, 0))
    return places + list(CANDIDATES) + _fontconfig()


def _fontconfig(pattern: str = ":lang=ja:fontformat=TrueType") -> list[tuple[str, int]]:
    try:
        listed = subprocess.run(["fc-list", "-f", "%{file}\t%{index}\n", pattern],
                                capture_output=True, text=True, timeout=10, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    places = []
    for line in sorted(listed.splitlines()):
        path, _, index = line.partition("\t")
        places.append((path, int(index) if index.isdigit() else 0))
    return places


@lru_cache(maxsize=4)
def _cached(setting: str | None) -> TrueTypeFont | None:
    font = find_cjk_font(search_places())
    if font is None:
        log.warning(MISSING)
    else:
        log.info("PDF font for Japanese text: %s (%s)", font.name, font.path)
    return font


def cjk_font() -> TrueTypeFont | None:
    """The font found on this machine, looked for once (again when TENBOU_PDF_FONT changes)."""
    return _cached(os.environ.get(ENV))


def fallback_places() -> Iterator[tuple[str, int]]:
    """Where a character the chosen font lacks is looked for: the Japanese places, then the
    Chinese and Korean fonts fontconfig knows (asked only once the others had none)."""
    yield from search_places()
    for lang in ("zh-cn", "zh-tw", "ko"):
        yield from _fontconfig(f":lang={lang}:fontformat=TrueType")


@lru_cache(maxsize=1)
def fallbacks() -> Fallbacks:
    return Fallbacks(fallback_places())


def add_embedded(add: Callable[[bytes | str], int], font: TrueTypeFont, glyphs: dict[int, str]) -> int:
    """Write the Type 0 font with the subset of `font` drawing `glyphs` (glyph -> character);
    text in it is shown as 4-hex-digit glyph numbers (Identity-H). Returns its object number."""
    import zlib

    tag = "".join(chr(65 + b % 26) for b in hashlib.sha1(repr(sorted(glyphs)).encode()).digest()[:6])
    name = f"{tag}+{font.name}"
    program = font.subset(glyphs, glyphs)
    packed = zlib.compress(program)
    file_obj = add(f"<< /Length {len(packed)} /Length1 {len(program)} /Filter /FlateDecode >>\nstream\n"
                   .encode("latin-1") + packed + b"\nendstream")
    x0, y0, x1, y1 = (font.scaled(v) for v in font.bbox)
    descriptor = add(f"<< /Type /FontDescriptor /FontName /{name} /Flags 4 /FontBBox [{x0} {y0} {x1} {y1}] "
                     f"/ItalicAngle 0 /Ascent {font.scaled(font.ascent)} /Descent {font.scaled(font.descent)} "
                     f"/CapHeight {font.scaled(font.cap_height)} /StemV 80 /FontFile2 {file_obj} 0 R >>")
    widths = " ".join(f"{glyph} [{font.width(glyph)}]" for glyph in sorted(glyphs))
    cid = add(f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /{name} "
              f"/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "
              f"/FontDescriptor {descriptor} 0 R /DW 1000 /W [{widths}] /CIDToGIDMap /Identity >>")
    cmap = zlib.compress(to_unicode(glyphs).encode("latin-1"))
    unicode_obj = add(f"<< /Length {len(cmap)} /Filter /FlateDecode >>\nstream\n".encode("latin-1")
                      + cmap + b"\nendstream")
    return add(f"<< /Type /Font /Subtype /Type0 /BaseFont /{name} /Encoding /Identity-H "
               f"/DescendantFonts [{cid} 0 R] /ToUnicode {unicode_obj} 0 R >>")


def to_unicode(glyphs: dict[int, str]) -> str:
    """The CMap that turns glyph numbers back into text, for copying and searching the PDF."""
    pairs = sorted(glyphs.items())
    blocks = []
    for start in range(0, len(pairs), 100):      # at most 100 entries a block
        chunk = pairs[start:start + 100]
        lines = "\n".join(f"<{glyph:04X}> <{char.encode('utf-16-be').hex().upper()}>" for glyph, char in chunk)
        blocks.append(f"{len(chunk)} beginbfchar\n{lines}\nendbfchar")
    return ("/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
            "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
            "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
            "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n" + "\n".join(blocks)
            + "\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n")


def add_reference(add: Callable[[bytes | str], int]) -> int:
    """The fallback: Adobe-Japan1's HeiseiKakuGo-W5 by name, not embedded, text as UCS-2."""
    descriptor = add("<< /Type /FontDescriptor /FontName /HeiseiKakuGo-W5 /Flags 4 /FontBBox [-92 -250 1010 922] "
                     "/ItalicAngle 0 /Ascent 752 /Descent -221 /CapHeight 737 /StemV 114 >>")
    cid = add("<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HeiseiKakuGo-W5 "
              "/CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> "
              f"/FontDescriptor {descriptor} 0 R /DW 1000 /W [1 95 500] >>")
    return add("<< /Type /Font /Subtype /Type0 /BaseFont /HeiseiKakuGo-W5 /Encoding /UniJIS-UCS2-H "
               f"/DescendantFonts [{cid} 0 R] >>")
