"""What lies around the tiles in a real photo: desks, cloths with patterns, and things that look
like tiles and are not (keyboard keys, dominoes, dice, playing cards, book spines, phone screens).

A detector learns "no tile here" from these; every drawing is random in size, colour and place,
so no one picture can be learnt by heart.
"""
from __future__ import annotations

import cv2
import numpy as np

from . import photo
from .dice import draw_die


def backdrop(rng: np.random.Generator, h: int, w: int, things: int | None = None) -> np.ndarray:
    """A surface (cloth, wood, a patterned tablecloth) with `things` tile-like objects on it."""
    image = pattern(rng, h, w) if rng.random() < 0.5 else photo.table(rng, h, w)
    for _ in range(int(rng.integers(0, 4)) if things is None else things):
        DRAWERS[int(rng.integers(len(DRAWERS)))](image, rng)
    return image


def pattern(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A tablecloth or desk with a printed pattern: checks, stripes, dots or a blotchy print."""
    a, b = (tuple(int(v) for v in rng.integers(0, 256, 3)) for _ in range(2))
    image = np.empty((h, w, 3), np.uint8)
    image[:] = a
    step = int(rng.integers(6, max(8, min(h, w) // 4)))
    kind = int(rng.integers(4))
    yy, xx = np.mgrid[0:h, 0:w]
    if kind == 0:
        image[((yy // step + xx // step) % 2).astype(bool)] = b
    elif kind == 1:
        image[((xx + yy * rng.uniform(-1, 1)) // step % 2).astype(bool)] = b
    elif kind == 2:
        for _ in range(int(h * w / step ** 2)):
            cv2.circle(image, (int(rng.integers(w)), int(rng.integers(h))), max(1, step // 3), b, -1, cv2.LINE_AA)
    else:
        blot = cv2.resize(rng.random((max(2, h // step), max(2, w // step))).astype(np.float32), (w, h),
                          interpolation=cv2.INTER_CUBIC)
        image[blot > 0.55] = b
    return cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.3, 1.5)))


def _light_colour(rng: np.random.Generator) -> tuple[int, int, int]:
    grey = int(rng.integers(170, 256))
    return tuple(int(np.clip(grey + rng.integers(-15, 16), 0, 255)) for _ in range(3))


def _place(image: np.ndarray, rng: np.random.Generator, ch: int, cw: int) -> tuple[int, int] | None:
    h, w = image.shape[:2]
    if ch >= h or cw >= w:
        return None
    return int(rng.integers(0, w - cw)), int(rng.integers(0, h - ch))


def keyboard(image: np.ndarray, rng: np.random.Generator) -> None:
    """Rows of light (or dark) keys, each with a letter: the likest thing to a row of tiles."""
    key = int(rng.integers(12, max(14, min(image.shape[:2]) // 8)))
    rows, cols = int(rng.integers(2, 6)), int(rng.integers(4, 15))
    gap = max(2, key // 6)
    spot = _place(image, rng, rows * (key + gap), cols * (key + gap))
    if spot is None:
        return
    x0, y0 = spot
    dark = rng.random() < 0.4
    body = (int(rng.integers(20, 70)),) * 3 if dark else _light_colour(rng)
    ink = (230, 230, 230) if dark else (int(rng.integers(0, 80)),) * 3
    for r in range(rows):
        for c in range(cols):
            x, y = x0 + c * (key + gap) + r * key // 3, y0 + r * (key + gap)
            width = key * (2 if rng.random() < 0.08 else 1)
            cv2.rectangle(image, (x, y), (x + width, y + key), body, -1, cv2.LINE_AA)
            cv2.putText(image, chr(int(rng.integers(65, 91))), (x + key // 4, y + 3 * key // 4),
                        cv2.FONT_HERSHEY_SIMPLEX, key / 40, ink, max(1, key // 16), cv2.LINE_AA)


def dominoes(image: np.ndarray, rng: np.random.Generator) -> None:
    """White (or ivory) tiles of two halves of black pips: dominoes, not mahjong tiles."""
    width = int(rng.integers(14, max(16, min(image.shape[:2]) // 7)))
    height = width * 2
    for _ in range(int(rng.integers(1, 7))):
        spot = _place(image, rng, height, width)
        if spot is None:
            return
        x, y = spot
        cv2.rectangle(image, (x, y), (x + width, y + height), _light_colour(rng), -1, cv2.LINE_AA)
        cv2.line(image, (x + 2, y + height // 2), (x + width - 2, y + height // 2), (30, 30, 30), 1)
        for half in (0, 1):
            for _ in range(int(rng.integers(0, 7))):
                px, py = x + int(rng.uniform(0.2, 0.8) * width), y + half * width + int(rng.uniform(0.2, 0.8) * width)
                cv2.circle(image, (px, py), max(1, width // 10), (20, 20, 20), -1, cv2.LINE_AA)


def dice(image: np.ndarray, rng: np.random.Generator) -> None:
    """Two (or one, or three) dice, as thrown at the start of every hand, seen from above."""
    side = float(rng.integers(8, max(10, min(image.shape[:2]) // 12)))
    for _ in range(int(rng.choice([1, 2, 2, 3]))):
        spot = _place(image, rng, int(side * 2), int(side * 2))
        if spot is None:
            return
        x, y = spot
        draw_die(image, (x + side, y + side * 0.8), side, float(rng.uniform(0, 90)),
                 side * float(rng.uniform(0, 0.4)), rng)


def cards(image: np.ndarray, rng: np.random.Generator) -> None:
    """Playing cards, business cards and sticky notes: light rectangles with marks on them."""
    for _ in range(int(rng.integers(1, 4))):
        width = int(rng.integers(20, max(22, min(image.shape[:2]) // 4)))
        height = int(width * rng.uniform(0.6, 1.5))
        spot = _place(image, rng, height, width)
        if spot is None:
            return
        x, y = spot
        cv2.rectangle(image, (x, y), (x + width, y + height), _light_colour(rng), -1, cv2.LINE_AA)
        ink = tuple(int(v) for v in rng.integers(0, 200, 3))
        for _ in range(int(rng.integers(1, 5))):
            cv2.putText(image, str(int(rng.integers(10))), (x + int(rng.integers(2, max(3, width - 8))),
                        y + int(rng.integers(10, max(11, height)))), cv2.FONT_HERSHEY_SIMPLEX,
                        width / 90, ink, max(1, width // 40), cv2.LINE_AA)


def spines(image: np.ndarray, rng: np.random.Generator) -> None:
    """A shelf of book spines: tall coloured strips with lettering."""
    width = int(rng.integers(10, max(12, min(image.shape[:2]) // 10)))
    count = int(rng.integers(3, 12))
    height = int(width * rng.uniform(3, 7))
    spot = _place(image, rng, height, width * count)
    if spot is None:
        return
    x, y = spot
    for i in range(count):
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        top = y + int(rng.integers(0, max(1, height // 6)))
        cv2.rectangle(image, (x + i * width, top), (x + (i + 1) * width - 1, y + height), colour, -1)
        cv2.putText(image, chr(int(rng.integers(65, 91))), (x + i * width + width // 4, top + height // 3),
                    cv2.FONT_HERSHEY_SIMPLEX, width / 40, (255 - colour[0], 255 - colour[1], 255 - colour[2]), 1)


def screen(image: np.ndarray, rng: np.random.Generator) -> None:
    """A phone or laptop screen showing text, buttons and small pictures."""
    width = int(rng.integers(40, max(42, min(image.shape[:2]) // 2)))
    height = int(width * rng.uniform(0.6, 2.0))
    spot = _place(image, rng, height, width)
    if spot is None:
        return
    x, y = spot
    paper = (int(rng.integers(200, 256)),) * 3 if rng.random() < 0.7 else (int(rng.integers(0, 50)),) * 3
    cv2.rectangle(image, (x, y), (x + width, y + height), paper, -1)
    line = max(6, width // 14)
    for row in range(1, height // line):
        if rng.random() < 0.25:  # a button
            bw = int(rng.integers(line, max(line + 1, width // 2)))
            colour = tuple(int(v) for v in rng.integers(0, 256, 3))
            cv2.rectangle(image, (x + 4, y + row * line - line + 2), (x + 4 + bw, y + row * line), colour, -1)
        else:
            cv2.putText(image, "".join(chr(int(c)) for c in rng.integers(97, 123, int(rng.integers(3, 12)))),
                        (x + 4, y + row * line), cv2.FONT_HERSHEY_SIMPLEX, line / 30, (255 - paper[0],) * 3, 1)


# Dice are drawn apart (`dice`, by the detector's tile-free samples): one more drawer here would
# change every seeded backdrop, and with them the rendered webcam frames the bench and tests read.
DRAWERS = (keyboard, dominoes, cards, spines, screen)


# Characters printed on book spines and cards in a Chinese or Japanese room: common words, and
# the very characters carved on tiles, so a spine is never "not a tile" merely for lacking them.
CJK_TEXT = "中東南西北發萬筒條索一二三四五六七八九十春夏秋冬梅蘭菊竹日本語文學史新書全集上下卷物語小説辞典"


def cjk_spines(image: np.ndarray, rng: np.random.Generator) -> None:
    """A shelf of books seen end on: spines (some ivory or white, the colours of tiles) with a
    title of CJK characters down each, on a shelf board whose edge runs across the picture."""
    from . import glyphs

    fonts = glyphs.cjk_fonts()
    width = int(rng.integers(10, max(12, min(image.shape[:2]) // 8)))
    count = int(rng.integers(4, 16))
    height = int(width * rng.uniform(2.5, 7))
    spot = _place(image, rng, height + max(3, width // 3), min(image.shape[1] - 1, width * count))
    if spot is None:
        return
    x, y = spot
    board = tuple(int(v) for v in rng.integers(40, 200, 3))
    cv2.rectangle(image, (0, y + height), (image.shape[1] - 1, y + height + max(3, width // 3)), board, -1)
    for i in range(count):
        left, w = x + i * width, int(width * rng.uniform(0.7, 1.0))
        if left + w >= image.shape[1]:
            break
        colour = _light_colour(rng) if rng.random() < 0.4 else tuple(int(v) for v in rng.integers(0, 256, 3))
        top = y + int(rng.integers(0, max(1, height // 4)))
        cv2.rectangle(image, (left, top), (left + w - 1, y + height), colour, -1)
        ink = np.array([255 - c for c in colour] if rng.random() < 0.5 else [int(v) for v in rng.integers(0, 90, 3)],
                       np.float32)
        if not fonts:
            continue
        font = fonts[int(rng.integers(len(fonts)))]
        cy = top + max(2, w // 6)
        for _ in range(int(rng.integers(1, 6))):
            size = max(4, int(w * rng.uniform(0.45, 0.8)))
            mask = glyphs.glyph(CJK_TEXT[int(rng.integers(len(CJK_TEXT)))], font)
            if mask.size <= 1 or cy + size >= y + height:
                break
            glyphs.stamp(image, cv2.resize(mask, (size, size), interpolation=cv2.INTER_AREA), left + (w - size) // 2,
                         cy, ink)
            cy += size + max(1, size // 5)


def printed_card(image: np.ndarray, rng: np.random.Generator) -> None:
    """A white card or paper with a framed title and lines of CJK print (a score sheet, a menu,
    a rule card): a pale oblong with characters on it, as a tile's face is."""
    from . import glyphs

    fonts = glyphs.cjk_fonts()
    width = int(rng.integers(20, max(22, min(image.shape[:2]) // 3)))
    height = int(width * rng.uniform(0.6, 1.6))
    spot = _place(image, rng, height, width)
    if spot is None:
        return
    x, y = spot
    cv2.rectangle(image, (x, y), (x + width, y + height), _light_colour(rng), -1, cv2.LINE_AA)
    ink = tuple(int(v) for v in rng.integers(0, 120, 3))
    if rng.random() < 0.5:
        cv2.rectangle(image, (x + 3, y + 3), (x + width - 3, y + height - 3), ink, 1, cv2.LINE_AA)
    if not fonts:
        return
    font = fonts[int(rng.integers(len(fonts)))]
    size = max(4, int(min(width, height) * rng.uniform(0.12, 0.45)))
    for row in range(max(1, (height - 6) // (size + 2))):
        for col in range(max(1, (width - 6) // (size + 1))):
            if rng.random() < 0.3:
                continue
            mask = glyphs.glyph(CJK_TEXT[int(rng.integers(len(CJK_TEXT)))], font)
            if mask.size <= 1:
                continue
            glyphs.stamp(image, cv2.resize(mask, (size, size), interpolation=cv2.INTER_AREA), x + 4 + col * (size + 1),
                         y + 4 + row * (size + 2), np.array(ink, np.float32))
        if rng.random() < 0.3:
            break


def room(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """What a webcam sees behind and beside a table: a backdrop with shelves of CJK-titled books
    and printed cards (the look-alikes most often read as tiles on real webcam frames)."""
    image = backdrop(rng, h, w, things=int(rng.integers(0, 3)))
    for _ in range(int(rng.integers(1, 4))):
        cjk_spines(image, rng)
    for _ in range(int(rng.integers(0, 3))):
        printed_card(image, rng)
    return image


# Words on the screens, score sheets, boxes and menus beside a table: the app's own words, the
# game's, and plain ones. Bold capitals and lower-case letters at a tile face's size are what a
# detector trained without them read as tiles (a screenshot of the home page, "Tenbou", at 0.52).
LATIN_WORDS = ("Tenbou", "Score", "track", "settle", "session", "Lobby", "Clubs", "Start", "Riichi", "Ron",
               "Tsumo", "East", "South", "West", "North", "dealer", "honba", "points", "Mahjong", "table",
               "game", "Round", "Total", "Player", "Menu", "Settings", "OK", "Cancel", "Next", "Back")


def page(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A page of text filling the picture: a phone or laptop screen, a score sheet, a menu or a
    box lid, with a heading in large bold letters, lines of smaller words (Latin or CJK) and now
    and then a coloured button with its label."""
    from . import glyphs

    fonts = (glyphs.latin_fonts(), glyphs.cjk_fonts())
    light = rng.random() < 0.8
    paper = _light_colour(rng) if light else tuple(int(v) for v in rng.integers(0, 60, 3))
    image = np.empty((h, w, 3), np.uint8)
    image[:] = paper
    if rng.random() < 0.5:   # a header band, as an app draws one
        band = int(rng.integers(h // 12, h // 5))
        cv2.rectangle(image, (0, 0), (w, band), tuple(int(v) for v in rng.integers(0, 256, 3)), -1)
    ink = np.array([255 - c for c in paper] if rng.random() < 0.3 else
                   [int(v) if light else 255 - int(v) for v in rng.integers(0, 80, 3)], np.float32)
    y = int(rng.integers(4, max(5, h // 6)))
    size = int(rng.integers(max(10, h // 16), max(12, h // 5)))   # the heading's letters
    while y + size < h and any(fonts):
        if rng.random() < 0.15:   # a button: a coloured block with a light label
            colour = tuple(int(v) for v in rng.integers(0, 200, 3))
            x0 = int(rng.integers(0, max(1, w // 4)))
            x1 = int(min(w - 1, x0 + rng.integers(size * 3, size * 10)))
            cv2.rectangle(image, (x0, y), (x1, y + int(size * 1.6)), colour, -1, cv2.LINE_AA)
            _words(image, rng, fonts, x0 + size // 2, y + size // 3, size, x1, np.array((240.0, 240.0, 240.0)))
            y += int(size * 2.0)
        else:
            _words(image, rng, fonts, int(rng.integers(0, max(1, w // 6))), y, size, w, ink)
            y += int(size * rng.uniform(1.2, 1.8))
        size = int(np.clip(size * rng.uniform(0.5, 1.1), 7, max(8, h // 5)))
    return cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.3, 1.2)))


def _words(image: np.ndarray, rng: np.random.Generator, fonts, x: int, y: int, size: int, right: int,
           ink: np.ndarray) -> None:
    """One line of words from `x` towards `right`, letters `size` pixels tall."""
    from . import glyphs

    latin = bool(fonts[0]) and (not fonts[1] or rng.random() < 0.6)
    family = fonts[0] if latin else fonts[1]
    font = family[int(rng.integers(len(family)))]
    while x < right - size:
        if latin:
            text = LATIN_WORDS[int(rng.integers(len(LATIN_WORDS)))]
        else:
            text = "".join(CJK_TEXT[int(i)] for i in rng.integers(0, len(CJK_TEXT), int(rng.integers(1, 5))))
        mask = glyphs.glyph(text, font)
        if mask.size <= 1:
            return
        tw = max(1, int(mask.shape[1] * size / mask.shape[0]))
        if x + tw >= image.shape[1] or y + size >= image.shape[0]:
            return
        glyphs.stamp(image, cv2.resize(mask, (tw, size), interpolation=cv2.INTER_AREA), x, y, ink)
        x += tw + max(3, size // 2)
        if rng.random() < 0.3:
            return
