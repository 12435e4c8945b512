"""The yaku and yakuman, one row each: id, han closed, han open (0: closed hands only), test.

Two kinds: the yaku of how the hand was won (riichi, tsumo, haitei ...: WIN_YAKU, tested on
the hand's flags, the same for every reading) and the yaku of the tiles (TILE_YAKU, tested on
one `Reading` of readings.py, so they can be cached on the tiles). A reader finds any rule by
its contract id in this one file. Where one yaku replaces another
(double riichi over riichi, ryanpeikou over iipeikou, junchan over chanta, chinitsu over
honitsu) the two tests exclude each other.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Callable, Final, NamedTuple

from ..tiles import DRAGONS, GREEN, WHITE, RED, WINDS, is_simple, is_terminal
from ..hand import WinningHand
from .memo import Table
from .readings import Reading
from .rules import Rules

CHUUREN: Final = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@dataclass(frozen=True)
class Yaku:
    id: str
    han_closed: int
    han_open: int            # 0: not counted on an open hand
    test: Callable           # (Reading) for the tiles' yaku; (WinFlags, Rules) for the win's
    needs: tuple[str, ...] = ()   # shape facts it cannot do without (NEEDS): others are not tested


@dataclass(frozen=True)
class Yakuman:
    id: str
    count: int               # yakuman it is worth; 2 only where the rules pay double yakuman
    test: Callable           # as for Yaku
    needs: tuple[str, ...] = ()


# --- facts the tests share -------------------------------------------------------------

def _outside(r: Reading, pair_ok: Callable[[int], bool]) -> bool:
    """Every set and the pair hold a terminal or honour, with at least one run."""
    return r.outside and bool(r.seqs) and pair_ok(r.pair)


def _chanta(r: Reading) -> bool:
    """Every set and the pair hold a terminal or honour, honours among them."""
    return _outside(r, _not_simple) and r.has_honor


def _not_simple(kind: int) -> bool:
    return not is_simple(kind)


def _value_pair(r: Reading) -> bool:
    return r.pair in DRAGONS or r.pair in (r.seat, r.round)


def is_pinfu(r: Reading) -> bool:
    """Closed, four runs, a two-sided wait, and a pair that earns no fu. Where the rules give
    a tsumo its 2 fu even then (`pinfu_tsumo_fu`), a tsumo has fu and so is not pinfu."""
    return (r.closed and len(r.seqs) == 4 and r.wait == "ryanmen" and not _value_pair(r)
            and not (r.tsumo and r.rules.pinfu_tsumo_fu))


def _sanshoku(kinds: tuple[int, ...]) -> bool:
    """The same number in all three suits (runs' first tiles, or pons' tiles)."""
    if len(kinds) < 3:
        return False
    for n in kinds:
        if n < 9 and n + 9 in kinds and n + 18 in kinds:
            return True
    return False


def _ittsu(r: Reading) -> bool:
    """1-2-3, 4-5-6 and 7-8-9 of one suit."""
    s = r.seqs
    if len(s) < 3:
        return False
    for start in (0, 9, 18):
        if start in s and start + 3 in s and start + 6 in s:
            return True
    return False


def _chuuren_shape(r: Reading) -> bool:
    """Closed, one suit, 1112345678999 plus any tile of the suit."""
    if r.melds or len(r.suits) != 1 or r.has_honor:
        return False
    start = next(iter(r.suits)) * 9
    return all(r.counts[start + i] >= need for i, need in enumerate(CHUUREN))


def _junsei(r: Reading) -> bool:
    """Chuuren waiting on all nine tiles: the hand before the win was exactly 1112345678999."""
    start = r.win - r.win % 9
    return all(r.counts[start + i] - (start + i == r.win) == need for i, need in enumerate(CHUUREN))


def _daisuushii(r: Reading) -> bool:
    return r.wind_triplets == 4


# --- the yaku of how the hand was won: the same for every reading --------------------------

WIN_YAKU: Final[tuple[Yaku, ...]] = (
    Yaku("menzen_tsumo", 1, 0, lambda h, rules: h.tsumo),
    Yaku("riichi", 1, 0, lambda h, rules: h.riichi and not h.double_riichi),
    Yaku("ippatsu", 1, 0, lambda h, rules: h.ippatsu and rules.ippatsu),
    Yaku("chankan", 1, 1, lambda h, rules: h.chankan and not h.tsumo),
    Yaku("rinshan", 1, 1, lambda h, rules: h.rinshan and h.tsumo),
    Yaku("haitei", 1, 1, lambda h, rules: h.haitei and h.tsumo),
    Yaku("houtei", 1, 1, lambda h, rules: h.houtei and not h.tsumo),
    Yaku("double_riichi", 2, 0, lambda h, rules: h.double_riichi),
    Yaku("renhou", 5, 0, lambda h, rules: h.renhou and rules.renhou == "mangan"),
)

WIN_YAKUMAN: Final[tuple[Yakuman, ...]] = (
    Yakuman("tenhou", 1, lambda h, rules: h.tenhou),
    Yakuman("chiihou", 1, lambda h, rules: h.chiihou),
    Yakuman("renhou_yakuman", 1, lambda h, rules: h.renhou and rules.renhou == "yakuman"),
)

# --- the yaku of the tiles: tested on each reading ------------------------------------------

TILE_YAKU: Final[tuple[Yaku, ...]] = (
    Yaku("pinfu", 1, 0, is_pinfu, ("four_runs",)),
    Yaku("tanyao", 1, 1, lambda r: r.all_simple and (r.closed or r.rules.open_tanyao), ("no_honours",)),
    Yaku("iipeikou", 1, 0, lambda r: r.peikou == 1, ("two_runs", "peikou")),
    Yaku("seat_wind", 1, 1, lambda r: r.seat in r.triplets, ("pons", "honour_pons")),
    Yaku("round_wind", 1, 1, lambda r: r.round in r.triplets, ("pons", "honour_pons")),
    Yaku("yakuhai_haku", 1, 1, lambda r: WHITE in r.triplets, ("pons", "honour_pons")),
    Yaku("yakuhai_hatsu", 1, 1, lambda r: GREEN in r.triplets, ("pons", "honour_pons")),
    Yaku("yakuhai_chun", 1, 1, lambda r: RED in r.triplets, ("pons", "honour_pons")),
    Yaku("chiitoitsu", 2, 0, lambda r: r.shape == "chiitoitsu", ("no_runs",)),
    Yaku("chanta", 2, 1, _chanta,
         ("runs", "honours", "outside")),
    Yaku("ittsu", 2, 1, _ittsu, ("three_runs",)),
    Yaku("sanshoku", 2, 1, lambda r: _sanshoku(r.seqs), ("three_runs",)),
    Yaku("sanshoku_doukou", 2, 2, lambda r: _sanshoku(r.triplets), ("three_pons",)),
    Yaku("sankantsu", 2, 2, lambda r: r.kans == 3, ("three_pons",)),
    Yaku("toitoi", 2, 2, lambda r: len(r.triplets) == 4, ("four_pons",)),
    Yaku("sanankou", 2, 2, lambda r: r.concealed_triplets == 3, ("three_pons",)),
    Yaku("shousangen", 2, 2, lambda r: r.dragon_triplets == 2 and r.pair in DRAGONS,
         ("two_pons", "honour_pons")),
    Yaku("honroutou", 2, 2, lambda r: r.no_simple, ("no_runs",)),
    Yaku("ryanpeikou", 3, 0, lambda r: r.peikou == 2, ("four_runs", "peikou")),
    Yaku("junchan", 3, 2, lambda r: _outside(r, is_terminal) and not r.has_honor,
         ("runs", "no_honours", "outside")),
    Yaku("honitsu", 3, 2, lambda r: len(r.suits) == 1 and r.has_honor, ("one_suit", "honours")),
    Yaku("chinitsu", 6, 5, lambda r: len(r.suits) == 1 and not r.has_honor, ("one_suit", "no_honours")),
)

TILE_YAKUMAN: Final[tuple[Yakuman, ...]] = (
    Yakuman("daisangen", 1, lambda r: r.dragon_triplets == 3, ("three_pons", "honour_pons")),
    Yakuman("suuankou", 1, lambda r: r.concealed_triplets == 4 and r.wait != "tanki", ("four_pons",)),
    Yakuman("suuankou_tanki", 2, lambda r: r.concealed_triplets == 4 and r.wait == "tanki",
            ("four_pons",)),
    Yakuman("tsuuiisou", 1, lambda r: not r.suits, ("no_runs", "honours", "one_suit")),
    Yakuman("ryuuiisou", 1, lambda r: r.all_green, ("one_suit",)),
    Yakuman("chinroutou", 1, lambda r: r.all_terminal, ("four_pons", "no_honours")),
    Yakuman("chuuren", 1, lambda r: _chuuren_shape(r) and not _junsei(r), ("runs", "one_suit", "no_honours")),
    Yakuman("junsei_chuuren", 2, lambda r: _chuuren_shape(r) and _junsei(r), ("runs", "one_suit", "no_honours")),
    Yakuman("kokushi", 1, lambda r: r.shape == "kokushi" and r.wait != "juusanmen", ("no_runs", "honours")),
    Yakuman("kokushi_13", 2, lambda r: r.shape == "kokushi" and r.wait == "juusanmen",
            ("no_runs", "honours")),
    Yakuman("daisuushii", 2, _daisuushii, ("four_pons", "honour_pons")),
    Yakuman("shousuushii", 1, lambda r: r.wind_triplets == 3 and r.pair in WINDS,
            ("three_pons", "honour_pons")),
    Yakuman("suukantsu", 1, lambda r: r.kans == 4, ("four_pons",)),
)

# Yakuman a liable player (pao) can be made to pay for.
PAO_YAKUMAN: Final = ("daisangen", "daisuushii")


# The rows that count on a closed and on an open hand, each with its (id, han) entry made once.
_Entries = tuple[tuple[tuple[str, int], Callable], ...]     # ((id, han), test) rows


def _entries(table: tuple[Yaku, ...], closed: bool) -> _Entries:
    return tuple(((y.id, y.han_closed if closed else y.han_open), y.test) for y in table
                 if (y.han_closed if closed else y.han_open))


_WIN: Final = {True: _entries(WIN_YAKU, True), False: _entries(WIN_YAKU, False)}


class Shape(NamedTuple):
    """What a reading's shape must have for a row to be worth testing (NEEDS)."""
    runs: int
    pons: int                # kans included
    honours: bool
    one_suit: bool           # one suit at most
    outside: bool            # every set holds a terminal or an honour
    honour_pons: bool        # a pon or kan of winds or dragons
    peikou: bool             # a closed hand's run repeated


