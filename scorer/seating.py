"""A club night's tables: who sits with whom in each round, and the wind each one draws.

The organiser lists who plays; `plan_round` makes the next round's tables (after the results
of the rounds before it are in, for Swiss pairing), `plan_night` makes every round at once
(when the pairing does not wait for results). Both put fewest repeat meetings first: a repeat
is each time two players share a table again after the first time (`repeat_meetings`). Then,
as the organiser chose:

- ``swiss``: by standing, players near each other in the night's standings sit together (the
  top four at one table, as far as repeats allow);
- ``rating``: tables of even strength: each table's average rating as near the room's as it
  can be (strong players spread over the tables, not gathered at one);
- ``random``: nothing beyond fewest repeats.

A room that is not a multiple of four (``short``):

- ``three`` (the default): three-player tables make up the difference: 13 players are a table
  of four and three of three, 14 two and two, 15 three and one. A three-player seat goes to
  those who have had fewest so far, so nobody plays sanma every round. Five players fill no
  such tables (5 is neither 4 + 3 nor 3 + 3 + 3): one sits out, as under ``bye``.
- ``bye``: the players left over sit the round out (a bye), those with fewest byes first,
  then under ``swiss`` the lowest standing (as chess Swiss events give the bye), otherwise
  drawn by lot.

How: a seeded search (simulated annealing over swaps of two players between tables, a repeat
weighing little at first and everything at the end) over the rounds still to come, the rounds
already played held fixed, so a round is never chosen that forces repeats later when another
would not: for 16 players and 4 rounds it finds the resolvable design with no repeat at all
(16 players meet in 4 rounds 96 times, fewer than the 120 pairs there are). Swiss steers the
round being made (later standings are not known yet); ratings steer the whole night, which
keeps every round's tables near even rather than the first perfect and the last lopsided.
`fewest_possible_repeats` is the counting bound a plan is measured against; some rooms cannot
reach it (13 players with a bye each round meet again 9 times in 4 rounds in every seed
tried). A plan takes about a second on one core. Everything random comes from the
`random.Random` passed in, so a seed gives the same night every time.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from .seating_search import search

STYLES = ("swiss", "rating", "random")
SHORT_RULES = ("three", "bye")
WIND_DRAWS = ("shuffle", "tiles")
WINDS = ("E", "S", "W", "N")

@dataclass(frozen=True)
class Round:
    """One round of a club night: its tables (players, not yet in seats) and who sits out."""
    number: int                               # 1, 2, ...
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    def table_of(self, player: str) -> int | None:
        """The 0-based table `player` sits at, None for a bye."""
        return next((i for i, t in enumerate(self.tables) if player in t), None)

    def to_json(self) -> dict:
        return {"round": self.number, "tables": [list(t) for t in self.tables], "byes": list(self.byes)}


@dataclass(frozen=True)
class WindDraw:
    """Who sits where at one table: `seats` from East (the first dealer) round the table."""
    seats: tuple[str, ...]
    how: str
    drawn: tuple[tuple[str, str], ...] = ()   # tiles: (player, wind tile) in the order drawn
    dice: int = 0                             # tiles: the roll that chose the first to draw

    def wind_of(self, player: str) -> str:
        return WINDS[self.seats.index(player)]

    def to_json(self) -> dict:
        return {"seats": list(self.seats), "how": self.how, "dice": self.dice,
                "drawn": [{"player": p, "wind": w} for p, w in self.drawn]}


# --- counting meetings ---------------------------------------------------------------------

def meetings(rounds: Sequence[Round]) -> Counter:
    """How often each pair (a frozenset of two players) shared a table."""
    count: Counter = Counter()
    for r in rounds:
        for table in r.tables:
            count.update(frozenset(pair) for pair in combinations(table, 2))
    return count


def repeat_meetings(rounds: Sequence[Round]) -> int:
    """Meetings beyond each pair's first: 0 when nobody met anyone twice."""
    return sum(c - 1 for c in meetings(rounds).values() if c > 1)


