"""A club night's pages: planning it (who plays, how many rounds, how tables are drawn), the
night's page (each round's tables and winds, a one-tap start per table, the standings after
each round, the round timer), each player's own view of it for their phone, and the TV.

Anyone may read them, as anyone may read the standings; drawing rounds, starting tables and the
timer take the club's code once on the phone, as every change to a club does.
"""
from __future__ import annotations

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for

from webui.guard.errors import PlayerError
from webui.guard.forms import integer, text
from webui.guard import limits
from webui.play import club_ratings, club_rules, clubs, nights
from webui.play.security import check_csrf, grant, may_manage
from webui.guard.headers import NOT_KEPT
from webui.storage.nights import join_codes

bp = Blueprint("club_nights", __name__)


def _manage(club: clubs.Club) -> None:
    check_csrf()
    if not may_manage(club):
        raise PlayerError(403, "club_join_required")


def _night(club_id: str, night_id: str) -> tuple[clubs.Club, nights.Night]:
    club = clubs.club_or_404(club_id)
    return club, nights.night_or_404(club, night_id)


@bp.get("/c/<club_id>/nights/new")
def new_night(club_id: str):
    club = clubs.club_or_404(club_id)
    if not may_manage(club):
        raise PlayerError(403, "club_join_required")
    return render_template("night_new.html", club=club, members=clubs.members(club.id),
                           styles=nights.STYLES, shorts=nights.SHORT_RULES, winds=nights.WIND_DRAWS,
                           most_rounds=nights.MOST_ROUNDS, rules=club_rules.summary(club_rules.read(club.id)))


@bp.post("/c/<club_id>/nights")
def create_night(club_id: str):
    club = clubs.club_or_404(club_id)
    _manage(club)
    made = nights.create(club, text(request.form.get("name"), "name", limits.TITLE_LENGTH),
                         request.form.getlist("player"),
                         integer(request.form.get("rounds") or 4, "rounds", 1, nights.MOST_ROUNDS),
                         request.form.get("style") or "swiss", request.form.get("short") or "three",
                         request.form.get("winds") or "tiles")
    return redirect(url_for("club_nights.night_page", club_id=club.id, night_id=made.id))


@bp.get("/c/<club_id>/n/<night_id>")
def night_page(club_id: str, night_id: str):
    club, night = _night(club_id, night_id)
    found = nights.results(night)
    after = _after(request.args.get("after"), found)
    made, fewest = nights.repeats(night)
    manage = may_manage(club)
    page = render_template("night.html", club=club, night=night, found=found, manage=manage,
                           names={m.id: m.name for m in clubs.members(club.id)},
                           standings=nights.standings(night, found, after), after=after,
                           repeats=made, fewest=fewest, repeated=nights.repeated_pairs(night),
                           can_draw=manage and _can_draw(night, found),
                           seconds_left=nights.seconds_left(night), codes=_codes(night) if manage else {},
                           rated=night.style != "rating" or bool(_ratings(club, night)))
    return page, 200, NOT_KEPT if manage else {}      # a manager's page shows the tables' join codes


def _ratings(club: clubs.Club, night: nights.Night) -> dict[str, float] | None:
    """The players' ratings, for a night drawn by rating."""
    return nights.ratings_of(night, club_ratings.ratings_now(club.id)) if night.style == "rating" else None


def _after(wanted: str | None, found: nights.Results) -> int | None:
    """The round the standings are counted to: the one asked for, else the last one finished."""
    if wanted and wanted.isdigit() and int(wanted) in found.complete:
        return int(wanted)
    return found.complete[-1] if found.complete else None


def _can_draw(night: nights.Night, found: nights.Results) -> bool:
    return len(night.rounds) < night.rounds_total and (not night.rounds or night.rounds[-1].number in found.complete)


def _codes(night: nights.Night) -> dict[str, str]:
    """Each started table's join code, for the organiser to give the table."""
    return join_codes([t.session for r in night.rounds for t in r.tables if t.session])


