"""Whether the session's game has ended: its join code stops opening it then. NULL until known
(sessions stored before this column, and after an undo): the next join replays the events and
stores the answer."""
from __future__ import annotations

import sqlalchemy as sa


def upgrade(conn: sa.Connection) -> None:
    conn.execute(sa.text("ALTER TABLE session ADD COLUMN ended INTEGER"))
