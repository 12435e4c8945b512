"""A club's pages: its members and seasons, the season's standings (printable, and as CSV and
JSON), each player's page, and games added from a `tenbou settle` log.

Anyone may read them, as anyone may watch a scoreboard; changing a club (members, seasons,
imports, starting its sessions) takes the club's code once on each phone, as a session's join
code does, and is throttled the same way.
"""
from __future__ import annotations

import re
from datetime import date

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for

from scorer.club import SORTS

from webui.storage import kept_results
from webui.play import club_rules, clubs, nights
from webui.guard import limits
from webui.play.standings import (club_rounding, season_standings, shown_result, shown_total, sort_by_written,
                                  written_game, written_totals)
from webui.printing.chart import RIICHI_LEAST_STEP, score_chart
from webui.play.club_export import season_csv, season_json
from webui.play import club_ratings, season_stats
from webui.printing.bars import bar_chart
from webui.guard.errors import PlayerError, wants_json
from webui.words.chinese_names import chinese_names_for
from webui.guard.forms import parse_json, text
from webui.words.i18n import current_language
from webui.guard.headers import NOT_KEPT
from webui.play.security import admit_code, check_creation, check_csrf, club_key, grant, may_manage
from webui.words.yaku_names import names_for

bp = Blueprint("clubs", __name__)

# A settle log is a few kilobytes a game; a whole evening's stays far under this.
MOST_LOG_BYTES = 512 * 1024


def require_manage(club: clubs.Club) -> None:
    check_csrf()
    if not may_manage(club):
        raise PlayerError(403, "club_join_required")


@bp.get("/clubs")
def club_list():
    return render_template("clubs.html", clubs=clubs.list_clubs())


@bp.post("/clubs")
def create_club():
    check_csrf()
    name = text(request.form.get("name"), "name", limits.TITLE_LENGTH)
    if not name:
        raise PlayerError(400, "bad_field", "name: a club needs a name")
    check_creation("clubs")
    made = clubs.create_club(name)
    grant(club_key(made))
    return redirect(url_for("clubs.club_home", club_id=made.id))


@bp.get("/c/<club_id>")
def club_home(club_id: str):
    return _club_page(clubs.club_or_404(club_id))


def _club_page(club: clubs.Club, status: int = 200, **import_form):
    """The club's page; `import_form` refills the import form after a refusal (`import_again`:
    the log was imported before, `import_text` the log itself, kept so it need not be chosen
    again)."""
    recent = clubs.club_sessions(club.id)[:20]
    manage = may_manage(club)       # a manager's page shows the club's code
    return render_template("club.html", club=club, members=clubs.members(club.id),
                           seasons=clubs.seasons(club.id), recent=recent, manage=manage,
                           today=date.today().isoformat(), rules=club_rules.read(club.id),
                           rule_presets=club_rules.PRESETS, nights=nights.nights_of(club),
                           **import_form), status, NOT_KEPT if manage else {}


@bp.post("/c/<club_id>/join")
def join(club_id: str):
    check_csrf()
    club = clubs.get_club(club_id)
    admit_code(club, request.form.get("code") or "", expires=False)
    grant(club_key(club))
    return redirect(url_for("clubs.club_home", club_id=club.id))


@bp.post("/c/<club_id>/members")
def add_member(club_id: str):
    club = clubs.club_or_404(club_id)
    require_manage(club)
    clubs.add_member(club.id, text(request.form.get("name"), "name", limits.NAME_LENGTH))
    flash("club.member_added")
    return redirect(url_for("clubs.club_home", club_id=club.id))


@bp.post("/c/<club_id>/members/<member_id>")
def rename_member(club_id: str, member_id: str):
    club = clubs.club_or_404(club_id)
    require_manage(club)
    clubs.rename_member(club.id, member_id, text(request.form.get("name"), "name", limits.NAME_LENGTH))
    flash("club.member_renamed")
    return redirect(url_for("clubs.player", club_id=club.id, member_id=member_id))


@bp.post("/c/<club_id>/seasons")
def add_season(club_id: str):
    club = clubs.club_or_404(club_id)
    require_manage(club)
    clubs.add_season(club.id, text(request.form.get("name"), "name", limits.TITLE_LENGTH),
                     (request.form.get("starts") or "")[:40])     # checked whole: 2026-04-01x is no date
    flash("club.season_added")
    return redirect(url_for("clubs.club_home", club_id=club.id))


