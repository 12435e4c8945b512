"""A rating per club member, across seasons, from the places of the games they finished.

Computed with the `openskill` library's Plackett-Luce model (Weng and Lin's Bayesian
approximation, 2011). Why Plackett-Luce fits a four-player placement game: it models a game's
whole finishing order at once, as the first place being "chosen" among all four in proportion
to their strengths, then second among the three left, and so on. A riichi hanchan is exactly
that: four players, one order from first to last (the settlement breaks ties by seat, so
there is always one). Elo, made for two players, would have to cut a game into six
head-to-head results that are not independent; Bradley-Terry and Thurstone-Mosteller pairings
do the same. Plackett-Luce takes three-player games as they come too.

What moves a rating:

- only the places, never the margin: first by 40,000 points counts as first by 100;
- finishing above players rated higher moves it up more, and below players rated lower moves
  it down more; a result the ratings expected moves it little;
- the first games move it most: each member carries an uncertainty (sigma) that shrinks as
  games accumulate, and a small dynamic term (openskill's tau) keeps it from reaching zero,
  so a member who improves is still followed.

The number shown is the ordinal, mu - 3 sigma: a cautious estimate, low for a newcomer (0 at
the start) and rising as their games make the estimate surer. A guest's seat counts as a
newcomer at that game and is not kept. Ratings are kept per rule set, as standings are: a
Fundamentals game and a riichi game are not one ladder.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from .club import GameSummary

MODEL = PlackettLuce()          # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300


@dataclass(frozen=True)
class Rating:
    mu: float                   # the estimate of skill
    sigma: float                # how unsure it is

    @property
    def ordinal(self) -> float:
        """The one number shown: mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> float:
        return round(self.ordinal, 1)

    def to_json(self) -> dict:
        return {"mu": round(self.mu, 4), "sigma": round(self.sigma, 4), "rating": self.shown}

    def kept(self) -> list[float]:
        """Unrounded, for keeping: a rating carried on from a rounded one would drift."""
        return [self.mu, self.sigma]


NEWCOMER = Rating(MODEL.mu, MODEL.sigma)


@dataclass(frozen=True)
class RatingPoint:
    """A member's rating after one game: for the chart on their page."""
    game: str                   # the game's id
    when: str                   # when it was played (ISO text, as the caller keeps it)
    place: int
    players: int
    rating: Rating
    change: float               # the shown number's move over this game

    def to_json(self) -> dict:
        return {"game": self.game, "when": self.when, "place": self.place, "players": self.players,
                **self.rating.to_json(), "change": round(self.change, 1)}

    def kept(self) -> list:
        return [self.game, self.when, self.place, self.players, *self.rating.kept(), self.change]

    @classmethod
    def from_kept(cls, data: list) -> "RatingPoint":
        game, when, place, players, mu, sigma, change = data
        return cls(game, when, place, players, Rating(mu, sigma), change)


@dataclass
class MemberRating:
    member: str
    rules: str
    rating: Rating = NEWCOMER
    games: int = 0
    history: list[RatingPoint] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"member": self.member, "rules": self.rules, "games": self.games, **self.rating.to_json(),
                "history": [p.to_json() for p in self.history]}

    def kept(self) -> dict:
        """What a store keeps to carry the ratings on (`from_kept`), history included."""
        return {"member": self.member, "rules": self.rules, "games": self.games, "rating": self.rating.kept(),
                "history": [p.kept() for p in self.history]}

    @classmethod
    def from_kept(cls, data: dict) -> "MemberRating":
        return cls(data["member"], data["rules"], Rating(*data["rating"]), data["games"],
                   [RatingPoint.from_kept(p) for p in data["history"]])


@dataclass(frozen=True)
class RatedGame:
    """One finished game as the ratings read it: seats to member ids (a guest's seat has none)."""
    game: str
    when: str
    summary: GameSummary
    members: Mapping[int, str]


def rate(games: Iterable[RatedGame],
         onto: Mapping[str, Mapping[str, MemberRating]] | None = None) -> dict[str, dict[str, MemberRating]]:
    """Each rule set's ratings, member id -> MemberRating, after every game given, played in
    the order of (when, game). Pass finished games only: a game's places count once it is over.

    `onto`: ratings kept from earlier games (`rate`'s answer, or read back with
    `MemberRating.from_kept`), carried on by `games`, which must all come after those: a game
    finishing adds one rating step, not a season's. When an earlier game changes (an undo, a
    game entered late), rate again from the start. `onto` is not changed."""
    table: dict[tuple[str, str], MemberRating] = {}
    for rules, members in (onto or {}).items():
        for member, row in members.items():
            table[(rules, member)] = MemberRating(row.member, row.rules, row.rating, row.games, list(row.history))
    for game in sorted(games, key=lambda g: (g.when, g.game)):
        seats = sorted(game.summary.seats, key=lambda line: line.seat)
        if len(seats) < 2:
            continue
        rows = []
        for line in seats:
            member = game.members.get(line.seat)
            if member is None:
                rows.append(None)
                continue
            key = (game.summary.rules, member)
            if key not in table:
                table[key] = MemberRating(member, game.summary.rules)
            rows.append(table[key])
        before = [row.rating if row else NEWCOMER for row in rows]
        teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        after = MODEL.rate(teams, ranks=[line.place for line in seats])
        for row, line, old, new in zip(rows, seats, before, after):
            if row is None:
                continue
            rating = Rating(new[0].mu, new[0].sigma)
            row.rating = rating
            row.games += 1
            row.history.append(RatingPoint(game.game, game.when, line.place, len(seats), rating,
                                           rating.ordinal - old.ordinal))
    by_rules: dict[str, dict[str, MemberRating]] = {}
    for (rules, member), row in table.items():
        by_rules.setdefault(rules, {})[member] = row
    return by_rules


def ranked(ratings: Mapping[str, MemberRating], names: Mapping[str, str] | None = None) -> list[MemberRating]:
    """Highest shown rating first; ties by more games, then by name (or id)."""
    names = names or {}
    return sorted(ratings.values(), key=lambda r: (-r.rating.ordinal, -r.games,
                                                   names.get(r.member, r.member).casefold()))
