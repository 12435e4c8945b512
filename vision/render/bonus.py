"""Flower (1-4) and season (5-8) faces as makers print them: a big picture, the number 1-4 in a
top corner in Arabic or Chinese numerals, and often the name in the other corner.

Within one set the flowers and the seasons follow two conventions chosen independently
(numeral script and colour, name or none), so no colour or script alone tells a flower from
a season; only the picture, the name and the number do. Many makers draw plum and
chrysanthemum as the same round blossom the seasons bear (see `told_apart`), so the picture
alone does not tell them either.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from . import plants
from .brush import Ink
from .glyphs import put_glyph

Colour = tuple[int, int, int]  # BGR
NUMERALS = "一二三四"
NAMES = "梅蘭菊竹春夏秋冬"
SEASON_WORDS = (("SPRING", "SUMMER", "AUTUMN", "WINTER"), ("SPR", "SUM", "AUT", "WIN"))


@dataclass(frozen=True)
class BonusStyle:
    """How one set prints its flowers, or its seasons."""
    script: str = "arabic"          # numerals: "arabic" or "chinese"
    number_colour: Colour = (170, 80, 20)
    name: str = "cjk"               # "cjk" (梅 .. 冬), "latin" (seasons: SPRING ..) or "none"
    name_colour: Colour = (40, 40, 200)
    number_left: bool = True        # the number in the top-left corner, the name top-right
    number_scale: float = 1.0       # makers print the number from small to large and bold
    picture: str = "own"            # seasons: "generic", "vessel" or "own" (the season's plant);
                                    # flowers: "own" or "blossom" (plum and chrysanthemum a round blossom)
    seed: int = 0                   # one set draws each tile's picture the same way every time


def random_style(rng: np.random.Generator, season: bool, inks: tuple[Colour, ...],
                 blacks: tuple[Colour, ...]) -> BonusStyle:
    """One convention for a set's flowers (`season` False) or seasons; `inks` = (red, blue, green)."""
    red, blue, green = inks
    pick = lambda seq: seq[int(rng.integers(len(seq)))]  # noqa: E731
    roll = rng.random()
    name = "cjk" if roll < 0.6 else "latin" if season and roll < 0.72 else "none"
    style = BonusStyle(
        script="chinese" if rng.random() < 0.35 else "arabic",
        number_colour=pick((red, red, blue, blue, pick(blacks), green)),
        name=name,
        name_colour=pick((red, red, blue, pick(blacks), pick(blacks), green)),
        number_left=bool(rng.random() < 0.7),
        number_scale=float(rng.uniform(0.8, 1.15)),
        picture=pick(("generic", "generic", "vessel", "own")) if season else "own",
        seed=int(rng.integers(1 << 30)),
    )
    if season:
        return style
    # drawn from the style's own seed, so every other draw of a set stays as it was
    own_rng = np.random.default_rng([style.seed, 1])
    return replace(style, picture="blossom" if own_rng.random() < 0.35 else "own")


def told_apart(flowers: BonusStyle, seasons: BonusStyle, inks: tuple[Colour, ...]) -> BonusStyle:
    """The seasons' convention, changed where a player could not tell them from the flowers.
    Where both groups may show the round blossom and neither prints a name, a maker tells
    them apart by the numbers' print; a crop of such a set must carry what tells them apart,
    or the model learns a coin toss."""
    shared_picture = flowers.picture == "blossom" and seasons.picture != "vessel"
    unnamed = flowers.name == "none" and seasons.name == "none"
    same_print = flowers.script == seasons.script and flowers.number_colour == seasons.number_colour
    if not (shared_picture and unnamed and same_print):
        return seasons
    others = [c for c in inks if c != flowers.number_colour]
    pick = np.random.default_rng([seasons.seed, 2]).integers(len(others))
    return replace(seasons, number_colour=others[int(pick)])


def draw_bonus(img: np.ndarray, n: int, style: BonusStyle, ink: Ink, cjk_font, latin_font,
               rng: np.random.Generator) -> None:
    """Flower or season `n` (1-8) on the face `img`."""
    h, w = img.shape[:2]
    number = (n - 1) % 4 + 1
    season = n > 4
    has_corner_name = style.name == "cjk" and cjk_font is not None
    top = 0.22 if has_corner_name or style.number_scale < 1.0 else 0.26
    area = (w * 0.06, h * top, w * 0.94, h * 0.97)
    # the same tile of one set shows the same picture; the light and camera vary, not the carving
    pic_rng = np.random.default_rng([style.seed, n])
    _picture(img, n, style, ink, area, pic_rng)
    s = style.number_scale
    corner_w, corner_h = 0.3 * s, 0.22 * s
    left_box = (0.04, 0.03, 0.04 + corner_w, 0.03 + corner_h)
    right_box = (0.96 - corner_w, 0.03, 0.96, 0.03 + corner_h)
    num_box, name_box = (left_box, right_box) if style.number_left else (right_box, left_box)
    num_box = _jitter(rng, num_box)
    if style.script == "chinese" and cjk_font is not None:
        put_glyph(img, NUMERALS[number - 1], num_box, style.number_colour, cjk_font)
    elif latin_font is not None:
        put_glyph(img, str(number), num_box, style.number_colour, latin_font)
    if has_corner_name:
        name_box = (name_box[0], name_box[1], name_box[2], name_box[1] + 0.25)
        put_glyph(img, NAMES[n - 1], _jitter(rng, name_box), style.name_colour, cjk_font)
    elif style.name == "latin" and season and latin_font is not None:
        words = SEASON_WORDS[style.seed % 2]
        box = (0.38, 0.06, 0.94, 0.16) if style.number_left else (0.06, 0.06, 0.62, 0.16)
        put_glyph(img, words[number - 1], box, style.name_colour, latin_font)


def _picture(img: np.ndarray, n: int, style: BonusStyle, ink: Ink, area, rng: np.random.Generator) -> None:
    if n <= 4:
        blossom = style.picture == "blossom" and n in (1, 3)
        (plants.peony if blossom else plants.FLOWERS[n - 1])(img, area, ink, rng)
    elif style.picture == "generic":
        plants.peony(img, area, ink, rng)
    elif style.picture == "vessel":
        above = plants.vessel(img, area, ink, rng)
        (plants.peony if rng.random() < 0.6 else plants.SEASONAL[n - 5][0])(img, above, ink, rng)
    else:
        own = plants.SEASONAL[n - 5]
        own[int(rng.integers(len(own)))](img, area, ink, rng)


def _jitter(rng: np.random.Generator, box, amount: float = 0.012):
    return tuple(v + rng.uniform(-amount, amount) for v in box)
