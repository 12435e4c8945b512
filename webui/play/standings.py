"""A club season's standings as the pages and `tenbou club standings` show them."""
from __future__ import annotations

from scorer.club import standings

from webui.storage import kept_results
from webui.play import clubs


def season_standings(club: clubs.Club, season: clubs.Season | None, sort: str = "result", wins: bool = False):
    """(games, each rule set's standings) for the club's season; `wins`: with best hands."""
    played = kept_results.games(club.id, season, wins=wins)
    names = {m.id: m.name for m in clubs.members(club.id)}
    return played, standings(((g.summary, g.members) for g in played), names, sort)


def shown_result(value: int, rules: str) -> str:
    """A result as the table reads it: riichi in thousands with one decimal, others in points."""
    return f"{value / 1000:+,.1f}" if rules == "riichi" else f"{value:+,}"
