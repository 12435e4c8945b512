"""A club's ratings as its pages show them: `scorer.ratings` (openskill's Plackett-Luce) over
every counted game of the club, across seasons, worked out once per set of games and kept
(`kept_figures`): the ratings now in one row, each member's history in a row of its own, so the
ratings page and the standings read a few kilobytes and a player's page only their own games.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version

from scorer.ratings import RatedGame, rate

from webui.storage import kept_figures, kept_results
from webui.play import clubs


def _salt() -> str:
    """How ratings are made: a new openskill (or a new way here) makes them again."""
    try:
        made_by = version("openskill")
    except PackageNotFoundError:
        made_by = "?"
    return f"ratings-1:openskill-{made_by}"


SALT = _salt()
NOW = "ratings"
HISTORY = "rating_history:"         # + member id


@dataclass(frozen=True)
class ShownRating:
    """A member's rating in one rule set, as the ratings page lists it."""
    member: str
    name: str
    rules: str
    rating: float               # the shown number: mu - 3 sigma
    mu: float
    sigma: float
    games: int
    change: float               # the move over their last game


def _work_out(club_id: str) -> dict:
    """Every rule set's ratings now and each member's history, from the club's counted games."""
    played = kept_results.games(club_id, None)
    table = rate(RatedGame(g.session_id, g.played, g.summary, g.members) for g in played)
    now: dict[str, dict[str, dict]] = {}
    histories: dict[str, dict[str, list]] = {}
    for rules, members in table.items():
        for member, row in members.items():
            last = row.history[-1].change if row.history else 0.0
            now.setdefault(rules, {})[member] = {**row.rating.to_json(), "games": row.games, "change": round(last, 1)}
            histories.setdefault(member, {})[rules] = [
                [p.when[:10], p.place, p.players, p.rating.shown, round(p.change, 1)] for p in row.history]
    return {NOW: now, **{HISTORY + member: body for member, body in histories.items()}}


def _kept_or_worked_out(club_id: str, scope: str) -> dict:
    fingerprint = kept_figures.fingerprint(club_id, None, SALT)
    found = kept_figures.kept(club_id, scope, fingerprint)
    if found is not None:
        return found
    if scope != NOW and kept_figures.kept(club_id, NOW, fingerprint) is not None:
        return {}           # the ratings are up to date and this member has no game in them
    made = _work_out(club_id)
    kept_figures.keep(club_id, made, fingerprint)
    return made.get(scope, {})


def ratings_now(club_id: str) -> dict[str, dict[str, dict]]:
    """rules -> member id -> {mu, sigma, rating, games, change}."""
    return _kept_or_worked_out(club_id, NOW)


def ranked(club: clubs.Club) -> dict[str, list[ShownRating]]:
    """Each rule set's members by rating, highest first (ties: more games, then name)."""
    names = {m.id: m.name for m in clubs.members(club.id)}
    found = {}
    for rules, members in ratings_now(club.id).items():
        rows = [ShownRating(member, names.get(member, "?"), rules, r["rating"], r["mu"], r["sigma"], r["games"],
                            r["change"]) for member, r in members.items() if member in names]
        found[rules] = sorted(rows, key=lambda r: (-r.rating, -r.games, r.name.casefold()))
    return found


def history(club_id: str, member_id: str) -> dict[str, list[list]]:
    """rules -> the member's rating after each game: [day, place, players, rating, change]."""
    return _kept_or_worked_out(club_id, HISTORY + member_id)


def rating_of(now: dict[str, dict[str, dict]], rules: str, member_id: str) -> float | None:
    found = now.get(rules, {}).get(member_id)
    return None if found is None else found["rating"]
