"""Club nights, a club's kept rules and a session's seat draw, in SQLite or PostgreSQL.

A night is one row: its players, settings, rounds and timer are JSON (what the night's pages
read whole, never a part of). Every change to a night reads the row with the row locked and
writes it back in one transaction (`change_night`), so two organisers' phones drawing a round
or starting a table at once take turns, and the second sees what the first did.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import sqlalchemy as sa

from scorer.club import GameSummary

from webui.storage.db import get_db, now, transaction
from webui.storage.kept_results import ClubGame, work_out
from webui.storage.schema.tables import club as club_t
from webui.storage.schema.tables import club_night as night_t
from webui.storage.schema.tables import game_result as result_t
from webui.storage.schema.tables import seat as seat_t
from webui.storage.schema.tables import session as session_t
from webui.storage.schema.tables import seat_draw as draw_t


@dataclass(frozen=True)
class NightRow:
    id: str
    club_id: str
    name: str
    created_at: str
    players: list[str]              # member ids
    settings: dict
    rounds: list[dict]
    timer: dict | None


def _night(row: sa.Row) -> NightRow:
    return NightRow(row.id, row.club_id, row.name, row.created_at, json.loads(row.players_json),
                    json.loads(row.settings_json), json.loads(row.rounds_json),
                    json.loads(row.timer_json) if row.timer_json else None)


def create_night(night_id: str, club_id: str, name: str, players: list[str], settings: dict) -> NightRow:
    with transaction() as db:
        db.execute(night_t.insert().values(id=night_id, club_id=club_id, name=name, created_at=now(),
                                           players_json=json.dumps(players), settings_json=json.dumps(settings),
                                           rounds_json="[]", timer_json=None))
    return get_night(night_id)


def get_night(night_id: str) -> NightRow | None:
    row = get_db().execute(sa.select(night_t).where(night_t.c.id == night_id)).first()
    return _night(row) if row else None


def nights_of(club_id: str, limit: int = 20) -> list[NightRow]:
    """The club's nights, newest first."""
    rows = get_db().execute(sa.select(night_t).where(night_t.c.club_id == club_id)
                            .order_by(night_t.c.created_at.desc(), night_t.c.id.desc()).limit(limit))
    return [_night(r) for r in rows]


def change_night(night_id: str, change: Callable[[NightRow], dict[str, Any]]) -> NightRow:
    """Apply `change` to the night as stored now, its row locked: it returns the fields to
    write (`rounds`, `timer`), or raises and nothing is written."""
    with transaction() as db:
        row = db.execute(sa.select(night_t).where(night_t.c.id == night_id).with_for_update()).first()
        if row is None:
            raise LookupError(night_id)
        fields = change(_night(row))
        values = {}
        if "rounds" in fields:
            values["rounds_json"] = json.dumps(fields["rounds"])
        if "timer" in fields:
            values["timer_json"] = json.dumps(fields["timer"]) if fields["timer"] else None
        if values:
            db.execute(night_t.update().where(night_t.c.id == night_id).values(**values))
    return get_night(night_id)


# --- a club's rules ------------------------------------------------------------------------

def club_rules(club_id: str) -> dict | None:
    raw = get_db().execute(sa.select(club_t.c.rules_json).where(club_t.c.id == club_id)).scalar()
    return json.loads(raw) if raw else None


def set_club_rules(club_id: str, rules: dict | None) -> None:
    with transaction() as db:
        db.execute(club_t.update().where(club_t.c.id == club_id)
                   .values(rules_json=json.dumps(rules) if rules else None))


# --- a session's seat draw -----------------------------------------------------------------

def keep_seat_draw(session_id: str, draw: dict) -> None:
    with transaction() as db:
        db.execute(draw_t.delete().where(draw_t.c.session_id == session_id))
        db.execute(draw_t.insert().values(session_id=session_id, draw_json=json.dumps(draw)))


def seat_draw(session_id: str) -> dict | None:
    raw = get_db().execute(sa.select(draw_t.c.draw_json).where(draw_t.c.session_id == session_id)).scalar()
    return json.loads(raw) if raw else None


# --- the night's games ---------------------------------------------------------------------

def games_of(session_ids: list[str]) -> dict[str, ClubGame]:
    """The finished games among these sessions with their kept results (worked out and kept
    here when not yet), by session id: what a night's standings add up."""
    if not session_ids:
        return {}
    db = get_db()
    rows = db.execute(sa.select(session_t.c.id, session_t.c.title, session_t.c.created_at, session_t.c.imported,
                                result_t.c.summary_json)
                      .select_from(session_t.outerjoin(result_t, result_t.c.session_id == session_t.c.id))
                      .where(session_t.c.id.in_(session_ids))).all()
    seats: dict[str, dict[int, str]] = {}
    for r in db.execute(sa.select(seat_t).where(seat_t.c.session_id.in_(session_ids))):
        seats.setdefault(r.session_id, {})[r.seat] = r.member_id
    worked_out = work_out([r.id for r in rows if r.summary_json is None])
    found = {}
    for r in rows:
        summary = (GameSummary.from_json(json.loads(r.summary_json)) if r.summary_json is not None
                   else worked_out.get(r.id))
        if summary is not None and summary.finished:
            found[r.id] = ClubGame(r.id, r.title, r.created_at, bool(r.imported), replace(summary, wins=()),
                                   seats.get(r.id, {}))
    return found


def join_codes(session_ids: list[str]) -> dict[str, str]:
    """Session id -> join code, in one query (a night's tables, for its organiser)."""
    if not session_ids:
        return {}
    return dict(get_db().execute(sa.select(session_t.c.id, session_t.c.join_code)
                                 .where(session_t.c.id.in_(session_ids))).all())
