"""Figures worked out from many of a club's kept game results — the ratings over every game, a
season's statistics — kept in `club_figures` with a fingerprint of the games they came from, so
a page over thousands of games reads one row and one narrow query while nothing has changed.

The fingerprint is read without decoding any kept result: the versions of the kept rows of the
games that count (finished, or entered from a log), added up in one aggregate query
(`kept_results` deletes a session's row with every new or undone event). A session with no kept
row is worked out first (`kept_results.work_out`), as the standings do. A game still in play
changes nothing the figures count, so a club night's running tables do not make every look at
the ratings redo them; the game that ends does.

Also here: how the club writes its results (`club.rounding`, scorer.rounding's names).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from scorer.club import DETAIL_VERSION

from webui.storage.db import get_db, transaction
from webui.storage.kept_results import in_season, work_out
from webui.storage.schema.tables import club as club_t
from webui.storage.schema.tables import club_figures as figures_t
from webui.storage.schema.tables import game_result as result_t
from webui.storage.schema.tables import session as session_t


def fingerprint(club_id: str, season=None, salt: str = "") -> str:
    """What the counted games of the club's `season` (None: all) are, as of their kept results,
    in a few numbers read by one aggregate query; `salt` names how the figures are made, so
    figures of an older way are made again.

    A kept row's version is the newest live event's id (`through_event`), which also names the
    live set, since only the newest live event is ever undone; event ids only grow, and no two
    sessions share one. So a counted game that changes, ends or stops counting moves the count,
    the largest id (a new event's id is larger than every id before it) or the sums, and the
    digest with them. Who sat where is not read: a session's seats are written with it and never
    change (a rename changes a member's name, not their id)."""
    missing = _missing(club_id, season)
    if missing:
        work_out(missing)
    counted = sa.or_(session_t.c.imported == 1, result_t.c.finished == 1)
    through, live = result_t.c.through_event, result_t.c.live_events
    query = in_season(sa.select(sa.func.count(), sa.func.coalesce(sa.func.sum(through), 0),
                                sa.func.coalesce(sa.func.max(through), 0), sa.func.coalesce(sa.func.sum(live), 0),
                                sa.func.coalesce(sa.func.sum(sa.cast(through, sa.BigInteger) * live), 0))
                      .select_from(session_t.join(result_t, result_t.c.session_id == session_t.c.id))
                      .where(counted), club_id, season)
    numbers = get_db().execute(query).one()
    return hashlib.sha256(f"{salt}|{club_id}|{'|'.join(str(int(n)) for n in numbers)}".encode()).hexdigest()


def _missing(club_id: str, season) -> list[str]:
    """The scope's sessions with no kept result, or one kept before it said whether the game
    ended or before the hands' detail was (worked out again, so the statistics count it)."""
    stale = sa.or_(result_t.c.session_id.is_(None), result_t.c.finished.is_(None), result_t.c.detail.is_(None),
                   result_t.c.detail < DETAIL_VERSION)
    query = in_season(sa.select(session_t.c.id).select_from(
        session_t.outerjoin(result_t, result_t.c.session_id == session_t.c.id)).where(stale), club_id, season)
    return list(get_db().execute(query).scalars())


def kept(club_id: str, scope: str, fingerprint_now: str) -> Any | None:
    """The figures kept for (club, scope) if they were made from the games `fingerprint_now`
    names; None when there are none or they are stale."""
    row = get_db().execute(sa.select(figures_t.c.fingerprint, figures_t.c.body_json)
                           .where(figures_t.c.club_id == club_id, figures_t.c.scope == scope)).first()
    if row is None or row.fingerprint != fingerprint_now:
        return None
    return json.loads(row.body_json)


def keep(club_id: str, bodies: dict[str, Any], fingerprint_now: str) -> None:
    """Keep figures (scope -> JSON-able body) made from the games `fingerprint_now` names,
    replacing what the scopes held."""
    if not bodies:
        return
    rows = [{"club_id": club_id, "scope": scope, "fingerprint": fingerprint_now,
             "body_json": json.dumps(body, separators=(",", ":"), ensure_ascii=False)} for scope, body in bodies.items()]
    try:
        with transaction() as conn:
            conn.execute(figures_t.delete().where(figures_t.c.club_id == club_id, figures_t.c.scope.in_(list(bodies))))
            conn.execute(figures_t.insert(), rows)
    except sa.exc.IntegrityError:
        pass            # another server kept the same figures a moment ago


def kept_or_made(club_id: str, scope: str, fingerprint_now: str, make: Callable[[], Any]) -> Any:
    """The figures kept for (club, scope) when they were made from the games `fingerprint_now`
    names; else `make()` (JSON-able), kept for the next look and returned as a look reads it."""
    found = kept(club_id, scope, fingerprint_now)
    if found is not None:
        return found
    made = json.loads(json.dumps(make()))
    keep(club_id, {scope: made}, fingerprint_now)
    return made


def rounding_of(club_id: str) -> str | None:
    """The club's rounding as stored (None: never chosen)."""
    return get_db().execute(sa.select(club_t.c.rounding).where(club_t.c.id == club_id)).scalar()


def set_rounding(club_id: str, rounding: str) -> None:
    with transaction() as db:
        db.execute(club_t.update().where(club_t.c.id == club_id).values(rounding=rounding))