@bp.post("/c/<club_id>/import")
def import_log(club_id: str):
    club = clubs.club_or_404(club_id)
    require_manage(club)
    upload = request.files.get("log")
    raw = (upload.read(MOST_LOG_BYTES + 1) if upload and upload.filename
           else (request.form.get("log_text") or "").encode())
    if len(raw) > MOST_LOG_BYTES:
        raise PlayerError(413, "bad_field", f"log: at most {MOST_LOG_BYTES // 1024} KB")
    if not raw.strip():
        raise PlayerError(400, "bad_field", "log: choose the JSON file `tenbou settle` reads")
    try:
        log = parse_json(raw.decode("utf-8"), "log")
    except UnicodeDecodeError:
        raise PlayerError(400, "bad_field", "log: a JSON text file is needed") from None
    title = text(request.form.get("title"), "title", limits.TITLE_LENGTH)
    played_on = (request.form.get("played_on") or "")[:40]
    try:
        made = clubs.import_log(club, log, played_on, title, again=request.form.get("again") == "on")
    except clubs.AlreadyImported as err:
        if wants_json():
            raise
        # said beside the form, the log kept in it: one tick adds it after all
        return _club_page(club, 409, import_again=err, import_text=raw.decode("utf-8"),
                          import_title=title, import_played_on=played_on)
    flash("club.imported_one" if len(made) == 1 else "club.imported")
    return redirect(url_for("clubs.club_home", club_id=club.id))


# --- standings -----------------------------------------------------------------------------

def chosen_season(club: clubs.Club) -> clubs.Season | None:
    return clubs.pick_season(club.id, request.args.get("season"))


@bp.get("/c/<club_id>/standings")
def standings_page(club_id: str):
    return _standings(club_id, tv=False)


@bp.get("/c/<club_id>/standings/tv")
def standings_tv(club_id: str):
    """The standings large, for a screen across the room: no forms, nothing to tap."""
    return _standings(club_id, tv=True)


def _standings(club_id: str, tv: bool):
    club = clubs.club_or_404(club_id)
    season = chosen_season(club)
    sort = request.args.get("sort", "result")
    if sort not in SORTS and sort != "rating":
        raise PlayerError(400, "bad_field", f"sort: one of {', '.join(SORTS)}, rating")
    played, table = season_standings(club, season, sort if sort in SORTS else "result")
    rounding = club_rounding(club)
    totals = written_totals(played, rounding)
    ratings = club_ratings.ratings_now(club.id)        # across seasons, as the ratings page shows them
    if sort == "result":
        table = {rules: sort_by_written(rows, totals) for rules, rows in table.items()}
    elif sort == "rating":
        table = {rules: sorted(rows, key=lambda r: -(club_ratings.rating_of(ratings, r.rules, r.player) or -1e9))
                 for rules, rows in table.items()}
    return render_template("standings.html", club=club, season=season, seasons=clubs.seasons(club.id),
                           table=table, games=len(played), sort=sort, sorts=SORTS, tv=tv,
                           totals=totals, rounding=rounding, ratings=ratings, rating_of=club_ratings.rating_of)


@bp.get("/c/<club_id>/standings.csv")
def standings_csv(club_id: str):
    return _export(club_id, "csv", lambda club, season, played, table: season_csv(
        table, written_totals(played, club_rounding(club))))


@bp.get("/c/<club_id>/season.json")
def standings_json(club_id: str):
    return _export(club_id, "json", season_json)


