"""A game's results as clubs write them down: in thousands of points, rounded the club's way.

The settlement counts a riichi result in points (score - return points + uma + oka, and a
share of chombo penalties). Clubs write it in thousands and round it one of three ways; the
page, the CSV and the charts all call `round_game` (or `round_result` for one number) and
`format_result`, so the three never disagree:

- ``tenhou``: to 0.1 (one decimal of thousands, what Tenhou shows). Scores move in hundreds,
  so this is exact unless a chombo penalty was shared out in odd points; those round half
  away from zero.
- ``gosha_rokunyu`` (五捨六入, "drop five, raise six"): to the whole thousand by the hundreds
  digit, 500 or less dropped and 600 or more raised: 34,500 is 34 and 34,600 is 35. It is
  decided on the number line, where the score itself is decided (return points, uma and oka
  are whole thousands, so rounding the result or the score gives the same): a bust at -1,500
  sits 500 above -2,000, so -2.
- ``none``: the exact result in thousands (-12.3 stays -12.3, 250 points are 0.25).

Rounding each player alone can leave a table that no longer adds up (four players at
+0.5 each under 五捨六入); clubs give the difference to first place, so `round_game` does too.
"""
from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal

ROUNDINGS = ("tenhou", "gosha_rokunyu", "none")
DEFAULT_ROUNDING = "tenhou"
# How each rounding is named to players (the Japanese name where clubs use it).
ROUNDING_NAMES = {"tenhou": "Tenhou style, to 0.1", "gosha_rokunyu": "五捨六入 (500 down, 600 up)",
                  "none": "exact"}
_THOUSAND = Decimal(1000)


def check_rounding(rounding: str) -> str:
    """`rounding` when it is one of ROUNDINGS; a ValueError in a player's words otherwise."""
    if rounding not in ROUNDINGS:
        raise ValueError(f"rounding is one of {', '.join(ROUNDINGS)}, not {rounding!r}")
    return rounding


def round_result(points: int, rounding: str = DEFAULT_ROUNDING) -> Decimal:
    """One result in points as a club writes it, in thousands (a Decimal, so 0.1 stays 0.1)."""
    check_rounding(rounding)
    if rounding == "none":
        return Decimal(points) / _THOUSAND
    if rounding == "tenhou":
        return (Decimal(points) / _THOUSAND).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    thousands, over = divmod(points, 1000)          # floor: `over` is 0..999 above the thousand below
    return Decimal(thousands + (1 if over // 100 >= 6 else 0))


def round_game(results: Sequence[int], rounding: str = DEFAULT_ROUNDING, first: int = 0) -> tuple[Decimal, ...]:
    """Each result of one game rounded, the difference the rounding made to the table's sum
    given to `first` (the index of first place in `results`), so the rounded table adds up to
    the exact sum (zero unless riichi sticks were lost)."""
    rounded = [round_result(r, rounding) for r in results]
    if rounding != "none" and rounded:
        exact = round_result(sum(results), "none")
        rounded[first] += exact - sum(rounded)
        if rounding == "tenhou":
            rounded[first] = rounded[first].quantize(Decimal("0.1"))
    return tuple(rounded)


def format_result(value: Decimal | float | int, rounding: str = DEFAULT_ROUNDING) -> str:
    """A rounded result with its sign, as standings write it: +45.3, -12.0 (tenhou), +4, -2
    (五捨六入), +0.25 (none: as many decimals as it needs)."""
    check_rounding(rounding)
    number = Decimal(str(value)) if not isinstance(value, Decimal) else value
    if rounding == "tenhou":
        text = f"{number.quantize(Decimal('0.1'), rounding=ROUND_HALF_UP):.1f}"
    elif rounding == "gosha_rokunyu":
        text = f"{number.quantize(Decimal(1), rounding=ROUND_HALF_UP):.0f}"
    else:
        text = format(number.normalize(), "f") if number else "0"
    if text.startswith("-") and not any(ch in "123456789" for ch in text):
        text = text[1:]                       # no "-0.0"
    return text if text.startswith("-") else "+" + text
