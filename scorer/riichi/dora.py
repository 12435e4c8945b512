"""Dora: from indicators (the next tile: 9 wraps to 1, North to East, Red to White; in
three-player 1m points at 9m), ura dora under them for a riichi winner, red fives, and the
north tiles set aside in three-player (nukidora).

Each kind is one yaku entry whose han is the count; zero counts are left out.
"""
from __future__ import annotations

from ..hand import WinningHand
from ..tiles import NORTH, dora_from_indicator
from .rules import Rules


def dora_of(hand: WinningHand, every: list[int], rules: Rules) -> list[tuple[str, int]]:
    """[(id, count)] for dora, aka_dora, ura_dora and nukidora; `every` counts all the hand's
    tiles by kind, melds included (a kan's four tiles all count)."""
    north_aside = hand.nukidora if rules.three_player else 0
    found = [("dora", _from_indicators(hand.dora_indicators, every, north_aside, rules))]
    if rules.aka:
        red = len([t for t in hand.concealed if t.red])
        for meld in hand.melds:
            red += len([t for t in meld.tiles if t.red])
        found.append(("aka_dora", red))
    if rules.ura and (hand.riichi or hand.double_riichi):
        found.append(("ura_dora", _from_indicators(hand.ura_indicators, every, north_aside, rules)))
    if north_aside and rules.nukidora:
        found.append(("nukidora", north_aside))
    return [item for item in found if item[1]]


def _from_indicators(indicators, every: tuple[int, ...], north_aside: int, rules: Rules) -> int:
    total = 0
    for indicator in indicators:
        dora = dora_from_indicator(indicator.kind, rules.three_player)
        total += every[dora] + (north_aside if dora == NORTH else 0)
    return total
