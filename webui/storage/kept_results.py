"""A club's counted games with their results, for standings over a whole season without a
replay: each game's `scorer.club.GameSummary` is kept in `game_result`, worked out once.

Recording or undoing an event deletes the session's kept row in the same transaction
(`store`), so a kept row is always the result of the live events. A row is written only after
checking, with the session's row locked, that the events it came from are still the live ones:
a replay that raced a new event keeps nothing. Seats (`summary_json`) and wins (`wins_json`)
are kept apart, so the standings never decode the wins that only a player's page shows.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace

import sqlalchemy as sa

from scorer.club import GameSummary, WinLine, summarise
from scorer.game import GameConfig, LedgerError, replay

from webui.storage.db import get_db, transaction
from webui.storage.schema.tables import event as event_t
from webui.storage.schema.tables import game_result as result_t
from webui.storage.schema.tables import seat as seat_t
from webui.storage.schema.tables import session as session_t

# Ids a query names at once (SQLite allows 32,766 bound values; PostgreSQL plans long lists slowly).
CHUNK = 900


@dataclass(frozen=True)
class ClubGame:
    """One counted game of a club: its session, results, and which member sat where."""
    session_id: str
    title: str
    played: str                 # when the session was started (or the day a log was played)
    imported: bool
    summary: GameSummary
    members: dict[int, str]     # seat -> member id (guests' seats absent)

    @property
    def name(self) -> str:
        return self.title or " · ".join(line.name for line in self.summary.seats)

    def seat_of(self, member_id: str) -> int | None:
        """The seat `member_id` sat in, or None when they did not play this game."""
        return next((seat for seat, member in self.members.items() if member == member_id), None)


def in_season(query: sa.Select, club_id: str, season) -> sa.Select:
    """`query` of sessions narrowed to the club's and, given a season, to those started in it."""
    query = query.where(session_t.c.club_id == club_id)
    if season is not None:
        query = query.where(session_t.c.created_at >= season.starts)
        if season.ends:
            query = query.where(session_t.c.created_at < season.ends)
    return query


def games(club_id: str, season=None, wins: bool = False, member: str | None = None) -> list[ClubGame]:
    """The club's counted games of `season` (None: all), oldest first: finished in the app or
    entered from a log. `wins`: with each game's wins (a player's best hands). `member`: only
    the games that member sat in (a player's page reads theirs, not the whole season's)."""
    db = get_db()
    columns = [session_t.c.id, session_t.c.title, session_t.c.created_at, session_t.c.imported,
               result_t.c.summary_json] + ([result_t.c.wins_json] if wins else [])
    query = in_season(sa.select(*columns).select_from(
        session_t.outerjoin(result_t, result_t.c.session_id == session_t.c.id)), club_id, season)
    seat_query = in_season(sa.select(seat_t.c.session_id, seat_t.c.seat, seat_t.c.member_id)
                           .join(session_t, session_t.c.id == seat_t.c.session_id), club_id, season)
    if member is not None:
        theirs = sa.select(seat_t.c.session_id).where(seat_t.c.member_id == member)
        query = query.where(session_t.c.id.in_(theirs))
        seat_query = seat_query.where(session_t.c.id.in_(theirs))
    rows = db.execute(query.order_by(session_t.c.created_at, session_t.c.id)).all()
    seats: dict[str, dict[int, str]] = {}
    for r in db.execute(seat_query):
        seats.setdefault(r.session_id, {})[r.seat] = r.member_id
    worked_out = work_out([r.id for r in rows if r.summary_json is None])
    found = []
    for r in rows:
        if r.summary_json is None:
            summary = worked_out.get(r.id)
            if summary is None:
                continue            # events a newer ledger refuses: the players can undo them
            if not wins:
                summary = replace(summary, wins=())
        else:
            summary = GameSummary.from_json(json.loads(r.summary_json))
            if wins:
                summary = replace(summary, wins=tuple(WinLine.from_json(w) for w in json.loads(r.wins_json)))
        if summary.finished or r.imported:
            found.append(ClubGame(r.id, r.title, r.created_at, bool(r.imported), summary, seats.get(r.id, {})))
    return found


def work_out(session_ids: list[str]) -> dict[str, GameSummary]:
    """Replay these sessions (their live events read in one query a chunk) and keep the results."""
    found: dict[str, GameSummary] = {}
    for start in range(0, len(session_ids), CHUNK):
        found.update(_work_out_chunk(session_ids[start:start + CHUNK]))
    return found


def _work_out_chunk(ids: list[str]) -> dict[str, GameSummary]:
    db = get_db()
    configs = dict(db.execute(sa.select(session_t.c.id, session_t.c.config_json).where(session_t.c.id.in_(ids))).all())
    live: dict[str, list[tuple[int, dict]]] = {i: [] for i in configs}
    for r in db.execute(sa.select(event_t.c.session_id, event_t.c.id, event_t.c.body_json)
                        .where(event_t.c.session_id.in_(ids), event_t.c.undone_at.is_(None)).order_by(event_t.c.id)):
        live[r.session_id].append((r.id, json.loads(r.body_json)))
    found, versions = {}, {}
    for session_id, raw in configs.items():
        bodies = [body for _, body in live[session_id]]
        try:
            config = GameConfig.from_json(json.loads(raw))
            found[session_id] = summarise(config, replay(config, bodies), bodies)
        except (LedgerError, ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError):
            continue    # events a newer ledger refuses, or kept before logs were checked (issue 25)
        versions[session_id] = _version(live[session_id])
    _keep(found, versions)
    return found


def _version(events: list[tuple[int, object]]) -> tuple[int, int]:
    """What a kept row was worked out from: the newest live event's id and how many are live."""
    return (events[-1][0] if events else 0, len(events))


def _keep(found: dict[str, GameSummary], versions: dict[str, tuple[int, int]]) -> None:
    if not found:
        return
    ids = list(found)
    try:
        with transaction() as db:
            # the sessions' rows locked (PostgreSQL; SQLite's write lock is already held), so no
            # event lands between the check and the write
            db.execute(sa.select(session_t.c.id).where(session_t.c.id.in_(ids)).with_for_update())
            now_live = {r.session_id: (r.last, r.count) for r in db.execute(
                sa.select(event_t.c.session_id, sa.func.max(event_t.c.id).label("last"), sa.func.count().label("count"))
                .where(event_t.c.session_id.in_(ids), event_t.c.undone_at.is_(None)).group_by(event_t.c.session_id))}
            current = [i for i in ids if now_live.get(i, (0, 0)) == versions[i]]
            db.execute(result_t.delete().where(result_t.c.session_id.in_(current)))
            if current:
                db.execute(result_t.insert(), [_row(i, found[i], versions[i]) for i in current])
    except sa.exc.IntegrityError:
        pass        # another server kept the same results a moment ago


def _row(session_id: str, summary: GameSummary, version: tuple[int, int]) -> dict:
    data = summary.to_json()
    wins = data.pop("wins")
    return {"session_id": session_id, "through_event": version[0], "live_events": version[1],
            "summary_json": json.dumps(data, separators=(",", ":")),
            "wins_json": json.dumps(wins, separators=(",", ":")),
            # read by the ratings' and statistics' fingerprint (kept_figures) without the JSON
            "finished": int(summary.finished), "detail": summary.detail}


def forget(db: sa.Connection, session_ids: list[str]) -> None:
    """Drop kept results whose events or names are changing, inside the caller's transaction."""
    if session_ids:
        db.execute(result_t.delete().where(result_t.c.session_id.in_(session_ids)))