def _export(club_id: str, kind: str, write) -> Response:
    """The season's standings as a download; the file's name is ASCII, since what players
    typed is no part of a header."""
    club = clubs.club_or_404(club_id)
    season = chosen_season(club)
    played, table = season_standings(club, season)
    name = f"tenbou-{club.id}-{season.starts if season else 'all'}.{kind}"
    return Response(write(club, season, played, table), mimetype="text/csv" if kind == "csv" else "application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


# --- a player ------------------------------------------------------------------------------

@bp.get("/c/<club_id>/p/<member_id>")
def player(club_id: str, member_id: str):
    club = clubs.club_or_404(club_id)
    member = clubs.member_or_404(club.id, member_id)
    season = chosen_season(club)
    mine, table = season_standings(club, season, wins=True, member=member.id)
    rows = {rules: next((r for r in rows if r.player == member.id), None) for rules, rows in table.items()}
    rows = {rules: row for rules, row in rows.items() if row is not None}
    rounding = club_rounding(club)
    stats = {rules: found[member.id] for rules, found in season_stats.season_stats(club, season).items()
             if member.id in found}
    ratings = club_ratings.history(club.id, member.id)
    return render_template("player.html", club=club, member=member, season=season,
                           seasons=clubs.seasons(club.id), rows=rows, games=list(reversed(mine)),
                           charts={rules: result_chart(mine, member.id, rules, rounding) for rules in rows},
                           totals=written_totals(mine, rounding), rounding=rounding, manage=may_manage(club),
                           stats=stats, place_bars={rules: member_place_bars(row) for rules, row in stats.items()},
                           ratings={rules: points[-1][3] for rules, points in ratings.items() if points},
                           rating_charts={rules: rating_chart(points) for rules, points in ratings.items() if points})


def member_place_bars(row: dict):
    """A member's placement distribution as bars: first to fourth (a fourth place of none is a
    bar of nothing, which says something too)."""
    shares = row["places"]
    return bar_chart([p["count"] for p in shares], [str(i + 1) for i in range(len(shares))],
                     [f"{p['count']} · {100 * (p['rate'] or 0):.0f}%" for p in shares])


def rating_chart(points: list[list]):
    """A member's rating after each game (to 0.1), from a newcomer's 0, labelled by game (a
    club night's games share one day)."""
    games = [{"scores": [round(point[3] * 10)], "label": str(n)} for n, point in enumerate(points, start=1)]
    return score_chart([0], games, least_step=10, tick_label=lambda v: f"{v / 10:g}")


def seat_of(played: kept_results.ClubGame, member_id: str):
    """The member's line in one of their games (a player's page lists only those)."""
    return played.summary.seats[played.seat_of(member_id)]


def result_chart(mine: list[kept_results.ClubGame], member_id: str, rules: str, rounding: str):
    """The player's result added up game after game, from zero: riichi as the club writes it
    (each game rounded its way), labelled in thousands as the standings are."""
    total, points = 0, []
    for played in mine:
        if played.summary.rules != rules:
            continue
        line = seat_of(played, member_id)
        written = written_game(played.summary, rounding)
        total += line.result if written is None else int(written[line.seat] * 1000)
        points.append({"scores": [total], "label": played.played[5:10]})
    if rules != "riichi":
        return score_chart([0], points, least_step=1)
    return score_chart([0], points, least_step=RIICHI_LEAST_STEP, tick_label=thousands)


def thousands(points: int) -> str:
    """A riichi chart's tick in the standings' unit: +12, -4.5."""
    return f"{points / 1000:+g}" if points else "0"


def written_result(played: kept_results.ClubGame, seat: int, rounding: str) -> str:
    """One seat's result of one game as the club wrote it."""
    written = written_game(played.summary, rounding)
    value = played.summary.seats[seat].result if written is None else written[seat]
    return shown_result(value, played.summary.rules, rounding)


_GROUP = re.compile(r"(\d+)([mpsz])")


def tile_codes(notation: str) -> list[str]:
    """`234m55z` -> ['2m', '3m', '4m', '5z', '5z'], for drawing a stored hand's tiles."""
    return [f"{digit}{suit}" for digits, suit in _GROUP.findall(notation or "") for digit in digits]


def yaku_name(name: str, rules: str) -> str:
    """A kept win's yaku (riichi) or item (classical Chinese) in the player's language."""
    language = current_language()
    words = chinese_names_for(language) if rules == "chinese-classical" else names_for(language)["yaku"]
    return words.get(name, name.replace("_", " "))


def limit_name(limit: str) -> str:
    return names_for(current_language())["limit"].get(limit, limit.replace("_", " "))


def init_app(app) -> None:
    app.jinja_env.globals.update(tile_codes=tile_codes, club_seat_of=seat_of, written_result=written_result,
                                 shown_total=shown_total)
    app.jinja_env.filters.update(result=shown_result, yaku_name=yaku_name, limit_name=limit_name)
