"""Storage: one SQLAlchemy engine per app, SQLite by default or PostgreSQL by URL.

SQLite (`sqlite:///PATH`, the default: a file in the data folder, nothing to install) runs with
WAL, foreign keys and full syncs; PostgreSQL (`postgresql://USER@HOST/DB`, through psycopg 3)
lets several `tenbou serve` processes share one database. Both run the same migrations
(`webui/storage/schema/`) and the same queries (`webui/storage/store.py`), written with SQLAlchemy Core.

Following the Flask tutorial, a request's connection lives on `g` (`get_db()`): it reads in
autocommit, each statement seeing what is committed. `transaction()` is the one way to write:
on SQLite it takes the write lock at once (BEGIN IMMEDIATE), so a read-check-write never meets
a writer half-way; on PostgreSQL the store locks the session's row for the same effect.
"""
from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
import threading
from contextlib import contextmanager, nullcontext
from datetime import datetime, timezone
from pathlib import Path

import click
import sqlalchemy as sa
from flask import Flask, current_app, g
from flask.cli import with_appcontext

from webui.storage.schema import migrations, tables

# Connections a server process keeps open to PostgreSQL, and how many more a burst may open
# (each of two or three servers stays well inside PostgreSQL's default 100).
PG_POOL = 8
PG_OVERFLOW = 16
# An arbitrary number that names Tenbou's migration lock among PostgreSQL's advisory locks.
MIGRATION_LOCK = 0x7E4B0


class DatabaseURLError(ValueError):
    """The --database text names no database Tenbou can use."""


def url_for_path(path: str | Path) -> str:
    return f"sqlite:///{path}"


def parse_url(text: str) -> sa.URL:
    """A database URL as typed: `sqlite:///PATH`, `postgresql://USER@HOST/DB` (psycopg 3 is
    the driver whatever the URL names), or a bare path to an SQLite file."""
    if "://" not in text:
        text = url_for_path(Path(text).expanduser().resolve())
    try:
        url = sa.make_url(text)
    except (sa.exc.ArgumentError, ValueError) as err:     # ValueError: a port that is no number
        raise DatabaseURLError(f"not a database URL: {text}") from err
    backend = url.get_backend_name()
    if backend in ("postgresql", "postgres"):
        return url.set(drivername="postgresql+psycopg")
    if backend == "sqlite":
        if not url.database or url.database == ":memory:":
            raise DatabaseURLError("an SQLite URL names a file: sqlite:///path/to/tenbou.sqlite3")
        return url.set(drivername="sqlite")
    raise DatabaseURLError(f"Tenbou stores its data in SQLite or PostgreSQL, not {backend}: {text}")


def shown(url: sa.URL | str) -> str:
    """The URL to print: never a password."""
    url = parse_url(url) if isinstance(url, str) else url
    return url.set(drivername=url.get_backend_name()).render_as_string(hide_password=True)


def failure_reason(err: BaseException) -> str:
    """The first line of what the driver said (psycopg's or sqlite3's, not SQLAlchemy's wrapping),
    for a one-line message on the command line."""
    return str(getattr(err, "orig", None) or err).strip().splitlines()[0]


def now() -> str:
    """The time a row is written, as ISO 8601 UTC text with milliseconds: the app writes it, so
    both databases hold the same text and a copy keeps it."""
    stamp = datetime.now(timezone.utc)
    return stamp.strftime("%Y-%m-%dT%H:%M:%S.") + f"{stamp.microsecond // 1000:03d}Z"


# --- SQLite's file -------------------------------------------------------------------------

class NotADatabase(DatabaseURLError, OSError):
    """The --database file exists and is no SQLite database: said in one line, left untouched."""


# The first 16 bytes of every SQLite database file (an empty file is a database not yet begun).
SQLITE_HEADER = b"SQLite format 3\x00"


def private(path: str | Path) -> None:
    """Create the database file readable by its owner alone (it holds every join code), and
    make an older one so. SQLite gives the -wal and -shm files the database file's mode.

    An existing file is made private only once it is seen to be an SQLite database (issue 25:
    `--database sqlite:///FILE`, run as root, set any file of the machine to 0600 first and
    noticed it was no database after): anything else is refused untouched (`NotADatabase`)."""
    if str(path) == ":memory:":
        return
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except IsADirectoryError:
        raise NotADatabase(f"{path} is not an SQLite database (a folder)") from None
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):
            raise NotADatabase(f"{path} is not an SQLite database (not a plain file)")
        if found.st_size and os.pread(fd, len(SQLITE_HEADER), 0) != SQLITE_HEADER:
            raise NotADatabase(f"{path} is not an SQLite database; name a new file or a Tenbou database")
        if found.st_mode & 0o077:
            os.fchmod(fd, 0o600)
    finally:
        os.close(fd)
    for name in (f"{path}-wal", f"{path}-shm"):
        try:
            side = os.lstat(name)           # SQLite's own files beside it: never through a link
        except FileNotFoundError:
            continue
        if stat.S_ISREG(side.st_mode) and side.st_mode & 0o077:
            os.chmod(name, 0o600)


def _sqlite_connection(path: str | Path) -> sqlite3.Connection:
    if str(path) != ":memory:" and not os.path.exists(path):
        private(path)           # else sqlite3 creates it readable by everyone (umask 022)
    # isolation_level None: the driver starts no transaction by itself; db.transaction() does
    conn = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA busy_timeout = 10000")
    if str(path) != ":memory:":
        conn.execute("PRAGMA journal_mode = WAL")
        # FULL: a hand is on disk before the player sees "recorded", even if power goes
        conn.execute("PRAGMA synchronous = FULL")
    return conn


