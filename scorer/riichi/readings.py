"""Every way to read a winning hand: its sets, its pair, and where the winning tile sits.

A hand can read more than one way (111222333m: three pons or three runs; 23445: the 4 in a
run or as the middle of 3_5), and each reading can score differently; the engine scores them
all and keeps the best. Each suit's (and the honours') ways to split come from
`scorer.reading`, kept in a table by the suit's counts, which recur across hands; the
engine caches what the readings are worth.
"""
from __future__ import annotations

from itertools import chain, product
from typing import Final, NamedTuple, Sequence

from ..errors import HandError
from ..reading import BLOCKS, block_sets, block_with_pair, is_seven_pairs, is_thirteen_orphans, shanten, waits
from ..tiles import EAST, Tile
from .memo import Table, Tables
from .rules import Rules
from .tile_facts import FACTS_OF_BITS, MELD_BITS, block_bits

SEQ: Final = "seq"
PON: Final = "pon"
KAN: Final = "kan"
WIND_KINDS: Final = {letter: EAST + i for i, letter in enumerate("ESWN")}


class Group(NamedTuple):
    """One set of a reading. `kind` is the tile of a pon or kan, the lowest tile of a run.

    `concealed` (pons and kans only): made in the closed hand and not completed by a
    discard (an ankou or ankan) - what fu and sanankou count.
    """
    shape: str
    kind: int
    concealed: bool
    called: bool = False


class Reading(NamedTuple):
    """One reading of the hand, with the facts of its tiles that the yaku and fu look at.

    Only tiles, seat, round, tsumo and the rules: how the hand was won (riichi, haitei ...)
    is not here, so a reading (and its yaku and fu) can be cached on its tiles.
    """
    shape: str                       # "standard", "chiitoitsu", "kokushi"
    pair: int                        # the pair's kind; -1 for seven pairs and thirteen orphans
    groups: tuple[Group, ...]        # called melds first, then the concealed sets
    wait: str                        # ryanmen kanchan penchan shanpon tanki (kokushi: tanki / juusanmen)
    win: int                         # the winning tile's kind
    counts: bytes                    # all tiles of the hand, melds included, by kind
    melds: int                       # called or declared melds (ankan included)
    closed: bool                     # no meld but ankan
    tsumo: bool
    seat: int                        # the seat wind's kind (27 East ..)
    round: int
    rules: Rules
    suits: frozenset = frozenset()   # the suits (0 m, 1 p, 2 s) in the hand
    has_honor: bool = False
    all_simple: bool = False         # only 2-8 (tanyao)
    no_simple: bool = False          # only terminals and honours (honroutou)
    all_terminal: bool = False       # only 1s and 9s (chinroutou)
    all_green: bool = False          # only 23468s and the green dragon (ryuuiisou)
    seqs: tuple[int, ...] = ()       # the runs' lowest kinds, sorted
    triplets: tuple[int, ...] = ()   # the pons' and kans' kinds, sorted
    kans: int = 0
    concealed_triplets: int = 0      # pons and kans made in the closed hand (ankou, ankan)
    dragon_triplets: int = 0
    wind_triplets: int = 0
    peikou: int = 0                  # pairs of identical runs in a closed hand: 1 iipeikou, 2 ryanpeikou
    outside: bool = False            # every set holds a terminal or an honour (chanta, junchan)


def read_tiles(concealed: bytes | tuple[int, ...], win: int, melds: tuple[tuple[str, int], ...], tsumo: bool,
               seat: str, round_wind: str, rules: Rules) -> list[Reading]:
    """Every reading of a hand given as the counts of its concealed tiles by kind (bytes, or
    any sequence of counts; winning tile included), the winning tile's kind and its melds as
    (meld kind, tile kind) pairs.

    HandError not_a_winning_hand (saying what is missing) if there is none.
    """
    # As bytes: sliced, hashed, counted and compared in C, where a tuple's items are objects.
    packed = bytes(concealed)
    placements, bits = _placements(packed, win)
    seven = not melds and packed.count(2) == 7 and is_seven_pairs(packed)
    orphans = not melds and packed[0] and packed[33] and is_thirteen_orphans(packed)
    if not (placements or seven or orphans):
        raise HandError("not_a_winning_hand", _why_not_winning(concealed, win, len(melds)))
    called: tuple[Group, ...] = ()
    every = packed
    if melds:
        called = tuple([_MELD_GROUPS[meld] for meld in melds])
        for meld in melds:
            bits |= MELD_BITS[meld]     # -1 (not split) stays -1
        counts = list(packed)
        for group in called:
            if group.shape == SEQ:
                counts[group.kind] += 1
                counts[group.kind + 1] += 1
                counts[group.kind + 2] += 1
            else:
                counts[group.kind] += 4 if group.shape == KAN else 3
        every = bytes(counts)
    if bits < 0:        # not split (seven pairs, thirteen orphans): the kinds held read here
        bits = block_bits(every, 0)
    # The facts of the whole hand, in Reading's field order from `win` to `all_green`.
    facts = (win, every, len(melds), not melds or all([kind == "ankan" for kind, _ in melds]), tsumo,
             WIND_KINDS[seat], WIND_KINDS[round_wind], rules, *FACTS_OF_BITS[bits])
    found = [_standard(pair, sets, wait, at, called, facts) for pair, sets, wait, at in placements]
    if seven:
        found.append(Reading("chiitoitsu", -1, (), "tanki", *facts))
    if orphans:
        found.append(Reading("kokushi", -1, (), "juusanmen" if concealed[win] == 2 else "tanki", *facts))
    return found