# A row lists only needs its test implies, so skipping a row never loses a yaku (a property
# test checks); most rows are tested on few hands, and a test is a Python call.
NEEDS: Final[dict[str, Callable[[Shape], bool]]] = {
    "runs": lambda s: s.runs >= 1,
    "two_runs": lambda s: s.runs >= 2,
    "three_runs": lambda s: s.runs >= 3,
    "four_runs": lambda s: s.runs == 4,
    "no_runs": lambda s: s.runs == 0,
    "pons": lambda s: s.pons >= 1,
    "two_pons": lambda s: s.pons >= 2,
    "three_pons": lambda s: s.pons >= 3,
    "four_pons": lambda s: s.pons == 4,
    "honours": lambda s: s.honours,
    "no_honours": lambda s: not s.honours,
    "one_suit": lambda s: s.one_suit,
    "outside": lambda s: s.outside,
    "honour_pons": lambda s: s.honour_pons,
    "peikou": lambda s: s.peikou,
}


def _rows_for(table: tuple, shape: Shape) -> tuple:
    """The rows worth testing on a reading of this shape."""
    return tuple(row for row in table if all(NEEDS[need](shape) for need in row.needs))


_FLAGS: Final = (False, True)
_SHAPES: Final = [Shape(runs, pons, *flags) for runs in range(5) for pons in range(5 - runs)
                  for flags in product(_FLAGS, repeat=5)]
