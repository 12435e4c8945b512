"""The search behind scorer/seating.py: rounds of tables with the fewest repeat meetings,
then the fewest uneven three-player seats, then the organiser's style, by simulated annealing
over swaps of two players between tables of one round. Seeded by the `random.Random` given;
plain lists of player indices inside, names at the edges."""
from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

# The search's weights: a repeat outweighs any number of uneven three-player seats, which
# outweigh the style (standing or rating), whose term is scaled to stay below 1.
_REPEAT = 1000.0
_THREE = 10.0
_STEPS = 10000           # swaps tried per round planned, per restart
_RESTARTS = 6            # fresh starts while the plan is above the counting bound
_STALE = 3               # restarts in a row without fewer repeats before the search settles
_HOT = 1.0               # the first temperature (a table's worth of style, a tenth of an uneven seat)
_COLD = 1e-3             # the last
_FIRST_WEIGHT = 0.3      # a repeat's weight at the start, rising to _REPEAT


def search(people: list[str], played: Sequence[Sequence[Sequence[str]]], sizes: tuple[int, ...],
           bye_plan: list[tuple[str, ...]], threes_so_far: Counter, style_score, every_round: bool,
           rng: random.Random, bounds: tuple[int, int],
           known: list[list[list[str]]] | None = None) -> list[list[list[str]]]:
    """The rounds of `bye_plan` (this one first), each as tables of player names, after the
    rounds `played` (each its tables of names). `style_score`: a round's tables (lists of
    player indices) to a cost, or None; `every_round`: it steers every round, not the first.

    Where a style steers this round, it is annealed alone for its style and the later ones
    then around it (a round settled for repeats first is too rigid to be reshaped for the style
    afterwards). Where that leaves more repeats than the counting bound, where no style steers,
    or where ratings steer every round, all rounds are also annealed together, and the better
    plan kept: fewest repeats, then the lower cost. `known`: a plan found before for these
    rounds (the rest of a night), kept if nothing better turns up. `bounds`: the counting bounds
    with this round and with them all, where restarts stop."""
    n = len(people)
    index = {p: i for i, p in enumerate(people)}
    base = _counts(n, [[index[p] for p in t if p in index] for tables in played for t in tables])
    three_base = [threes_so_far[p] for p in people]
    tries = []
    if known is not None:
        plan = [[[index[p] for p in t] for t in tables] for tables in known]
        tries.append((plan, *_cost(plan, base, three_base, style_score, every_round)))
    if style_score is not None:
        first, _, _ = _restarts(lambda: _start(people, index, sizes, bye_plan[:1], rng), base, three_base,
                                style_score, False, rng, bounds[0])
        plan = first
        if len(bye_plan) > 1:
            around = _counts(n, first[0], base)
            threes = _threes(first[:1], three_base)
            # the later rounds: ratings steer them too (they are known), standings not yet
            rest, _, _ = _restarts(lambda: _start(people, index, sizes, bye_plan[1:], rng), around, threes,
                                   style_score if every_round else None, every_round, rng, bounds[1])
            plan = first + rest
        tries.append((plan, *_cost(plan, base, three_base, style_score, every_round)))
    if every_round or not tries or min(t[2] for t in tries) > bounds[1]:
        tries.append(_restarts(lambda: _start(people, index, sizes, bye_plan, rng), base, three_base, style_score,
                               every_round, rng, bounds[1]))
    if style_score is not None and min(t[2] for t in tries) > bounds[1]:
        # The style can hold the search in a round that leaves the later ones no way round
        # repeats (16 players: after two rounds, a third drawn as the cyclic Latin square has no
        # orthogonal mate, so the fourth must repeat). Repeats come first: search without it.
        plan, _, _ = _restarts(lambda: _start(people, index, sizes, bye_plan, rng), base, three_base, None,
                               every_round, rng, bounds[1])
        tries.append((plan, *_cost(plan, base, three_base, style_score, every_round)))
    best = min(tries, key=lambda t: (t[2], t[1]))[0]
    return [[[people[i] for i in sorted(t)] for t in tables] for tables in best]


def _counts(n: int, tables: list[list[int]], base: list[list[int]] | None = None) -> list[list[int]]:
    """Meetings of each pair (a matrix by player index), `base` plus those at `tables`."""
    count = [row[:] for row in base] if base else [[0] * n for _ in range(n)]
    for t in tables:
        for a, b in combinations(t, 2):
            count[a][b] += 1
            count[b][a] += 1
    return count


def _threes(plan, three_base: list[int]) -> list[int]:
    """Three-player tables each player has sat at: `three_base` plus those in `plan`."""
    threes = three_base[:]
    for tables in plan:
        for t in tables:
            if len(t) == 3:
                for i in t:
                    threes[i] += 1
    return threes


