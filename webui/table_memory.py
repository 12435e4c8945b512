"""The automatic table's last settled reading, kept in the app's SQLite file.

The table monitor runs on the reader's thread, outside any request, so it opens its own short
connection for each read or write. A restart of the app (or of the table's bridge) loads it to
see what the sticks did while nobody was watching.
"""
from __future__ import annotations

import json
import logging
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .db import connect

if TYPE_CHECKING:        # the table's code is loaded only when a table is configured
    from device.frames import Snapshot

log = logging.getLogger("tenbou.table")


def snapshot_to_json(snap: Snapshot) -> dict:
    return {"points": list(snap.points), "round": snap.round, "honba": snap.honba, "sticks": snap.sticks,
            "dealer": snap.dealer, "riichi": None if snap.riichi is None else list(snap.riichi)}


def snapshot_from_json(data: dict) -> Snapshot:
    from device.frames import Snapshot

    riichi = data.get("riichi")
    return Snapshot(tuple(int(p) for p in data["points"]), data.get("round"), data.get("honba"),
                    data.get("sticks"), data.get("dealer"), None if riichi is None else tuple(bool(r) for r in riichi))


@dataclass(frozen=True)
class SettledMemory:
    """The last settled reading of the table on `port`, in the database file `database`."""
    database: str
    port: str

    def load(self) -> Snapshot | None:
        try:
            with closing(connect(self.database)) as conn:
                row = conn.execute("SELECT snapshot_json FROM table_settled WHERE port = ?", (self.port,)).fetchone()
            return snapshot_from_json(json.loads(row["snapshot_json"])) if row else None
        except (sqlite3.Error, ValueError, KeyError, TypeError):
            # an unreadable memory is no memory: the next settled reading starts afresh
            log.exception("could not read the table's last settled reading")
            return None

    def forget(self) -> None:
        """A table made for this run (the demo's simulated one) has no earlier reading; a pty's
        path may name another run's table."""
        try:
            with closing(connect(self.database)) as conn:
                conn.execute("DELETE FROM table_settled WHERE port = ?", (self.port,))
        except sqlite3.Error:
            log.exception("could not forget the table's settled reading")

    def save(self, snap: Snapshot) -> None:
        try:
            with closing(connect(self.database)) as conn:
                conn.execute("INSERT INTO table_settled (port, snapshot_json) VALUES (?, ?) "
                             "ON CONFLICT (port) DO UPDATE SET snapshot_json = excluded.snapshot_json, "
                             "settled_at = excluded.settled_at",
                             (self.port, json.dumps(snapshot_to_json(snap))))
        except sqlite3.Error:
            log.exception("could not keep the table's settled reading")