def _meld_group(kind: str, tile: int) -> Group:
    if kind == "chi":
        return Group(SEQ, tile, False, True)
    if kind == "pon":
        return Group(PON, tile, False, True)
    return Group(KAN, tile, kind == "ankan", True)


# Every meld's group, made once: the named tuple's constructor is Python code.
_MELD_GROUPS: Final = {(kind, tile): _meld_group(kind, tile)
                       for kind in ("chi", "pon", "minkan", "ankan", "kakan") for tile in range(34)}


def _standard(pair: int, sets: tuple[Group, ...], wait: str, at: int, called: tuple[Group, ...],
              facts: tuple) -> Reading:
    if wait == "shanpon" and not facts[4]:
        # A pon completed by a discard counts as open (minkou) for fu and sanankou.
        sets = sets[:at] + (Group(PON, sets[at].kind, False),) + sets[at + 1:]
    groups = called + sets if called else sets
    seqs, triplets = [], []
    kans = concealed_triplets = dragons = winds = 0
    outside = True
    for shape, kind, concealed, _ in groups:
        if shape == SEQ:
            seqs.append(kind)
            outside = outside and kind % 9 in (0, 6)
            continue
        triplets.append(kind)
        kans += shape == KAN
        concealed_triplets += concealed
        if kind >= 27:
            dragons += kind >= 31
            winds += kind < 31
        elif kind % 9 not in (0, 8):
            outside = False
    if called:      # the concealed sets come in order of their tiles; called melds come first
        seqs.sort()
        triplets.sort()
    peikou = 0
    if facts[3] and len(set(seqs)) < len(seqs):     # closed, with a run repeated
        i = 0
        while i + 1 < len(seqs):
            if seqs[i] == seqs[i + 1]:
                peikou, i = peikou + 1, i + 2
            else:
                i += 1
    # Every field in order, the tuple made in C: the named tuple's Python constructor is
    # a measurable share of scoring an unseen hand.
    return tuple.__new__(Reading, ("standard", pair, groups, wait, *facts, tuple(seqs), tuple(triplets),
                                   kans, concealed_triplets, dragons, winds, peikou, outside))


def _placements(concealed: bytes, win: int) -> tuple[tuple, int]:
    """(pair, concealed sets, wait, index of the set holding the winning tile or -1) for every
    split of the concealed tiles and every distinct place the winning tile can sit; and the
    bits of the kinds held, from `_splits`."""
    found = []
    splits, bits = _splits(concealed)
    for pair, sets in splits:
        if pair == win:
            found.append((pair, sets, "tanki", -1))
        for index, group in enumerate(sets):
            kind = group.kind
            if group.shape == PON:
                if kind == win:
                    found.append((pair, sets, "shanpon", index))
            elif kind <= win <= kind + 2 and group not in sets[:index]:
                found.append((pair, sets, _run_wait(kind, win), index))
    return tuple(found), bits


