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

from ..tiles import DRAGONS, is_honor, is_terminal
from .readings import PON, SEQ, Reading
from .yaku import is_pinfu

_WAIT_FU = {"kanchan": "wait_kanchan", "penchan": "wait_penchan", "tanki": "wait_tanki"}


def fu_of(r: Reading) -> tuple[int, list[tuple[str, int]]]:
    """(fu rounded up to 10, [(reason, fu), ...]) for a standard or seven-pairs reading."""
    if r.shape == "chiitoitsu":
        return 25, [("chiitoitsu", 25)]
    rules = r.rules
    items = [("base", 20)]
    if r.closed and not r.tsumo:
        items.append(("closed_ron", 10))
    if r.tsumo and not is_pinfu(r):
        items.append(("tsumo", 2))
    for group in r.groups:
        if group.shape != SEQ:
            items.append(_set_fu(group.shape, group.kind, group.concealed))
    items += _pair_fu(r)
    if r.wait in _WAIT_FU:
        items.append((_WAIT_FU[r.wait], 2))
    if len(items) == 1 and not r.closed and not r.tsumo and rules.open_pinfu_fu:
        items.append(("open_pinfu", 2))
    total = sum(fu for _, fu in items)
    return -(-total // 10) * 10, items


def _set_fu(shape: str, kind: int, concealed: bool) -> tuple[str, int]:
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


def _pair_fu(r: Reading) -> list[tuple[str, int]]:
    pair = r.pair
    if pair in DRAGONS:
        return [("pair_dragon", 2)]
    if pair == r.seat and pair == r.round:
        return [("pair_double_wind", r.rules.double_wind_pair_fu)]
    if pair == r.seat:
        return [("pair_seat_wind", 2)]
    if pair == r.round:
        return [("pair_round_wind", 2)]
    return []
