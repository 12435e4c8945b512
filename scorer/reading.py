"""Reading a hand: every way to split it into sets and a pair, its waits, its shanten.

All functions take a 34-long count vector of the concealed tiles (see `tiles.counts`);
called melds are already set aside, so a hand with k melds reads 4 - k sets here.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Sequence

from .tiles import KINDS, is_terminal_or_honor

TERMINALS_AND_HONORS: Final = tuple(k for k in range(KINDS) if is_terminal_or_honor(k))


@dataclass(frozen=True)
class Split:
    """One reading of a standard hand: the pair's kind and the concealed sets.

    Each set is ("seq", first kind) or ("triplet", kind).
    """
    pair: int
    sets: tuple[tuple[str, int], ...]


def splits(hand: Sequence[int]) -> list[Split]:
    """Every distinct split of the tiles into sets and one pair (standard shape)."""
    total = sum(hand)
    if total % 3 != 2:
        return []
    return [Split(pair, sets) for pair, sets in _splits(tuple(hand))]


# The suits and the honours read independently of each other, so the tiles are split per
# block (9 characters, 9 dots, 9 bamboo, 7 honours) and each block's readings are cached:
# the same block shapes come back across many hands.
BLOCKS: Final = ((0, 9), (9, 18), (18, 27), (27, 34))


@lru_cache(maxsize=65536)
def _splits(hand: tuple[int, ...]) -> tuple[tuple[int, tuple], ...]:
    before: list[tuple] = [()]          # the sets of the blocks before the pair's block
    after: list[tuple] = [()]           # ... and after it
    pairs: tuple[tuple[int, tuple], ...] | None = None
    for start, end in BLOCKS:
        block = hand[start:end]
        tiles = sum(block)
        if not tiles:
            continue
        left = tiles % 3
        if left == 2 and pairs is None:
            pairs = block_with_pair(block, start)
            if not pairs:
                return ()
            continue
        if left:
            return ()
        ways = block_sets(block, start)
        if not ways:
            return ()
        if pairs is None:
            before = [done + way for done in before for way in ways] if len(ways) > 1 else [done + ways[0] for done in before]
        else:
            after = [done + way for done in after for way in ways] if len(ways) > 1 else [done + ways[0] for done in after]
    if pairs is None:
        return ()
    return tuple([(pair, head + sets + tail) for pair, ways in pairs
                  for head in before for sets in ways for tail in after])


@lru_cache(maxsize=8192)
def block_with_pair(block: tuple[int, ...], start: int) -> tuple[tuple[int, tuple], ...]:
    """The block's readings with the hand's pair in it: (pair kind, its ways to make sets)."""
    found = []
    work = list(block)
    for pair, count in enumerate(block):
        if count >= 2:
            work[pair] -= 2
            ways = block_sets(tuple(work), start)
            if ways:
                found.append((start + pair, ways))
            work[pair] += 2
    return tuple(found)


@lru_cache(maxsize=8192)
def block_sets(block: tuple[int, ...], start: int) -> tuple[tuple[tuple[str, int], ...], ...]:
    """All ways to use up one block's tiles entirely as sets (runs only in a suit), taking
    the lowest tile first; kinds are numbered from `start`."""
    first = next((k for k, c in enumerate(block) if c), None)
    if first is None:
        return ((),)
    results = []
    work = list(block)
    if work[first] >= 3:
        work[first] -= 3
        results += [(("triplet", start + first),) + rest for rest in block_sets(tuple(work), start)]
        work[first] += 3
    if start < 27 and first <= 6 and work[first + 1] and work[first + 2]:
        for k in (first, first + 1, first + 2):
            work[k] -= 1
        results += [(("seq", start + first),) + rest for rest in block_sets(tuple(work), start)]
    return tuple(results)


def is_seven_pairs(hand: Sequence[int]) -> bool:
    # 14 tiles with seven kinds held twice leaves no other tile (counted in C, for speed).
    return sum(hand) == 14 and hand.count(2) == 7


def is_thirteen_orphans(hand: Sequence[int]) -> bool:
    return (sum(hand) == 14 and all(hand[k] >= 1 for k in TERMINALS_AND_HONORS)
            and sum(hand[k] for k in TERMINALS_AND_HONORS) == 14)


def is_complete(hand: Sequence[int]) -> bool:
    """A winning shape: sets and a pair, seven pairs, or thirteen orphans."""
    return bool(splits(hand)) or is_seven_pairs(hand) or is_thirteen_orphans(hand)


def waits(hand: Sequence[int]) -> list[int]:
    """The tile kinds that complete a 13-tile (or 13 - 3k) hand; a fifth copy cannot."""
    if sum(hand) % 3 != 1:
        return []
    work = list(hand)
    found = []
    for kind in range(KINDS):
        if work[kind] >= 4:
            continue
        work[kind] += 1
        if is_complete(work):
            found.append(kind)
        work[kind] -= 1
    return found


def shanten(hand: Sequence[int]) -> int:
    """Tiles away from ready: -1 complete, 0 ready (tenpai), 1 one away, and so on.

    The best of the standard shape, seven pairs and thirteen orphans; the last two only
    when no melds are called (13 or 14 concealed tiles).
    """
    best = _standard_shanten(tuple(hand))
    if sum(hand) >= 13:
        best = min(best, _seven_pairs_shanten(hand), _orphans_shanten(hand))
    return best


def _seven_pairs_shanten(hand) -> int:
    pairs = sum(1 for c in hand if c >= 2)
    kinds = sum(1 for c in hand if c >= 1)
    return 6 - pairs + max(0, 7 - kinds)


def _orphans_shanten(hand) -> int:
    kinds = sum(1 for k in TERMINALS_AND_HONORS if hand[k])
    has_pair = any(hand[k] >= 2 for k in TERMINALS_AND_HONORS)
    return 13 - kinds - (1 if has_pair else 0)


@lru_cache(maxsize=65536)
def _standard_shanten(hand: tuple[int, ...]) -> int:
    sets_needed = (sum(hand) + 1) // 3 if sum(hand) % 3 != 0 else sum(hand) // 3
    sets_needed = min(4, sets_needed)
    best = [8]

    def search(work: list[int], start: int, sets: int, partials: int, pair: bool) -> None:
        while start < KINDS and not work[start]:
            start += 1
        if start >= KINDS:
            usable = min(partials, sets_needed - sets)
            value = 2 * (sets_needed - sets) - usable - (1 if pair else 0)
            best[0] = min(best[0], value)
            return
        k = start
        if work[k] >= 3:
            work[k] -= 3
            search(work, k, sets + 1, partials, pair)
            work[k] += 3
        if k < 27 and k % 9 <= 6 and work[k + 1] and work[k + 2]:
            work[k] -= 1; work[k + 1] -= 1; work[k + 2] -= 1
            search(work, k, sets + 1, partials, pair)
            work[k] += 1; work[k + 1] += 1; work[k + 2] += 1
        if work[k] >= 2:
            work[k] -= 2
            if not pair:
                search(work, k, sets, partials, True)
            search(work, k, sets, partials + 1, pair)
            work[k] += 2
        if k < 27 and k % 9 <= 7 and work[k + 1]:
            work[k] -= 1; work[k + 1] -= 1
            search(work, k, sets, partials + 1, pair)
            work[k] += 1; work[k + 1] += 1
        if k < 27 and k % 9 <= 6 and work[k + 2]:
            work[k] -= 1; work[k + 2] -= 1
            search(work, k, sets, partials + 1, pair)
            work[k] += 1; work[k + 2] += 1
        work[k] -= 1
        search(work, k + 1, sets, partials, pair)
        work[k] += 1

    search(list(hand), 0, 0, 0, False)
    return best[0]
