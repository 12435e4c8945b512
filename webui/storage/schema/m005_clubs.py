"""Clubs: people who play week after week. A club (a home table or a real club) has members;
a session may belong to a club and seat its members (a guest seat names nobody), so renaming
a member renames them in every session. Seasons split a club's games by date, and each
session's results are kept, worked out once per version of its events, so standings over
thousands of games need no replay."""
from __future__ import annotations

import sqlalchemy as sa


def upgrade(conn: sa.Connection) -> None:
    meta = sa.MetaData()
    sa.Table("session", meta, sa.Column("id", sa.Text, primary_key=True))
    sa.Table(
        "club", meta,
        sa.Column("id", sa.Text, primary_key=True),                   # random, in every link
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("join_code", sa.Text, nullable=False, unique=True),  # needed to change the club
        sa.Column("created_at", sa.Text, nullable=False),
    )
    sa.Table(
        "member", meta,
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("club_id", sa.Text, sa.ForeignKey("club.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.UniqueConstraint("club_id", "name"),
    )
    sa.Table(
        "season", meta,
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("club_id", sa.Text, sa.ForeignKey("club.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("starts", sa.Text, nullable=False),                 # YYYY-MM-DD; runs to the next season's start
        sa.UniqueConstraint("club_id", "starts"),
    )
    sa.Table(
        "seat", meta,
        sa.Column("session_id", sa.Text, sa.ForeignKey("session.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("member_id", sa.Text, sa.ForeignKey("member.id"), nullable=False),
        sa.Index("seat_by_member", "member_id"),
    )
    # deleted with each new or undone event of the session, so a row is its live events' result
    sa.Table(
        "game_result", meta,
        sa.Column("session_id", sa.Text, sa.ForeignKey("session.id", ondelete="CASCADE"), primary_key=True),
        # the events it was worked out from: the newest live event's id and how many are live
        sa.Column("through_event", sa.Integer, nullable=False),
        sa.Column("live_events", sa.Integer, nullable=False),
        sa.Column("summary_json", sa.Text, nullable=False),           # scorer.club.GameSummary.to_json() but its wins
        sa.Column("wins_json", sa.Text, nullable=False),              # its wins, for players' best hands
    )
    meta.create_all(conn)
    conn.execute(sa.text("ALTER TABLE session ADD COLUMN club_id TEXT REFERENCES club(id)"))
    conn.execute(sa.text("ALTER TABLE session ADD COLUMN imported INTEGER NOT NULL DEFAULT 0"))
    conn.execute(sa.text("CREATE INDEX session_by_club ON session (club_id, created_at)"))
