"""Storage: one SQLite file, WAL, foreign keys, migrations by number, nothing lost on restart."""
from __future__ import annotations

import sqlite3

from webui import create_app, db

from tests.test_web_support import new_session, post_event, state


def test_fresh_database_is_at_the_newest_version_with_wal_and_foreign_keys(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t"})
    conn = db.connect(app.config["DATABASE"])
    newest = db.migrations()[-1][0]
    assert conn.execute("PRAGMA user_version").fetchone()[0] == newest
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    try:
        conn.execute("INSERT INTO event (session_id, body_json) VALUES ('nobody', '{}')")
        raise AssertionError("an event without its session was stored")
    except sqlite3.IntegrityError:
        pass


def test_migrations_apply_in_order_once(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = db.connect(path)
    assert db.migrate(conn) == db.migrations()[-1][0]
    assert db.migrate(conn) == db.migrations()[-1][0]          # a second run changes nothing
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"session", "event"} <= names


def test_migration_numbers_are_unique_and_contiguous():
    versions = [v for v, _ in db.migrations()]
    assert versions == list(range(1, len(versions) + 1))


def test_init_db_command(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t"})
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert "schema version" in result.output


def test_a_new_app_on_the_same_folder_replays_the_same_state(tmp_path):
    first = create_app({"DATA_DIR": str(tmp_path)}).test_client()
    session_id, code, token = new_session(first)
    post_event(first, session_id, token, {"type": "riichi", "seat": 2})
    post_event(first, session_id, token, {"type": "draw", "tenpai": [2]})
    before = state(first, session_id)
    again = create_app({"DATA_DIR": str(tmp_path)}).test_client()     # same secret key from the folder
    assert state(again, session_id) == before
    assert (tmp_path / "secret_key").exists()
