"""Ratings and statistics kept per club: how the club writes its results (the rounding: Tenhou
to 0.1, 五捨六入, none; NULL: Tenhou's), and figures worked out from many kept game results
(the ratings over every game, a season's statistics), each kept with a fingerprint of the games
it was worked out from, so a page over thousands of games reads one row while nothing changed.
A kept game result says beside its JSON whether the game has ended and which hand detail it
holds, so that fingerprint is read from small columns (NULL: a row kept before, worked out again)."""
from __future__ import annotations

import sqlalchemy as sa


def upgrade(conn: sa.Connection) -> None:
    conn.execute(sa.text("ALTER TABLE club ADD COLUMN rounding TEXT"))
    conn.execute(sa.text("ALTER TABLE game_result ADD COLUMN finished INTEGER"))
    conn.execute(sa.text("ALTER TABLE game_result ADD COLUMN detail INTEGER"))
    meta = sa.MetaData()
    sa.Table("club", meta, sa.Column("id", sa.Text, primary_key=True))
    sa.Table(
        "club_figures", meta,
        sa.Column("club_id", sa.Text, sa.ForeignKey("club.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("scope", sa.Text, primary_key=True),          # "ratings", "stats:<season id>|all", ...
        sa.Column("fingerprint", sa.Text, nullable=False),     # the counted games and their versions, hashed
        sa.Column("body_json", sa.Text, nullable=False),
    )
    meta.create_all(conn)
