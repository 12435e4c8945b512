"""Club nights: a club keeps its rules (the new-session form's fields, as JSON; NULL: the
form's own defaults), and a club night keeps who plays, how tables are drawn, each round's
tables with their drawn winds and sessions, and the round timer. A session's seat draw (who drew
which wind) is kept beside it, for its scoreboard to show."""
from __future__ import annotations

import sqlalchemy as sa


def upgrade(conn: sa.Connection) -> None:
    conn.execute(sa.text("ALTER TABLE club ADD COLUMN rules_json TEXT"))
    meta = sa.MetaData()
    sa.Table("club", meta, sa.Column("id", sa.Text, primary_key=True))
    sa.Table("session", meta, sa.Column("id", sa.Text, primary_key=True))
    sa.Table(
        "club_night", meta,
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("club_id", sa.Text, sa.ForeignKey("club.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("players_json", sa.Text, nullable=False),    # member ids, in the organiser's order
        sa.Column("settings_json", sa.Text, nullable=False),   # rounds, pairing style, a player short, wind draw, seed
        sa.Column("rounds_json", sa.Text, nullable=False),     # the rounds drawn: tables, winds, sessions, byes
        sa.Column("timer_json", sa.Text),                      # the round timer: when it ends; NULL: none running
        sa.Index("night_by_club", "club_id", "created_at"),
    )
    sa.Table(
        "seat_draw", meta,
        sa.Column("session_id", sa.Text, sa.ForeignKey("session.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("draw_json", sa.Text, nullable=False),       # scorer.seating.WindDraw.to_json(), by name
    )
    meta.create_all(conn)
