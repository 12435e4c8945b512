"""Base points and limit hands: mangan, haneman, baiman, sanbaiman, yakuman and beyond.

A hand's base points are fu x 2^(2 + han), capped at mangan (2000); from 5 han the limit
table applies. Every payment is a multiple of the base (ron 4x, dealer ron 6x; tsumo 1x or
2x a payer), so the base is the one number the payment rules need.
"""
from __future__ import annotations

from typing import Final

from .rules import Rules

MANGAN: Final = 2000
YAKUMAN: Final = 8000

# han -> (base, limit name), for han at or above the mangan line.
_HAN_LIMITS: Final = ((11, 6000, "sanbaiman"), (8, 4000, "baiman"), (6, 3000, "haneman"), (5, 2000, "mangan"))
_MULTIPLE_NAMES: Final = ("", "yakuman", "double_yakuman", "triple_yakuman", "quadruple_yakuman",
                          "quintuple_yakuman", "sextuple_yakuman", "septuple_yakuman", "octuple_yakuman")


def yakuman_name(count: int) -> str:
    """The limit name of `count` yakuman: yakuman, double_yakuman, triple_yakuman ..."""
    if count < len(_MULTIPLE_NAMES):
        return _MULTIPLE_NAMES[count]
    return f"{count}x_yakuman"


def base_points(han: int, fu: int, yakuman: int, rules: Rules) -> tuple[int, str | None]:
    """The base points of a hand and its limit name (None below mangan).

    `yakuman` counts yakuman (2 for a double, or two different yakuman stacked); when it is
    non-zero `han` and `fu` are ignored. 13 or more counted han is a kazoe yakuman, or
    sanbaiman where `rules.kazoe` says so. With `rules.kiriage`, 4 han 30 fu and 3 han 60 fu
    (base 1920) are paid as mangan ("kiriage_mangan").
    """
    if yakuman > 0:
        return YAKUMAN * yakuman, yakuman_name(yakuman)
    if han >= 13:
        if rules.kazoe == "yakuman":
            return YAKUMAN, "kazoe_yakuman"
        return 6000, "sanbaiman"
    if han >= 5:
        for least, base, name in _HAN_LIMITS:
            if han >= least:
                return base, name
    if han <= 0:
        return 0, None
    base = fu * 2 ** (2 + han)
    if base >= MANGAN:
        return MANGAN, "mangan"
    if rules.kiriage and (han, fu) in ((4, 30), (3, 60)):
        return MANGAN, "kiriage_mangan"
    return base, None
