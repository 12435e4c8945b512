"""Every way to read a winning hand: its sets, its pair, and where the winning tile sits.

A hand can read more than one way (111222333m: three pons or three runs; 23445: the 4 in a
run or as the middle of 3_5), and each reading can score differently; the engine scores them
all and keeps the best. The decomposition work is cached on the concealed tiles and the
winning tile, so a hand seen before (or a camera frame read again) costs only the scoring.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from ..errors import HandError
from ..reading import is_seven_pairs, is_thirteen_orphans, shanten, splits, waits
from ..tiles import EAST, GREEN, KINDS, Tile, is_terminal_or_honor
from .rules import Rules

SEQ, PON, KAN = "seq", "pon", "kan"
SIMPLES = frozenset(k for k in range(27) if k % 9 not in (0, 8))
TERMINALS = frozenset(k for k in range(27) if k % 9 in (0, 8))
GREEN_TILES = frozenset((19, 20, 21, 23, 25, GREEN))     # 2 3 4 6 8 bamboo and the green dragon
WIND_KINDS = {letter: EAST + i for i, letter in enumerate("ESWN")}


class Group(NamedTuple):
    """One set of a reading. `kind` is the tile of a pon or kan, the lowest tile of a run.

    `concealed` (pons and kans only): made in the closed hand and not completed by a
    discard (an ankou or ankan) - what fu and sanankou count.
    """
    shape: str
    kind: int
    concealed: bool
    called: bool = False

    @property
    def outside(self) -> bool:
        """Holds a terminal or an honour (chanta/junchan count these)."""
        if self.shape == SEQ:
            return self.kind % 9 in (0, 6)
        return is_terminal_or_honor(self.kind)


@dataclass(slots=True)
class Reading:
    """One reading of the hand, with the facts of its tiles that the yaku and fu look at.

    Only tiles, seat, round, tsumo and the rules: how the hand was won (riichi, haitei ...)
    is not here, so a reading (and its yaku and fu) can be cached on its tiles.
    """
    shape: str                       # "standard", "chiitoitsu", "kokushi"
    pair: int                        # the pair's kind; -1 for seven pairs and thirteen orphans
    groups: tuple[Group, ...]        # called melds first, then the concealed sets
    wait: str                        # ryanmen kanchan penchan shanpon tanki (kokushi: tanki / juusanmen)
    win: int                         # the winning tile's kind
    counts: tuple[int, ...]          # all tiles of the hand, melds included, by kind
    melds: int                       # called or declared melds (ankan included)
    closed: bool                     # no meld but ankan
    tsumo: bool
    seat: int                        # the seat wind's kind (27 East ..)
    round: int
    rules: Rules
    kinds: tuple[int, ...] = ()      # the kinds in the hand (melds included)
    suits: frozenset = frozenset()   # the suits (0 m, 1 p, 2 s) in the hand
    has_honor: bool = False
    all_simple: bool = False         # only 2-8 (tanyao)
    no_simple: bool = False          # only terminals and honours (honroutou)
    all_terminal: bool = False       # only 1s and 9s (chinroutou)
    all_green: bool = False          # only 23468s and the green dragon (ryuuiisou)
    seqs: tuple[int, ...] = ()       # the runs' lowest kinds, sorted
    triplets: tuple[int, ...] = ()   # the pons' and kans' kinds, sorted
    kans: int = 0
    concealed_triplets: int = 0


def read_tiles(concealed: tuple[int, ...], win: int, melds: tuple[tuple[str, int], ...], tsumo: bool,
               seat: str, round_wind: str, rules: Rules) -> list[Reading]:
    """Every reading of a hand given as the counts of its concealed tiles (winning tile
    included), the winning tile's kind and its melds as (meld kind, tile kind) pairs.

    HandError not_a_winning_hand (saying what is missing) if there is none.
    """
    placements = _placements(concealed, win)
    seven = not melds and is_seven_pairs(concealed)
    orphans = not melds and concealed[0] and concealed[33] and is_thirteen_orphans(concealed)
    if not (placements or seven or orphans):
        raise HandError("not_a_winning_hand", _why_not_winning(concealed, win, len(melds)))
    called = tuple(_meld_group(kind, tile) for kind, tile in melds)
    every = concealed
    if melds:
        every = list(concealed)
        for group in called:
            if group.shape == SEQ:
                every[group.kind] += 1
                every[group.kind + 1] += 1
                every[group.kind + 2] += 1
            else:
                every[group.kind] += 4 if group.shape == KAN else 3
        every = tuple(every)
    kinds = tuple(k for k, count in enumerate(every) if count)
    present = set(kinds)
    facts = (win, every, len(melds), all(kind == "ankan" for kind, _ in melds), tsumo,
             WIND_KINDS[seat], WIND_KINDS[round_wind], rules, kinds,
             frozenset(k // 9 for k in kinds if k < 27), kinds[-1] >= 27, present <= SIMPLES,
             present.isdisjoint(SIMPLES), present <= TERMINALS, present <= GREEN_TILES)
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


def _standard(pair: int, sets: tuple[Group, ...], wait: str, at: int, called: tuple[Group, ...],
              facts: tuple) -> Reading:
    if wait == "shanpon" and not facts[4]:
        # A pon completed by a discard counts as open (minkou) for fu and sanankou.
        sets = sets[:at] + (Group(PON, sets[at].kind, False),) + sets[at + 1:]
    groups = called + sets if called else sets
    seqs, triplets, kans, concealed_triplets = [], [], 0, 0
    for group in groups:
        if group.shape == SEQ:
            seqs.append(group.kind)
        else:
            triplets.append(group.kind)
            kans += group.shape == KAN
            concealed_triplets += group.concealed
    seqs.sort()
    triplets.sort()
    return Reading("standard", pair, groups, wait, *facts, tuple(seqs), tuple(triplets), kans, concealed_triplets)


@lru_cache(maxsize=32768)
def _placements(concealed: tuple[int, ...], win: int) -> tuple:
    """(pair, concealed sets, wait, index of the set holding the winning tile or -1) for every
    split of the concealed tiles and every distinct place the winning tile can sit."""
    found = []
    for split in splits(concealed):
        sets = tuple(Group(SEQ, k, True) if s == "seq" else Group(PON, k, True) for s, k in split.sets)
        if split.pair == win:
            found.append((split.pair, sets, "tanki", -1))
        seen = set()
        for index, group in enumerate(sets):
            holds = group.kind == win if group.shape == PON else group.kind <= win <= group.kind + 2
            if not holds or group in seen:
                continue
            seen.add(group)
            wait = "shanpon" if group.shape == PON else _run_wait(group.kind, win)
            found.append((split.pair, sets, wait, index))
    return tuple(found)


def _run_wait(first: int, win: int) -> str:
    if win == first + 1:
        return "kanchan"
    if (win == first and first % 9 == 6) or (win == first + 2 and first % 9 == 0):
        return "penchan"
    return "ryanmen"


def _why_not_winning(concealed: tuple[int, ...], win: int, melds: int) -> str:
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