def _cost(plan, base, three_base, style_score, every_round: bool) -> tuple[float, int]:
    """(the weighted cost, the repeats) of a whole plan (the style on its first round, or on
    every round)."""
    n = len(base)
    count = _counts(n, [t for tables in plan for t in tables], base)
    threes = _threes(plan, three_base)
    repeats = sum(count[a][b] - 1 for a in range(n) for b in range(a + 1, n) if count[a][b] > 1)
    styled = sum(style_score(tables) for tables in (plan if every_round else plan[:1])) if style_score else 0.0
    return _REPEAT * repeats + _THREE * sum(t * t for t in threes) + styled, repeats


def _restarts(start, base, three_base, style_score, every_round, rng, bound):
    """The best of a few annealing runs from fresh starts: (plan, cost, repeats); stops early
    once the repeats are down to `bound`, or when fresh starts stop finding fewer (the bound is
    a count, and some rooms cannot reach it)."""
    best, stale = None, 0
    for _ in range(_RESTARTS):
        found = _anneal(start(), base, three_base, style_score, every_round, rng)
        stale = stale + 1 if best is not None and found[2] >= best[2] else 0
        if best is None or found[1] < best[1]:
            best = found
        if found[2] <= bound or stale >= _STALE:
            break
    return best


def _start(people, index, sizes, bye_plan, rng) -> list[list[list[int]]]:
    plan = []
    for byes in bye_plan:
        playing = [index[p] for p in people if p not in byes]
        rng.shuffle(playing)
        tables, at = [], 0
        for size in sizes:
            tables.append(playing[at:at + size])
            at += size
        plan.append(tables)
    return plan


def _anneal(plan, base, three_base, style_score, every_round, rng):
    """Swap two players of one round between two tables while it helps, or now and then when
    it does not (less and less often), keeping the best plan seen: (plan, cost, repeats)."""
    n = len(base)
    count = _counts(n, [t for tables in plan for t in tables], base)
    threes = _threes(plan, three_base)
    cost, repeats = _cost(plan, base, three_base, style_score, every_round)
    best = ([[t[:] for t in tables] for tables in plan], cost, repeats)
    multi_table = [r for r, tables in enumerate(plan) if len(tables) > 1]
    if not multi_table:
        return best
    steps = _STEPS * len(plan)
    for step in range(steps):
        done = step / steps
        temperature = _HOT * (_COLD / _HOT) ** done
        # repeats weigh little at first, so the search can cross them to a better arrangement
        # for the style, and their full weight at the end
        weight = _REPEAT * (_FIRST_WEIGHT / _REPEAT) ** (1 - done)
        r = multi_table[rng.randrange(len(multi_table))]
        tables = plan[r]
        ta, tb = rng.sample(range(len(tables)), 2)
        A, B = tables[ta], tables[tb]
        ia, ib = rng.randrange(len(A)), rng.randrange(len(B))
        a, b = A[ia], B[ib]
        delta_rep = 0
        for x in A:
            if x != a:
                delta_rep += _change(count[a][x], -1) + _change(count[b][x], +1)
        for y in B:
            if y != b:
                delta_rep += _change(count[b][y], -1) + _change(count[a][y], +1)
        delta_three = 0.0
        if len(A) != len(B):
            # a moves to B's size, b to A's
            da = (1 if len(B) == 3 else 0) - (1 if len(A) == 3 else 0)
            delta_three = ((threes[a] + da) ** 2 - threes[a] ** 2) + ((threes[b] - da) ** 2 - threes[b] ** 2)
        restyled = style_score is not None and (every_round or r == 0)
        before_style = style_score(tables) if restyled else 0.0
        A[ia], B[ib] = b, a
        after_style = style_score(tables) if restyled else 0.0
        rest = _THREE * delta_three + after_style - before_style
        delta = weight * delta_rep + rest
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            for x in A:
                if x != b:
                    count[a][x] -= 1; count[x][a] -= 1
                    count[b][x] += 1; count[x][b] += 1
            for y in B:
                if y != a:
                    count[b][y] -= 1; count[y][b] -= 1
                    count[a][y] += 1; count[y][a] += 1
            if len(A) != len(B):
                threes[a] += da
                threes[b] -= da
            repeats += delta_rep
            cost += _REPEAT * delta_rep + rest
            if cost < best[1] - 1e-12:
                best = ([[t[:] for t in ts] for ts in plan], cost, repeats)
        else:
            A[ia], B[ib] = a, b
    return best


def _change(meetings_now: int, step: int) -> int:
    """How one pair's repeats change when its meetings move by `step` (+1 or -1)."""
    after = meetings_now + step
    return max(0, after - 1) - max(0, meetings_now - 1)
