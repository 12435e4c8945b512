"""Tile faces: one label drawn in one tile set, as a BGR image of the face alone.

The CC0 artwork covers the riichi tiles; everything else (Chinese and Hong Kong styles,
framed white dragons, birds, flowers and seasons, other fonts and colours) is drawn here.
"""
from __future__ import annotations

import cv2
import numpy as np

from . import fluffy, pips
from .bonus import draw_bonus
from .glyphs import put_glyph
from .tilesets import TileSet

FACE_W, FACE_H = 120, 160
NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
WIND_LETTERS = "ESWN"


def draw_face(label: str, tileset: TileSet, rng: np.random.Generator,
              size: tuple[int, int] = (FACE_W, FACE_H)) -> np.ndarray:
    """The face of `label` (a classifier class, not `back`) in `tileset`, `size` = (w, h)."""
    w, h = size
    img = np.empty((h, w, 3), np.uint8)
    img[:] = tileset.face
    if tileset.art == "fluffy" and fluffy.has(label):
        _paste_art(img, fluffy.artwork(label, tileset.fluffy_variant), rng)
        return img
    _draw(img, label, tileset, rng)
    return img


def _paste_art(img: np.ndarray, art: np.ndarray, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    margin = rng.uniform(0.04, 0.1)
    x1, y1 = int(w * margin), int(h * margin)
    x2, y2 = w - x1, h - y1
    piece = cv2.resize(art, (x2 - x1, y2 - y1), interpolation=cv2.INTER_AREA)
    alpha = piece[..., 3:4]
    region = img[y1:y2, x1:x2].astype(np.float32)
    img[y1:y2, x1:x2] = (region * (1 - alpha) + piece[..., :3] * 255.0 * alpha).astype(np.uint8)


def _draw(img: np.ndarray, label: str, ts: TileSet, rng: np.random.Generator) -> None:
    number, suit = label[0], label[1]
    red = number == "0"
    n = 5 if red else int(number)
    if suit == "m":
        _characters(img, n, red, ts, rng)
    elif suit == "p":
        _dots(img, n, red, ts, rng)
    elif suit == "s":
        _bamboo(img, n, red, ts, rng)
    elif suit == "z":
        _honour(img, n, ts, rng)
    else:
        _bonus(img, n, ts, rng)
    if ts.corner_index and suit in "mpsz" and (suit != "z" or n <= 4) and ts.latin_font is not None:
        mark = WIND_LETTERS[n - 1] if suit == "z" else str(n)
        put_glyph(img, mark, (0.03, 0.02, 0.2, 0.16), ts.index_colour, ts.latin_font)


def _jit(rng: np.random.Generator, box: tuple[float, float, float, float], amount: float = 0.03):
    return tuple(v + rng.uniform(-amount, amount) for v in box)


def _characters(img, n, red, ts, rng) -> None:
    numeral = ts.five_char if n == 5 else NUMERALS[n - 1]
    top = 0.08 if not ts.corner_index else 0.12
    num_colour = ts.red_colour if red else ts.number_colour
    put_glyph(img, numeral, _jit(rng, (0.18, top, 0.82, 0.44)), num_colour, ts.cjk_font)
    put_glyph(img, ts.wan_char, _jit(rng, (0.12, 0.47, 0.88, 0.94)), ts.red_colour if red else ts.wan_colour,
              ts.cjk_font)


def _dots(img, n, red, ts, rng) -> None:
    palette = ts.coin_colours
    if red:
        palette = (ts.red_colour, ts.red_colour, ts.red_colour)
    if n == 1:
        pips.big_coin(img, palette, rng)
        return
    style = ts.coin_style
    r = pips.COIN_RADIUS[n] * rng.uniform(0.92, 1.05)
    for x, y, slot in pips.COIN_LAYOUTS[n]:
        x = 0.5 + (x - 0.5) * 0.92
        y = 0.5 + (y - 0.5) * 0.9
        main = palette[slot]
        inner = palette[(slot + 1) % 3] if style == 1 else main
        pips.coin(img, x, y, r, (main, inner), style)


def _bamboo(img, n, red, ts, rng) -> None:
    if n == 1:
        pips.bird(img, [ts.green_colour, ts.red_colour, ts.blue_colour, (30, 160, 220)], rng)
        return
    colours = (ts.green_colour, ts.red_colour, ts.blue_colour if rng.random() < 0.5 else ts.green_colour)
    width = rng.uniform(0.07, 0.1)
    for x, y, length, tilt, slot in pips.STICK_LAYOUTS[n]:
        colour = ts.red_colour if red else colours[slot]
        pips.stick(img, 0.5 + (x - 0.5) * 0.9, 0.5 + (y - 0.5) * 0.9, length * 0.92, tilt, colour, width)


def _honour(img, n, ts, rng) -> None:
    if n <= 4:
        put_glyph(img, WINDS[n - 1], _jit(rng, (0.1, 0.14, 0.9, 0.88)), ts.wind_colour, ts.cjk_font)
    elif n == 5:
        _white_dragon(img, ts, rng)
    elif n == 6:
        put_glyph(img, "發" if rng.random() < 0.85 else "発", _jit(rng, (0.08, 0.14, 0.92, 0.86)), ts.green_colour,
                  ts.cjk_font)
    else:
        put_glyph(img, "中", _jit(rng, (0.12, 0.1, 0.88, 0.9)), ts.red_colour, ts.cjk_font, stretch=True)


def _white_dragon(img, ts, rng) -> None:
    if ts.white_frame == "blank":
        return
    h, w = img.shape[:2]
    mx, my = rng.uniform(0.14, 0.22), rng.uniform(0.12, 0.18)
    th = max(2, int(w * rng.uniform(0.05, 0.08)))
    p1, p2 = (int(w * mx), int(h * my)), (int(w * (1 - mx)), int(h * (1 - my)))
    cv2.rectangle(img, p1, p2, ts.white_colour, th, cv2.LINE_AA)
    if ts.white_frame == "double":
        inset = th * 2
        cv2.rectangle(img, (p1[0] + inset, p1[1] + inset), (p2[0] - inset, p2[1] - inset), ts.white_colour,
                      max(1, th // 2), cv2.LINE_AA)
    if ts.white_char and ts.cjk_font is not None:
        put_glyph(img, ts.white_char, (mx + 0.12, my + 0.15, 1 - mx - 0.12, 1 - my - 0.15), ts.red_colour, ts.cjk_font)


def _bonus(img, n, ts, rng) -> None:
    """Flowers 1-4 and seasons 5-8, each group in its own convention of the set."""
    draw_bonus(img, n, ts.seasons if n > 4 else ts.flowers, ts.bonus_ink, ts.cjk_font, ts.latin_font, rng)
