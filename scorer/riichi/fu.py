"""Fu (minipoints) of a reading, with the breakdown a player can check.

Reason ids of the breakdown: `base` 20; `chiitoitsu` 25 (the whole count for seven pairs);
`closed_ron` 10 (menzen kafu); `tsumo` 2 (not for pinfu; with `pinfu_tsumo_fu` a tsumo
always earns it and so is never pinfu);
`{open|closed}_{pon|kan}_{simple|terminal|honor}` for each pon or kan (open pon of simples 2,
doubled when concealed, doubled for terminals and honours, x4 for a kan); `pair_dragon`,
`pair_seat_wind`, `pair_round_wind` 2, `pair_double_wind` (2 or 4, `double_wind_pair_fu`);
`wait_kanchan`, `wait_penchan`, `wait_tanki` 2; `open_pinfu` 2 (an open hand won on a discard
with no other fu is raised to 30, `open_pinfu_fu`). The total is rounded up to 10.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Final

from ..tiles import DRAGONS, is_honor, is_terminal
from .readings import KAN, PON, SEQ, Reading
from .yaku import is_pinfu

# Breakdown items are made once and shared: a scored hand's breakdown is cached, and fewer
# new objects keep the garbage collector's work down.
BASE: Final = ("base", 20)
CLOSED_RON: Final = ("closed_ron", 10)
TSUMO: Final = ("tsumo", 2)
OPEN_PINFU: Final = ("open_pinfu", 2)
CHIITOITSU: Final = ("chiitoitsu", 25)
_WAIT_FU: Final = {"kanchan": ("wait_kanchan", 2), "penchan": ("wait_penchan", 2), "tanki": ("wait_tanki", 2)}
_FU: Final = itemgetter(1)
_PAIR_FU: Final = {"dragon": ("pair_dragon", 2), "seat": ("pair_seat_wind", 2), "round": ("pair_round_wind", 2),
                   2: ("pair_double_wind", 2), 4: ("pair_double_wind", 4)}


def fu_of(r: Reading) -> tuple[int, list[tuple[str, int]]]:
    """(fu rounded up to 10, [(reason, fu), ...]) for a standard or seven-pairs reading."""
    if r.shape == "chiitoitsu":
        return 25, [CHIITOITSU]
    items = [BASE]
    closed, tsumo = r.closed, r.tsumo
    if closed and not tsumo:
        items.append(CLOSED_RON)
    if tsumo and not is_pinfu(r):
        items.append(TSUMO)
    if r.triplets:      # only pons and kans earn fu: many hands have none
        for shape, kind, concealed, _ in r.groups:
            if shape != SEQ:
                items.append(_SET_FU[shape, kind, concealed])
    pair = _pair_fu(r)
    if pair:
        items.append(pair)
    wait = _WAIT_FU.get(r.wait)
    if wait:
        items.append(wait)
    if len(items) == 1 and not closed and not tsumo and r.rules.open_pinfu_fu:
        items.append(OPEN_PINFU)
    total = sum(map(_FU, items))
    return -(-total // 10) * 10, items


def _set_fu(shape: str, kind: int, concealed: bool) -> tuple[str, int]:
    """An open pon of simples is 2 fu; concealed doubles it, terminals or honours double it,
    a kan is four times a pon."""
    fu = 2 if shape == PON else 8
    if concealed:
        fu *= 2
    if is_honor(kind):
        outside = "honor"
    elif is_terminal(kind):
        outside = "terminal"
    else:
        outside = "simple"
    if outside != "simple":
        fu *= 2
    return f"{'closed' if concealed else 'open'}_{shape}_{outside}", fu


_SET_FU: Final = {(shape, kind, concealed): _set_fu(shape, kind, concealed)
                  for shape in (PON, KAN) for kind in range(34) for concealed in (False, True)}


def _pair_fu(r: Reading) -> tuple[str, int] | None:
    pair = r.pair
    if pair in DRAGONS:
        return _PAIR_FU["dragon"]
    if pair == r.seat and pair == r.round:
        return _PAIR_FU[r.rules.double_wind_pair_fu]
    if pair == r.seat:
        return _PAIR_FU["seat"]
    if pair == r.round:
        return _PAIR_FU["round"]
    return None
