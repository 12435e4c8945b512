"""The Flask application and the command line: the one place that wires the others together.

`create_app()` follows the Flask tutorial: configuration, the database, then one blueprint per
area from `pages/` — sessions, clubs, api (JSON), live (server-sent events), table (the
automatic table's panel), settle (the final reckoning, printable and as PDF) and the lobby.
The wings below the pages (play, storage, printing, words, guard) are laid out in docs/layout.md.
"""
from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:       # Flask is imported when an app is made: `tenbou score` never needs it
    from flask import Flask

MAX_UPLOAD_BYTES = 12 * 1024 * 1024   # a phone photo is 2-6 MB


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "tenbou"


def _secret_key(data_dir: Path) -> str:
    """One key per data folder, kept there, so a restart keeps everyone joined."""
    path = data_dir / "secret_key"
    if path.exists():
        kept = path.read_text().strip()
        if kept:
            return kept
        path.unlink()             # left empty by a crash while it was written
    key = secrets.token_urlsafe(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:       # another process started on the same folder a moment ago
        return path.read_text().strip()
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key


def create_app(test_config: dict | None = None) -> Flask:
    from flask import Flask

    app = Flask(__name__)
    config = dict(test_config or {})
    data_dir = Path(config.pop("DATA_DIR", None) or os.environ.get("TENBOU_DATA") or default_data_dir())
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)     # the join codes and cookie key are in it
    app.config.from_mapping(
        DATA_DIR=str(data_dir),
        DATABASE=str(data_dir / "tenbou.sqlite3"),     # the SQLite file, unless DATABASE_URL names one
        DATABASE_URL=os.environ.get("TENBOU_DATABASE") or None,   # sqlite:///... or postgresql://... (webui/storage/db.py)
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        PERMANENT_SESSION_LIFETIME=timedelta(days=60),
        SESSION_COOKIE_SAMESITE="Lax",
        SSE_HEARTBEAT=2.5,        # seconds between keep-alives; also how fast a closed page is noticed
        SSE_LIFETIME=60.0,        # seconds a live stream lasts before the page reconnects (docs/web.md)
        SSE_STREAMS=50,           # live streams at once; `tenbou serve` sets it below its thread count
        PHOTO_DECODES=2,          # photos read at once (each may hold tens of MB while decoded)
        TABLE_PORT=None,          # a pyserial URL for the automatic table, or None
        TABLE_TOTAL=None,
        TABLE_FRESH=False,        # the table was made for this run (demo): nothing kept from before
        SCAN=None,                # (photo, rules) -> scan dict; default: vision.scan when installed
        WEBCAM=None,              # OpenCV camera index on the host, or None
        TRUSTED_PROXIES=[],       # reverse proxies whose X-Forwarded-For names the client (webui/guard/client_address.py)
    )
    app.config.update(config)

    from webui.guard import errors, headers, overload, request_text
    from webui.play import automatic_table, ledger, live_updates, photos, security
    from webui.printing import tile_art
    from webui.storage import db
    from webui.words import i18n
    db.init_app(app)
    if not app.config.get("SECRET_KEY"):
        engine = app.extensions["tenbou.db"]
        # SQLite: the data folder's key. PostgreSQL: the database's, so that every server on it
        # knows a player joined through any of them.
        app.config["SECRET_KEY"] = (_secret_key(data_dir) if db.is_sqlite(engine)
                                    else db.kept_secret(engine, secrets.token_urlsafe(32)))
    errors.init_app(app)
    request_text.init_app(app)
    overload.init_app(app)
    photos.init_app(app)
    i18n.init_app(app)
    tile_art.init_app(app)
    live_updates.init_app(app, ledger.state_reader(app))
    security.init_app(app)
    headers.init_app(app)

    from webui.pages import api, club_figures, club_nights, clubs, live, lobby, sessions, settle, table
    app.register_blueprint(sessions.bp)
    app.register_blueprint(clubs.bp)
    app.register_blueprint(club_nights.bp)    # club nights: tables per round, standings, the timer
    clubs.init_app(app)
    app.register_blueprint(club_figures.bp)   # a club's ratings and statistics, its rounding
    app.register_blueprint(api.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(settle.bp)
    app.register_blueprint(lobby.bp)      # the live tables, and the TV that cycles through them
    automatic_table.init_app(app)
    return app
