"""Tile pictures as inline SVG, drawn here so the app needs no image files.

`tile_svg("5m")` returns one tile; the record page clones pre-rendered tiles for its picker,
so this is the only drawing code. Red fives are drawn in red; `back` is a face-down tile.
"""
from __future__ import annotations

from functools import lru_cache

from flask import Flask
from markupsafe import Markup

KANJI_NUMBERS = "一二三四五六七八九"
HONOURS = {1: ("東", "#1b1b1b"), 2: ("南", "#1b1b1b"), 3: ("西", "#1b1b1b"), 4: ("北", "#1b1b1b"),
           6: ("發", "#1c7c3c"), 7: ("中", "#c8102e")}
BONUS = {1: "梅", 2: "蘭", 3: "菊", 4: "竹", 5: "春", 6: "夏", 7: "秋", 8: "冬"}
BLUE, GREEN, RED = "#1f4e9c", "#1c7c3c", "#c8102e"

PIN_LAYOUT: dict[int, tuple[float, list[tuple[float, float]]]] = {
    1: (9.5, [(15, 20)]),
    2: (5.5, [(15, 11), (15, 29)]),
    3: (4.6, [(8, 9), (15, 20), (22, 31)]),
    4: (5.0, [(9.5, 11), (20.5, 11), (9.5, 29), (20.5, 29)]),
    5: (4.3, [(8.5, 9), (21.5, 9), (15, 20), (8.5, 31), (21.5, 31)]),
    6: (4.2, [(10, 9), (20, 9), (10, 22), (20, 22), (10, 32), (20, 32)]),
    7: (3.5, [(7, 7), (15, 10), (23, 13), (10, 23), (20, 23), (10, 32), (20, 32)]),
    8: (3.6, [(10, 7), (20, 7), (10, 15.7), (20, 15.7), (10, 24.3), (20, 24.3), (10, 33), (20, 33)]),
    9: (3.7, [(7, 9), (15, 9), (23, 9), (7, 20), (15, 20), (23, 20), (7, 31), (15, 31), (23, 31)]),
}
SOU_LAYOUT: dict[int, list[tuple[float, float]]] = {
    2: [(15, 12), (15, 28)],
    3: [(15, 12), (9, 28), (21, 28)],
    4: [(9, 12), (21, 12), (9, 28), (21, 28)],
    5: [(8, 12), (22, 12), (15, 20), (8, 28), (22, 28)],
    6: [(7, 12), (15, 12), (23, 12), (7, 28), (15, 28), (23, 28)],
    7: [(15, 8), (7, 20), (15, 20), (23, 20), (7, 32), (15, 32), (23, 32)],
    8: [(6, 12), (12, 12), (18, 12), (24, 12), (6, 28), (12, 28), (18, 28), (24, 28)],
    9: [(7, 8), (15, 8), (23, 8), (7, 20), (15, 20), (23, 20), (7, 32), (15, 32), (23, 32)],
}


def _pin_colour(n: int, i: int, red: bool) -> str:
    if red or (n == 1) or (n == 5 and i == 2) or (n == 9 and i in (3, 4, 5)):
        return RED
    if n in (2, 4, 6, 8) and i in (0, 1):
        return GREEN
    if n == 7 and i < 3:
        return GREEN
    return BLUE


def _pins(n: int, red: bool) -> str:
    radius, spots = PIN_LAYOUT[n]
    parts = []
    for i, (x, y) in enumerate(spots):
        colour = _pin_colour(n, i, red)
        parts.append(f'<circle cx="{x}" cy="{y}" r="{radius}" fill="none" stroke="{colour}" stroke-width="{radius * .32:.2f}"/>'
                     f'<circle cx="{x}" cy="{y}" r="{radius * .38:.2f}" fill="{colour}"/>')
    return "".join(parts)


def _sou(n: int, red: bool) -> str:
    if n == 1:
        return (f'<ellipse cx="15" cy="23" rx="7" ry="9" fill="{GREEN}"/>'
                f'<circle cx="15" cy="11" r="4.5" fill="{RED if not red else GREEN}"/>'
                f'<path d="M15 15 L11 8 M15 15 L19 8" stroke="{BLUE}" stroke-width="1.4"/>'
                f'<path d="M9 30 L15 36 L21 30" fill="none" stroke="{RED}" stroke-width="1.6"/>')
    height = 9 if n in (7, 9) else 12
    width = 3.2 if n == 8 else 4
    parts = []
    for i, (x, y) in enumerate(SOU_LAYOUT[n]):
        colour = RED if red or (n == 5 and i == 2) or (n == 7 and i == 0) or (n == 9 and i in (1, 4, 7)) else GREEN
        parts.append(f'<rect x="{x - width / 2}" y="{y - height / 2}" width="{width}" height="{height}" rx="1.6" fill="{colour}"/>'
                     f'<line x1="{x - width / 2}" y1="{y}" x2="{x + width / 2}" y2="{y}" stroke="#fff" stroke-width=".7"/>')
    return "".join(parts)


