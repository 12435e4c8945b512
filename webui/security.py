"""Who may change a session, and protection against cross-site requests.

A browser that opened the join link (or typed the join code) holds the session id in its
signed cookie. Forms carry a CSRF token tied to that cookie; JSON calls send it in the
`X-CSRF-Token` header. A program without cookies may instead send `X-Join-Code`: a custom
header cannot be set by a cross-site page, so it needs no CSRF token.
"""
from __future__ import annotations

import hmac
import secrets

from flask import abort, request, session

from .errors import PlayerError


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def form_token() -> str:
    """A fresh token for one rendered form: storing it with the event makes resubmits no-ops."""
    return secrets.token_urlsafe(16)


def check_csrf() -> None:
    """Refuse a state-changing request that does not prove it came from our own page."""
    if request.headers.get("X-Join-Code"):
        return
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
    expected = session.get("csrf", "")
    if not expected or not hmac.compare_digest(str(sent), expected):
        raise PlayerError(403, "csrf_failed")


def grant(session_id: str) -> None:
    joined = set(session.get("joined", []))
    joined.add(session_id)
    session["joined"] = sorted(joined)[-50:]
    session.permanent = True


def may_change(game_session) -> bool:
    header = request.headers.get("X-Join-Code")
    if header is not None:
        return hmac.compare_digest(header.strip().upper(), game_session.join_code)
    return game_session.id in session.get("joined", [])


def require_change(game_session) -> None:
    """Both checks every state-changing route makes, in the order a player would fix them."""
    if game_session is None:
        abort(404)
    check_csrf()
    if not may_change(game_session):
        raise PlayerError(403, "join_required")
