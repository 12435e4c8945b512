"""The shape needs on yaku rows (`scorer.riichi.yaku.NEEDS`) only spare tests that cannot pass,
also on the hands the plain random test rarely draws: one suit with or without honours, all
honours, all terminals, all green, seven pairs and thirteen orphans, with kans and calls."""
from __future__ import annotations

import random

from scorer.errors import HandError
from scorer.riichi import rules_for
from scorer.riichi.readings import read_tiles
from scorer.riichi.yaku import TILE_YAKU, TILE_YAKUMAN, tile_yaku, tile_yakuman

ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
POOLS = (list(range(0, 9)), list(range(18, 27)) + [32], list(range(27, 34)),
         list(range(9, 18)) + list(range(27, 34)), list(range(34)), ORPHANS, [19, 20, 21, 23, 25, 32])


def _hand(rng: random.Random) -> tuple[list[int], list[tuple[str, int]]]:
    pool = rng.choice(POOLS)
    if rng.random() < 0.15:                     # seven pairs or thirteen orphans
        counts = [0] * 34
        if rng.random() < 0.5:
            for kind in rng.sample(pool, min(7, len(pool))):
                counts[kind] = 2
        else:
            for kind in ORPHANS:
                counts[kind] = 1
            counts[rng.choice(ORPHANS)] += 1
        return counts, []
    counts, melds = [0] * 34, []
    for _ in range(4):
        starts = [k for k in pool if k < 27 and k % 9 <= 6 and k + 1 in pool and k + 2 in pool]
        if starts and rng.random() < 0.5:
            start = rng.choice(starts)
            kinds, meld = [start, start + 1, start + 2], ("chi", start)
        else:
            kind = rng.choice(pool)
            kinds, meld = [kind] * 3, (rng.choice(["pon", "minkan", "ankan"]), kind)
        if rng.random() < 0.2:
            melds.append(meld)
            kinds = []
        for kind in kinds:
            counts[kind] += 1
    counts[rng.choice(pool)] += 2
    return counts, melds


def test_shape_needs_never_drop_a_yaku_or_yakuman():
    rng = random.Random(7)
    checked, found = 0, set()
    for rules in (rules_for("mahjongsoul", {}, 4), rules_for("tenhou", {}, 4)):
        for _ in range(6000):
            counts, melds = _hand(rng)
            if max(counts) > 4 or sum(counts) + 3 * len(melds) != 14:
                continue
            win = rng.choice([k for k in range(34) if counts[k]])
            try:
                readings = read_tiles(tuple(counts), win, tuple(melds), rng.random() < 0.5,
                                      rng.choice("ESWN"), rng.choice("ES"), rules)
            except HandError:
                continue
            for r in readings:
                every_row = [(y.id, y.han_closed if r.closed else y.han_open) for y in TILE_YAKU
                             if (y.han_closed if r.closed else y.han_open) and y.test(r)]
                every_yakuman = [(y.id, y.count if rules.double_yakuman else 1)
                                 for y in TILE_YAKUMAN if y.test(r)]
                assert tile_yaku(r) == every_row
                assert tile_yakuman(r) == every_yakuman
                found.update(name for name, _ in every_row + every_yakuman)
                checked += 1
    assert checked > 5000
    # The draw reaches the rare rows the needs are about.
    assert {"chinitsu", "honitsu", "tsuuiisou", "ryuuiisou", "chinroutou", "kokushi", "chiitoitsu",
            "chuuren", "daisuushii", "suukantsu", "honroutou"} <= found
