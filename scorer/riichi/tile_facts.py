"""The facts of a hand's tiles that yaku look at (which suits, honours, only simples, no
simples, only terminals, only green tiles), as bits.

Each fact is "some tile is" or "no tile is", so each kind held sets a few bits, the bits are
ORed over the kinds held, and the facts are looked up by the bits: where a test per fact reads
all 34 counts. `readings` keeps a block's bits with its ways, by the block's counts.
"""
from __future__ import annotations

from itertools import compress
from typing import Final

from ..tiles import GREEN

SIMPLES: Final = frozenset(k for k in range(27) if k % 9 not in (0, 8))
TERMINALS: Final = frozenset(k for k in range(27) if k % 9 in (0, 8))
GREEN_TILES: Final = frozenset((19, 20, 21, 23, 25, GREEN))     # 2 3 4 6 8 bamboo and the green dragon

HELD_BITS: Final = (1, 2, 4, 8)       # a tile of the block: characters, dots, bamboo, honours
SIMPLE_BIT: Final = 16
OUTSIDE_BIT: Final = 32
NOT_GREEN_BIT: Final = 64
_KIND_BITS: Final = tuple(HELD_BITS[kind // 9 if kind < 27 else 3]
                          | (SIMPLE_BIT if kind in SIMPLES else OUTSIDE_BIT)
                          | (0 if kind in GREEN_TILES else NOT_GREEN_BIT) for kind in range(34))


def block_bits(counts: bytes, start: int) -> int:
    """The bits of the kinds held, `counts` counting from kind `start`."""
    bits = 0
    for kind in compress(range(start, start + len(counts)), counts):
        bits |= _KIND_BITS[kind]
    return bits


def _facts(bits: int) -> tuple:
    """`Reading`'s fields from `suits` to `all_green` for the bits of the kinds a hand holds."""
    honours = bool(bits & HELD_BITS[3])
    no_simple = not bits & SIMPLE_BIT
    return (frozenset(suit for suit in (0, 1, 2) if bits & HELD_BITS[suit]), honours, not bits & OUTSIDE_BIT,
            no_simple, no_simple and not honours, not bits & NOT_GREEN_BIT)


# Reading's facts by the bits of the kinds a hand holds.
FACTS_OF_BITS: Final = tuple(_facts(bits) for bits in range(128))
# A meld's bits by (meld kind, its first tile's kind): a chi's three tiles (within the 34
# kinds), a pon's or kan's one.
MELD_BITS: Final = {(kind, tile): block_bits((b"\1\1\1" if kind == "chi" else b"\1")[:34 - tile], tile)
                    for kind in ("chi", "pon", "minkan", "ankan", "kakan") for tile in range(34)}
