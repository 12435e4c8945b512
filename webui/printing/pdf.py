"""One A4 PDF page of text, lines, rectangles and polylines, drawn with fpdf2.

Coordinates are in points from the top-left corner, like the screen; a text's `y` is its
baseline. Text that fits Windows-1252 is set in the base-14 Helvetica (bold is the real bold
face); other text in the CJK font found on this machine (`pdf_fonts`), of which fpdf2 embeds
the glyphs used, with the machine's other CJK fonts as fallbacks for characters it lacks. That
font has one weight, so bold is drawn by stroking the outline as well. With no CJK font at all,
characters Helvetica cannot set are printed as '?' and the log says what to install.
"""
from __future__ import annotations

import logging
from itertools import groupby

from fpdf import FPDF
from fpdf.enums import StrokeCapStyle, StrokeJoinStyle, TextMode

from webui.printing.fonts import INSTALL, Fallbacks, FontFile, fallbacks

log = logging.getLogger("tenbou.pdf")
# fontTools reports each table of a font it leaves out of a subset (bitmap strikes and the
# like), on every PDF; the PDF is complete without them
logging.getLogger("fontTools.subset").setLevel(logging.ERROR)

A4 = (595.28, 841.89)
LATIN = "windows-1252"      # what Helvetica can set in a PDF (WinAnsiEncoding)
PRIMARY = "cjk"             # the fpdf2 family name of the chosen CJK font; fallbacks are cjk1, cjk2...


def is_latin(text: str) -> bool:
    """True when Helvetica can set it."""
    try:
        text.encode(LATIN)
    except UnicodeEncodeError:
        return False
    return True


def runs(text: str) -> list[str]:
    """The text split where it changes between Latin and not, so Latin letters keep Helvetica
    (and its bold) beside a name in the CJK font."""
    return ["".join(chars) for _, chars in groupby(text, is_latin)]


def latin_only(text: str) -> str:
    """The text with each character Helvetica cannot set replaced by '?'."""
    return text.encode(LATIN, "replace").decode(LATIN)


class Page:
    """An A4 page that sets non-Latin text in `cjk` (None: none on this machine), and a
    character it lacks in the first of `others` that has it; `render` returns the PDF file."""

    width, height = A4

    def __init__(self, cjk: FontFile | None, others: Fallbacks | None = None) -> None:
        self.cjk = cjk
        self._others = others or fallbacks()
        self._fallbacks: list[FontFile] = []      # registered with fpdf2, in the order found
        self.replaced = 0                         # characters printed as '?' (no CJK font)
        self._pdf = FPDF(unit="pt", format="A4")
        self._pdf.core_fonts_encoding = LATIN
        self._pdf.set_auto_page_break(False)      # a line past the bottom must not start a page 2
        self._pdf.set_margins(0, 0, 0)
        self._pdf.c_margin = 0                    # a text's x is where its first letter starts
        self._pdf.add_page()
        if self.cjk is not None:
            self._pdf.add_font(PRIMARY, fname=self.cjk.path, collection_font_number=self.cjk.face)

    def _font(self, part: str, bold: bool) -> tuple[str, str, str, bool]:
        """The font for one run of `runs`: (family, style, the run as it will be printed,
        whether its bold is drawn by stroking)."""
        if is_latin(part):
            return "helvetica", "B" if bold else "", part, False
        if self.cjk is None:
            shown = latin_only(part)
            self.replaced += sum(a != b for a, b in zip(part, shown))
            return "helvetica", "B" if bold else "", shown, False
        self._add_fallbacks(part)
        return PRIMARY, "", part, bold

    def _add_fallbacks(self, text: str) -> None:
        """Register the fonts for characters the chosen one lacks, once each, in the order the
        machine's fonts are searched: fpdf2 draws a character in the first listed that has it."""
        assert self.cjk is not None
        added = False
        for char in dict.fromkeys(text):      # in order, so the PDF is the same each time
            if self.cjk.has(char):
                continue
            font = self._others.font_for(char, self.cjk)
            if font is not None and font not in self._fallbacks:
                self._pdf.add_font(f"{PRIMARY}{len(self._fallbacks) + 1}", fname=font.path,
                                   collection_font_number=font.face)
                self._fallbacks.append(font)
                added = True
        if added:
            order = sorted(range(len(self._fallbacks)), key=lambda i: self._others.rank(self._fallbacks[i]))
            self._pdf.set_fallback_fonts([f"{PRIMARY}{i + 1}" for i in order], exact_match=False)

    def text(self, x: float, y: float, text: str, size: float = 10, bold: bool = False,
             align: str = "left", colour: str = "#000000") -> None:
        """`y` is the baseline, from the top."""
        pieces = []
        for part in runs(text):
            family, style, shown, stroked = self._font(part, bold)
            self._pdf.set_font(family, style, size)
            pieces.append((family, style, shown, stroked, self._pdf.get_string_width(shown)))
        width = sum(piece[-1] for piece in pieces)
        if align == "right":
            x -= width
        elif align == "center":
            x -= width / 2
        for family, style, shown, stroked, run_width in pieces:
            self._pdf.set_font(family, style, size)
            # fpdf2 puts a cell's baseline at 0.8 of its height when that is the font size
            self._pdf.set_xy(x, y - 0.8 * size)
            thicken = dict(text_mode=TextMode.FILL_STROKE, line_width=size / 30, draw_color=colour) if stroked else {}
            with self._pdf.local_context(text_color=colour, **thicken):
                self._pdf.cell(run_width, size, shown)
            x += run_width

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = 0.5,
             colour: str = "#000000", dash: tuple[float, float] | None = None) -> None:
        self.polyline([(x1, y1), (x2, y2)], width, colour, dash)

    def polyline(self, points: list[tuple[float, float]], width: float = 1.0, colour: str = "#000000",
                 dash: tuple[float, float] | None = None) -> None:
        if len(points) < 2:
            return
        dashing = {"dash_pattern": {"dash": dash[0], "gap": dash[1]}} if dash else {}
        with self._pdf.local_context(draw_color=colour, line_width=width, stroke_cap_style=StrokeCapStyle.ROUND,
                                     stroke_join_style=StrokeJoinStyle.ROUND, **dashing):
            self._pdf.polyline(points)

    def rect(self, x: float, y: float, w: float, h: float, fill: str | None = None,
             stroke: str | None = None, width: float = 0.5) -> None:
        style = "DF" if fill and stroke else "F" if fill else "D"
        with self._pdf.local_context(fill_color=fill or "#000000", draw_color=stroke or "#000000", line_width=width):
            self._pdf.rect(x, y, w, h, style)

    def render(self, title: str = "") -> bytes:
        """The PDF file."""
        if self.replaced:
            log.warning("Settlement PDF: %d characters printed as '?': no CJK TrueType font found. %s",
                        self.replaced, INSTALL)
        self._pdf.set_title(title)
        self._pdf.set_producer("Tenbou")
        return bytes(self._pdf.output())
