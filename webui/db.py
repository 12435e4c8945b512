"""SQLite storage: one file in the data folder, WAL, foreign keys, migrations by number.

Each file `schema/NNN_name.sql` is one migration; `PRAGMA user_version` holds the number of
the last one applied, so opening an older database brings it up to date in order.
"""
from __future__ import annotations

import os
import re
import sqlite3
from importlib import resources
from pathlib import Path

import click
from flask import Flask, current_app, g
from flask.cli import with_appcontext

_MIGRATION = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, str]]:
    """(version, sql) for every migration shipped, in order."""
    found = []
    for entry in resources.files("webui").joinpath("schema").iterdir():
        match = _MIGRATION.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.read_text(encoding="utf-8")))
    return sorted(found)


def private(path: str | Path) -> None:
    """Create the database file readable by its owner alone (it holds every join code), and
    make an older one so. SQLite gives the -wal and -shm files the database file's mode."""
    if str(path) == ":memory:":
        return
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for name in (str(path), f"{path}-wal", f"{path}-shm"):
        try:
            if os.stat(name).st_mode & 0o077:
                os.chmod(name, 0o600)
        except FileNotFoundError:
            continue


def connect(path: str | Path) -> sqlite3.Connection:
    if str(path) != ":memory:" and not os.path.exists(path):
        private(path)           # else sqlite3 creates it readable by everyone (umask 022)
    conn = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA busy_timeout = 10000")
    if str(path) != ":memory:":
        conn.execute("PRAGMA journal_mode = WAL")
        # FULL: a hand is on disk before the player sees "recorded", even if power goes
        conn.execute("PRAGMA synchronous = FULL")
    return conn


def migrate(conn: sqlite3.Connection) -> int:
    """Apply every migration newer than the database; return the version reached."""
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    for version, sql in migrations():
        if version <= current:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(sql):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version:d}")
            conn.execute("COMMIT")
        except Exception:
            conn.execute("ROLLBACK")
            raise
        current = version
    return current


def _statements(sql: str) -> list[str]:
    # executescript would commit on its own; split so a migration is one transaction
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def get_db() -> sqlite3.Connection:
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the database or bring it up to the newest schema."""
    with connect(current_app.config["DATABASE"]) as conn:
        version = migrate(conn)
    click.echo(f"Database at schema version {version}: {current_app.config['DATABASE']}")


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
    private(app.config["DATABASE"])
    conn = connect(app.config["DATABASE"])
    try:
        migrate(conn)
    finally:
        conn.close()
