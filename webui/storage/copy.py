"""Copying a home table's history into another database (`tenbou db copy`): every session with
every event, undone ones and undo markers included, and its clubs (members, seasons, who sat
where), in one transaction on the destination, so a copy is whole or not made at all.

The destination may already hold other tables' sessions (a club server): events take the
destination's next ids, in their order, and an undo marker's reference follows its event. A
session already copied, event for event, is passed by, so a copy run twice copies once; a
session that differs there (played on after the copy) is refused, and nothing is copied.

A club the destination holds (same id, same name) is passed by, and its members and seasons are
merged by id; one that is there with another name or content is refused the same way. A club's
kept game results are not copied: the destination works them out again when asked. A club's
nights and a session's seat draw go with them (a night the destination holds drawn otherwise is
refused the same way).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

import sqlalchemy as sa

from webui.storage.db import MIGRATION_LOCK, is_sqlite, migrate
from webui.storage.schema.tables import club, club_night, event, member, season, seat, seat_draw, session, table_settled
from webui.storage.store import name_clash, unused_code

# What makes two stored events the same one, whatever id each database gave it.
_SAME = ("body_json", "form_token", "created_at", "undone_at")


class CopyRefused(Exception):
    """The destination holds a session of the same id with another history."""


@dataclass
class Copied:
    sessions: int = 0
    events: int = 0
    already: int = 0                    # sessions the destination held, identical
    new_codes: dict[str, str] = field(default_factory=dict)   # session id -> its new join code
    clubs: int = 0
    members: int = 0
    seasons: int = 0
    new_club_codes: dict[str, str] = field(default_factory=dict)  # club id -> its new join code
    nights: int = 0


def copy(source: sa.Engine, destination: sa.Engine) -> Copied:
    migrate(source)             # both at the newest schema, so one set of tables reads both
    migrate(destination)
    with source.connect() as conn:
        sessions = conn.execute(sa.select(session).order_by(session.c.created_at, session.c.id)).all()
        events = conn.execute(sa.select(event).order_by(event.c.id)).all()
        readings = conn.execute(sa.select(table_settled)).all()
        clubs = conn.execute(sa.select(club).order_by(club.c.created_at, club.c.id)).all()
        members = conn.execute(sa.select(member).order_by(member.c.created_at, member.c.id)).all()
        seasons = conn.execute(sa.select(season).order_by(season.c.starts, season.c.id)).all()
        seats = conn.execute(sa.select(seat).order_by(seat.c.session_id, seat.c.seat)).all()
        draws = {r.session_id: r for r in conn.execute(sa.select(seat_draw))}
        nights = conn.execute(sa.select(club_night).order_by(club_night.c.created_at, club_night.c.id)).all()
    by_session: dict[str, list[sa.Row]] = {s.id: [] for s in sessions}
    for row in events:
        by_session[row.session_id].append(row)
    seats_of: dict[str, list[sa.Row]] = {}
    for row in seats:
        seats_of.setdefault(row.session_id, []).append(row)

    done = Copied()
    with destination.begin() as conn:
        if not is_sqlite(conn):     # one copy at a time (SQLite's BEGIN IMMEDIATE already is)
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(MIGRATION_LOCK)))
        # what sessions and seats refer to goes first (foreign keys)
        _copy_clubs(conn, clubs, members, seasons, done)
        for kept in sessions:
            history = _fingerprint(by_session[kept.id])
            if conn.execute(sa.select(session.c.id).where(session.c.id == kept.id)).first():
                there = _fingerprint(_events_of(conn, kept.id))
                if there != history:
                    raise CopyRefused(f"session {kept.id} ({kept.title or 'untitled'}) is on the destination "
                                      f"with another history ({len(there)} events there, {len(history)} here)")
                done.already += 1
                continue
            code = unused_code(conn, session, kept.join_code)     # another table's session may hold it there
            if code != kept.join_code:
                done.new_codes[kept.id] = code
            conn.execute(session.insert().values(**{**kept._asdict(), "join_code": code}))
            if seats_of.get(kept.id):
                conn.execute(seat.insert(), [r._asdict() for r in seats_of[kept.id]])
            if kept.id in draws:
                conn.execute(seat_draw.insert().values(**draws[kept.id]._asdict()))
            _copy_events(conn, by_session[kept.id])
            # what the destination now holds is what was read, event for event
            if _fingerprint(_events_of(conn, kept.id)) != history:
                raise CopyRefused(f"session {kept.id} did not read back as written; nothing is copied")
            done.events += len(history)
            done.sessions += 1
        _copy_nights(conn, nights, done)
        ports = set(conn.execute(sa.select(table_settled.c.port)).scalars())
        for reading in readings:
            if reading.port not in ports:
                conn.execute(table_settled.insert().values(**reading._asdict()))
    return done


def _copy_clubs(conn: sa.Connection, clubs: list[sa.Row], members: list[sa.Row], seasons: list[sa.Row],
                done: Copied) -> None:
    """Insert the clubs, members and seasons the destination lacks. Rows it holds under the
    same id must say the same, else the copy is refused: merging two clubs' ideas of who a
    member is would put games under the wrong person."""
    for kept in clubs:
        there = conn.execute(sa.select(club).where(club.c.id == kept.id)).first()
        if there is not None:
            if there.name != kept.name:
                raise CopyRefused(f"club {kept.id} ({kept.name}) is on the destination as {there.name}")
            continue
        code = unused_code(conn, club, kept.join_code)      # another club may hold it there
        if code != kept.join_code:
            done.new_club_codes[kept.id] = code
        conn.execute(club.insert().values(**{**kept._asdict(), "join_code": code}))
        done.clubs += 1
    for kept in members:
        there = conn.execute(sa.select(member).where(member.c.id == kept.id)).first()
        if there is not None:
            if (there.club_id, there.name) != (kept.club_id, kept.name):
                raise CopyRefused(f"member {kept.id} ({kept.name}) is on the destination as {there.name}"
                                  + ("" if there.club_id == kept.club_id else " of another club"))
            continue
        # the app keeps a club's names apart regardless of case (webui.play.clubs): so does a merge
        clash = name_clash(conn, kept.club_id, kept.name)
        if clash is not None:
            raise CopyRefused(f"member {kept.id} ({kept.name}): the club on the destination has another "
                              f"member called {clash}")
        conn.execute(member.insert().values(**kept._asdict()))
        done.members += 1
    for kept in seasons:
        # a season is its id, and its start date within its club (unique there)
        there = conn.execute(sa.select(season).where(
            (season.c.id == kept.id) | ((season.c.club_id == kept.club_id) & (season.c.starts == kept.starts)))).all()
        if any(tuple(row) == tuple(kept) for row in there):
            continue
        if there:
            raise CopyRefused(f"season {kept.id} ({kept.name}, from {kept.starts}) is on the destination "
                              f"as {there[0].name}, from {there[0].starts}")
        conn.execute(season.insert().values(**kept._asdict()))
        done.seasons += 1


def _copy_nights(conn: sa.Connection, nights: list[sa.Row], done: Copied) -> None:
    """Insert the club nights the destination lacks (their sessions are copied by then); one it
    holds under the same id must be the same night, drawn alike, else the copy is refused."""
    for kept in nights:
        there = conn.execute(sa.select(club_night).where(club_night.c.id == kept.id)).first()
        if there is not None:
            if tuple(there) != tuple(kept):
                raise CopyRefused(f"club night {kept.id} ({kept.name}) is on the destination with other rounds")
            continue
        conn.execute(club_night.insert().values(**kept._asdict()))
        done.nights += 1


def _events_of(conn: sa.Connection, session_id: str) -> list[sa.Row]:
    return conn.execute(sa.select(event).where(event.c.session_id == session_id).order_by(event.c.id)).all()


def _copy_events(conn: sa.Connection, history: list[sa.Row]) -> None:
    """Insert one session's events in order; an undo marker names its event's new id."""
    if not history:
        return
    rows = [{k: getattr(e, k) for k in ("session_id", *_SAME)} for e in history]
    new_ids = conn.execute(event.insert().returning(event.c.id, sort_by_parameter_order=True), rows).scalars().all()
    renumber = {old.id: new for old, new in zip(history, new_ids)}
    for old, new in zip(history, new_ids):
        body = json.loads(old.body_json)
        if body.get("type") == "_undo" and body.get("event") in renumber:
            body["event"] = renumber[body["event"]]
            conn.execute(event.update().where(event.c.id == new).values(body_json=json.dumps(body)))


def _fingerprint(history: list[sa.Row]) -> list[tuple]:
    """A session's events as compared between databases: an undo marker's event is named by
    its place in the session, not by the id one database gave it."""
    place = {row.id: n for n, row in enumerate(history)}
    found = []
    for row in history:
        body = json.loads(row.body_json)
        if body.get("type") == "_undo":
            body["event"] = place.get(body.get("event"), body.get("event"))
        found.append((json.dumps(body, sort_keys=True), *(getattr(row, k) for k in _SAME[1:])))
    return found
