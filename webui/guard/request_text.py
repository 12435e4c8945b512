"""Text no database can keep, refused before any query sees it: a NUL character (PostgreSQL's
text cannot hold one; SQLite's can) or half of a UTF-16 surrogate pair (no UTF-8 can).

An id in a path holding one names nothing on any database: 404, the answer SQLite gave all
along (PostgreSQL raised, a 500 with a traceback in the log). A query or form value holding one
is refused in words, naming the field.
"""
from __future__ import annotations

from flask import Flask, abort, request

from webui.guard.errors import PlayerError


def unkeepable(text: str) -> bool:
    return "\x00" in text or any("\ud800" <= c <= "\udfff" for c in text)


def check_request_text() -> None:
    if any(isinstance(v, str) and unkeepable(v) for v in (request.view_args or {}).values()):
        abort(404)
    for values in (request.args, request.form):
        for name, value in values.items(multi=True):
            if unkeepable(name) or unkeepable(value):
                shown = name if not unkeepable(name) else "a field"
                raise PlayerError(400, "bad_field", f"{shown[:40]}: holds a character no text can (NUL)")


def init_app(app: Flask) -> None:
    app.before_request(check_request_text)
