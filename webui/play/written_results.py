"""Results written as a club writes them (scorer.rounding: Tenhou to 0.1, 五捨六入, none): a
game's riichi results rounded the club's way, the difference given to first place, and a
result on a page with its sign. The club's standings, player pages, CSV and charts
(`play/standings.py`) and a club night's standings (`play/nights.py`) all write results through
these, so they never disagree. Kept apart from the standings so a night needs no more than this."""
from __future__ import annotations

from decimal import Decimal

from scorer.club import GameSummary
from scorer.rounding import DEFAULT_ROUNDING, ROUNDINGS, format_result, round_game, round_result

from webui.storage import kept_figures


def rounding_of(club_id: str) -> str:
    """How the club writes its riichi results (Tenhou's 0.1 until it chooses)."""
    found = kept_figures.rounding_of(club_id)
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


def shown_result(value: int | Decimal, rules: str, rounding: str = DEFAULT_ROUNDING) -> str:
    """A result as the club writes it: riichi in thousands rounded the club's way (`value` in
    points, or already written as a Decimal of thousands), the other rules in points."""
    if rules != "riichi":
        return f"{value:+,}"
    if not isinstance(value, Decimal):
        value = round_result(value, rounding)
    return format_result(value, rounding)
