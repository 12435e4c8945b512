"""A hand's tiles counted by kind, once, for the checks and the scoring both.

Its own module so that it is compiled with the scorer's hot path (setup.py): `scorer.hand`, whose
classes every rule set shares, stays Python.
"""
from __future__ import annotations

from typing import NamedTuple

from .hand import WinningHand
from .tiles import FIRST_BONUS


class Tally(NamedTuple):
    """A hand's tiles by kind, bonus kinds included (42 counts), counted once by `tally_tiles`
    for the checks and the scoring both: a Python loop over the tiles is a few percent of
    scoring a hand. Shared by its readers: read, never changed."""
    concealed: list[int]        # the closed part's tiles, winning tile included
    every: list[int]            # ... and the melds' (the same list when there are none)
    reds: list[int]             # the kinds of the red fives among them, the concealed ones first
    concealed_reds: int         # how many of `reds` are concealed


def tally_tiles(hand: WinningHand) -> Tally:
    concealed = [0] * (FIRST_BONUS + 8)
    reds = []
    for tile in hand.concealed:
        concealed[tile.kind] += 1
        if tile.red:
            reds.append(tile.kind)
    concealed_reds = len(reds)
    every = concealed
    if hand.melds:
        every = list(concealed)
        for meld in hand.melds:
            for tile in meld.tiles:
                every[tile.kind] += 1
                if tile.red:
                    reds.append(tile.kind)
    return tuple.__new__(Tally, (concealed, every, reds, concealed_reds))     # made in C, as for a Reading
