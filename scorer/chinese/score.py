"""Scoring one winning hand by the classical Chinese text: the best reading of the hand as
four sets and a pair, with its points and doubles, against the limit hands of the text's
group table; then the payments."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import HandError
from ..hand import Meld, WinningHand
from ..reading import splits
from ..tiles import EAST, KINDS, WIND_LETTERS, counts
from ..unplayed_fields import refuse_unplayed
from . import table
from .limit_hands import limit_hand
from .losers import loser_count
from .options import ChineseOptions, chinese_options
from .payments import SEATS, hand_transfers
from .table import Group, Item, Situation


@dataclass(frozen=True)
class Reading:
    base: int
    doubles: int
    items: tuple[Item, ...]
    double_items: tuple[Item, ...]

    @property
    def score(self) -> int:
        return self.base * 2 ** self.doubles


def score_hand(hand: WinningHand, options: dict | None = None) -> dict:
    """The contract response for a `chinese-classical` request (see docs/chinese-classical.md)."""
    opts = chinese_options(options)
    _check(hand)
    situation = _situation(hand)
    flowers = [t.kind for t in hand.flowers]
    best = _best_reading(hand, situation, flowers)
    limit = _limit_value(hand, opts, best is not None)
    if best is None and limit is None:
        raise HandError("not_a_winning_hand",
                        "these tiles are not four sets and a pair, nor a limit hand of the table")
    capped = best is not None and best.score > opts.limit
    standard = min(best.score, opts.limit) if best else 0
    use_limit = limit is not None and limit[0] >= standard
    points = limit[0] if use_limit else standard
    counts_by_seat = _other_counts(hand)
    detail = {
        "base": best.base if best else 0,
        "doubles": best.doubles if best else 0,
        "score": best.score if best else 0,
        "items": [i.to_json("points") for i in best.items] if best else [],
        "doubles_items": [i.to_json("doubles") for i in best.double_items] if best else [],
        "limit_hand": list(limit[1]) if use_limit else None,
        "limit": opts.limit,
        "capped": capped and not use_limit,
        "settlement": opts.settlement,
        "other_counts": counts_by_seat,
    }
    return {"ok": True, "points": points,
            "transfers": hand_transfers(points, hand.seat_wind, counts_by_seat, opts.settlement, opts.limit),
            "chinese": detail}


def _check(hand: WinningHand) -> None:
    if hand.players != 4:
        raise HandError("bad_option", "classical Chinese mahjong is played by four players")
    refuse_unplayed(hand, "chinese-classical")
    if hand.tenhou and not (hand.seat_wind == "E" and hand.tsumo):
        raise HandError("bad_flag_combination", "only East, out on the deal, has a hand from heaven")
    if len(set(hand.flowers)) != len(hand.flowers):
        raise HandError("too_many_copies", "each flower and season exists once")


def _situation(hand: WinningHand) -> Situation:
    return Situation(
        seat_wind=EAST + WIND_LETTERS.index(hand.seat_wind),
        round_wind=EAST + WIND_LETTERS.index(hand.round_wind),
        tsumo=hand.tsumo,
        only_tile=_only_tile(hand),
        loose_tile=hand.rinshan,
        last_tile=hand.haitei or hand.houtei,
        robbing_kong=hand.chankan,
    )


def _meld_group(meld: Meld) -> Group:
    shape = {"chi": "chow", "pon": "pung"}.get(meld.kind, "kong")
    return Group(shape, meld.kind_index, concealed=meld.kind == "ankan")


def _readings(hand: WinningHand) -> list[tuple[list[Group], int]]:
    """Every reading as (sets, pair). On a discard the set the winning tile completes was
    made in the open, so a pung finished by it is exposed."""
    melds = [_meld_group(m) for m in hand.melds]
    win = hand.win_tile.kind
    found = []
    for split in splits(counts(hand.concealed)):
        sets = [Group("pung" if s == "triplet" else "chow", k, True) for s, k in split.sets]
        if len(sets) + len(melds) != 4:
            continue
        if hand.tsumo:
            found.append((melds + sets, split.pair))
            continue
        homes = [i for i, g in enumerate(sets) if win in g.kinds]
        if split.pair == win:
            found.append((melds + sets, split.pair))
        for i in homes:
            opened = Group(sets[i].shape, sets[i].kind, False, won_on_discard=True)
            found.append((melds + sets[:i] + [opened] + sets[i + 1:], split.pair))
    return found


def _score_reading(groups: list[Group], pair: int, situation: Situation, flowers: list[int]) -> Reading:
    combos = table.set_items(groups) + table.pair_items(pair, situation)
    combination_points = sum(i.value for i in combos)
    items = combos + table.flower_items(flowers) + table.winner_items(situation, combination_points)
    doubles = (table.set_doubles(groups, situation) + table.hand_doubles(groups, pair, situation)
               + table.bonus_doubles(flowers, situation) + table.situation_doubles(situation))
    return Reading(sum(i.value for i in items), sum(d.value for d in doubles), tuple(items), tuple(doubles))


def _best_reading(hand: WinningHand, situation: Situation, flowers: list[int]) -> Reading | None:
    scored = [_score_reading(g, p, situation, flowers) for g, p in _readings(hand)]
    return max(scored, key=lambda r: (r.score, r.base), default=None)


def _limit_value(hand: WinningHand, opts: ChineseOptions,
                 four_sets_and_a_pair: bool) -> tuple[int, tuple[str, ...]] | None:
    """A limit hand's worth: the limit with any part exposed, twice that fully concealed
    (no exposed set and self-drawn); seven pairs half that. East out on the deal with four
    sets and a pair (a hand from heaven) scores the most a hand can: the concealed limit."""
    fully_concealed = hand.is_closed and hand.tsumo
    if hand.tenhou:
        _check_hand_from_heaven(hand, four_sets_and_a_pair)
        return 2 * opts.limit, ("hand_from_heaven",)
    found = _table_limit_hand(hand)
    if found is None:
        return None
    groups, half = found
    value = opts.limit * (2 if fully_concealed else 1)
    return (value // 2 if half else value), groups


def _table_limit_hand(hand: WinningHand) -> tuple[tuple[str, ...], bool] | None:
    """The hand's groups in the text's limit-hand table, and whether it is worth half."""
    tiles = [0] * KINDS
    for t in hand.concealed:
        tiles[t.kind] += 1
    for m in hand.melds:
        if m.kind == "chi":
            for t in m.tiles:
                tiles[t.kind] += 1
        else:
            tiles[m.kind_index] += 3        # a kong counts as its pung in the 14 tiles
    return limit_hand(tuple(tiles))


def _check_hand_from_heaven(hand: WinningHand, four_sets_and_a_pair: bool) -> None:
    """The text: "If they somehow have four melds and a pair, this termed a 'Hand from
    Heaven'". Only that shape: East dealt a limit hand of the group table (seven pairs, the
    winds and terminals ...) has no hand from heaven, and scores that limit hand without the
    flag (twice the limit at most, as any fully concealed limit hand)."""
    if four_sets_and_a_pair:
        return
    if _table_limit_hand(hand) is None:
        raise HandError("not_a_winning_hand", "A hand from heaven is East's fourteen dealt tiles as "
                                              "four melds and a pair; these tiles are not")
    raise HandError("bad_flag_combination",
                    "A hand from heaven is East's fourteen dealt tiles as four melds and a pair; these "
                    "tiles are a limit hand of the table instead: score them without tenhou")


def _only_tile(hand: WinningHand) -> bool:
    """Out with the only tile possible: without the winning tile, the hand waits on one kind."""
    waiting = counts(hand.concealed)
    waiting[hand.win_tile.kind] -= 1
    need = 4 - len(hand.melds)
    kinds = []
    for k in range(KINDS):
        if waiting[k] >= 4:
            continue
        waiting[k] += 1
        if any(len(s.sets) == need for s in splits(waiting)):
            kinds.append(k)
        waiting[k] -= 1
    return kinds == [hand.win_tile.kind]


def _other_counts(hand: WinningHand) -> dict[str, int]:
    """Losers' own counts: given (`other_counts`), or counted from their tiles (`other_hands`)."""
    hands = hand.extra.get("other_hands", {}) or {}
    if not isinstance(hands, dict):
        raise HandError("bad_option", "other_hands is an object of seat wind and that player's tiles")
    counted = {}
    for seat, tiles in hands.items():
        if seat not in SEATS or seat == hand.seat_wind:
            raise HandError("bad_option", f"other_hands names the losers by seat wind, not {seat!r}")
        counted[seat] = loser_count(tiles, seat, hand.round_wind)
    return {**counted, **_given_counts(hand)}


def _given_counts(hand: WinningHand) -> dict[str, int]:
    raw = hand.extra.get("other_counts", {}) or {}
    if not isinstance(raw, dict):
        raise HandError("bad_option", "other_counts is an object of seat wind and count, like {\"S\": 12}")
    checked = {}
    for seat, count in raw.items():
        if seat not in SEATS or seat == hand.seat_wind:
            raise HandError("bad_option", f"other_counts names the losers by seat wind (E, S, W, N, "
                                          f"not the winner {hand.seat_wind}); {seat!r} is not one")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise HandError("bad_option", f"the count of {seat} must be a whole number of points, not {count!r}")
        checked[seat] = count
    return checked

