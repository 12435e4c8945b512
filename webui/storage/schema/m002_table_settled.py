"""The automatic table's last settled reading, one row per table port: a restart of the app or of
the table's bridge compares the table's first settled reading with it, so sticks moved meanwhile
are still reported."""
from __future__ import annotations

import sqlalchemy as sa


def upgrade(conn: sa.Connection) -> None:
    meta = sa.MetaData()
    sa.Table(
        "table_settled", meta,
        sa.Column("port", sa.Text, primary_key=True),          # the pyserial URL the table is read on
        sa.Column("snapshot_json", sa.Text, nullable=False),   # points, round, honba, sticks, dealer, riichi
        sa.Column("settled_at", sa.Text, nullable=False),
    )
    meta.create_all(conn)