@bp.post("/c/<club_id>/n/<night_id>/draw")
def draw_round(club_id: str, night_id: str):
    club, night = _night(club_id, night_id)
    _manage(club)
    drawn = nights.draw_round(club, night, _ratings(club, night))
    return redirect(url_for("club_nights.night_page", club_id=club.id, night_id=night.id,
                            _anchor=f"round-{len(drawn.rounds)}"))


@bp.post("/c/<club_id>/n/<night_id>/r/<int:round_number>/t/<int:table_number>/start")
def start_table(club_id: str, night_id: str, round_number: int, table_number: int):
    club, night = _night(club_id, night_id)
    _manage(club)
    rules = club_rules.read(club.id)
    session_id = nights.start_table(club, night, round_number, table_number,
                                    lambda players: club_rules.config_for(rules, players))
    grant(session_id)           # the organiser's phone may record at every table it starts
    if request.form.get("then") == "scoreboard":
        return redirect(url_for("sessions.scoreboard", session_id=session_id))
    return redirect(url_for("club_nights.night_page", club_id=club.id, night_id=night.id,
                            _anchor=f"round-{round_number}"))


@bp.post("/c/<club_id>/n/<night_id>/timer")
def set_timer(club_id: str, night_id: str):
    club, night = _night(club_id, night_id)
    _manage(club)
    minutes = None if request.form.get("stop") else integer(request.form.get("minutes"), "minutes", 1,
                                                            nights.MOST_TIMER_MINUTES)
    nights.set_timer(night, minutes)
    return redirect(url_for("club_nights.night_page", club_id=club.id, night_id=night.id))


@bp.get("/c/<club_id>/n/<night_id>/me")
def find_me(club_id: str, night_id: str):
    club, night = _night(club_id, night_id)
    member = request.args.get("member") or ""
    if member not in night.players:
        raise PlayerError(404, "not_found", "player: choose a player of tonight")
    return redirect(url_for("club_nights.player_page", club_id=club.id, night_id=night.id, member_id=member))


@bp.get("/c/<club_id>/n/<night_id>/p/<member_id>")
def player_page(club_id: str, night_id: str, member_id: str):
    club, night = _night(club_id, night_id)
    member = clubs.member_or_404(club.id, member_id)
    if member.id not in night.players:
        raise PlayerError(404, "not_found", "player: not playing tonight")
    found = nights.results(night)
    table = nights.standings(night, found)
    place = next((i + 1 for i, s in enumerate(table) if s.member == member.id), None)
    return render_template("night_player.html", club=club, night=night, member=member, found=found,
                           seats=list(reversed(nights.player_rounds(night, member.id))), place=place,
                           players=len(night.players), mine=next(s for s in table if s.member == member.id))


@bp.get("/c/<club_id>/n/<night_id>/tv")
def night_tv(club_id: str, night_id: str):
    club, night = _night(club_id, night_id)
    found = nights.results(night)
    after = _after(None, found)
    return render_template("night_tv.html", club=club, night=night, found=found,
                           names={m.id: m.name for m in clubs.members(club.id)},
                           standings=nights.standings(night, found, after), after=after,
                           seconds_left=nights.seconds_left(night))


@bp.get("/c/<club_id>/n/<night_id>/state.json")
def night_state(club_id: str, night_id: str):
    club, night = _night(club_id, night_id)
    found = nights.results(night)
    return jsonify({**nights.state(night), "finished": sorted(found.games), "complete": list(found.complete)})


# --- the club's rules ----------------------------------------------------------------------

@bp.post("/c/<club_id>/rules")
def save_rules(club_id: str):
    """The rules the club's new sessions and nights start from, as a manager set them."""
    club = clubs.club_or_404(club_id)
    _manage(club)
    club_rules.save(club.id, request.form)
    flash("club.rules_saved")
    return redirect(url_for("clubs.club_home", club_id=club.id, _anchor="club-rules"))
