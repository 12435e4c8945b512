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
from typing import Callable

from ..tiles import DRAGONS, GREEN, WHITE, RED, WINDS, is_simple, is_terminal
from ..hand import WinningHand
from .readings import Reading
from .rules import Rules

CHUUREN = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@dataclass(frozen=True)
class Yaku:
    id: str
    han_closed: int
    han_open: int            # 0: not counted on an open hand
    test: Callable           # (Reading) for the tiles' yaku; (WinningHand, Rules) for the win's


@dataclass(frozen=True)
class Yakuman:
    id: str
    count: int               # yakuman it is worth; 2 only where the rules pay double yakuman
    test: Callable           # as for Yaku


# --- facts the tests share -------------------------------------------------------------

def _peikou(r: Reading) -> int:
    """How many pairs of identical runs: 1 iipeikou, 2 ryanpeikou."""
    s = r.seqs
    if len(s) < 2 or not r.closed:
        return 0
    pairs, i = 0, 0
    while i + 1 < len(s):
        if s[i] == s[i + 1]:
            pairs, i = pairs + 1, i + 2
        else:
            i += 1
    return pairs


def _outside(r: Reading, pair_ok: Callable[[int], bool]) -> bool:
    """Every set and the pair hold a terminal or honour, with at least one run."""
    return bool(r.seqs) and pair_ok(r.pair) and all(g.outside for g in r.groups)


def _value_pair(r: Reading) -> bool:
    return r.pair in DRAGONS or r.pair in (r.seat, r.round)


def is_pinfu(r: Reading) -> bool:
    """Closed, four runs, a two-sided wait, and a pair that earns no fu. Where the rules give
    a tsumo its 2 fu even then (`pinfu_tsumo_fu`), a tsumo has fu and so is not pinfu."""
    return (r.closed and len(r.seqs) == 4 and r.wait == "ryanmen" and not _value_pair(r)
            and not (r.tsumo and r.rules.pinfu_tsumo_fu))


def _sanshoku(kinds: tuple[int, ...]) -> bool:
    """The same number in all three suits (runs' first tiles or pons' tiles, sorted)."""
    if len(kinds) < 3:
        return False
    present = set(kinds)
    return any(n + 9 in present and n + 18 in present for n in kinds if n < 9)


def _ittsu(r: Reading) -> bool:
    if len(r.seqs) < 3:
        return False
    present = set(r.seqs)
    return any(s in present and s + 3 in present and s + 6 in present for s in (0, 9, 18))


def _dragon_triplets(r: Reading) -> int:
    if not r.has_honor:
        return 0
    return len([k for k in r.triplets if k in DRAGONS])


def _wind_triplets(r: Reading) -> int:
    if not r.has_honor:
        return 0
    return len([k for k in r.triplets if k in WINDS])


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
    return _wind_triplets(r) == 4


# --- the yaku of how the hand was won: the same for every reading --------------------------