def _splits(concealed: bytes) -> tuple[list[tuple[int, tuple[Group, ...]]], int]:
    """Every split of the concealed tiles into sets and one pair, as (pair, sets), in the order
    of `scorer.reading.splits`: pair kind first, then each block's ways, block by block; and
    the bits of the kinds held (`tile_facts.block_bits`), -1 when the tiles do not split.

    The blocks (the three suits, the honours) read independently, and the same block counts
    come back across hands that differ elsewhere, so each block's ways (and bits) are looked
    up in a table by its counts (`_block_ways`); a whole hand is rarely seen twice.
    """
    blocks: list[tuple[tuple[int, tuple[Group, ...]], ...]] = []     # each block's ways
    paired = pair = -1          # which of `blocks` holds the pair, and the pair
    sets: tuple[Group, ...] = ()    # the sets when every block reads one way, as in nearly every hand
    several = False
    bits = 0
    for start, end, empty, table in _BLOCK_TABLES:
        block = concealed[start:end]
        if block == empty:
            continue
        known = table.get(block)
        if known is None:
            if len(table) >= _TABLE_SIZE:
                table.clear()
            known = table[block] = _block_entry(block, start)
        ways, ways_bits, first_pair, first_sets, more = known
        if not ways:
            return [], -1
        bits |= ways_bits
        if first_pair >= 0:
            if paired >= 0:
                return [], -1       # two blocks each left with a pair
            paired, pair = len(blocks), first_pair
        sets += first_sets
        several = several or more
        blocks.append(ways)
    if paired < 0:
        return [], -1
    if not several:
        return [(pair, sets)], bits
    found = []
    for pair in dict.fromkeys([kind for kind, _ in blocks[paired]]):     # each pair kind, in order
        choices: list[Sequence[tuple[int, tuple[Group, ...]]]] = list(blocks)
        choices[paired] = [way for way in blocks[paired] if way[0] == pair]
        found += [(pair, tuple(chain.from_iterable([way[1] for way in chosen]))) for chosen in product(*choices)]
    return found, bits


def _block_entry(block: bytes, start: int) -> tuple:
    """What `_splits` keeps of a block: its ways, its bits (`tile_facts.block_bits`), the first
    way's pair and sets, and whether there are more ways (read from the table, not worked out
    again for every hand)."""
    ways = _block_ways(tuple(block), start)
    first_pair, first_sets = ways[0] if ways else (-1, ())
    return ways, block_bits(block, start), first_pair, first_sets, len(ways) > 1


def _block_ways(block: tuple[int, ...], start: int) -> tuple[tuple[int, tuple[Group, ...]], ...]:
    """Every way to read one block's tiles as concealed sets, and the pair if two are left
    over: (pair kind or -1, sets), pair kinds in order. Empty when the tiles do not split."""
    # A suit's counts read the same in every suit, so they are read (and cached by
    # `scorer.reading`) as characters and moved to their suit; the honours make no runs.
    read_at = 0 if start < 27 else start
    shift = start - read_at
    left = sum(block) % 3
    if left == 0:
        return tuple([(-1, _groups(sets, shift)) for sets in block_sets(block, read_at)])
    if left == 2:
        return tuple([(pair + shift, _groups(sets, shift))
                      for pair, ways in block_with_pair(block, read_at) for sets in ways])
    return ()


def _groups(sets: tuple[tuple[str, int], ...], shift: int) -> tuple[Group, ...]:
    return tuple([_SET_GROUPS[shape, kind + shift] for shape, kind in sets])


# Every concealed set's group, made once (`scorer.reading` names a pon "triplet").
_SET_GROUPS: Final = {(shape, kind): Group(SEQ if shape == "seq" else PON, kind, True)
                      for shape in ("seq", "triplet") for kind in range(34)}


# One table per block (characters, dots, bamboo, honours), block counts -> `_block_entry`,
# filled as counts are met; each is emptied when full, like a memo.
_BLOCK_WAYS: Final = Tables([Table() for _ in BLOCKS])
_BLOCK_TABLES: Final[tuple[tuple[int, int, bytes, dict], ...]] = tuple(
    [(start, end, bytes(end - start), table) for (start, end), table in zip(BLOCKS, _BLOCK_WAYS)])
_TABLE_SIZE: Final = 4096


def _run_wait(first: int, win: int) -> str:
    if win == first + 1:
        return "kanchan"
    if (win == first and first % 9 == 6) or (win == first + 2 and first % 9 == 0):
        return "penchan"
    return "ryanmen"


def _why_not_winning(concealed: bytes | tuple[int, ...], win: int, melds: int) -> str:
    """Say what is missing, in a player's words: the waits without the winning tile, or how
    far the hand is from ready."""
    before = list(concealed)
    before[win] -= 1
    tile = Tile(win).name
    shape = "four sets and a pair" if not melds else f"{4 - melds} more sets and a pair beside the {melds} called"
    ready = waits(before)
    if ready:
        names = ", ".join(Tile(k).name for k in ready)
        return f"the tiles do not make {shape}: without the {tile} the hand waits on {names}, not the {tile}"
    away = shanten(before)
    if away <= 0:
        return f"the tiles do not make {shape}, seven pairs or thirteen orphans"
    return (f"the tiles do not make {shape}, seven pairs or thirteen orphans: without the "
            f"{tile} the hand is {away} tile{'s' if away > 1 else ''} away from ready")
