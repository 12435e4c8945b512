"""Who may change a session, and protection against cross-site requests.

A browser that opened the join link (or typed the join code) holds the session id in its
signed cookie. Forms carry a CSRF token tied to that cookie; JSON calls send it in the
`X-CSRF-Token` header. A program without cookies may instead send `X-Join-Code` to change the
session that code opens: a custom header cannot be set by a cross-site page, so it needs no
CSRF token there. Every other state-changing request (starting a session, joining, the
language) needs the token whatever headers it carries.

A join code is tried through `admit_code` only: wrong codes are throttled per address at each
session or club and per session or club (`throttle`), and a code stops opening its session once
the game has ended. Starting sessions and clubs is throttled per address (`check_creation`).
"""
from __future__ import annotations

import hmac
import secrets

from flask import Flask, abort, current_app, request, session

from webui.play import ledger
from webui.guard.errors import PlayerError
from webui.guard.client_address import client_address
from webui.storage.throttle import CreationThrottle, JoinThrottle


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


# The cookie holds about 4 kB: the newest sessions and clubs joined are kept, the oldest let go
# (a phone starts a session, then shares its code: the one just started must stay).
MOST_SESSIONS, MOST_CLUBS = 50, 20
CLUB_PREFIX = "club:"


def grant(key: str) -> None:
    """Remember on this phone that it joined `key` (a session id, or `club:` and a club's id),
    as the newest it joined."""
    joined = [k for k in session.get("joined", []) if k != key] + [key]
    clubs = [k for k in joined if k.startswith(CLUB_PREFIX)][-MOST_CLUBS:]
    sessions = [k for k in joined if not k.startswith(CLUB_PREFIX)][-MOST_SESSIONS:]
    kept = set(clubs + sessions)
    session["joined"] = [k for k in joined if k in kept]        # oldest first
    session.permanent = True


def club_key(club) -> str:
    """What `grant` remembers for a club (a `webui.play.clubs.Club`): its id after CLUB_PREFIX."""
    return CLUB_PREFIX + club.id


# A phone that gave the club's code once may change the club, as a joined phone may change a session.
def may_manage(club) -> bool:
    return club_key(club) in session.get("joined", [])


def admit_code(game_session, code: str, expires: bool = True) -> None:
    """Let a join code open `game_session` (None: no such session), or refuse it in words.
    A club's code (`expires` false) opens it for good; a session's stops when its game ends.

    The answer to a wrong code is the same 403 whatever else the request holds, and comes
    before anything else of it is read, so a guesser learns one bit per try and no more.
    """
    throttle: JoinThrottle = current_app.extensions["tenbou.join_throttle"]
    client = client_address()
    target = None if game_session is None else game_session.id if expires else club_key(game_session)
    wait = throttle.retry_after(client, target)
    if wait:
        raise PlayerError(429, "too_many", f"wait {wait} s before trying a join code again",
                          code="join_throttled", retry_after=wait)
    if game_session is None or not same_text(code.strip().upper(), game_session.join_code):
        throttle.wrong(client, target)
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


def check_creation(kind: str) -> None:
    """Refuse in words (429) one address starting more `kind` ("sessions", "clubs") than a
    club's evening needs; else count this one."""
    throttle: CreationThrottle = current_app.extensions["tenbou.creation_throttle"]
    client = client_address()
    wait = throttle.retry_after(kind, client)
    if wait:
        what = "session" if kind == "sessions" else "club"
        raise PlayerError(429, "too_many", f"wait {wait} s before starting another {what}",
                          code="creation_throttled", retry_after=wait)
    throttle.made(kind, client)


def init_app(app: Flask) -> None:
    from webui.storage.db import is_sqlite
    engine = app.extensions["tenbou.db"]
    # one SQLite server counts in memory; servers sharing PostgreSQL count together there
    app.extensions["tenbou.join_throttle"] = JoinThrottle() if is_sqlite(engine) else JoinThrottle.shared(engine)
    app.extensions["tenbou.creation_throttle"] = (CreationThrottle() if is_sqlite(engine)
                                                  else CreationThrottle.shared(engine))
    app.jinja_env.globals["csrf_token"] = csrf_token