WIN_YAKU: tuple[Yaku, ...] = (
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

WIN_YAKUMAN: tuple[Yakuman, ...] = (
    Yakuman("tenhou", 1, lambda h, rules: h.tenhou),
    Yakuman("chiihou", 1, lambda h, rules: h.chiihou),
    Yakuman("renhou_yakuman", 1, lambda h, rules: h.renhou and rules.renhou == "yakuman"),
)

# --- the yaku of the tiles: tested on each reading ------------------------------------------

TILE_YAKU: tuple[Yaku, ...] = (
    Yaku("pinfu", 1, 0, is_pinfu),
    Yaku("tanyao", 1, 1, lambda r: r.all_simple and (r.closed or r.rules.open_tanyao)),
    Yaku("iipeikou", 1, 0, lambda r: _peikou(r) == 1),
    Yaku("seat_wind", 1, 1, lambda r: r.seat in r.triplets),
    Yaku("round_wind", 1, 1, lambda r: r.round in r.triplets),
    Yaku("yakuhai_haku", 1, 1, lambda r: WHITE in r.triplets),
    Yaku("yakuhai_hatsu", 1, 1, lambda r: GREEN in r.triplets),
    Yaku("yakuhai_chun", 1, 1, lambda r: RED in r.triplets),
    Yaku("chiitoitsu", 2, 0, lambda r: r.shape == "chiitoitsu"),
    Yaku("chanta", 2, 1, lambda r: _outside(r, lambda k: not is_simple(k)) and r.has_honor),
    Yaku("ittsu", 2, 1, _ittsu),
    Yaku("sanshoku", 2, 1, lambda r: _sanshoku(r.seqs)),
    Yaku("sanshoku_doukou", 2, 2, lambda r: _sanshoku(r.triplets)),
    Yaku("sankantsu", 2, 2, lambda r: r.kans == 3),
    Yaku("toitoi", 2, 2, lambda r: len(r.triplets) == 4),
    Yaku("sanankou", 2, 2, lambda r: r.concealed_triplets == 3),
    Yaku("shousangen", 2, 2, lambda r: _dragon_triplets(r) == 2 and r.pair in DRAGONS),
    Yaku("honroutou", 2, 2, lambda r: r.no_simple),
    Yaku("ryanpeikou", 3, 0, lambda r: _peikou(r) == 2),
    Yaku("junchan", 3, 2, lambda r: _outside(r, is_terminal) and not r.has_honor),
    Yaku("honitsu", 3, 2, lambda r: len(r.suits) == 1 and r.has_honor),
    Yaku("chinitsu", 6, 5, lambda r: len(r.suits) == 1 and not r.has_honor),
)

TILE_YAKUMAN: tuple[Yakuman, ...] = (
    Yakuman("daisangen", 1, lambda r: _dragon_triplets(r) == 3),
    Yakuman("suuankou", 1, lambda r: r.concealed_triplets == 4 and r.wait != "tanki"),
    Yakuman("suuankou_tanki", 2, lambda r: r.concealed_triplets == 4 and r.wait == "tanki"),
    Yakuman("tsuuiisou", 1, lambda r: not r.suits),
    Yakuman("ryuuiisou", 1, lambda r: r.all_green),
    Yakuman("chinroutou", 1, lambda r: r.all_terminal),
    Yakuman("chuuren", 1, lambda r: _chuuren_shape(r) and not _junsei(r)),
    Yakuman("junsei_chuuren", 2, lambda r: _chuuren_shape(r) and _junsei(r)),
    Yakuman("kokushi", 1, lambda r: r.shape == "kokushi" and r.wait != "juusanmen"),
    Yakuman("kokushi_13", 2, lambda r: r.shape == "kokushi" and r.wait == "juusanmen"),
    Yakuman("daisuushii", 2, _daisuushii),
    Yakuman("shousuushii", 1, lambda r: _wind_triplets(r) == 3 and r.pair in WINDS),
    Yakuman("suukantsu", 1, lambda r: r.kans == 4),
)

# Yakuman a liable player (pao) can be made to pay for.
PAO_YAKUMAN = ("daisangen", "daisuushii")


def win_yaku(hand: WinningHand, rules: Rules) -> list[tuple[str, int]]:
    """The yaku of how the hand was won (riichi, tsumo, haitei ...) with their han."""
    closed = hand.is_closed
    return [(y.id, y.han_closed if closed else y.han_open) for y in WIN_YAKU
            if (y.han_closed if closed else y.han_open) and y.test(hand, rules)]


def win_yakuman(hand: WinningHand, rules: Rules) -> list[tuple[str, int]]:
    """Tenhou, chiihou, renhou as yakuman: (id, yakuman count)."""
    return [(y.id, y.count) for y in WIN_YAKUMAN if y.test(hand, rules)]


def tile_yaku(r: Reading) -> list[tuple[str, int]]:
    """The yaku of a reading's tiles with their han (dora not included)."""
    closed = r.closed
    found = []
    for yaku in TILE_YAKU:
        han = yaku.han_closed if closed else yaku.han_open
        if han and yaku.test(r):
            found.append((yaku.id, han))
    return found


def tile_yakuman(r: Reading) -> list[tuple[str, int]]:
    """The yakuman of a reading's tiles, each with how many yakuman it is worth under the rules."""
    double = r.rules.double_yakuman
    return [(y.id, y.count if double else 1) for y in TILE_YAKUMAN if y.test(r)]
