"""Club night seating (scorer/seating.py): fewest repeat meetings, Swiss and rating styles,
a player short, wind draws; all seeded."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from scorer.seating import (Round, draw_winds, fewest_possible_repeats, meetings, plan_night, plan_round,
                            repeat_meetings, repeated_pairs, table_sizes)

PLAYERS16 = [f"P{i:02d}" for i in range(16)]
PLACE_POINTS = (30.0, 10.0, -10.0, -30.0)


def _check_round(r: Round, players: list[str]) -> None:
    seated = [p for t in r.tables for p in t] + list(r.byes)
    assert sorted(seated) == sorted(players), "everyone plays or sits out, once"
    assert all(len(t) in (3, 4) for t in r.tables)


def _swiss_night(players: list[str], rounds: int, seed: int) -> tuple[list[Round], list[dict]]:
    """A night paired round by round on the standings, results drawn at random."""
    rng, results = random.Random(seed), random.Random(seed + 1000)
    standing = {p: 0.0 for p in players}
    played, before = [], []
    for _ in range(rounds):
        before.append(dict(standing))
        r = plan_round(players, played, rng, style="swiss", standings=standing, rounds_total=rounds)
        _check_round(r, players)
        played.append(r)
        for table in r.tables:
            order = list(table)
            results.shuffle(order)
            for place, p in enumerate(order):
                standing[p] += PLACE_POINTS[place] + results.random()     # no ties
    return played, before


def test_a_repeat_is_each_meeting_after_the_first():
    rounds = [Round(1, (("a", "b", "c", "d"),)), Round(2, (("a", "b", "c", "e"),)), Round(3, (("a", "b", "x", "y"),))]
    assert meetings(rounds)[frozenset("ab")] == 3
    # a-b twice again, a-c, b-c once again
    assert repeat_meetings(rounds) == 4
    assert repeated_pairs(rounds)[0] == ("a", "b", 3)


@pytest.mark.parametrize("seed", [1, 2])
def test_sixteen_players_four_rounds_meet_nobody_twice(seed):
    # 16 players in 4 rounds sit together 96 times, fewer than the 120 pairs: the affine plane of
    # order 4 is a schedule with no repeat, and the search finds one
    assert fewest_possible_repeats(16, 4) == 0
    night = plan_night(PLAYERS16, 4, random.Random(seed))
    for r in night:
        _check_round(r, PLAYERS16)
    assert repeat_meetings(night) == 0
    assert len(meetings(night)) == 96


def test_swiss_night_of_sixteen_has_no_repeat_and_seats_the_leaders_together():
    night, before = _swiss_night(PLAYERS16, 4, seed=3)
    assert repeat_meetings(night) == 0
    # after round 1 the four leaders are the four table winners, who have not met: round 2
    # seats them at one table
    leaders = sorted(PLAYERS16, key=lambda p: -before[1][p])[:4]
    assert len({night[0].table_of(p) for p in leaders}) == 4
    assert len({night[1].table_of(p) for p in leaders}) == 1


@pytest.mark.parametrize("seed", [13, 24, 40])
def test_swiss_gives_way_to_no_repeats_when_its_round_would_force_them_later(seed):
    # With these seeds the round Swiss likes best after two rounds is the cyclic Latin square on
    # the first two, which has no orthogonal mate: a fourth round would have to repeat. The
    # search then plans the rounds without the style, repeats first (these nights met 4 times again).
    night, _ = _swiss_night(PLAYERS16, 4, seed=seed)
    assert repeat_meetings(night) == 0


def test_swiss_is_the_same_night_for_the_same_seed():
    first, _ = _swiss_night(PLAYERS16, 3, seed=5)
    again, _ = _swiss_night(PLAYERS16, 3, seed=5)
    assert first == again


def _gaps(night: list[Round], ratings: dict[str, float]) -> list[float]:
    """Each round's gap between its strongest and weakest table (by average rating)."""
    gaps = []
    for r in night:
        means = [sum(ratings[p] for p in t) / len(t) for t in r.tables]
        gaps.append(max(means) - min(means))
    return gaps


def test_rating_spreads_strong_players_over_the_tables():
    ratings = {p: float(i) for i, p in enumerate(PLAYERS16)}
    night = plan_night(PLAYERS16, 4, random.Random(4), style="rating", ratings=ratings)
    assert repeat_meetings(night) == 0
    gaps = _gaps(night, ratings)
    # 7.5 is the room's mean; tables of one rating band would be 1.5, 5.5, 9.5, 13.5 (a gap of
    # 12), and the same night drawn without ratings has gaps of about 5
    assert max(gaps) <= 4.0, gaps
    by_lot = _gaps(plan_night(PLAYERS16, 4, random.Random(4)), ratings)
    assert sum(gaps) < sum(by_lot) / 2, (gaps, by_lot)


