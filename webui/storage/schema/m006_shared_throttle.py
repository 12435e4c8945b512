"""Wrong join codes counted in the database, so that several servers on one PostgreSQL throttle a
guesser together: each server alone would let through its own share of guesses. (A SQLite
database has one server, which keeps its buckets in memory; the table is made there too so both
databases have one schema.)"""
from __future__ import annotations

import sqlalchemy as sa


def upgrade(conn: sa.Connection) -> None:
    meta = sa.MetaData()
    sa.Table(
        "throttle", meta,
        sa.Column("key", sa.Text, primary_key=True),                 # "client:ADDRESS" or "target:ID"
        sa.Column("tokens", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),                   # seconds since the epoch
        sa.Index("throttle_by_time", "at"),
    )
    meta.create_all(conn)
