"""The fonts the settlement PDF sets Japanese (or any non-Latin) text in, found on this machine.

A PDF viewer can only be trusted to have the base-14 Latin fonts, and no font ships with
Tenbou, so a CJK TrueType font is looked for at run time (`TENBOU_PDF_FONT`, then the usual
Debian, macOS and Windows places, then fontconfig); fpdf2 embeds the subset a sheet uses.
A character that font lacks (simplified Chinese or Korean in a player's name beside a Japanese
font) is set in the first other CJK font on this machine that has it. With none found, the sheet
falls back to Helvetica and the log says what to install.
"""
from __future__ import annotations

import logging
import os
import subprocess
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from fontTools.ttLib import TTFont

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
INSTALL = ("Install one (Debian: apt-get install fonts-ipafont-gothic) "
           "or set TENBOU_PDF_FONT to a .ttf or .ttc file.")
MISSING = ("No CJK TrueType font found to embed in the settlement PDF: its Japanese, Chinese and "
           "Korean characters will be printed as '?'. " + INSTALL)


@dataclass(frozen=True, eq=False)    # one object per font file: compared and hashed by identity
class FontFile:
    path: str
    face: int                         # the face's index in a .ttc collection
    name: str                         # its PostScript name, for the log
    chars: frozenset[int] = field(repr=False)     # code points it has a glyph for

    def has(self, char: str) -> bool:
        return ord(char) in self.chars


def usable_font(path: str, face: int, sample: str) -> FontFile | None:
    """The font at `path` when it reads, may be embedded, has TrueType outlines (the kind
    this app has tried fpdf2 on) and a glyph for every `sample` character."""
    if not os.path.isfile(path):
        return None
    try:
        with TTFont(path, fontNumber=face, lazy=True) as font:
            chars = frozenset(font.getBestCmap() or {})
            fs_type = font["OS/2"].fsType if "OS/2" in font else 0
            outlines = "glyf" in font
            name = font["name"].getDebugName(6) or os.path.basename(path)
    except Exception as error:   # noqa: BLE001 - fontTools raises many kinds on a broken file; skip it
        log.info("PDF font %s not used: %s", path, error)
        return None
    # fsType bit 1: restricted licence; bit 9: bitmap embedding only
    reason = ("its licence forbids embedding" if fs_type & 0x0002 or fs_type & 0x0200
              else "its outlines are not TrueType" if not outlines
              else f"it lacks some of {sample}" if not all(ord(c) in chars for c in sample) else "")
    if reason:
        log.info("PDF font %s not used: %s", path, reason)
        return None
    return FontFile(path, face, name, chars)


def find_cjk_font(places: Iterable[tuple[str, int]]) -> FontFile | None:
    """The first font among `places` usable for a Japanese sheet (every SAMPLE glyph)."""
    return next((font for path, face in places if (font := usable_font(path, face, SAMPLE))), None)


class Fallbacks:
    """The other CJK fonts of this machine, opened one by one only when a character needs them
    (a CJK font file is megabytes): the first with a glyph for a character draws it. One is
    shared by the server's threads, which must not step through the places at once."""

    def __init__(self, places: Iterable[tuple[str, int]]) -> None:
        self._places = iter(places)
        self._opened: list[FontFile] = []
        self._seen: set[tuple[str, int]] = set()
        self._lock = threading.Lock()

    def font_for(self, char: str, primary: FontFile) -> FontFile | None:
        with self._lock:
            return self._font_for(char, primary)

    def _font_for(self, char: str, primary: FontFile) -> FontFile | None:
        # Every usable font opened is kept, whether or not it has this character: a font
        # without one name's characters may have the next name's.
        found = next((font for font in self._opened if font is not primary and font.has(char)), None)
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
                found = font if font.has(char) else None
        return found

    def rank(self, font: FontFile) -> int:
        """Where `font` comes in the search: a character is drawn by the first that has it."""
        with self._lock:
            return self._opened.index(font)


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
def _cached(setting: str | None) -> FontFile | None:
    font = find_cjk_font(search_places())
    if font is None:
        log.warning(MISSING)
    else:
        log.info("PDF font for Japanese text: %s (%s)", font.name, font.path)
    return font


def cjk_font() -> FontFile | None:
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