# By shape, then by a flag (a tuple indexed by False, True): an open or closed hand's rows;
# without and with double yakuman played (without, every yakuman counts one).
_TILES: Final[dict[tuple, tuple[_Entries, _Entries]]] = {
    shape: (_entries(_rows_for(TILE_YAKU, shape), False), _entries(_rows_for(TILE_YAKU, shape), True))
    for shape in _SHAPES}
_YAKUMAN: Final[dict[tuple, tuple[_Entries, ...]]] = {
    shape: tuple(tuple(((y.id, y.count if double else 1), y.test) for y in _rows_for(TILE_YAKUMAN, shape))
                 for double in (False, True))
    for shape in _SHAPES}


class WinFlags(NamedTuple):
    """How a hand was won: all that WIN_YAKU and WIN_YAKUMAN may test (with the rules), so
    what they find is remembered by it; hands share a handful of these."""
    closed: bool
    tsumo: bool
    riichi: bool
    double_riichi: bool
    ippatsu: bool
    chankan: bool
    rinshan: bool
    haitei: bool
    houtei: bool
    tenhou: bool
    chiihou: bool
    renhou: bool


def won_by(hand: WinningHand, rules: Rules) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]:
    """The yaku of how the hand was won (riichi, tsumo, haitei ...) with their han, and its
    yakuman (tenhou, chiihou, renhou) with their count."""
    # WinFlags' fields as a plain tuple: a named tuple is made on a miss only, it costs more.
    key = (not hand.melds or hand.is_closed, hand.tsumo, hand.riichi, hand.double_riichi, hand.ippatsu,
           hand.chankan, hand.rinshan, hand.haitei, hand.houtei, hand.tenhou, hand.chiihou, hand.renhou, rules)
    found = _WON.get(key)
    if found is None:
        won = WinFlags(*key[:-1])       # the tests see only these flags, so remembering by them is safe
        found = (tuple([entry for entry, test in _WIN[won.closed] if test(won, rules)]),
                 tuple([(y.id, y.count) for y in WIN_YAKUMAN if y.test(won, rules)]))
        if len(_WON) < 4096:
            _WON[key] = found
    return found


