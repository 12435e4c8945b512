"""A tile set as a maker makes it: face and back colours, the colours of characters and dots,
fonts, how the white dragon and the flowers look. One set is drawn per scene, as on a real table."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import fluffy, glyphs
from .bonus import BonusStyle, random_style, told_apart
from .brush import Ink

Colour = tuple[int, int, int]  # BGR

FACE_COLOURS: tuple[Colour, ...] = ((246, 248, 248), (236, 243, 246), (222, 236, 240), (238, 240, 236),
                                    (214, 232, 238), (250, 250, 250), (228, 240, 232))
BACK_COLOURS: tuple[Colour, ...] = ((40, 120, 40), (150, 90, 20), (40, 170, 230), (40, 110, 230), (50, 50, 200),
                                    (120, 60, 30), (90, 150, 60), (160, 120, 200), (70, 40, 110), (200, 180, 80),
                                    (30, 30, 30), (60, 60, 170))
REDS: tuple[Colour, ...] = ((40, 40, 200), (50, 50, 175), (60, 30, 220), (45, 60, 190))
GREENS: tuple[Colour, ...] = ((60, 130, 30), (50, 110, 20), (80, 150, 40), (70, 120, 60))
BLUES: tuple[Colour, ...] = ((170, 80, 20), (190, 110, 30), (140, 60, 30), (200, 90, 40))
PINKS: tuple[Colour, ...] = ((130, 100, 230), (110, 80, 210))
BLACKS: tuple[Colour, ...] = ((25, 25, 25), (40, 35, 30), (20, 20, 45))


@dataclass(frozen=True)
class TileSet:
    art: str                       # "fluffy" (CC0 artwork) or "drawn"
    face: Colour
    back: Colour
    fluffy_variant: str = "Regular"
    cjk_font: Path | None = None
    latin_font: Path | None = None
    number_colour: Colour = BLACKS[0]   # 一..九 on characters
    wan_colour: Colour = REDS[0]        # 萬
    wan_char: str = "萬"
    five_char: str = "五"
    wind_colour: Colour = BLACKS[0]
    red_colour: Colour = REDS[0]
    green_colour: Colour = GREENS[0]
    blue_colour: Colour = BLUES[0]
    white_frame: str = "frame"         # "blank", "frame" or "double"
    white_colour: Colour = BLUES[0]
    white_char: str = ""               # some Hong Kong sets print a maker's character inside the frame
    coin_colours: tuple[Colour, Colour, Colour] = (GREENS[0], BLUES[0], REDS[0])
    coin_style: int = 0
    corner_index: bool = False         # small 1-9 / E S W N in the corner, as on Western sets
    index_colour: Colour = REDS[0]
    flowers: BonusStyle = BonusStyle()
    seasons: BonusStyle = BonusStyle(script="chinese", number_colour=REDS[0], name_colour=BLACKS[0], picture="generic")
    bonus_ink: Ink = Ink(GREENS[0], REDS[0], BLUES[0], (40, 60, 90), FACE_COLOURS[0], False)
    body_depth: float = 0.18           # tile thickness as a fraction of face height
    back_share: float = 0.5            # how much of the thickness is back-coloured


def random_set(rng: np.random.Generator, art: str | None = None) -> TileSet:
    """A plausible set: riichi-like artwork or a drawn Japanese / Chinese / Hong Kong style."""
    arts = available_arts()
    if art is None:
        art = arts[int(rng.integers(len(arts)))] if len(arts) == 1 else ("fluffy" if rng.random() < 0.3 and "fluffy" in arts else "drawn")
    if art not in arts:
        raise ValueError(f"tile art {art!r} is not available here (have {', '.join(arts) or 'none'})")
    pick = lambda seq: seq[int(rng.integers(len(seq)))]  # noqa: E731
    face = pick(FACE_COLOURS)
    back = pick(BACK_COLOURS)
    depth = float(rng.uniform(0.1, 0.3))
    share = float(rng.uniform(0.3, 0.75))
    if art == "fluffy":
        variant = "Black" if rng.random() < 0.12 else "Regular"
        return TileSet("fluffy", (30, 30, 30) if variant == "Black" else face, back, variant,
                       body_depth=depth, back_share=share)
    chinese = rng.random() < 0.6
    numerals = rng.random()
    cjk = glyphs.cjk_fonts()
    latin = glyphs.latin_fonts()
    blue, red, green = pick(BLUES), pick(REDS), pick(GREENS)
    inks = (red, blue, green)   # the order `bonus.random_style` takes them in
    return TileSet(
        art="drawn", face=face, back=back,
        cjk_font=pick(cjk) if cjk else None, latin_font=pick(latin) if latin else None,
        number_colour=(blue if numerals < 0.5 else red if numerals < 0.65 else pick(BLACKS)) if chinese else pick(BLACKS),
        wan_colour=red, wan_char="万" if rng.random() < 0.08 else "萬",
        five_char="伍" if chinese and rng.random() < 0.7 else "五",
        wind_colour=blue if chinese and rng.random() < 0.6 else pick(BLACKS),
        red_colour=red, green_colour=green, blue_colour=blue,
        white_frame=pick(("frame", "frame", "double")) if chinese else pick(("blank", "blank", "frame")),
        white_colour=blue if rng.random() < 0.6 else pick(BLACKS),
        white_char=pick(("耀", "券", "才", "證", "發", "寶")) if chinese and rng.random() < 0.25 else "",
        coin_colours=(green, blue if rng.random() < 0.75 else pick(BLACKS), red),
        coin_style=int(rng.integers(0, 3)),
        corner_index=bool(rng.random() < 0.2),
        index_colour=pick((red, pick(BLACKS), blue)),
        flowers=(flowers := random_style(rng, False, inks, BLACKS)),
        seasons=told_apart(flowers, random_style(rng, True, inks, BLACKS), inks),
        bonus_ink=Ink(leaf=green, bloom=red if rng.random() < 0.8 else PINKS[int(rng.integers(len(PINKS)))],
                      accent=pick((blue, red, PINKS[0], (40, 140, 230))), branch=pick(((40, 60, 90), BLACKS[0], green)),
                      face=face, outline=bool(rng.random() < 0.6)),
        body_depth=depth, back_share=share,
    )


def has_red_fives(ts: TileSet) -> bool:
    """Sets that print their character numerals in red cannot mark a red five apart."""
    return ts.number_colour not in REDS


def available_arts() -> tuple[str, ...]:
    """The face artworks usable here: the CC0 set when its files are found, drawn faces when
    fonts are (dots and bamboo alone cannot make a set)."""
    arts = []
    if fluffy.available():
        arts.append("fluffy")
    if glyphs.available():
        arts.append("drawn")
    return tuple(arts)
