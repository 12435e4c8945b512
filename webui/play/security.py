"""Who may change a session, and protection against cross-site requests.

A browser that opened the join link (or typed the join code) holds the session id in its
signed cookie. Forms carry a CSRF token tied to that cookie; JSON calls send it in the
`X-CSRF-Token` header. A program without cookies may instead send `X-Join-Code` to change the
session that code opens: a custom header cannot be set by a cross-site page, so it needs no
CSRF token there. Every other state-changing request (starting a session, joining, the
language) needs the token whatever headers it carries.

A join code is tried through `admit_code` only: wrong codes are throttled per client address
and per session (`throttle`), and a code stops opening its session once the game has ended.
"""
from __future__ import annotations

import hmac
import secrets

from flask import Flask, abort, current_app, request, session

from webui.play import ledger
from webui.guard.errors import PlayerError
from webui.storage.throttle import JoinThrottle


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def form_token() -> str:
    """A fresh token for one rendered form: storing it with the event makes resubmits no-ops."""
    return secrets.token_urlsafe(16)


def same_text(sent: str, expected: str) -> bool:
    """Compare in constant time; compare_digest takes non-ASCII text only as bytes."""
    return hmac.compare_digest(sent.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass"))


def check_csrf() -> None:
    """Refuse a state-changing request that does not prove it came from our own page."""
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
    expected = session.get("csrf", "")
    if not expected or not same_text(str(sent), str(expected)):
        raise PlayerError(403, "csrf_failed")


def grant(session_id: str) -> None:
    joined = set(session.get("joined", []))
    joined.add(session_id)
    session["joined"] = sorted(joined)[-50:]
    session.permanent = True


def admit_code(game_session, code: str, expires: bool = True) -> None:
    """Let a join code open `game_session` (None: no such session), or refuse it in words.
    A club's code (`expires` false) opens it for good; a session's stops when its game ends.

    The answer to a wrong code is the same 403 whatever else the request holds, and comes
    before anything else of it is read, so a guesser learns one bit per try and no more.
    """
    throttle: JoinThrottle = current_app.extensions["tenbou.join_throttle"]
    client = request.remote_addr or "?"
    session_id = game_session.id if game_session is not None else None
    wait = throttle.retry_after(client, session_id)
    if wait:
        raise PlayerError(429, "too_many", f"wait {wait} s before trying a join code again",
                          code="join_throttled", retry_after=wait)
    if game_session is None or not same_text(code.strip().upper(), game_session.join_code):
        throttle.wrong(client, session_id)
        raise PlayerError(403, "wrong_code")
    if expires and ledger.has_ended(game_session):
        raise PlayerError(403, "code_expired")


def may_change(game_session) -> bool:
    header = request.headers.get("X-Join-Code")
    if header is not None:
        try:
            admit_code(game_session, header)
        except PlayerError as err:
            if err.status == 429:
                raise
            return False
        return True
    return game_session.id in session.get("joined", [])


def require_change(game_session) -> None:
    """Both checks every state-changing route makes, in the order a player would fix them."""
    if game_session is None:
        abort(404)
    header = request.headers.get("X-Join-Code")
    if header is not None:
        admit_code(game_session, header)
        return
    check_csrf()
    if game_session.id not in session.get("joined", []):
        raise PlayerError(403, "join_required")


def same_site_path(target: str | None) -> str | None:
    r"""`target` when it is a path on this site, else None. Browsers read a backslash as a slash
    and drop tabs and newlines inside a URL, so `/\evil.example` or `/<tab>/evil.example` would
    leave the site: a path here is printable ASCII from one slash, with no backslash."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return None
    if "\\" in target or any(not "\x21" <= c <= "\x7e" for c in target):
        return None
    return target


def init_app(app: Flask) -> None:
    from webui.storage.db import is_sqlite
    engine = app.extensions["tenbou.db"]
    # one SQLite server counts in memory; servers sharing PostgreSQL count together there
    app.extensions["tenbou.join_throttle"] = JoinThrottle() if is_sqlite(engine) else JoinThrottle.shared(engine)
    app.jinja_env.globals["csrf_token"] = csrf_token
