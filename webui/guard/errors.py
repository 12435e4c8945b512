"""Every error a request can meet becomes a 4xx page or JSON in the player's language.

Routes raise `PlayerError(status, key, **details)`; the key names a message in `i18n`. Any
exception a route did not expect is logged and answered with a plain 500 page without a
traceback — tests assert no request input reaches that path.
"""
from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from webui.words.i18n import current_language, t
from webui.words.japanese import in_japanese
from webui.words.messages import MESSAGES

log = logging.getLogger("tenbou.web")

_HTTP_KEYS = {400: "bad_request", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
              413: "too_large", 415: "unsupported_media", 429: "too_many"}


class PlayerError(Exception):
    def __init__(self, status: int, key: str, detail: str = "", code: str | None = None,
                 retry_after: int | None = None):
        super().__init__(key)
        self.status = status
        self.key = key
        self.detail = detail          # e.g. the scorer's own message naming the tile
        self.code = code or key       # machine-readable, stable
        self.retry_after = retry_after    # seconds, for a 429: sent as Retry-After


def wants_json() -> bool:
    if request.path.startswith("/api/") or request.path.startswith("/live/"):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def summary(code: str | None, key: str) -> str:
    """The line a player reads first: what the error code means, else what kind of error it is."""
    if code and f"code.{code}" in MESSAGES:
        return t(f"code.{code}")
    return t(f"error.{key}")


def in_page_language(detail: str) -> str:
    """The scorer's, ledger's or a form check's own words in the player's language: on a
    Japanese page their Japanese (`japanese.py`), or nothing where it knows no translation, so
    the page stays Japanese with the error code's line alone."""
    if not detail or current_language() != "ja":
        return detail
    return in_japanese(detail) or ""


def respond(status: int, key: str, detail: str = "", code: str | None = None):
    message = summary(code, key)
    detail = in_page_language(detail)
    if wants_json():
        body = {"ok": False, "error": {"code": code or key, "message": message}}
        if detail:
            body["error"]["detail"] = detail
        return jsonify(body), status
    return render_template("error.html", status=status, message=message, detail=detail), status


def init_app(app: Flask) -> None:
    @app.errorhandler(PlayerError)
    def player_error(err: PlayerError):
        body, status = respond(err.status, err.key, err.detail, err.code)
        headers = {"Retry-After": str(err.retry_after)} if err.retry_after is not None else {}
        return body, status, headers

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException):
        key = _HTTP_KEYS.get(err.code or 500, "bad_request")
        status = err.code if err.code and 400 <= err.code < 500 else 500
        if status == 500:
            key = "internal"
        return respond(status, key)

    @app.errorhandler(Exception)
    def unexpected(err: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        return respond(500, "internal")
