"""Sessions and their events in SQLite. Every write is one transaction, committed before the
caller answers the request, so a killed server loses nothing a player was told is recorded."""
from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import abort

from .db import get_db

# No 0/O or 1/I/L: the code is read aloud across a table
_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


@dataclass(frozen=True)
class Session:
    id: str
    join_code: str
    title: str
    config: dict
    created_at: str
    uses_table: bool
    ended: bool | None = None       # the game has ended; None: not known since the last undo


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


def create_session(config: dict, title: str, uses_table: bool = False) -> Session:
    db = get_db()
    session_id = secrets.token_urlsafe(8)
    db.execute("BEGIN IMMEDIATE")
    try:
        code = new_join_code()
        while db.execute("SELECT 1 FROM session WHERE join_code = ?", (code,)).fetchone():
            code = new_join_code()    # a code typed at the table must name one session
        db.execute(
            "INSERT INTO session (id, join_code, title, config_json, uses_table) VALUES (?, ?, ?, ?, ?)",
            (session_id, code, title, json.dumps(config), int(uses_table)),
        )
        db.execute("COMMIT")
    except Exception:
        db.execute("ROLLBACK")
        raise
    return get_session(session_id)


def get_session(session_id: str) -> Session | None:
    row = get_db().execute("SELECT * FROM session WHERE id = ?", (session_id,)).fetchone()
    return _session(row) if row else None


def session_or_404(session_id: str) -> Session:
    """The session a page or API route names; an unknown id is the player's 404."""
    found = get_session(session_id)
    if found is None:
        abort(404)
    return found


def list_sessions(limit: int = 20) -> list[Session]:
    rows = get_db().execute(
        "SELECT * FROM session ORDER BY created_at DESC, rowid DESC LIMIT ?", (limit,)
    ).fetchall()
    return [_session(r) for r in rows]


def table_session() -> Session | None:
    """The newest session that follows the automatic table."""
    row = get_db().execute(
        "SELECT * FROM session WHERE uses_table = 1 ORDER BY created_at DESC, rowid DESC LIMIT 1"
    ).fetchone()
    return _session(row) if row else None


def events(session_id: str, include_undone: bool = False) -> list[StoredEvent]:
    sql = "SELECT * FROM event WHERE session_id = ?"
    if not include_undone:
        sql += " AND undone_at IS NULL"
    rows = get_db().execute(sql + " ORDER BY id", (session_id,)).fetchall()
    return [_event(r) for r in rows]


def event_by_token(session_id: str, form_token: str) -> StoredEvent | None:
    row = get_db().execute(
        "SELECT * FROM event WHERE session_id = ? AND form_token = ?", (session_id, form_token)
    ).fetchone()
    return _event(row) if row else None


def append_event(session_id: str, body: dict, form_token: str | None, check,
                 ended: Callable[[Any], bool] | None = None) -> Appended:
    """Store one event unless this form was already submitted.

    `check(bodies)` gets the live event bodies ending in the new one and raises when the new
    event may not happen; it runs inside the write transaction, so two phones submitting at
    once are checked one after the other against what is really stored. Its answer comes back
    as `Appended.checked`; `ended(checked)` says whether the game has ended with this event,
    stored in the same transaction (a join code stops opening an ended game).
    """
    db = get_db()
    db.execute("BEGIN IMMEDIATE")
    try:
        if form_token:
            existing = event_by_token(session_id, form_token)
            if existing is not None:
                db.execute("ROLLBACK")
                return Appended(existing, False)
        bodies = [e.body for e in events(session_id)]
        checked = check(bodies + [body])
        cursor = db.execute(
            "INSERT INTO event (session_id, body_json, form_token) VALUES (?, ?, ?)",
            (session_id, json.dumps(body), form_token or None),
        )
        if ended is not None:
            db.execute("UPDATE session SET ended = ? WHERE id = ?", (int(ended(checked)), session_id))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    row = db.execute("SELECT * FROM event WHERE id = ?", (cursor.lastrowid,)).fetchone()
    return Appended(_event(row), True, checked)


def undo_last(session_id: str, form_token: str | None) -> StoredEvent | None:
    """Mark the newest live event undone; None when there is nothing to undo.

    The form token of an undo is stored in a marker row so a double-tapped undo button undoes
    one event, not two.
    """
    db = get_db()
    db.execute("BEGIN IMMEDIATE")
    try:
        if form_token and _undo_seen(session_id, form_token):
            db.execute("ROLLBACK")
            return None
        row = db.execute(
            "SELECT * FROM event WHERE session_id = ? AND undone_at IS NULL "
            "AND json_extract(body_json, '$.type') != '_undo' ORDER BY id DESC LIMIT 1",
            (session_id,),
        ).fetchone()
        if row is None:
            db.execute("ROLLBACK")
            return None
        db.execute(
            "UPDATE event SET undone_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
            (row["id"],),
        )
        # undoing the end reopens the game; the next join code replays to find out
        db.execute("UPDATE session SET ended = NULL WHERE id = ?", (session_id,))
        if form_token:
            db.execute(
                "INSERT INTO event (session_id, body_json, form_token, undone_at) "
                "VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                (session_id, json.dumps({"type": "_undo", "event": row["id"]}), form_token),
            )
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return _event(row)


def _undo_seen(session_id: str, form_token: str) -> bool:
    return get_db().execute(
        "SELECT 1 FROM event WHERE session_id = ? AND form_token = ?", (session_id, form_token)
    ).fetchone() is not None


def set_ended(session_id: str, ended: bool) -> None:
    """Remember whether the game has ended, found by a replay (`game.has_ended`)."""
    get_db().execute("UPDATE session SET ended = ? WHERE id = ?", (int(ended), session_id))


def _session(row: sqlite3.Row) -> Session:
    ended = row["ended"]
    return Session(row["id"], row["join_code"], row["title"], json.loads(row["config_json"]),
                   row["created_at"], bool(row["uses_table"]), None if ended is None else bool(ended))


def _event(row: sqlite3.Row) -> StoredEvent:
    return StoredEvent(row["id"], json.loads(row["body_json"]), row["form_token"],
                       row["created_at"], row["undone_at"] is not None)