@pytest.mark.parametrize("players, sizes", [(13, (4, 3, 3, 3)), (14, (4, 4, 3, 3)), (15, (4, 4, 4, 3))])
def test_a_player_short_makes_three_player_tables(players, sizes):
    names = PLAYERS16[:players]
    assert table_sizes(players, "three") == (sizes, 0)
    night = plan_night(names, 4, random.Random(1))
    for r in night:
        _check_round(r, names)
        assert tuple(len(t) for t in r.tables) == sizes and r.byes == ()
    # the counting bound allows 0 for all three; the search reaches 0 for 13 and 15 and 1 for
    # 14 (two three-player tables a round leave 14 less room: a repeat in each seed tried)
    reached = repeat_meetings(night)
    assert fewest_possible_repeats(players, 4) == 0
    assert reached <= (1 if players == 14 else 0), repeated_pairs(night)
    # three-player seats go round: nobody plays sanma more often than needed, plus one
    threes = Counter(p for r in night for t in r.tables if len(t) == 3 for p in t)
    seats = sum(threes.values())
    assert max(threes.values()) <= -(-seats // players) + 1


@pytest.mark.parametrize("players", [13, 14, 15])
def test_a_player_short_sits_out_under_bye(players):
    names = PLAYERS16[:players]
    byes_each = players % 4
    assert table_sizes(players, "bye") == ((4, 4, 4), byes_each)
    night = plan_night(names, 4, random.Random(2), short="bye")
    for r in night:
        _check_round(r, names)
        assert len(r.byes) == byes_each
    byes = Counter(p for r in night for p in r.byes)
    # the byes go round: nobody sits out twice before everyone has sat out once
    assert max(byes.values()) == 1
    # every table of 4 and a quarter of the room idle each round leaves fewer new pairs
    # than the bound's counting sees; the figure reached with this seed, printed for pages
    assert repeat_meetings(night) <= {13: 9, 14: 5, 15: 2}[players]


def test_swiss_bye_goes_to_the_lowest_standing():
    names = PLAYERS16[:13]
    standing = {p: float(i) for i, p in enumerate(names)}
    r = plan_round(names, [], random.Random(1), style="swiss", standings=standing, short="bye")
    assert r.byes == ("P00",)


def test_small_rooms():
    assert table_sizes(5, "three") == ((4,), 1)         # 3 + 3 is six: one sits out
    assert table_sizes(6, "three") == ((3, 3), 0)
    assert table_sizes(3, "bye") == ((3,), 0)
    with pytest.raises(ValueError, match="at least three"):
        table_sizes(2)
    with pytest.raises(ValueError, match="listed twice"):
        plan_round(["a", "b", "c", "a"], [], random.Random(1))
    with pytest.raises(ValueError, match="round by round"):
        plan_night(PLAYERS16, 2, random.Random(1), style="swiss")


def test_counting_bound():
    # 8 players in 4 rounds: each meets 12 others but there are 7, so at least 5 repeats each
    assert fewest_possible_repeats(8, 4) == 20
    night = plan_night(PLAYERS16[:8], 4, random.Random(1))
    assert repeat_meetings(night) == 20


@pytest.mark.parametrize("how", ["shuffle", "tiles"])
def test_wind_draw_seats_everyone_once_and_is_seeded(how):
    table = ["Aki", "Bo", "Chie", "Dai"]
    draw = draw_winds(table, random.Random(9), how)
    assert sorted(draw.seats) == sorted(table)
    assert draw == draw_winds(table, random.Random(9), how)
    assert draw.wind_of(draw.seats[0]) == "E"
    if how == "tiles":
        assert 2 <= draw.dice <= 12
        assert sorted(w for _, w in draw.drawn) == ["E", "N", "S", "W"]
        assert all(draw.wind_of(p) == w for p, w in draw.drawn)
        # the first to draw is counted round from the roller by the dice
        assert draw.drawn[0][0] == table[(draw.dice - 1) % 4]
    three = draw_winds(table[:3], random.Random(9), how)
    assert len(three.seats) == 3


def test_wind_draw_is_fair():
    firsts = Counter(draw_winds(["a", "b", "c", "d"], random.Random(seed), "tiles").seats[0] for seed in range(2000))
    assert all(400 <= c <= 600 for c in firsts.values()), firsts
    with pytest.raises(ValueError):
        draw_winds(["a", "b"], random.Random(1))


def test_rating_night_with_byes_seats_everyone_once_a_round():
    names = PLAYERS16[:14]
    ratings = {p: float(i) for i, p in enumerate(names)}
    night = plan_night(names, 2, random.Random(6), style="rating", ratings=ratings, short="bye")
    for r in night:
        _check_round(r, names)
        assert len(r.byes) == 2
    assert max(Counter(p for r in night for p in r.byes).values()) == 1