def repeated_pairs(rounds: Sequence[Round]) -> list[tuple[str, str, int]]:
    """The pairs who met more than once, (a, b, times), most often first, for a page to list."""
    pairs = [(*sorted(pair), c) for pair, c in meetings(rounds).items() if c > 1]
    return sorted(pairs, key=lambda p: (-p[2], p[0], p[1]))


def table_sizes(players: int, short: str = "three") -> tuple[tuple[int, ...], int]:
    """(table sizes, byes) for one round of `players` under the rule `short`."""
    if short not in SHORT_RULES:
        raise ValueError(f"a player short is one of {', '.join(SHORT_RULES)}, not {short!r}")
    if players < 3:
        raise ValueError(f"a table needs at least three players, not {players}")
    if short == "three":
        threes = -players % 4
        if 3 * threes <= players:
            return (4,) * ((players - 3 * threes) // 4) + (3,) * threes, 0
    fours, byes = divmod(players, 4)
    if fours == 0:                            # three players: one three-player table
        return (3,), players - 3
    return (4,) * fours, byes


def fewest_possible_repeats(players: int, rounds: int, short: str = "three") -> int:
    """A lower bound on repeat meetings for the night: meetings past the number of pairs, and
    each player's past the number of others (a player who meets 3 a round for 6 rounds in a
    room of 16 must meet 3 twice). 0 does not promise a plan without repeats exists, only that
    counting does not rule one out."""
    sizes, byes = table_sizes(players, short)
    pairs = rounds * sum(s * (s - 1) // 2 for s in sizes)
    by_pairs = max(0, pairs - players * (players - 1) // 2)
    # each seat meets size-1 others; spread as evenly as the room allows
    seats = rounds * sum(s * (s - 1) for s in sizes)          # meetings counted from both sides
    over = max(0, seats - players * (players - 1))
    return max(by_pairs, math.ceil(over / 2))


# --- planning ------------------------------------------------------------------------------

def plan_night(players: Sequence[str], rounds: int, rng: random.Random, *, style: str = "random",
               ratings: Mapping[str, float] | None = None, short: str = "three") -> list[Round]:
    """Every round of a night at once (``random`` or ``rating``: nothing waits for results)."""
    if style == "swiss":
        raise ValueError("swiss pairing waits for each round's results: plan it round by round (plan_round)")
    if rounds < 1:
        raise ValueError(f"a night has at least one round, not {rounds}")
    if style == "random":
        return _plan(players, [], rng, style, None, ratings, short, rounds)
    # ratings steer every round: each made for its own balance, the rest of the night kept in view
    night: list[Round] = []
    rest = None
    while len(night) < rounds:
        planned = _plan(players, night, rng, style, None, ratings, short, rounds - len(night), rest)
        night.append(planned[0])
        rest = [[list(t) for t in r.tables] for r in planned[1:]]
    return night


def plan_round(players: Sequence[str], played: Sequence[Round], rng: random.Random, *,
               style: str = "random", standings: Mapping[str, float] | None = None,
               ratings: Mapping[str, float] | None = None, short: str = "three",
               rounds_total: int | None = None) -> Round:
    """The next round's tables for `players` (who plays tonight, in the organiser's order),
    after the rounds `played`. `standings` (swiss: higher is better, e.g. the night's result so
    far) or `ratings` (rating) steer the style; `rounds_total` lets the search look ahead so this
    round leaves the later ones room to avoid repeats."""
    remaining = max(1, (rounds_total or 0) - len(played))
    return _plan(players, played, rng, style, standings, ratings, short, remaining)[0]


def _plan(players: Sequence[str], played: Sequence[Round], rng: random.Random, style: str,
          standings: Mapping[str, float] | None, ratings: Mapping[str, float] | None, short: str,
          rounds: int, known: list[list[list[str]]] | None = None) -> list[Round]:
    """The next `rounds` rounds, searched together; the style steers the first of them only
    (later standings are not known yet)."""
    if style not in STYLES:
        raise ValueError(f"seating is one of {', '.join(STYLES)}, not {style!r}")
    people = list(dict.fromkeys(players))
    if len(people) != len(players):
        raise ValueError("a player is listed twice")
    sizes, bye_count = table_sizes(len(people), short)
    style_score = _style_scorer(style, people, standings, ratings)
    byes_so_far = Counter(p for r in played for p in r.byes)
    threes_so_far = Counter(p for r in played for t in r.tables if len(t) == 3 for p in t)
    # who sits out each round: fewest byes first, then the lowest standing (swiss) or by lot
    bye_plan = []
    for _ in range(rounds):
        order = sorted(people, key=lambda p: (byes_so_far[p], _bye_tiebreak(style, p, standings), rng.random()))
        chosen = tuple(order[:bye_count])
        byes_so_far.update(chosen)
        bye_plan.append(chosen)
    if known is not None:
        # a plan found before keeps its own byes, or its tables would seat someone sitting out
        seated = [{p for t in tables for p in t} for tables in known]
        bye_plan = [tuple(p for p in people if p not in at) for at in seated]
    bound = fewest_possible_repeats(len(people), len(played) + rounds, short)
    bounds = (fewest_possible_repeats(len(people), len(played) + 1, short), bound)
    tables = search(people, [r.tables for r in played], sizes, bye_plan, threes_so_far, style_score,
                    style == "rating", rng, bounds, known)
    first = len(played) + 1
    return [Round(first + k, tuple(tuple(t) for t in tables[k]), bye_plan[k]) for k in range(rounds)]


def _bye_tiebreak(style: str, player: str, standings: Mapping[str, float] | None) -> float:
    if style == "swiss" and standings:
        return standings.get(player, 0.0)            # the lowest standing sits out first
    return 0.0


def _style_scorer(style: str, people: list[str], standings, ratings):
    """A function of one round's tables (lists of player indices) to a cost well below a
    repeat's, or None."""
    if style == "swiss" and standings:
        order = sorted(range(len(people)), key=lambda i: (-standings.get(people[i], 0.0), i))
        rank = [0] * len(people)
        for position, i in enumerate(order):
            rank[i] = position
        per_step = 4.0 / len(people)             # one place further apart: a small fraction of a repeat

        def swiss(tables: list[list[int]]) -> float:
            # how far apart in the standings each table's players are, beyond the least possible
            return per_step * sum(max(rank[i] for i in t) - min(rank[i] for i in t) - (len(t) - 1) for t in tables)
        return swiss
    if style == "rating" and ratings:
        values = [float(ratings.get(p, 0.0)) for p in people]
        mean = sum(values) / len(values)
        # a table's average drifts from the room's by about sqrt(variance / 4) when seated by
        # lot: measured in that unit, a round drawn by lot costs about one a table
        unit = (sum((v - mean) ** 2 for v in values) / len(values) / 4) or 1.0

        def balance(tables: list[list[int]]) -> float:
            return sum((sum(values[i] for i in t) / len(t) - mean) ** 2 for t in tables) / unit
        return balance
    return None


# --- winds ---------------------------------------------------------------------------------

def draw_winds(players: Sequence[str], rng: random.Random, how: str = "shuffle") -> WindDraw:
    """Seats at one table of three or four.

    - ``shuffle``: the players in a random order, East first.
    - ``tiles``: as a physical table: one wind tile a player (East, South, West, and North with
      four) shuffled face down; two dice are rolled and counted round the players as listed
      (the roller is 1) to name who draws first; each then takes the next tile in turn and sits
      at the wind drawn. East is the first dealer.
    """
    if how not in WIND_DRAWS:
        raise ValueError(f"a wind draw is one of {', '.join(WIND_DRAWS)}, not {how!r}")
    people = list(players)
    if len(people) not in (3, 4) or len(set(people)) != len(people):
        raise ValueError("a table seats three or four different players")
    if how == "shuffle":
        order = people[:]
        rng.shuffle(order)
        return WindDraw(tuple(order), how)
    tiles = list(WINDS[:len(people)])
    rng.shuffle(tiles)
    dice = rng.randint(1, 6) + rng.randint(1, 6)
    first = (dice - 1) % len(people)
    drawn = tuple((people[(first + k) % len(people)], tiles[k]) for k in range(len(people)))
    seats = tuple(p for p, _ in sorted(drawn, key=lambda d: WINDS.index(d[1])))
    return WindDraw(seats, how, drawn, dice)
