"""Server-sent events: `/live/<session>` streams the session's state whenever it changes.

Under waitress every open stream holds one worker thread, so streams are capped below the
thread count (`SSE_STREAMS`, sized by `tenbou serve --clients`): a stream over the cap is
refused at once with 503 and `Retry-After`, and the page polls `GET /api/sessions/<id>` until a
stream is free again, so pages and hand posts always find a thread. A stream lets its thread go
by itself:
- a page that closes is seen within half a second where the server says so (waitress, with
  `channel_request_lookahead`, as `tenbou serve` runs it), else when a keep-alive comment,
  sent every `SSE_HEARTBEAT` seconds (2.5), fails to be written;
- after `SSE_LIFETIME` seconds (about a minute, spread so streams opened together do not all
  end together) the stream ends and the browser reconnects after its `retry:` delay, so a page
  that vanished without closing (a phone off the Wi-Fi) holds its thread no longer than that.
The first frame of every stream is the state now, and where this server follows an automatic
table the next is the table's view now, so a page that connects (or reconnects) while either
changes misses nothing.

With SQLite one server process holds every page, and its in-process `Broker` carries each
change; with PostgreSQL every server's `NotifyBroker` hears each change through the database
(webui/storage/notifier.py), whichever server recorded it.
"""
from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Iterator

from flask import Blueprint, Response, abort, current_app, request

from webui.storage import store
from webui.play.automatic_table import view as table_view
from webui.play.live_updates import broker, stream_slots
from webui.guard.overload import busy

bp = Blueprint("live", __name__, url_prefix="/live")

# Seconds a refused page waits (polling meanwhile) before it asks for a stream again.
STREAM_RETRY_AFTER = 15
# Seconds between looks at whether the page has gone, where the server can tell.
GONE_CHECK = 0.5
# Milliseconds a browser waits before reconnecting a stream that ended, drawn per stream, so
# the pages of a stream that ended for everyone (a restart, a Wi-Fi blip) come back spread out.
RECONNECT_MS = (1000, 4000)


def _frame(event: str, data: str) -> str:
    return f"event: {event}\ndata: {data}\n\n"


def _once(*actions: Callable[[], None]) -> Callable[[], None]:
    """Run `actions` the first time the result is called, never again (a stream may be closed
    both by its generator ending and by the server closing the response)."""
    done = threading.Lock()

    def run() -> None:
        if done.acquire(blocking=False):
            for action in actions:
                action()
    return run


@bp.get("/<session_id>")
def stream(session_id: str):
    from webui.play.ledger import snapshot

    slots = stream_slots()
    if not slots.take():
        raise busy(STREAM_RETRY_AFTER, "streams_full")
    sub = None
    try:
        game_session = store.get_session(session_id)
        if game_session is None:
            abort(404)
        # following before reading: a change committed in between comes as a frame too
        sub = broker().subscribe(session_id, "table")
        # the first frames are the state and the table now, so a client never misses a change
        # made before it came (the page's own look at /api/table may have come before it)
        first = _frame("state", json.dumps(snapshot(game_session), separators=(",", ":")))
        table = table_view()
        if table is not None:
            first += _frame("table", json.dumps(table))
    except BaseException:
        if sub is not None:
            sub.close()
        slots.give_back()
        raise
    heartbeat = float(current_app.config["SSE_HEARTBEAT"])
    lifetime = float(current_app.config["SSE_LIFETIME"]) * random.uniform(0.8, 1.0)
    gone: Callable[[], bool] = request.environ.get("waitress.client_disconnected") or (lambda: False)
    release = _once(sub.close, slots.give_back)

    def generate() -> Iterator[str]:
        now = time.monotonic()
        ends, beat = now + lifetime, now + heartbeat
        try:
            yield f"retry: {random.randint(*RECONNECT_MS)}\n" + first
            while (now := time.monotonic()) < ends and not gone():
                message = sub.get(timeout=max(0.0, min(GONE_CHECK, ends - now, beat - now)))
                if message is not None:
                    yield _frame(*message)
                elif time.monotonic() >= beat:
                    yield ": keep-alive\n\n"
                else:
                    continue
                beat = time.monotonic() + heartbeat
        finally:
            release()

    response = Response(generate(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    response.call_on_close(release)      # also when the generator never started
    return response
