"""The app and client fixtures of the club tests: one app on `database_url` (SQLite, then
PostgreSQL where installed), its broker and engine closed after the test. Imported by
tests/test_web_clubs.py, test_web_club_night.py, test_web_club_hardening.py,
test_web_club_stats.py and test_web_import_again.py (`from tests.club_support import app, client  # noqa: F401`)."""
from __future__ import annotations

import pytest

from webui import create_app


@pytest.fixture
def app(database_url, tmp_path):
    made = create_app({"DATA_DIR": str(tmp_path / "data"), "DATABASE_URL": database_url, "TESTING": True,
                       "SECRET_KEY": "test", "SSE_HEARTBEAT": 0.2})
    yield made
    made.extensions["tenbou.broker"].close()
    made.extensions["tenbou.db"].dispose()


@pytest.fixture
def client(app):
    return app.test_client()
