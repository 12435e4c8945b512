"""Several servers on one database (PostgreSQL): a join code names one session even when two
servers make sessions at the same moment, and the key that signs players' cookies is kept in
the database, so a player joined through one server is joined through all of them."""
from __future__ import annotations

import sqlalchemy as sa


def upgrade(conn: sa.Connection) -> None:
    meta = sa.MetaData()
    session = sa.Table("session", meta, sa.Column("join_code", sa.Text))
    sa.Index("session_join_code", session.c.join_code, unique=True).create(conn)
    sa.Table(
        "setting", meta,
        sa.Column("name", sa.Text, primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    ).create(conn)
