"""Scoring a riichi hand: read it every way, score each reading, keep the best, pay it out.

`score_hand(hand, rules) -> Result` is the one entry; the rules it applies live in
yaku.py (which yaku), fu.py (fu), dora.py (dora), limits.py (limits) and payments.py
(who pays whom). What depends on the tiles alone (readings, their yaku and fu) is cached,
so scoring a hand seen before (a camera frame read again) costs only the flags and dora.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Final, NamedTuple, TypeVar

from ..errors import HandError
from ..hand import WinningHand
from ..tally import Tally, tally_tiles
from .dora import dora_of
from .fu import fu_of
from .limits import YAKUMAN, base_points
from .payments import hand_transfers, stick_transfers, transfers as pay
from .readings import read_tiles
from .memo import Table
from .rules import Rules
from .yaku import PAO_YAKUMAN, tile_values, won_by

T = TypeVar("T")


class Result(NamedTuple):
    """A scored hand, in the contract's terms (see shared/spec/hand-json.md).

    A named tuple made by `tuple.__new__`, in C: a dataclass's generated `__init__` is Python
    code, even in the compiled scorer."""
    han: int
    fu: int
    yakuman: int
    yaku: list[tuple[str, int]]
    limit: str | None
    fu_breakdown: list[tuple[str, int]]
    points: int
    transfers: list[dict]
    base: int


# What one reading's tiles are worth, as cached by `_tile_scores`: (yaku, han, fu, fu breakdown,
# yakuman), each a tuple of plain values. A plain tuple, not a named tuple: the garbage
# collector stops tracking a cached tuple of plain values, but never a tuple subclass's, and a
# server that meets new hands would keep adding a few tracked objects per hand to what every
# full collection walks (measured: two of the five an unseen hand left tracked were these).
_TileScore = tuple[tuple[tuple[str, int], ...], int, int, tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]


def score_hand(hand: WinningHand, rules: Rules, tally: Tally | None = None) -> Result:
    """Score a checked winning hand under `rules`; `tally`: its tiles counted (`tally_tiles`),
    when the caller counted them already (the contract, for its checks).

    Raises HandError `not_a_winning_hand` (saying what the tiles lack), `no_yaku`,
    `win_tile_not_in_hand`, or `bad_flag_combination` for a flag these rules do not play
    (renhou when off, pao without a yakuman it covers, north tiles aside in four-player).
    """
    _check_flags(hand, rules)
    if hand.nagashi_mangan:
        return _nagashi_mangan(hand, rules)
    if tally is None:
        tally = tally_tiles(hand)
    concealed = bytes(tally.concealed[:34])
    win = hand.win_tile.kind
    if not concealed[win]:
        raise HandError("win_tile_not_in_hand", f"the winning tile {hand.win_tile.name} is not among "
                                                 f"the concealed tiles; list it there too")
    melds = tuple([(m.kind, _meld_kind(m)) for m in hand.melds]) if hand.melds else ()
    scores = _tile_scores(concealed, win, melds, hand.tsumo, hand.seat_wind, hand.round_wind, rules)
    won, won_yakuman = won_by(hand, rules)
    chosen = _best_yakuman(scores, won_yakuman, rules) or _best_yaku(scores, hand, tally, won, rules)
    han, fu, yakuman, yaku, breakdown = chosen
    base, limit = base_points(han, fu, yakuman, rules)
    winner = hand.seat_wind
    liable, paid, points = _hand_paid(base, _pao_base(hand, yaku, base), winner, hand.tsumo, hand.discarder,
                                      hand.pao, rules)
    if hand.honba or hand.riichi_sticks:
        paid = paid + _sticks_paid(winner, hand.tsumo, hand.discarder, rules.players, hand.honba,
                                   hand.riichi_sticks, hand.takes_pot, liable)
    payments = [{"from": payer, "to": winner, "points": value} for payer, value in paid if value]
    return tuple.__new__(Result, (han, fu, yakuman, yaku, limit, breakdown, points, payments, base))


def _meld_kind(meld) -> int:
    """The tile of a pon or kan, the lowest tile of a chi."""
    tiles = meld.tiles
    if meld.kind != "chi":
        return tiles[0].kind
    return min(tiles[0].kind, tiles[1].kind, tiles[2].kind)


def _tile_scores(concealed: bytes, win: int, melds: tuple, tsumo: bool, seat: str,
                 round_wind: str, rules: Rules) -> tuple[_TileScore, ...]:
    """`_score_readings`, remembered: by the rules, then by the tiles and winds. The rules are
    kept out of the inner key because the garbage collector never untracks a key holding them
    (a named tuple, a tuple subclass), where it does a key of plain values: one object fewer per
    new hand for every full collection to walk."""
    table = _SCORES.get(rules)
    if table is None:
        if len(_SCORES) >= 64:      # a client cycling through option sets: start over
            _SCORES.clear()
        table = _SCORES[rules] = {}
    key = (concealed, win, melds, tsumo, seat, round_wind)
    scores = table.get(key)
    if scores is None:
        scores = _remember(table, key, _score_readings(concealed, win, melds, tsumo, seat, round_wind, rules),
                           32768)
    return scores


# _tile_scores's tables, one per Rules.
_SCORES: Final[dict] = Table()


def _score_readings(concealed: bytes, win: int, melds: tuple, tsumo: bool, seat: str,
                    round_wind: str, rules: Rules) -> tuple[_TileScore, ...]:
    scores: list[_TileScore] = []
    for reading in read_tiles(concealed, win, melds, tsumo, seat, round_wind, rules):
        yakuman, yaku = tile_values(reading)
        if yakuman:
            scores.append(((), 0, 0, (), tuple(yakuman)))
            continue
        kept = tuple(yaku)
        fu, breakdown = fu_of(reading)
        scores.append((kept, sum(map(_SECOND, kept)), fu, tuple(breakdown), ()))
    return tuple(scores)


# A _TileScore's items, Final so that the type checker (and mypyc) knows each item's type.
_YAKU: Final = 0
_HAN: Final = 1
_FU: Final = 2
_YAKUMAN: Final = 4
_SECOND: Final = itemgetter(1)     # the han of a (yaku, han) entry: summed in C, where a comprehension is a call
_Scored = tuple[int, int, int, list, list]      # han, fu, yakuman, yaku, fu breakdown


def _best_yakuman(scores: tuple[_TileScore, ...], won: tuple[tuple[str, int], ...], rules: Rules) -> _Scored | None:
    """The reading with the most yakuman, the win's own (tenhou ...) added to the tiles'."""
    best, best_count = None, 0
    for score in scores:
        joined = score[_YAKUMAN] + won
        if not joined:
            continue
        found = list(joined)
        if not rules.stacked_yakuman:
            found = [max(found, key=lambda item: item[1])]
        count = sum([n for _, n in found])
        if count > best_count:
            best, best_count = found, count
    if best is None:
        return None
    return 13 * best_count, 0, best_count, [(name, 13 * n) for name, n in best], []


def _best_yaku(scores: tuple[_TileScore, ...], hand: WinningHand, tally: Tally,
               won: tuple[tuple[str, int], ...], rules: Rules) -> _Scored:
    """The reading paying the most (then most han, then most fu), the win's yaku and the dora
    added to each: they are the same for every reading but can change which one pays more."""
    scored = [score for score in scores if not score[_YAKUMAN] and (score[_YAKU] or won)]
    if not scored:
        raise HandError("no_yaku", _no_yaku_message(hand))
    dora = dora_of(hand, tally.every, len(tally.reds), rules)
    extra = sum(map(_SECOND, won)) + sum(map(_SECOND, dora))
    best = scored[0]
    if len(scored) > 1:
        best = max(scored, key=lambda s: (base_points(extra + s[_HAN], s[_FU], 0, rules)[0], extra + s[_HAN], s[_FU]))
    yaku, han, fu, breakdown, _ = best
    return extra + han, fu, 0, [*won, *yaku, *dora], list(breakdown)


def _hand_paid(base: int, pao_base: int, winner: str, tsumo: bool, discarder: str, pao: str,
               rules: Rules) -> tuple[str, tuple[tuple[str, int], ...], int]:
    """`hand_transfers` (the liable seat and who pays what for the hand itself) and what the
    hand is worth before honba and sticks. A function of a few small values that recur from
    hand to hand (the same bases and seats), so remembered."""
    key = (base, pao_base, winner, tsumo, discarder, pao, rules)
    found = _PAID.get(key)
    if found is None:
        liable, paid = hand_transfers(base=base, winner=winner, tsumo=tsumo, discarder=discarder,
                                      players=rules.players, pao=pao, pao_base=pao_base, rules=rules)
        found = _remember(_PAID, key, (liable, tuple(paid), sum([points for _, points in paid])))
    return found


def _sticks_paid(winner: str, tsumo: bool, discarder: str, players: int, honba: int, riichi_sticks: int,
                 takes_pot: bool, liable: str) -> tuple[tuple[str, int], ...]:
    """`stick_transfers` (who pays the honba, who takes the riichi sticks), remembered: like
    `_hand_paid`, a function of a few small values that recur from hand to hand."""
    key = (winner, tsumo, discarder, players, honba, riichi_sticks, takes_pot, liable)
    found = _STICKS_PAID.get(key)
    if found is None:
        found = _remember(_STICKS_PAID, key, tuple(stick_transfers(
            winner=winner, tsumo=tsumo, discarder=discarder, players=players, honba=honba,
            riichi_sticks=riichi_sticks, takes_pot=takes_pot, liable=liable)))
    return found


def _remember(table: dict, key: tuple, value: T, size: int = 4096) -> T:
    """Keep `value` under `key`; a full table starts over. Written out in each function, not
    a decorator: the compiled scorer calls a decorated function as a Python object."""
    if len(table) >= size:
        table.clear()
    table[key] = value
    return value


# What _hand_paid and _sticks_paid worked out, by their arguments.
_PAID: Final[dict] = Table()
_STICKS_PAID: Final[dict] = Table()


def _pao_base(hand: WinningHand, yaku: list[tuple[str, int]], base: int) -> int:
    if not hand.pao:
        return 0
    covered = sum(han // 13 for name, han in yaku if name in PAO_YAKUMAN)
    if not covered:
        raise HandError("bad_flag_combination",
                        "pao (liability) applies only to big three dragons or big four winds, "
                        "and this hand has neither")
    return min(base, YAKUMAN * covered)


def _check_flags(hand: WinningHand, rules: Rules) -> None:
    if hand.renhou and rules.renhou == "off":
        raise HandError("bad_flag_combination",
                        f"renhou (a win before one's first draw) is not played under the "
                        f"{rules.preset} rules; set the option renhou to \"mangan\" or \"yakuman\"")
    if hand.nukidora and not rules.three_player:
        raise HandError("bad_flag_combination",
                        "north tiles are set aside as dora (nukidora) only in three-player games")
    if hand.nagashi_mangan and not rules.nagashi_mangan:
        raise HandError("bad_flag_combination",
                        f"nagashi mangan is not played under the {rules.preset} rules")


def _nagashi_mangan(hand: WinningHand, rules: Rules) -> Result:
    """Nagashi mangan is paid at the draw like a tsumo mangan; as on Tenhou the honba and
    the riichi sticks stay on the table for the next hand."""
    base, limit = base_points(5, 0, 0, rules)
    payments = pay(base=base, winner=hand.seat_wind, tsumo=True, players=rules.players, rules=rules)
    points = sum(p["points"] for p in payments)
    return tuple.__new__(Result, (5, 0, 0, [("nagashi_mangan", 5)], limit, [], points, payments, base))


def _no_yaku_message(hand: WinningHand) -> str:
    if hand.is_closed:
        hint = "a closed hand won on a discard needs a yaku such as riichi, pinfu, tanyao or a dragon pon"
    else:
        hint = ("an open hand needs a yaku of its own, such as a pon of dragons or of your "
                "seat or round wind, all simples (tanyao), a flush or all pons; dora are not yaku")
    return f"the hand is complete but has no yaku: {hint}"
