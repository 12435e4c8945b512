"""Which log a club's imported games came from: a digest of the `tenbou settle` log, the same
for every game of one import, so importing the same log again is recognised and refused unless
the club means it (NULL for games played in the app, and for games imported before this)."""
from __future__ import annotations

import sqlalchemy as sa


def upgrade(conn: sa.Connection) -> None:
    conn.execute(sa.text("ALTER TABLE session ADD COLUMN import_digest TEXT"))
    conn.execute(sa.text("CREATE INDEX session_by_import ON session (club_id, import_digest)"))
