"""The automatic table's last settled reading, kept in the app's database.

The table monitor runs on the reader's thread, outside any request, so it takes a connection
of its own from the app's engine for each read or write. A restart of the app (or of the table's bridge) loads it to
see what the sticks did while nobody was watching.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sqlalchemy as sa

from webui.storage.db import now
from webui.storage.schema.tables import table_settled

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
    """The last settled reading of the table on `port`, in the database of `engine`."""
    engine: sa.Engine
    port: str

    def load(self) -> Snapshot | None:
        try:
            with self.engine.connect() as conn:
                kept = conn.execute(sa.select(table_settled.c.snapshot_json)
                                    .where(table_settled.c.port == self.port)).scalar()
            return snapshot_from_json(json.loads(kept)) if kept else None
        except (sa.exc.SQLAlchemyError, ValueError, KeyError, TypeError):
            # an unreadable memory is no memory: the next settled reading starts afresh
            log.exception("could not read the table's last settled reading")
            return None

    def forget(self) -> None:
        """A table made for this run (the demo's simulated one) has no earlier reading; a pty's
        path may name another run's table."""
        try:
            with self.engine.begin() as conn:
                conn.execute(table_settled.delete().where(table_settled.c.port == self.port))
        except sa.exc.SQLAlchemyError:
            log.exception("could not forget the table's settled reading")

    def save(self, snap: Snapshot) -> None:
        values = {"snapshot_json": json.dumps(snapshot_to_json(snap)), "settled_at": now()}
        try:
            # one reader thread writes a port's row, so an update, else an insert, needs no upsert
            with self.engine.begin() as conn:
                updated = conn.execute(table_settled.update().where(table_settled.c.port == self.port)
                                       .values(**values)).rowcount
                if not updated:
                    conn.execute(table_settled.insert().values(port=self.port, **values))
        except sa.exc.SQLAlchemyError:
            log.exception("could not keep the table's settled reading")
