"""A club's ratings and statistics pages, and how the club writes its results (the rounding).

Read by anyone, as the standings are; choosing the rounding takes the club's code. The figures
are worked out in `play` (club_ratings, season_stats) and kept, so these pages stay quick over
thousands of games.
"""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for

from scorer.rounding import ROUNDINGS

from webui.play import club_ratings, clubs, season_stats
from webui.play.security import check_csrf, may_manage
from webui.play.standings import club_rounding
from webui.storage import kept_figures
from webui.guard.errors import PlayerError
from webui.printing.bars import stacked
from webui.words.figures import shown_mean, shown_rate

bp = Blueprint("club_figures", __name__)
# a figure with its sample, for this blueprint's pages and the player's page alike
bp.add_app_template_global(shown_rate)
bp.add_app_template_global(shown_mean)


@bp.get("/c/<club_id>/ratings")
def ratings(club_id: str):
    club = clubs.club_or_404(club_id)
    return render_template("ratings.html", club=club, table=club_ratings.ranked(club))


@bp.get("/c/<club_id>/stats")
def stats(club_id: str):
    club = clubs.club_or_404(club_id)
    season = clubs.pick_season(club.id, request.args.get("season"))
    table = season_stats.listed(season_stats.season_stats(club, season))
    return render_template("club_stats.html", club=club, season=season, seasons=clubs.seasons(club.id),
                           table=table, stacked=stacked, rounding=club_rounding(club),
                           roundings=ROUNDINGS, manage=may_manage(club))


@bp.post("/c/<club_id>/rounding")
def choose_rounding(club_id: str):
    club = clubs.club_or_404(club_id)
    check_csrf()
    if not may_manage(club):
        raise PlayerError(403, "club_join_required")
    chosen = (request.form.get("rounding") or "").strip()
    if chosen not in ROUNDINGS:
        raise PlayerError(400, "bad_field", f"rounding: one of {', '.join(ROUNDINGS)}")
    kept_figures.set_rounding(club.id, chosen)
    flash("club.rounding_saved")
    return redirect(url_for("club_figures.stats", club_id=club.id))