def connect(path: str | Path) -> sqlite3.Connection:
    """A plain sqlite3 connection to the file with the app's settings (for looking inside)."""
    conn = _sqlite_connection(path)
    conn.row_factory = sqlite3.Row
    return conn


# --- engines -------------------------------------------------------------------------------

def create_engine(url: str | sa.URL) -> sa.Engine:
    url = parse_url(url) if isinstance(url, str) else url
    if url.get_backend_name() == "sqlite":
        path = url.database
        engine = sa.create_engine(url, creator=lambda: _sqlite_connection(path),
                                  poolclass=sa.pool.QueuePool, pool_size=8, max_overflow=-1)

        @sa.event.listens_for(engine, "begin")
        def write_lock_at_once(conn: sa.Connection) -> None:
            # A deferred transaction that reads, then writes, fails with "database is locked"
            # when another writer came in between; taking the lock first makes writers queue.
            if conn.get_execution_options().get("isolation_level") != "AUTOCOMMIT":
                conn.exec_driver_sql("BEGIN IMMEDIATE")
        return engine
    return sa.create_engine(url, pool_size=PG_POOL, max_overflow=PG_OVERFLOW, pool_pre_ping=True)


def is_sqlite(engine: sa.Engine | sa.Connection) -> bool:
    return engine.dialect.name == "sqlite"


def engine() -> sa.Engine:
    return current_app.extensions["tenbou.db"]


def get_db() -> sa.Connection:
    """The request's connection: autocommit reads (see `transaction()` for writes)."""
    if "db" not in g:
        g.db = engine().connect().execution_options(isolation_level="AUTOCOMMIT")
    return g.db


@contextmanager
def transaction() -> Iterator[sa.Connection]:
    """One write transaction on the request's connection: committed when the block ends,
    rolled back when it raises."""
    conn = get_db()
    if conn.in_transaction():
        conn.commit()           # an autocommit read's bookkeeping: nothing to commit
    # SQLite: this process's writers queue here rather than in SQLite's busy handler, which
    # polls with growing sleeps, so with 20 tables at once a writer could wait over a second
    writers = current_app.extensions.get("tenbou.db.writers") or nullcontext()
    with writers:
        conn.execution_options(isolation_level=conn.default_isolation_level)
        try:
            with conn.begin():
                yield conn
        finally:
            conn.execution_options(isolation_level="AUTOCOMMIT")


# The PostgreSQL channel every server LISTENs on for changed sessions (storage/notifier.py).
CHANNEL = "tenbou_live"


def announce(conn: sa.Connection, topic: str) -> None:
    """Tell every server on this database, once the transaction commits, that `topic` (a
    session) changed. PostgreSQL delivers it on commit, in commit order, never for a rollback;
    SQLite has one server process, whose in-process broker the caller tells after the commit."""
    if not is_sqlite(conn):
        conn.execute(sa.select(sa.func.pg_notify(CHANNEL, topic)))


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


# --- migrations ----------------------------------------------------------------------------

def schema_version(conn: sa.Connection) -> int:
    if sa.inspect(conn).has_table("schema_version"):
        return conn.execute(sa.select(sa.func.max(tables.schema_version.c.version))).scalar() or 0
    if is_sqlite(conn):         # a database from before schema_version kept it in the header
        return conn.exec_driver_sql("PRAGMA user_version").scalar() or 0
    return 0


def migrate(engine: sa.Engine) -> int:
    """Apply every migration newer than the database, each in its own transaction; return the
    version reached. Servers starting together on one PostgreSQL take turns."""
    reached = 0
    for version, upgrade in migrations():
        with engine.begin() as conn:
            if not is_sqlite(conn):     # SQLite's BEGIN IMMEDIATE already keeps others out
                conn.execute(sa.select(sa.func.pg_advisory_xact_lock(MIGRATION_LOCK)))
            reached = schema_version(conn)
            if version <= reached:
                continue
            upgrade(conn)
            tables.schema_version.create(conn, checkfirst=True)
            conn.execute(tables.schema_version.delete())
            conn.execute(tables.schema_version.insert().values(version=version))
            reached = version
    return reached


def newest_version() -> int:
    return migrations()[-1][0]


# --- the app -------------------------------------------------------------------------------

def kept_secret(engine: sa.Engine, make: str) -> str:
    """The cookie-signing key kept in the database (`make` stored when there is none yet), so
    every server on one database signs alike."""
    row = tables.setting.c
    with engine.begin() as conn:
        if not is_sqlite(conn):
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(MIGRATION_LOCK)))
        kept = conn.execute(sa.select(row.value).where(row.name == "secret_key")).scalar()
        if kept:
            return kept
        conn.execute(tables.setting.insert().values(name="secret_key", value=make))
    return make


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the database or bring it up to the newest schema."""
    version = migrate(engine())
    click.echo(f"Database at schema version {version}: {shown(current_app.config['DATABASE_URL'])}")


def init_app(app: Flask) -> None:
    """Open the app's database (DATABASE_URL, else the SQLite file DATABASE) and migrate it."""
    url = parse_url(app.config.get("DATABASE_URL") or url_for_path(app.config["DATABASE"]))
    app.config["DATABASE_URL"] = url.render_as_string(hide_password=False)
    if url.get_backend_name() == "sqlite":
        private(url.database)
        app.extensions["tenbou.db.writers"] = threading.Lock()
    found = create_engine(url)
    app.extensions["tenbou.db"] = found
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
    migrate(found)
