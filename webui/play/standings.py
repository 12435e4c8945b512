"""A club season's standings as the pages and `tenbou club standings` show them, with results
written as the club writes them (scorer.rounding: Tenhou to 0.1, 五捨六入, none): each game's
results rounded, the difference given to first place, and a season's total the sum of what was
written game by game. The standings page, the player's page, the CSV, the charts and a club
night's standings all go through `written_game`, `written_totals` and `shown_result`
(`written_results.py`), so they never disagree."""
from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from scorer.club import PlayerStanding, standings

from webui.storage import kept_results
from webui.play import clubs
# how a result is written lives apart, so a club night writes its results with no more than it
from webui.play.written_results import rounding_of, shown_result, written_game


def season_standings(club: clubs.Club, season: clubs.Season | None, sort: str = "result", wins: bool = False,
                     member: str | None = None):
    """(games, each rule set's standings) for the club's season; `wins`: with best hands;
    `member`: over that member's games alone (their own row is the same, read quicker)."""
    played = kept_results.games(club.id, season, wins=wins, member=member)
    names = {m.id: m.name for m in clubs.members(club.id)}
    return played, standings(((g.summary, g.members) for g in played), names, sort)


def club_rounding(club: clubs.Club) -> str:
    """How the club writes its riichi results (Tenhou's 0.1 until it chooses)."""
    return rounding_of(club.id)


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


def sort_by_written(rows: list[PlayerStanding], totals: dict[tuple[str, str], Decimal]) -> list[PlayerStanding]:
    """Rows sorted by their written totals (best first, then by name): under 五捨六入 the
    written order can differ from the exact one."""
    return sorted(rows, key=lambda r: (-totals.get((r.rules, r.player), Decimal(r.result) / 1000), r.name.casefold()))
