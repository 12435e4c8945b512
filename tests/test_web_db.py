"""Storage, SQLite's file: WAL, foreign keys, migrations by number, an older database brought up
to date, nothing lost on restart. (Both databases: tests/test_storage_backends.py.)"""
from __future__ import annotations

import sqlite3

import pytest
import sqlalchemy as sa

from webui import create_app
from webui.storage import db

from tests.test_web_support import new_session, post_event, state

# The schema as Tenbou shipped it before SQLAlchemy (migrations 001-003 as SQL, the version in
# PRAGMA user_version), with one session in it: a home table's file from before this release.
LEGACY = """
CREATE TABLE session (id TEXT PRIMARY KEY, join_code TEXT NOT NULL, title TEXT NOT NULL DEFAULT '',
    config_json TEXT NOT NULL, created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    uses_table INTEGER NOT NULL DEFAULT 0);
CREATE TABLE event (id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE, body_json TEXT NOT NULL,
    form_token TEXT, created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    undone_at TEXT, UNIQUE (session_id, form_token));
CREATE INDEX event_by_session ON event(session_id, id);
CREATE TABLE table_settled (port TEXT PRIMARY KEY, snapshot_json TEXT NOT NULL,
    settled_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));
ALTER TABLE session ADD COLUMN ended INTEGER;
PRAGMA user_version = 3;
"""


def _legacy_database(path, config_json: str) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(LEGACY)
    conn.execute("INSERT INTO session (id, join_code, title, config_json) VALUES ('old', 'ABCDEF', 'Home', ?)",
                 (config_json,))
    conn.execute("""INSERT INTO event (session_id, body_json) VALUES ('old', '{"type": "riichi", "seat": 1}')""")
    conn.execute("""INSERT INTO event (session_id, body_json, undone_at)
                    VALUES ('old', '{"type": "riichi", "seat": 2}', '2024-05-01T20:00:00.000Z')""")
    conn.execute("""INSERT INTO event (session_id, body_json, form_token, undone_at)
                    VALUES ('old', '{"type": "_undo", "event": 2}', 'u1', '2024-05-01T20:00:00.000Z')""")
    conn.commit()
    conn.close()


def test_fresh_database_is_at_the_newest_version_with_wal_and_foreign_keys(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t"})
    conn = db.connect(app.config["DATABASE"])
    assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == db.newest_version()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO event (session_id, body_json, created_at) VALUES ('nobody', '{}', 'now')")
    assert app.config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'tenbou.sqlite3'}"


def test_migrations_apply_in_order_once(tmp_path):
    engine = db.create_engine(db.url_for_path(tmp_path / "new.sqlite3"))
    assert db.migrate(engine) == db.newest_version()
    assert db.migrate(engine) == db.newest_version()          # a second run changes nothing
    names = set(sa.inspect(engine).get_table_names())
    assert {"session", "event", "table_settled", "setting", "schema_version"} <= names
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM schema_version")).scalar() == 1
    engine.dispose()


def test_migration_numbers_are_unique_and_contiguous():
    versions = [v for v, _ in db.migrations()]
    assert versions == list(range(1, len(versions) + 1))


def test_a_database_from_before_sqlalchemy_is_brought_up_to_date_keeping_its_history(tmp_path):
    """A home table's file at PRAGMA user_version 3 opens with its sessions, events and undo."""
    fresh = create_app({"DATA_DIR": str(tmp_path / "fresh"), "SECRET_KEY": "t"})
    client = fresh.test_client()
    made, _, _ = new_session(client)
    with fresh.app_context():
        from webui.storage import store
        config_json = store.get_db().execute(sa.text("SELECT config_json FROM session WHERE id = :id"),
                                             {"id": made}).scalar()
    (tmp_path / "old").mkdir()
    _legacy_database(tmp_path / "old" / "tenbou.sqlite3", config_json)
    app = create_app({"DATA_DIR": str(tmp_path / "old"), "SECRET_KEY": "t"})
    client = app.test_client()
    shown = state(client, "old")
    assert shown["events"] == 1 and shown["riichi"] == [False, True, False, False]
    # the next event's id follows the old ones (AUTOINCREMENT kept); undo still skips the marker
    assert client.get("/s/old/join?code=ABCDEF").status_code == 302
    token = client.get("/api/csrf").get_json()["csrf_token"]
    added = post_event(client, "old", token, {"type": "riichi", "seat": 3}).get_json()
    assert added["id"] == 4
    assert client.post("/api/sessions/old/undo", json={}, headers={"X-CSRF-Token": token}).get_json()["undone"] == 4
    assert client.post("/api/sessions/old/undo", json={}, headers={"X-CSRF-Token": token}).get_json()["undone"] == 1
    with db.connect(tmp_path / "old" / "tenbou.sqlite3") as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == db.newest_version()


def test_init_db_command(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t"})
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert f"schema version {db.newest_version()}" in result.output


def test_a_new_app_on_the_same_folder_replays_the_same_state(tmp_path):
    first = create_app({"DATA_DIR": str(tmp_path)}).test_client()
    session_id, code, token = new_session(first)
    post_event(first, session_id, token, {"type": "riichi", "seat": 2})
    post_event(first, session_id, token, {"type": "draw", "tenpai": [2]})
    before = state(first, session_id)
    again = create_app({"DATA_DIR": str(tmp_path)}).test_client()     # same secret key from the folder
    assert state(again, session_id) == before
    assert (tmp_path / "secret_key").exists()


@pytest.mark.parametrize("text, reason", [
    ("mysql://u@h/db", "SQLite or PostgreSQL"),
    ("sqlite://", "names a file"),
    ("postgresql://[::1", "not a database URL"),
])
def test_a_database_url_tenbou_cannot_use_is_refused_in_words(text, reason):
    with pytest.raises(db.DatabaseURLError, match=reason.replace("(", r"\(")):
        db.parse_url(text)


def test_urls_are_shown_without_their_password(tmp_path):
    assert db.shown("postgresql://club:hunter2@db.example/tenbou") == "postgresql://club:***@db.example/tenbou"
    assert db.parse_url("postgres://club@db/tenbou").drivername == "postgresql+psycopg"
    assert db.parse_url(str(tmp_path / "t.sqlite3")).database == str(tmp_path / "t.sqlite3")
