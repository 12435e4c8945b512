"""Sessions and their events, in SQLite or PostgreSQL: one set of queries (SQLAlchemy Core) for
both. Every write is one transaction, committed before the caller answers the request, so a
killed server loses nothing a player was told is recorded."""
from __future__ import annotations

import json
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from flask import abort

from webui.storage.kept_results import forget
from webui.storage.db import announce, get_db, now, transaction
from webui.storage.schema.tables import club as club_t
from webui.storage.schema.tables import event as event_t
from webui.storage.schema.tables import member as member_t
from webui.storage.schema.tables import seat as seat_t
from webui.storage.schema.tables import session as session_t

# No 0/O or 1/I/L: the code is read aloud across a table
_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
# Tries at a join code no session holds; two servers drawing the same one at once is the only
# way past the first.
_CODE_TRIES = 5


@dataclass(frozen=True)
class Session:
    id: str
    join_code: str
    title: str
    config: dict
    created_at: str
    uses_table: bool
    ended: bool | None = None       # the game has ended; None: not known since the last undo
    club_id: str | None = None      # the club whose game it is
    imported: bool = False          # entered from a `tenbou settle` log, not played in the app


@dataclass(frozen=True)
class StoredEvent:
    id: int
    body: dict
    form_token: str | None
    created_at: str
    undone: bool


@dataclass(frozen=True)
class Appended:
    """What `append_event` did: the event, whether it is new, and what the check answered for
    the events ending in it (None when the form was sent before and nothing was checked)."""
    event: StoredEvent
    created: bool
    checked: Any = None


def new_join_code() -> str:
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(6))


def create_session(config: dict, title: str, uses_table: bool = False, club_id: str | None = None,
                   members: dict[int, str] | None = None, played: "Played | None" = None) -> Session:
    """A new session; in a club, `members` seats members (seat -> member id). `played` is a game
    played without the app: its events, stored with the session in one transaction."""
    session_id = secrets.token_urlsafe(8)
    for attempt in range(_CODE_TRIES):
        try:
            with transaction() as db:
                if club_id is not None and members:
                    config = _seated_names(db, club_id, config, members)
                code = unused_code(db, session_t)
                db.execute(session_t.insert().values(
                    id=session_id, join_code=code, title=title, config_json=json.dumps(config),
                    created_at=played.on if played else now(), uses_table=int(uses_table),
                    club_id=club_id, imported=int(played is not None),
                    import_digest=played.digest if played else None,
                    ended=1 if played else None))
                if members:
                    db.execute(seat_t.insert(), [{"session_id": session_id, "seat": s, "member_id": m}
                                                 for s, m in sorted(members.items())])
                if played and played.events:
                    db.execute(event_t.insert(), [{"session_id": session_id, "body_json": json.dumps(body),
                                                   "created_at": played.on} for body in played.events])
            break
        except sa.exc.IntegrityError:
            # another server took the same code between our look and our write (unique index)
            if attempt == _CODE_TRIES - 1:
                raise
    return get_session(session_id)


def _seated_names(db: sa.Connection, club_id: str, config: dict, members: dict[int, str]) -> dict:
    """The set-up with each member's seat named as the member is named now, read in the
    session's own transaction with the club's row locked, as a rename locks it: a rename either
    came first (its new name is read here) or comes after (it finds this session's seats and
    renames them), so a scoreboard never keeps an old name the standings no longer show. Where
    the member's name is now another seat's, the names stay as typed (two seats, one name)."""
    db.execute(sa.select(club_t.c.id).where(club_t.c.id == club_id).with_for_update())
    now_named = dict(db.execute(sa.select(member_t.c.id, member_t.c.name).where(
        member_t.c.club_id == club_id, member_t.c.id.in_(list(members.values())))).all())
    players = list(config["players"])
    for seat, member_id in members.items():
        players[seat] = now_named.get(member_id, players[seat])
    if len({_folded(p) for p in players}) != len(players):
        return config
    return {**config, "players": players}