# What won_by found, by flags and rules: a handful of combinations cover nearly every hand.
_WON: Final[dict] = Table()


def win_yaku(hand: WinningHand, rules: Rules) -> list[tuple[str, int]]:
    """The yaku of how the hand was won (riichi, tsumo, haitei ...) with their han."""
    return list(won_by(hand, rules)[0])


def win_yakuman(hand: WinningHand, rules: Rules) -> list[tuple[str, int]]:
    """Tenhou, chiihou, renhou as yakuman: (id, yakuman count)."""
    return list(won_by(hand, rules)[1])


def tile_yaku(r: Reading) -> list[tuple[str, int]]:
    """The yaku of a reading's tiles with their han (dora not included)."""
    return [entry for entry, test in _TILES[_shape(r)][r.closed] if test(r)]


def tile_yakuman(r: Reading) -> list[tuple[str, int]]:
    """The yakuman of a reading's tiles, each with how many yakuman it is worth under the rules."""
    return [entry for entry, test in _YAKUMAN[_shape(r)][r.rules.double_yakuman] if test(r)]


def tile_values(r: Reading) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """(`tile_yakuman`, `tile_yaku`) of a reading, the yaku only when there is no yakuman (a
    yakuman hand pays no yaku); its shape is worked out once for both."""
    shape = _shape(r)
    yakuman = [entry for entry, test in _YAKUMAN[shape][r.rules.double_yakuman] if test(r)]
    if yakuman:
        return yakuman, []
    return [], [entry for entry, test in _TILES[shape][r.closed] if test(r)]


def _shape(r: Reading) -> tuple:
    """The reading's `Shape`, as a plain tuple (equal to it, and made in C)."""
    return (len(r.seqs), len(r.triplets), r.has_honor, len(r.suits) < 2, r.outside,
            r.dragon_triplets + r.wind_triplets > 0, r.peikou > 0)