def _man(n: int, red: bool) -> str:
    numeral_colour = RED if red else "#1b1b1b"
    return (f'<text x="15" y="17" font-size="14" text-anchor="middle" fill="{numeral_colour}" '
            f'font-family="Noto Sans CJK JP, Hiragino Sans, Yu Gothic, sans-serif" font-weight="700">{KANJI_NUMBERS[n - 1]}</text>'
            f'<text x="15" y="35" font-size="15" text-anchor="middle" fill="{RED}" '
            f'font-family="Noto Serif CJK JP, Hiragino Mincho ProN, Yu Mincho, serif" font-weight="700">萬</text>')


def _honour(n: int) -> str:
    if n == 5:
        return f'<rect x="7" y="9" width="16" height="22" rx="1.5" fill="none" stroke="{BLUE}" stroke-width="2"/>'
    char, colour = HONOURS[n]
    return (f'<text x="15" y="27" font-size="19" text-anchor="middle" fill="{colour}" '
            f'font-family="Noto Serif CJK JP, Hiragino Mincho ProN, Yu Mincho, serif" font-weight="700">{char}</text>')


def _bonus(n: int) -> str:
    colour = RED if n <= 4 else BLUE
    return (f'<text x="15" y="26" font-size="17" text-anchor="middle" fill="{colour}" '
            f'font-family="Noto Serif CJK JP, serif" font-weight="700">{BONUS[n]}</text>'
            f'<text x="25" y="9" font-size="7" text-anchor="middle" fill="{colour}">{(n - 1) % 4 + 1}</text>')


def face(code: str) -> str:
    """The drawing on a tile's face for an MPSZ code like `5m`, `0p`, `7z`, `3f`, or `back`."""
    if code == "back":
        return ""
    digit, suit = int(code[0]), code[1]
    red = digit == 0 and suit in "mps"
    n = 5 if red else digit
    if suit == "m" and 1 <= n <= 9:
        return _man(n, red)
    if suit == "p" and 1 <= n <= 9:
        return _pins(n, red)
    if suit == "s" and 1 <= n <= 9:
        return _sou(n, red)
    if suit == "z" and 1 <= n <= 7:
        return _honour(n)
    if suit == "f" and 1 <= n <= 8:
        return _bonus(n)
    raise ValueError(f"no tile {code!r}")


@lru_cache(maxsize=128)
def _svg(code: str, label: str) -> str:
    body_fill = "#2f7d5b" if code == "back" else "#fbf8ef"
    return (f'<svg class="tile-svg" viewBox="0 0 30 42" role="img" aria-label="{label}">'
            f'<rect x=".5" y="2.5" width="29" height="39" rx="3.5" fill="#d9cfb2"/>'
            f'<rect x=".5" y=".5" width="29" height="39" rx="3.5" fill="{body_fill}" stroke="#b9ae90" stroke-width=".8"/>'
            f'{face(code)}</svg>')


def tile_svg(code: str) -> Markup:
    return Markup(_svg(code, code))


# The picker's order: each suit 1-9 then its red five, then the honours
ALL_KINDS = ([f"{n}{s}" for s in "mps" for n in (*range(1, 10), 0)] + [f"{n}z" for n in range(1, 8)])
BONUS_KINDS = [f"{n}f" for n in range(1, 9)]
# Three-player riichi plays the characters 1 and 9 alone (so no red five of characters).
_NOT_IN_THREE_PLAYER = {f"{n}m" for n in (0, *range(2, 9))}


def picker_kinds(rules: str, players: int) -> list[str]:
    """The tiles a rule set's game is played with, as the record page's picker offers them: red
    fives are riichi's alone (the Fundamentals and classical Chinese texts have none), flowers
    and seasons classical Chinese's, and three-player riichi has no 2m to 8m."""
    if rules == "riichi":
        return [k for k in ALL_KINDS if players == 4 or k not in _NOT_IN_THREE_PLAYER]
    plain = [k for k in ALL_KINDS if not k.startswith("0")]
    return plain + BONUS_KINDS if rules == "chinese-classical" else plain


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(tile_svg=tile_svg, ALL_TILE_KINDS=ALL_KINDS, BONUS_TILE_KINDS=BONUS_KINDS)
