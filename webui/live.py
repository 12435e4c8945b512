"""Server-sent events: `/live/<session>` streams the session's state whenever it changes.

Under waitress every open stream holds one worker thread, so `tenbou serve` sizes the pool
for the phones and TVs expected (see docs/web.md). A stream sends a keep-alive comment every
SSE_HEARTBEAT seconds; writing it is how a vanished client is noticed and its thread freed.
"""
from __future__ import annotations

import json

from flask import Blueprint, Flask, Response, abort, current_app

from . import store
from .broker import Broker

bp = Blueprint("live", __name__, url_prefix="/live")


def broker() -> Broker:
    return current_app.extensions["tenbou.broker"]


def init_app(app: Flask) -> None:
    app.extensions["tenbou.broker"] = Broker()


def publish(topic: str, event: str, payload: dict) -> int:
    return broker().publish(topic, event, json.dumps(payload, separators=(",", ":")))


def _frame(event: str, data: str) -> str:
    return f"event: {event}\ndata: {data}\n\n"


@bp.get("/<session_id>")
def stream(session_id: str):
    # the first frame is the state now, so a client never misses a change made before it came
    from .game import snapshot

    game_session = store.get_session(session_id)
    if game_session is None:
        abort(404)
    first = json.dumps(snapshot(game_session), separators=(",", ":"))
    heartbeat = float(current_app.config["SSE_HEARTBEAT"])
    sub = broker().subscribe(session_id, "table")

    def generate():
        try:
            yield "retry: 2000\n" + _frame("state", first)
            while True:
                message = sub.get(timeout=heartbeat)
                yield ": keep-alive\n\n" if message is None else _frame(*message)
        finally:
            sub.close()

    response = Response(generate(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response

