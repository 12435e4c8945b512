"""`tenbou db` — the database outside the server: `migrate` brings one up to the newest schema
(as `tenbou serve` does when it starts), `copy` moves a home table's history into another, such
as a club's PostgreSQL server, without losing an event (webui/storage/copy.py)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub) -> None:
    parser = sub.add_parser("db", help="migrate a database, or copy a home table's history to a club server")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    migrate = actions.add_parser("migrate", help="bring a database up to the newest schema")
    migrate.add_argument("--database", default=None, metavar="URL",
                         help="sqlite:///PATH or postgresql://USER@HOST/DB (default: tenbou.sqlite3 in --data)")
    migrate.add_argument("--data", type=Path, default=None, help="the data folder (default: ~/.local/share/tenbou)")
    migrate.set_defaults(run=run_migrate)
    copy = actions.add_parser("copy", help="copy every session and event, and every club, of one database into another")
    copy.add_argument("--from", dest="source", required=True, metavar="URL",
                      help="the database copied, e.g. sqlite:///home/aki/.local/share/tenbou/tenbou.sqlite3")
    copy.add_argument("--to", dest="destination", required=True, metavar="URL",
                      help="the database copied into, e.g. postgresql://tenbou@club.example/tenbou")
    copy.set_defaults(run=run_copy)


def _engine(text: str, command: str):
    """An engine for the URL, or None with the reason said (a URL Tenbou does not read)."""
    from webui.storage import db
    try:
        return db.create_engine(text)
    except db.DatabaseURLError as err:
        print(f"{command}: {err}", file=sys.stderr)
        return None


def _unreachable(err, url: str, command: str) -> int:
    from webui.storage.db import failure_reason, shown
    print(f"{command}: cannot use {shown(url)}: {failure_reason(err)}", file=sys.stderr)
    return 2


def run_migrate(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from webui.storage import db
    from webui import default_data_dir
    if args.database:
        url = args.database
    else:
        folder = args.data or default_data_dir()
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        url = db.url_for_path(folder / "tenbou.sqlite3")
    engine = _engine(url, "tenbou db migrate")
    if engine is None:
        return 2
    try:
        if db.is_sqlite(engine):
            db.private(engine.url.database)
        version = db.migrate(engine)
    except (SQLAlchemyError, OSError) as err:
        return _unreachable(err, url, "tenbou db migrate")
    finally:
        engine.dispose()
    print(f"{db.shown(url)}: schema version {version}")
    return 0


def run_copy(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from webui.storage import db
    from webui.storage.copy import CopyRefused, copy
    source = _engine(args.source, "tenbou db copy")
    destination = _engine(args.destination, "tenbou db copy")
    if source is None or destination is None:
        return 2
    if db.is_sqlite(source) and not Path(source.url.database).is_file():
        print(f"tenbou db copy: no database at {source.url.database}", file=sys.stderr)
        return 2
    try:
        if db.is_sqlite(destination):
            db.private(destination.url.database)
    except OSError as err:          # no SQLite database (NotADatabase), or a folder not there
        print(f"tenbou db copy: {err}", file=sys.stderr)
        return 2
    try:
        done = copy(source, destination)
    except CopyRefused as err:
        print(f"tenbou db copy: {err}", file=sys.stderr)
        return 2
    except SQLAlchemyError as err:
        return _unreachable(err, args.destination, "tenbou db copy")
    finally:
        source.dispose()
        destination.dispose()
    clubs = (f", {done.clubs} clubs, {done.members} members and {done.seasons} seasons"
             if done.clubs or done.members or done.seasons else "")
    clubs += f", {done.nights} club nights" if done.nights else ""
    print(f"Copied {done.sessions} sessions and {done.events} events{clubs} to {db.shown(args.destination)}"
          + (f"; {done.already} sessions were there already" if done.already else ""))
    for club_id, code in done.new_club_codes.items():
        print(f"  club {club_id}: its join code was taken there; it is now {code}")
    for session_id, code in done.new_codes.items():
        print(f"  session {session_id}: its join code was taken there; it is now {code}")
    return 0
