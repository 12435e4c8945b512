"""A club season's standings as the pages and `tenbou club standings` show them, with results
written as the club writes them (scorer.rounding: Tenhou to 0.1, 五捨六入, none): each game's
results rounded, the difference given to first place, and a season's total the sum of what was
written game by game. The standings page, the player's page, the CSV and the charts all go
through `written_game`, `written_totals` and `shown_result`, so they never disagree."""
from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from scorer.club import GameSummary, PlayerStanding, standings
from scorer.rounding import DEFAULT_ROUNDING, ROUNDINGS, format_result, round_game, round_result

from webui.storage import kept_figures, kept_results
from webui.play import clubs


def season_standings(club: clubs.Club, season: clubs.Season | None, sort: str = "result", wins: bool = False,
                     member: str | None = None):
    """(games, each rule set's standings) for the club's season; `wins`: with best hands;
    `member`: over that member's games alone (their own row is the same, read quicker)."""
    played = kept_results.games(club.id, season, wins=wins, member=member)
    names = {m.id: m.name for m in clubs.members(club.id)}
    return played, standings(((g.summary, g.members) for g in played), names, sort)


def club_rounding(club: clubs.Club) -> str:
    """How the club writes its riichi results (Tenhou's 0.1 until it chooses)."""
    found = kept_figures.rounding_of(club.id)
    return found if found in ROUNDINGS else DEFAULT_ROUNDING


def written_game(summary: GameSummary, rounding: str) -> tuple[Decimal, ...] | None:
    """A riichi game's results per seat as the club writes them, in thousands; None for rules
    whose results are points as they stand."""
    if summary.rules != "riichi":
        return None
    results = [line.result for line in summary.seats]
    if rounding == "none":
        return tuple(Decimal(r) / 1000 for r in results)
    if rounding == "tenhou" and all(r % 100 == 0 for r in results):
        # what round_game gives when every result is in hundreds (the usual game): the results
        # to 0.1 as they are, nothing left over for first place; without its quantizing, which
        # a page of 2,000 games pays for (tests/test_web_club_stats.py checks they agree)
        return tuple(Decimal(r // 100).scaleb(-1) for r in results)
    first = min(range(len(results)), key=lambda s: (summary.seats[s].place, s))
    return round_game(results, rounding, first)


def written_totals(played: Iterable[kept_results.ClubGame], rounding: str) -> dict[tuple[str, str], Decimal]:
    """(rules, member) -> the member's riichi results of `played` added up as written."""
    totals: dict[tuple[str, str], Decimal] = {}
    for game in played:
        written = written_game(game.summary, rounding)
        if written is None:
            continue
        for seat, member in game.members.items():
            key = (game.summary.rules, member)
            totals[key] = totals.get(key, Decimal(0)) + written[seat]
    return totals


def shown_total(row: PlayerStanding, totals: dict[tuple[str, str], Decimal], rounding: str) -> str:
    """A standings row's result: the written total (riichi), else its points."""
    return shown_result(totals.get((row.rules, row.player), row.result), row.rules, rounding)


def shown_result(value: int | Decimal, rules: str, rounding: str = DEFAULT_ROUNDING) -> str:
    """A result as the club writes it: riichi in thousands rounded the club's way (`value` in
    points, or already written as a Decimal of thousands), the other rules in points."""
    if rules != "riichi":
        return f"{value:+,}"
    if not isinstance(value, Decimal):
        value = round_result(value, rounding)
    return format_result(value, rounding)


def sort_by_written(rows: list[PlayerStanding], totals: dict[tuple[str, str], Decimal]) -> list[PlayerStanding]:
    """Rows sorted by their written totals (best first, then by name): under 五捨六入 the
    written order can differ from the exact one."""
    return sorted(rows, key=lambda r: (-totals.get((r.rules, r.player), Decimal(r.result) / 1000), r.name.casefold()))
