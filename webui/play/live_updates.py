"""Live updates: the broker that carries each recorded change to every open scoreboard.

With SQLite one server process holds every page, and its in-process `Broker` carries each
change; with PostgreSQL every server's `NotifyBroker` hears each change through the database
(webui/storage/notifier.py), whichever server recorded it. The pages' stream is
`webui/pages/live.py`.
"""
from __future__ import annotations

import json
from collections.abc import Callable

from flask import Flask, current_app

from webui.storage.broker import Broker
from webui.guard.overload import Slots


def broker() -> Broker:
    return current_app.extensions["tenbou.broker"]


def stream_slots() -> Slots:
    return current_app.extensions["tenbou.streams"]


def init_app(app: Flask, read_state: Callable[[str], tuple[str, str] | None]) -> None:
    """`read_state(topic)`: a session's state now, for the pages another server's change reaches here."""
    from webui.storage.db import is_sqlite

    engine = app.extensions["tenbou.db"]
    if is_sqlite(engine):
        app.extensions["tenbou.broker"] = Broker()
    else:
        from webui.storage.notifier import NotifyBroker
        app.extensions["tenbou.broker"] = NotifyBroker(engine, read_state)
    app.extensions["tenbou.streams"] = Slots(int(app.config["SSE_STREAMS"]))


def publish(topic: str, event: str, payload: dict) -> int:
    return broker().publish(topic, event, json.dumps(payload, separators=(",", ":")))
