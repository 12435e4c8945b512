"""The lobby: the tables being played right now, on this server or in one club, as a page, as
JSON, and as a TV view that shows each table's board in turn (`static/tv-cycle.js`).

A table is live when its game has not ended and it started within `LIVE_WINDOW`. The lobby is
open to anyone who can reach the server, like the scoreboards and TV views it links to: it
shows names and points, never a join code.
"""
from __future__ import annotations

from flask import Blueprint, jsonify, render_template, request, url_for

from webui.play import clubs
from webui.guard.forms import integer
from webui.play.live_tables import LIVE_WINDOW, MOST_TABLES, live_tables

bp = Blueprint("lobby", __name__)

# The TV's seconds per table: long enough to read four scores, short enough to come round.
EVERY_DEFAULT, EVERY_LEAST, EVERY_MOST = 15, 5, 300


def _every() -> int:
    """`?every=` seconds, refused in words outside 5..300 like every other number a request sends."""
    value = request.args.get("every")
    if value is None or value.strip() == "":
        return EVERY_DEFAULT
    return integer(value, "every", EVERY_LEAST, EVERY_MOST)


# --- pages ---------------------------------------------------------------------------------

@bp.get("/lobby")
def lobby():
    return render_template("lobby.html", club=None, tables=live_tables(),
                           tv_url=url_for("lobby.tv"), **_window())


@bp.get("/c/<club_id>/lobby")
def club_lobby(club_id: str):
    club = clubs.club_or_404(club_id)
    return render_template("lobby.html", club=club, tables=live_tables(club.id),
                           tv_url=url_for("lobby.club_tv", club_id=club.id), **_window())


@bp.get("/lobby/tv")
def tv():
    every = _every()
    return render_template("tv_cycle.html", club=None, tables=live_tables(), every=every,
                           list_url=url_for("lobby.api_lobby"))


@bp.get("/c/<club_id>/tv")
def club_tv(club_id: str):
    club = clubs.club_or_404(club_id)
    every = _every()
    return render_template("tv_cycle.html", club=club, tables=live_tables(club.id), every=every,
                           list_url=url_for("lobby.api_club_lobby", club_id=club.id))


def _window() -> dict:
    return {"hours": int(LIVE_WINDOW.total_seconds() // 3600), "most": MOST_TABLES}


# --- JSON ----------------------------------------------------------------------------------

@bp.get("/api/lobby")
def api_lobby():
    return jsonify({"club": None, "tables": live_tables(), **_window()})


@bp.get("/api/clubs/<club_id>/lobby")
def api_club_lobby(club_id: str):
    club = clubs.club_or_404(club_id)
    return jsonify({"club": {"id": club.id, "name": club.name}, "tables": live_tables(club.id), **_window()})
