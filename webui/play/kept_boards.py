"""What a replay of a session's live events gave, kept per version of those events, so a look
that finds the events unchanged replays nothing (issue 25: the lobby replayed every listed
table on every request, 8 tables of 1,999 events took 714 ms a look, 8 looks at once 8.2 s).

As the standings keep each game's results (`webui/storage/kept_results.py`), a kept value
names the events it came from: the newest live event's id (`store.live_version`; events are
only appended and only the newest live one undone, so that id names the whole live set). A
look asks the database for that id (one indexed query) and uses the kept value only when it
matches, so whatever another server recorded or undid is never hidden. The set-up and title
are part of the key: a member's rename rewrites the set-up without adding an event.

Kept in the process, not in the database: a scoreboard is read far more often than written,
and a write on every look would put the readers in the writers' queue (SQLite's one writer).
Each server keeps its own; the least recently used go first beyond `KEEP`.
"""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from flask import current_app

# Sessions whose scoreboard a server keeps: a club floor has a few dozen live tables, and a
# board is a few kilobytes.
KEEP = 512
# Settlement PDFs of ended games a server keeps: each is tens of kilobytes, asked for at the
# end of an evening by every phone at the table.
KEEP_PDFS = 32


class KeptByVersion:
    """A bounded map of session -> (version key, value), the newest use last."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._kept: OrderedDict[str, tuple[tuple, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def find(self, session_id: str, key: tuple) -> Any:
        with self._lock:
            found = self._kept.get(session_id)
            if found is None or found[0] != key:
                return None
            self._kept.move_to_end(session_id)
            return found[1]

    def keep(self, session_id: str, key: tuple, value: Any) -> None:
        with self._lock:
            self._kept[session_id] = (key, value)
            self._kept.move_to_end(session_id)
            while len(self._kept) > self.most:
                self._kept.popitem(last=False)


def version_key(game_session, through_event: int, *more) -> tuple:
    """What a kept value depends on: the live events (by the newest one's id), the set-up and
    the title as stored now, and whatever else the caller names (the page's language)."""
    return (through_event, json.dumps(game_session.config, sort_keys=True), game_session.title, *more)


def _kept(name: str, most: int) -> KeptByVersion:
    extensions = current_app.extensions
    found = extensions.get(name)
    if found is None:
        found = extensions.setdefault(name, KeptByVersion(most))
    return found


def on() -> bool:
    """Whether this app keeps them (`KEEP_BOARDS`, on by default; bench/club.py turns it off
    for its peer)."""
    return bool(current_app.config.get("KEEP_BOARDS", True))


def boards() -> KeptByVersion:
    return _kept("tenbou.kept_boards", KEEP)


def pdfs() -> KeptByVersion:
    return _kept("tenbou.kept_pdfs", KEEP_PDFS)
