"""Member ratings (scorer/ratings.py): openskill's Plackett-Luce over each finished game's
places, kept per rule set, with a history per member."""
from __future__ import annotations

import json
import random

import pytest
from openskill.models import PlackettLuce

from scorer.club import GameSummary, SeatLine
from scorer.ratings import NEWCOMER, RatedGame, rate, ranked


def _summary(places: list[int], rules: str = "riichi") -> GameSummary:
    """A finished game where seat s finished `places[s]`."""
    seats = tuple(SeatLine(s, f"P{s}", 25000, place, 0, 0, 0, 0, 0) for s, place in enumerate(places))
    return GameSummary(rules, True, 8, seats)


def _game(n: int, members: list[str | None], places: list[int], rules: str = "riichi") -> RatedGame:
    return RatedGame(f"g{n:04d}", f"2026-01-01T{n // 60:02d}:{n % 60:02d}", _summary(places, rules),
                     {s: m for s, m in enumerate(members) if m is not None})


def test_one_game_is_openskills_plackett_luce():
    ratings = rate([_game(1, ["a", "b", "c", "d"], [2, 1, 4, 3])])["riichi"]
    model = PlackettLuce()
    want = model.rate([[model.rating()] for _ in range(4)], ranks=[2, 1, 4, 3])
    for seat, member in enumerate("abcd"):
        assert ratings[member].rating.mu == pytest.approx(want[seat][0].mu)
        assert ratings[member].rating.sigma == pytest.approx(want[seat][0].sigma)
    assert [r.member for r in ranked(ratings)] == ["b", "a", "d", "c"]
    # first moves up, last down, from a newcomer's 0
    assert NEWCOMER.shown == 0.0
    assert ratings["b"].rating.ordinal > 0 > ratings["c"].rating.ordinal
    assert ratings["b"].history[0].change > 0 > ratings["c"].history[0].change


def test_ratings_follow_the_places_over_a_season():
    rng = random.Random(7)
    members = [f"m{i}" for i in range(8)]
    strength = {m: i for i, m in enumerate(members)}        # m7 strongest
    games = []
    for n in range(400):
        seated = rng.sample(members, 4)
        # the stronger player usually finishes ahead
        order = sorted(seated, key=lambda m: -(strength[m] + rng.gauss(0, 2.5)))
        games.append(_game(n, seated, [order.index(m) + 1 for m in seated]))
    ratings = rate(games)["riichi"]
    order = [r.member for r in ranked(ratings)]
    assert order[0] in ("m7", "m6") and order[-1] in ("m0", "m1")
    assert sum(r.games for r in ratings.values()) == 1600
    # a member's history is one point a game, in played order, ending at the rating
    top = ratings[order[0]]
    assert len(top.history) == top.games
    assert [p.when for p in top.history] == sorted(p.when for p in top.history)
    assert top.history[-1].rating == top.rating
    # sure of them by now: sigma well below a newcomer's
    assert top.rating.sigma < NEWCOMER.sigma / 2


def test_order_is_by_when_not_as_given():
    games = [_game(n, ["a", "b", "c", "d"], places) for n, places in
             enumerate([[1, 2, 3, 4], [4, 3, 2, 1], [2, 1, 4, 3]])]
    assert rate(games)["riichi"]["a"].rating == rate(list(reversed(games)))["riichi"]["a"].rating


def test_guests_count_as_newcomers_and_are_not_kept():
    with_guest = rate([_game(1, ["a", None, "c", "d"], [1, 2, 3, 4])])["riichi"]
    all_members = rate([_game(1, ["a", "b", "c", "d"], [1, 2, 3, 4])])["riichi"]
    assert set(with_guest) == {"a", "c", "d"}
    assert with_guest["a"].rating == all_members["a"].rating


def test_rule_sets_are_apart_and_three_player_games_count():
    games = [_game(1, ["a", "b", "c", "d"], [1, 2, 3, 4]),
             _game(2, ["a", "b", "c", "d"], [4, 3, 2, 1], rules="fundamentals"),
             _game(3, ["a", "b", "c"], [1, 2, 3])]
    ratings = rate(games)
    assert ratings["riichi"]["a"].games == 2 and ratings["fundamentals"]["a"].games == 1
    assert ratings["fundamentals"]["a"].rating.ordinal < 0 < ratings["riichi"]["a"].rating.ordinal
    assert ratings["riichi"]["a"].history[-1].players == 3
    data = ratings["riichi"]["a"].to_json()
    assert data["games"] == 2 and len(data["history"]) == 2 and data["rating"] == ratings["riichi"]["a"].rating.shown


def test_a_new_game_carries_kept_ratings_on():
    rng = random.Random(3)
    games = [_game(n, rng.sample(["a", "b", "c", "d", "e"], 4), rng.sample([1, 2, 3, 4], 4)) for n in range(30)]
    everything = rate(games)
    earlier = rate(games[:29])
    kept = {rules: {m: type(row).from_kept(json.loads(json.dumps(row.kept()))) for m, row in members.items()}
            for rules, members in earlier.items()}
    carried = rate(games[29:], onto=kept)
    for member, row in everything["riichi"].items():
        assert carried["riichi"][member].rating == row.rating
        assert carried["riichi"][member].history == row.history
    # what was carried on from is left as it was
    assert sum(r.games for r in kept["riichi"].values()) == 29 * 4
