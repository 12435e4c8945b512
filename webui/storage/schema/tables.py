"""The tables as the newest migration leaves them: what `store` and `tenbou db copy` query."""
from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

session = sa.Table(
    "session", metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("join_code", sa.Text, nullable=False),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("config_json", sa.Text, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("uses_table", sa.Integer, nullable=False),
    sa.Column("ended", sa.Integer),                 # NULL: not known since the last undo
    sa.Column("club_id", sa.Text, sa.ForeignKey("club.id")),     # NULL: a game of no club
    sa.Column("imported", sa.Integer, nullable=False, server_default=sa.text("0")),   # from a `tenbou settle` log
    sa.Column("import_digest", sa.Text),            # the log's digest (m007); NULL: played in the app
)

club = sa.Table(
    "club", metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("join_code", sa.Text, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("rules_json", sa.Text),               # the club's new-session settings; NULL: the defaults
    sa.Column("rounding", sa.Text),                 # how results are written (scorer.rounding; m009); NULL: tenhou
)

member = sa.Table(
    "member", metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("club_id", sa.Text, sa.ForeignKey("club.id"), nullable=False),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
)

season = sa.Table(
    "season", metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("club_id", sa.Text, sa.ForeignKey("club.id"), nullable=False),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("starts", sa.Text, nullable=False),
)

# A session's seat taken by a club member (a guest's seat has no row).
seat = sa.Table(
    "seat", metadata,
    sa.Column("session_id", sa.Text, sa.ForeignKey("session.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("member_id", sa.Text, sa.ForeignKey("member.id"), nullable=False),
)

# A session's results as of its live events (`through_event`, `live_events`), for standings.
game_result = sa.Table(
    "game_result", metadata,
    sa.Column("session_id", sa.Text, sa.ForeignKey("session.id"), primary_key=True),
    sa.Column("through_event", sa.Integer, nullable=False),
    sa.Column("live_events", sa.Integer, nullable=False),
    sa.Column("summary_json", sa.Text, nullable=False),
    sa.Column("wins_json", sa.Text, nullable=False),
    sa.Column("finished", sa.Integer),              # the summary's, for kept_figures (m009); NULL: kept before
    sa.Column("detail", sa.Integer),                # the summary's DETAIL_VERSION (m009); NULL: kept before
)

# A club night: who plays, how its tables are drawn, each round's tables and sessions, the timer.
club_night = sa.Table(
    "club_night", metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("club_id", sa.Text, sa.ForeignKey("club.id"), nullable=False),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("players_json", sa.Text, nullable=False),
    sa.Column("settings_json", sa.Text, nullable=False),
    sa.Column("rounds_json", sa.Text, nullable=False),
    sa.Column("timer_json", sa.Text),
)

# Who drew which wind at a session's table (shuffled, or wind tiles drawn), for its scoreboard.
seat_draw = sa.Table(
    "seat_draw", metadata,
    sa.Column("session_id", sa.Text, sa.ForeignKey("session.id"), primary_key=True),
    sa.Column("draw_json", sa.Text, nullable=False),
)

# Figures worked out from many kept results (ratings, a season's statistics), kept per fingerprint
# of the counted games they came from (m009).
club_figures = sa.Table(
    "club_figures", metadata,
    sa.Column("club_id", sa.Text, sa.ForeignKey("club.id"), primary_key=True),
    sa.Column("scope", sa.Text, primary_key=True),
    sa.Column("fingerprint", sa.Text, nullable=False),
    sa.Column("body_json", sa.Text, nullable=False),
)

event = sa.Table(
    "event", metadata,
    sa.Column("id", sa.Integer, sa.Identity(), primary_key=True),
    sa.Column("session_id", sa.Text, sa.ForeignKey("session.id"), nullable=False),
    sa.Column("body_json", sa.Text, nullable=False),
    sa.Column("form_token", sa.Text),
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("undone_at", sa.Text),
)

table_settled = sa.Table(
    "table_settled", metadata,
    sa.Column("port", sa.Text, primary_key=True),
    sa.Column("snapshot_json", sa.Text, nullable=False),
    sa.Column("settled_at", sa.Text, nullable=False),
)

setting = sa.Table(
    "setting", metadata,
    sa.Column("name", sa.Text, primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

# The schema version, one row (SQLite databases made before it kept it in PRAGMA user_version).
schema_version = sa.Table(
    "schema_version", metadata,
    sa.Column("version", sa.Integer, nullable=False),
)

# Token buckets of wrong join codes shared by the servers of one PostgreSQL (webui/storage/throttle.py).
throttle = sa.Table(
    "throttle", metadata,
    sa.Column("key", sa.Text, primary_key=True),
    sa.Column("tokens", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
