"""The live tables: games not ended, with something recorded, that started within `LIVE_WINDOW`,
newest first, each with its scoreboard and links, for the lobby pages, the JSON and the cycling
TV (`webui/pages/lobby.py`)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import sqlalchemy as sa
from flask import url_for

from webui.play import ledger
from webui.storage import store
from webui.storage.db import get_db
from webui.guard.errors import PlayerError
from webui.storage.schema.tables import event as event_t
from webui.storage.schema.tables import session as session_t


# Games players walked away from without ending them never end by themselves; a day is longer
# than any evening at a club (one that runs past midnight included), so a real table stays
# listed while yesterday's abandoned ones drop out.
LIVE_WINDOW = timedelta(hours=24)
# Each listed table costs one replay of its events per look (the page, and the TV's refresh of
# its list), so the list is bounded whatever the history holds: a busy club floor has a few
# dozen tables.
MOST_TABLES = 40


def live_tables(club_id: str | None = None) -> list[dict]:
    """The live tables, newest first: each its scoreboard JSON (`ledger.snapshot`) and its links."""
    since = (datetime.now(timezone.utc) - LIVE_WINDOW).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    # whether a game ended is stored with each event; None (after an undo) is found by the replay below
    where = [session_t.c.created_at >= since, sa.or_(session_t.c.ended.is_(None), session_t.c.ended == 0),
             # being played: something recorded, so sessions started by the dozen and left empty
             # (a flood, under names its sender chose) never push a real table off the list
             sa.exists().where(event_t.c.session_id == session_t.c.id)]
    if club_id is not None:
        where.append(session_t.c.club_id == club_id)
    query = (sa.select(session_t).where(*where)
             .order_by(session_t.c.created_at.desc(), session_t.c.id.desc()).limit(MOST_TABLES))
    rows = get_db().execute(query).all()
    # each board is kept per version of its events (`kept_boards`): one query says which changed
    versions = store.live_versions([row.id for row in rows])
    tables = []
    for row in rows:
        found = store.session_from_row(row)
        through = versions.get(found.id, (0, 0))[0]
        try:
            snap = ledger.snapshot(found, through)
        except PlayerError:     # events a newer ledger refuses: there is no board to draw
            continue
        if snap["finished"]:
            # found by the replay: the next look skips it in SQL (unless events changed since)
            store.set_ended(found.id, True, through)
            continue
        tables.append(_table(found, snap))
    return tables


def _table(found: store.Session, snap: dict) -> dict:
    return {**snap, "created_at": found.created_at,
            "links": {"scoreboard": url_for("sessions.scoreboard", session_id=found.id),
                      "tv": url_for("sessions.tv", session_id=found.id),
                      "live": url_for("live.stream", session_id=found.id),
                      "state": url_for("api.session_state", session_id=found.id)}}
