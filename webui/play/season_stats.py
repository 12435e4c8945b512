"""A club season's statistics as its pages show them: `scorer.club_stats` over the season's
counted games, worked out once per set of games and kept (`kept_figures`), so the statistics
page over thousands of games reads one row. Each figure keeps its sample size: a rate is a
count of what it is counted over, an average a total over how many.
"""
from __future__ import annotations

from scorer.club import DETAIL_VERSION
from scorer.club_stats import member_stats

from webui.storage import kept_figures, kept_results
from webui.play import clubs

SALT = f"stats-1:detail-{DETAIL_VERSION}"


def scope(season: clubs.Season | None) -> str:
    return f"stats:{season.id if season else 'all'}"


def season_stats(club: clubs.Club, season: clubs.Season | None) -> dict[str, dict[str, dict]]:
    """rules -> member id -> `MemberStats.to_json()` (names as the members are called now)."""
    fingerprint = kept_figures.fingerprint(club.id, season, SALT)
    found = kept_figures.kept(club.id, scope(season), fingerprint)
    if found is None:
        found = _work_out(club.id, season)
        kept_figures.keep(club.id, {scope(season): found}, fingerprint)
    names = {m.id: m.name for m in clubs.members(club.id)}
    return {rules: {member: {**row, "name": names.get(member, row["name"])} for member, row in rows.items()
                    if member in names}
            for rules, rows in found.items()}


def _work_out(club_id: str, season) -> dict:
    played = kept_results.games(club_id, season, wins=True)
    names = {m.id: m.name for m in clubs.members(club_id)}
    table = member_stats(((g.summary, g.members) for g in played), names)
    return {rules: {member: row.to_json() for member, row in rows.items()} for rules, rows in table.items()}


def listed(stats: dict[str, dict[str, dict]]) -> dict[str, list[dict]]:
    """Each rule set's members with the most games first, then by name."""
    return {rules: sorted(rows.values(), key=lambda r: (-r["games"], r["name"].casefold()))
            for rules, rows in stats.items()}
