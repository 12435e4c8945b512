"""The lobby: the tables being played right now, on this server or in one club, as a page, as
JSON, and as a TV view that shows each table's board in turn (`static/tv-cycle.js`).

A table is live when its game has not ended and it started within `LIVE_WINDOW`. The lobby is
open to anyone who can reach the server, like the scoreboards and TV views it links to: it
shows names and points, never a join code.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import sqlalchemy as sa
from flask import Blueprint, jsonify, render_template, request, url_for

from . import clubs, game, store
from .db import get_db
from .errors import PlayerError
from .forms import integer
from .schema.tables import session as session_t

bp = Blueprint("lobby", __name__)

# Games players walked away from without ending them never end by themselves; a day is longer
# than any evening at a club (one that runs past midnight included), so a real table stays
# listed while yesterday's abandoned ones drop out.
LIVE_WINDOW = timedelta(hours=24)
# Each listed table costs one replay of its events per look (the page, and the TV's refresh of
# its list), so the list is bounded whatever the history holds: a busy club floor has a few
# dozen tables.
MOST_TABLES = 40
# The TV's seconds per table: long enough to read four scores, short enough to come round.
EVERY_DEFAULT, EVERY_LEAST, EVERY_MOST = 15, 5, 300


def live_tables(club_id: str | None = None) -> list[dict]:
    """The live tables, newest first: each its scoreboard JSON (`game.snapshot`) and its links."""
    since = (datetime.now(timezone.utc) - LIVE_WINDOW).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    # whether a game ended is stored with each event; None (after an undo) is found by the replay below
    where = [session_t.c.created_at >= since, sa.or_(session_t.c.ended.is_(None), session_t.c.ended == 0)]
    if club_id is not None:
        where.append(session_t.c.club_id == club_id)
    query = (sa.select(session_t).where(*where)
             .order_by(session_t.c.created_at.desc(), session_t.c.id.desc()).limit(MOST_TABLES))
    tables = []
    for row in get_db().execute(query):
        found = store.session_from_row(row)
        try:
            current = game.load(found)
        except PlayerError:     # events a newer ledger refuses: there is no board to draw
            continue
        if game.ended(current.state):
            store.set_ended(found.id, True)     # found by the replay: the next look skips it in SQL
            continue
        tables.append(_table(found, game.snapshot_of(found, current.state)))
    return tables


def _table(found: store.Session, snap: dict) -> dict:
    return {**snap, "created_at": found.created_at,
            "links": {"scoreboard": url_for("sessions.scoreboard", session_id=found.id),
                      "tv": url_for("sessions.tv", session_id=found.id),
                      "live": url_for("live.stream", session_id=found.id),
                      "state": url_for("api.session_state", session_id=found.id)}}


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