def _folded(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


@dataclass(frozen=True)
class Played:
    """A game played without the app: when (ISO text), its events, and the digest of the log
    it was imported from (`webui.play.clubs.log_digest`), alike for every game of one log."""
    on: str
    events: list[dict]
    digest: str | None = None


def imported_with(club_id: str, digest: str) -> list[Session]:
    """The club's sessions imported from the log of this digest, oldest first."""
    rows = get_db().execute(sa.select(session_t).where(session_t.c.club_id == club_id,
                                                       session_t.c.import_digest == digest)
                            .order_by(session_t.c.created_at, session_t.c.id)).all()
    return [session_from_row(r) for r in rows]


def unused_code(db: sa.Connection, table: sa.Table, wanted: str | None = None) -> str:
    """A join code no row of `table` holds: a code typed at the table must name one thing.
    `wanted` (a copied row's own code) is kept when it is free."""
    code = wanted or new_join_code()
    while db.execute(sa.select(table.c.id).where(table.c.join_code == code)).first():
        code = new_join_code()
    return code


def get_session(session_id: str) -> Session | None:
    row = get_db().execute(sa.select(session_t).where(session_t.c.id == session_id)).first()
    return session_from_row(row) if row else None


def session_or_404(session_id: str) -> Session:
    """The session a page or API route names; an unknown id is the player's 404."""
    found = get_session(session_id)
    if found is None:
        abort(404)
    return found


# Newest first; sessions made in the same millisecond by id, so every server lists alike.
_NEWEST = (session_t.c.created_at.desc(), session_t.c.id.desc())


def list_sessions(limit: int = 20) -> list[Session]:
    rows = get_db().execute(sa.select(session_t).order_by(*_NEWEST).limit(limit))
    return [session_from_row(r) for r in rows]


def table_session() -> Session | None:
    """The newest session that follows the automatic table."""
    row = get_db().execute(
        sa.select(session_t).where(session_t.c.uses_table == 1).order_by(*_NEWEST).limit(1)).first()
    return session_from_row(row) if row else None


def events(session_id: str, include_undone: bool = False) -> list[StoredEvent]:
    query = sa.select(event_t).where(event_t.c.session_id == session_id)
    if not include_undone:
        query = query.where(event_t.c.undone_at.is_(None))
    return [_event(r) for r in get_db().execute(query.order_by(event_t.c.id))]


def event_by_token(session_id: str, form_token: str) -> StoredEvent | None:
    row = get_db().execute(sa.select(event_t).where(
        event_t.c.session_id == session_id, event_t.c.form_token == form_token)).first()
    return _event(row) if row else None


def _lock(db: sa.Connection, session_id: str) -> None:
    """Hold the session's row until the transaction ends, so two servers writing to one session
    take turns (PostgreSQL). SQLite's BEGIN IMMEDIATE already made every writer wait; there the
    lock is not rendered."""
    db.execute(sa.select(session_t.c.id).where(session_t.c.id == session_id).with_for_update())


def append_event(session_id: str, body: dict, form_token: str | None, check,
                 ended: Callable[[Any], bool] | None = None) -> Appended:
    """Store one event unless this form was already submitted.

    `check(bodies)` gets the live event bodies ending in the new one and raises when the new
    event may not happen; it runs inside the write transaction, so two phones submitting at
    once are checked one after the other against what is really stored. Its answer comes back
    as `Appended.checked`; `ended(checked)` says whether the game has ended with this event,
    stored in the same transaction (a join code stops opening an ended game).
    """
    with transaction() as db:
        _lock(db, session_id)
        if form_token:
            existing = event_by_token(session_id, form_token)
            if existing is not None:
                return Appended(existing, False)     # nothing written: the commit is empty
        bodies = [e.body for e in events(session_id)]
        checked = check(bodies + [body])
        new_id = db.execute(event_t.insert().values(
            session_id=session_id, body_json=json.dumps(body), form_token=form_token or None,
            created_at=now())).inserted_primary_key[0]
        if ended is not None:
            db.execute(session_t.update().where(session_t.c.id == session_id)
                       .values(ended=int(ended(checked))))
        forget(db, [session_id])
        announce(db, session_id)
        row = db.execute(sa.select(event_t).where(event_t.c.id == new_id)).one()
    return Appended(_event(row), True, checked)


def undo_last(session_id: str, form_token: str | None) -> StoredEvent | None:
    """Mark the newest live event undone; None when there is nothing to undo.

    The form token of an undo is stored in a marker row so a double-tapped undo button undoes
    one event, not two. The marker is born undone, so replays and later undos pass it by.
    """
    with transaction() as db:
        _lock(db, session_id)
        if form_token and event_by_token(session_id, form_token) is not None:
            return None
        row = db.execute(
            sa.select(event_t).where(event_t.c.session_id == session_id, event_t.c.undone_at.is_(None))
            .order_by(event_t.c.id.desc()).limit(1)).first()
        if row is None:
            return None
        at = now()
        db.execute(event_t.update().where(event_t.c.id == row.id).values(undone_at=at))
        # undoing the end reopens the game; the next join code replays to find out
        db.execute(session_t.update().where(session_t.c.id == session_id).values(ended=None))
        forget(db, [session_id])
        if form_token:
            db.execute(event_t.insert().values(
                session_id=session_id, body_json=json.dumps({"type": "_undo", "event": row.id}),
                form_token=form_token, created_at=at, undone_at=at))
        announce(db, session_id)
    return _event(row)


def set_ended(session_id: str, ended: bool, through_event: int) -> bool:
    """Remember whether the game has ended, found by a replay of the live events up to
    `through_event` (the newest one's id; 0 for none). Written only while nobody has said since:
    no event recorded or undone after that replay (an `end` recorded meanwhile stores its own
    answer, and a replay from before it must not overwrite that with "not ended", issue 25).
    Whether it was written."""
    with transaction() as db:
        _lock(db, session_id)
        if live_version(db, session_id)[0] != through_event:
            return False
        return bool(db.execute(session_t.update().where(session_t.c.id == session_id, session_t.c.ended.is_(None))
                               .values(ended=int(ended))).rowcount)


def live_version(db: sa.Connection, session_id: str) -> tuple[int, int]:
    """(the newest live event's id, how many are live): what a replay of the session was of.
    Events are only added and the newest live one undone, so the newest id names the live set."""
    row = db.execute(sa.select(sa.func.max(event_t.c.id), sa.func.count()).where(
        event_t.c.session_id == session_id, event_t.c.undone_at.is_(None))).one()
    return (row[0] or 0, row[1])


def live_versions(session_ids: list[str]) -> dict[str, tuple[int, int]]:
    """`live_version` of many sessions in one query (a session without events is absent)."""
    if not session_ids:
        return {}
    rows = get_db().execute(
        sa.select(event_t.c.session_id, sa.func.max(event_t.c.id), sa.func.count())
        .where(event_t.c.session_id.in_(session_ids), event_t.c.undone_at.is_(None))
        .group_by(event_t.c.session_id))
    return {r[0]: (r[1], r[2]) for r in rows}


def session_from_row(row: sa.Row) -> Session:
    ended = row.ended
    return Session(row.id, row.join_code, row.title, json.loads(row.config_json),
                   row.created_at, bool(row.uses_table), None if ended is None else bool(ended),
                   row.club_id, bool(row.imported))


def _event(row: sa.Row) -> StoredEvent:
    return StoredEvent(row.id, json.loads(row.body_json), row.form_token, row.created_at,
                       row.undone_at is not None)


def name_clash(db: sa.Connection, club_id: str, name: str, other_than: str | None = None) -> str | None:
    """Another member's name in the club that is `name` but for case (Ann and ann would be one
    person to read), or None. Compared here, not in SQL: SQLite's lower() knows ASCII letters
    alone (Ä and ä differ there)."""
    names = db.execute(sa.select(member_t.c.name).where(member_t.c.club_id == club_id,
                                                        member_t.c.id != (other_than or ""))).scalars()
    return next((n for n in names if _folded(n) == _folded(name)), None)
