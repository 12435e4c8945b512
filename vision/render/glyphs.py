"""Character shapes for drawn tile faces, rasterised from system fonts with Pillow.

Pillow and the CJK fonts (Debian `fonts-arphic-ukai`, `fonts-arphic-uming`,
`fonts-arphic-bkai00mp`, `fonts-arphic-gkai00mp`, `fonts-wqy-zenhei`) are training-time
tools; without them the drawn styles that need characters are simply not offered. A machine
without them (a GPU one, say) is pointed at copies by `TENBOU_FONTS` (`python -m vision.train.bundle`
packs the fonts cut down to the characters the renderer draws).
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
# Kai (brush) faces look most like the characters carved on real tiles; Ming and Hei add variety.
CJK_FONT_NAMES = ("ukai.ttc", "bkai00mp.ttf", "gkai00mp.ttf", "uming.ttc", "wqy-zenhei.ttc")
LATIN_FONT_NAMES = ("DejaVuSerif-Bold.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSans.ttf")


def font_dirs() -> tuple[Path, ...]:
    extra = os.environ.get("TENBOU_FONTS")
    return ((Path(extra),) if extra else ()) + FONT_DIRS


def _find(names: tuple[str, ...]) -> tuple[Path, ...]:
    found: list[Path] = []
    for name in names:
        for root in font_dirs():
            if root.is_dir():
                hit = next(iter(sorted(root.rglob(name))), None)
                if hit is not None:
                    found.append(hit)
                    break
    return tuple(found)


@lru_cache(maxsize=1)
def cjk_fonts() -> tuple[Path, ...]:
    return _find(CJK_FONT_NAMES) if _pillow() else ()


@lru_cache(maxsize=1)
def latin_fonts() -> tuple[Path, ...]:
    return _find(LATIN_FONT_NAMES) if _pillow() else ()


def _pillow() -> bool:
    try:
        import PIL.ImageFont  # noqa: F401
    except ImportError:
        return False
    return True


def available() -> bool:
    """Whether characters can be drawn here (Pillow and at least one CJK font)."""
    return bool(cjk_fonts())


@lru_cache(maxsize=4096)
def glyph(text: str, font: Path, size: int = 96) -> np.ndarray:
    """A tight float mask (0..1) of `text` drawn in `font`, about `size` pixels tall."""
    from PIL import Image, ImageDraw, ImageFont

    face = ImageFont.truetype(str(font), size)
    left, top, right, bottom = face.getbbox(text)
    canvas = Image.new("L", (right - left + 4, bottom - top + 4), 0)
    ImageDraw.Draw(canvas).text((2 - left, 2 - top), text, font=face, fill=255)
    mask = np.asarray(canvas, dtype=np.float32) / 255.0
    ys, xs = np.nonzero(mask > 0.05)
    if len(ys) == 0:
        return np.zeros((1, 1), np.float32)
    return mask[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


def glyph_or_fallback(text: str, font: Path) -> np.ndarray:
    """`glyph`, from another CJK font when `font` lacks the character (GB fonts lack 萬 東 發)."""
    mask = glyph(text, font)
    for other in cjk_fonts():
        if mask.size > 1:
            break
        mask = glyph(text, other)
    return mask


def put_glyph(img: np.ndarray, text: str, box: tuple[float, float, float, float], colour, font,
              stretch: bool = False) -> None:
    """Draw `text` in `font` fitted into `box` (fractions of the face), keeping its shape unless stretched."""
    mask = glyph_or_fallback(text, font)
    h, w = img.shape[:2]
    bx1, by1, bx2, by2 = box[0] * w, box[1] * h, box[2] * w, box[3] * h
    bw, bh = bx2 - bx1, by2 - by1
    mh, mw = mask.shape
    if stretch:
        tw, th = bw, bh
    else:
        s = min(bw / mw, bh / mh)
        tw, th = mw * s, mh * s
    tw, th = max(1, int(round(tw))), max(1, int(round(th)))
    x1 = int(round(bx1 + (bw - tw) / 2))
    y1 = int(round(by1 + (bh - th) / 2))
    x1, y1 = max(0, min(w - tw, x1)), max(0, min(h - th, y1))
    tw, th = min(tw, w - x1), min(th, h - y1)
    stamp(img, cv2.resize(mask, (tw, th), interpolation=cv2.INTER_AREA), x1, y1, np.array(colour, np.float32))


def stamp(image: np.ndarray, mask: np.ndarray, x: int, y: int, ink: np.ndarray) -> None:
    """Print `ink` (one colour) onto `image` through `mask` (0..1) laid with its top-left corner
    at (x, y); what runs past the image's edge is cut off."""
    h, w = mask.shape
    region = image[y:y + h, x:x + w].astype(np.float32)
    m = mask[:region.shape[0], :region.shape[1], None]
    image[y:y + h, x:x + w] = (region * (1 - m) + ink * m).astype(np.uint8)
