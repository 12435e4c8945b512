"""Dora: from indicators (the next tile: 9 wraps to 1, North to East, Red to White; in
three-player 1m points at 9m), ura dora under them for a riichi winner, red fives, and the
north tiles set aside in three-player (nukidora).

Each kind is one yaku entry whose han is the count; zero counts are left out.
"""
from __future__ import annotations

from typing import Final

from ..hand import WinningHand
from ..tiles import NORTH, dora_from_indicator
from .rules import Rules


def dora_of(hand: WinningHand, every: list[int], reds: int, rules: Rules) -> list[tuple[str, int]]:
    """[(id, count)] for dora, aka_dora, ura_dora and nukidora; `every` counts all the hand's
    tiles by kind, melds included (a kan's four tiles all count), `reds` its red fives."""
    north_aside = hand.nukidora if rules.three_player else 0
    found = []
    if hand.dora_indicators:
        count = _from_indicators(hand.dora_indicators, every, north_aside, rules)
        if count:
            found.append(("dora", count))
    if rules.aka and reds:
        found.append(("aka_dora", reds))
    if hand.ura_indicators and rules.ura and (hand.riichi or hand.double_riichi):
        count = _from_indicators(hand.ura_indicators, every, north_aside, rules)
        if count:
            found.append(("ura_dora", count))
    if north_aside and rules.nukidora:
        found.append(("nukidora", north_aside))
    return found


# The tile each indicator kind points at, four- and three-player (looked up, not recomputed).
_POINTS_AT: Final = {False: tuple(dora_from_indicator(k) for k in range(34)),
                     True: tuple(dora_from_indicator(k, True) for k in range(34))}


def _from_indicators(indicators, every: list[int], north_aside: int, rules: Rules) -> int:
    points_at = _POINTS_AT[rules.three_player]
    total = 0
    for indicator in indicators:
        dora = points_at[indicator.kind]
        total += every[dora] + (north_aside if dora == NORTH else 0)
    return total
