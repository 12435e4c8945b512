"""The automatic table beside the app: its monitor started with the app, the hand a payment
on its point display answers, and its state for the panel (`webui/pages/table.py`)."""
from __future__ import annotations

import atexit
import json

from flask import Flask, current_app

from webui.guard.errors import PlayerError
from webui.storage import store
from webui.storage.table_settled import SettledMemory
from webui.play.table_monitor import TableMonitor


def monitor() -> TableMonitor | None:
    return current_app.extensions.get("tenbou.table")


def view() -> dict | None:
    found = monitor()
    return found.view() if found is not None else None


# A point display shows riichi points in sticks (25000 and the like). Classical Chinese starts at
# 0 and Fundamentals at 20, settled in a few points: no display holds them, so those sessions
# never follow the table, and its numbers are never offered to them.
TABLE_RULES = ("riichi",)


def refuse_table_for(config: dict, uses_table: bool) -> None:
    """A new session may follow the automatic table only under rules whose points it shows."""
    if uses_table and config.get("rules") not in TABLE_RULES:
        raise PlayerError(400, "bad_field", "uses_table: an automatic table's point display holds riichi "
                                            "points, not the scores of classical Chinese or Fundamentals games")


def follows_table(game_session: store.Session) -> bool:
    """Whether this session is the one at the automatic table: started to follow it, the newest
    such session (the one the table's payments are matched with), under rules it can show."""
    if not game_session.uses_table or game_session.config.get("rules") not in TABLE_RULES:
        return False
    at_table = store.table_session()
    return at_table is not None and at_table.id == game_session.id


def panel_view(game_session: store.Session) -> dict | None:
    """The table panel's state for this session's pages; None where it does not belong."""
    return view() if follows_table(game_session) else None


def _matcher(app: Flask):
    """Compare a payment the sticks showed with the last hand of the session at the table."""
    from device.match import match_payment

    def match(payment: dict) -> dict | None:
        with app.app_context():
            game_session = store.table_session()
            if game_session is None:
                return None
            # Newest first among undone events too: sticks handed back after an undo answer no hand.
            events = store.events(game_session.id, include_undone=True)
            if not events or events[-1].undone or events[-1].body.get("type") != "win":
                return None
            dealer = payment.get("dealer")
            if not dealer:
                return None
            seats = len(game_session.config["players"])
            if "result" in events[-1].body:
                scored = events[-1].body["result"].get("transfers", [])
            else:  # a win recorded by han and fu: the ledger's record of the hand says who paid
                scored = _ledger_transfers(game_session, dealer, seats)
            outcome = match_payment(_transfers(payment["transfers"]), scored, dealer, seats)
            return {"session": game_session.id, **outcome.to_json()}
    return match


def _session_start(app: Flask):
    """The starting points of the session at the table, for the panel's word on a new game."""
    def start() -> int | None:
        with app.app_context():
            game_session = store.table_session()
            return None if game_session is None else game_session.config.get("starting_points")
    return start


def _ledger_transfers(game_session: store.Session, dealer: int, seats: int) -> list[dict]:
    """The last hand's transfers from the ledger (seats 0..n-1) named by seat wind, as a scored hand names them."""
    from device.match import seat_winds

    from webui.play.ledger import snapshot

    last = snapshot(game_session).get("last") or {}
    winds = seat_winds(dealer, seats)

    def name(party):
        return party if party == "pot" else winds[int(party) + 1]
    return [{"from": name(t["from"]), "to": name(t["to"]), "points": t["points"]} for t in last.get("transfers", [])]


def _transfers(items: list[dict]):
    from device.settle import Transfer
    return [Transfer(t["from"], t["to"], int(t["points"])) for t in items]


def init_app(app: Flask) -> None:
    url = app.config.get("TABLE_PORT")
    app.jinja_env.globals["table_view"] = view
    if not url:
        return
    hub = app.extensions["tenbou.broker"]
    memory = SettledMemory(app.extensions["tenbou.db"], url)
    if app.config.get("TABLE_FRESH"):
        memory.forget()
    found = TableMonitor(url, lambda v: hub.publish("table", "table", json.dumps(v)), _matcher(app), memory,
                         _session_start(app))
    app.extensions["tenbou.table"] = found
    if app.config.get("TABLE_START", True):
        found.start(app.config.get("TABLE_TOTAL"))
        atexit.register(found.stop)
