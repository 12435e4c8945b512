"""Sessions and their append-only event log. State is always a replay of `event`."""
from __future__ import annotations

import sqlalchemy as sa


def upgrade(conn: sa.Connection) -> None:
    meta = sa.MetaData()
    sa.Table(
        "session", meta,
        sa.Column("id", sa.Text, primary_key=True),                   # random, in every link
        sa.Column("join_code", sa.Text, nullable=False),              # needed to change the session
        sa.Column("title", sa.Text, nullable=False, server_default=""),
        sa.Column("config_json", sa.Text, nullable=False),            # the ledger's GameConfig.to_json()
        # ISO 8601 UTC text, written by the app: the same on both databases and in a copy
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("uses_table", sa.Integer, nullable=False, server_default=sa.text("0")),  # follow the automatic table
    )
    sa.Table(
        "event", meta,
        # never reused (AUTOINCREMENT on SQLite, an identity on PostgreSQL): an undo names an event by id
        sa.Column("id", sa.Integer, sa.Identity(), primary_key=True),
        sa.Column("session_id", sa.Text, sa.ForeignKey("session.id", ondelete="CASCADE"), nullable=False),
        sa.Column("body_json", sa.Text, nullable=False),              # one ledger event
        sa.Column("form_token", sa.Text),                             # one per rendered form: a double submit records once
        sa.Column("created_at", sa.Text, nullable=False),
        # undo never deletes: the undone event stays for the record and replay skips it
        sa.Column("undone_at", sa.Text),
        sa.UniqueConstraint("session_id", "form_token"),
        sa.Index("event_by_session", "session_id", "id"),
        sqlite_autoincrement=True,
    )
    meta.create_all(conn)
