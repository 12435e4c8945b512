"""The automatic table panel: the monitor's view, accepting the table's numbers, a real
simulated table over a pseudo-terminal, and matching the sticks' payment to the last hand."""
from __future__ import annotations

import json
import time

import pytest
from device.events import DiagnosticEvent, LinkEvent, PaymentEvent, StateEvent
from device.frames import Diagnostic, Snapshot
from device.settle import Payment, Transfer

from webui import create_app
from webui.play.table_monitor import TableMonitor

from tests.test_web_support import WIN_HAKU_TSUMO, app, client, csrf_of, new_session, post_event, state  # noqa: F401


def _snapshot(points, dealer=1):
    return Snapshot(tuple(points), "E1", 0, 0, dealer, (False,) * len(points))


def test_monitor_folds_events_and_publishes_changes():
    published = []
    monitor = TableMonitor("loop://", published.append)
    monitor.on_event(LinkEvent("live"))
    monitor.on_event(StateEvent(_snapshot([25000] * 4), settled=False))
    monitor.on_event(StateEvent(_snapshot([25000] * 4), settled=False))      # no change: not published
    monitor.on_event(StateEvent(_snapshot([25000] * 4), settled=True))
    monitor.on_event(DiagnosticEvent(Diagnostic(1, 1, "STICK_ERR", {"seat": "2"})))
    monitor.on_event(LinkEvent("disconnected", "the port went away (unplugged?)"))
    assert len(published) == 5
    view = monitor.view()
    assert view["link"] == "disconnected" and view["reason"].startswith("the port")
    assert view["points"] == [25000] * 4 and view["settled"] and view["diagnostic"]["code"] == "STICK_ERR"


@pytest.fixture
def table_app(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t", "TABLE_PORT": "loop://", "TABLE_START": False})
    return app


def test_no_table_configured(client):
    assert client.get("/api/table").get_json() == {"configured": False}
    session_id, _, token = new_session(client)
    response = client.post(f"/s/{session_id}/table/accept", data={"csrf_token": token})
    assert response.status_code == 409


def test_accept_the_tables_numbers_as_a_correction(table_app):
    client = table_app.test_client()
    session_id, _, token = new_session(client, uses_table="on")
    monitor = table_app.extensions["tenbou.table"]
    monitor.on_event(StateEvent(_snapshot([26000, 24000, 25000, 25000]), settled=False))
    assert client.post(f"/s/{session_id}/table/accept", data={"csrf_token": token}).status_code == 409
    monitor.on_event(StateEvent(_snapshot([26000, 24000, 25000, 25000]), settled=True))
    page = client.get(f"/s/{session_id}").get_data(as_text=True)
    assert "data-test=\"table-panel\"" in page and "26000" in page
    assert client.get("/api/table").get_json()["points"] == [26000, 24000, 25000, 25000]
    assert client.post(f"/s/{session_id}/table/accept", data={"form_token": "x" * 10}).status_code == 403   # no CSRF
    accepted = client.post(f"/s/{session_id}/table/accept", data={"csrf_token": token, "form_token": "accept-1"})
    assert accepted.status_code == 302
    snap = state(client, session_id)
    assert snap["scores"] == [26000, 24000, 25000, 25000] and snap["last"]["kind"] == "correction"


def test_table_changes_reach_the_live_stream(table_app):
    client = table_app.test_client()
    session_id, _, _ = new_session(client)
    broker = table_app.extensions["tenbou.broker"]
    with broker.subscribe(session_id, "table") as sub:
        table_app.extensions["tenbou.table"].on_event(LinkEvent("stale"))
        kind, data = sub.get(0.5)
        assert kind == "table" and json.loads(data)["link"] == "stale"


def test_payment_is_matched_with_the_last_scored_hand(table_app):
    client = table_app.test_client()
    session_id, _, token = new_session(client, uses_table="on")
    post_event(client, session_id, token, {"type": "win", "winner": 0, "tsumo": True, "hand": WIN_HAKU_TSUMO})
    before, after = _snapshot([25000] * 4), _snapshot([28000, 24000, 24000, 24000])
    good = Payment(before, after, (Transfer(2, 1, 1000), Transfer(3, 1, 1000), Transfer(4, 1, 1000)))
    monitor = table_app.extensions["tenbou.table"]
    monitor.on_event(PaymentEvent(good))
    assert monitor.view()["payment"]["match"]["matched"] is True
    bad = Payment(before, after, (Transfer(2, 1, 2000), Transfer(3, 1, 1000)))
    monitor.on_event(PaymentEvent(bad))
    match = monitor.view()["payment"]["match"]
    assert match["matched"] is False and match["session"] == session_id and match["differences"]


def test_a_simulated_table_on_a_pty_goes_live(tmp_path):
    ports = pytest.importorskip("device.ports")
    from device.simulator import SimOptions
    path, halt = ports.start_simulated_table(SimOptions(seed=7, pace=60))
    try:
        app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t", "TABLE_PORT": path})
        client = app.test_client()
        deadline = time.monotonic() + 8
        view = {}
        while time.monotonic() < deadline:
            view = client.get("/api/table").get_json()
            if view.get("settled"):
                break
            time.sleep(0.1)
        assert view["link"] == "live" and view["settled"] and sum(view["points"]) == 100000
        app.extensions["tenbou.table"].stop()
    finally:
        halt()


def test_accept_without_join_is_refused(table_app):
    client = table_app.test_client()
    session_id, _, _ = new_session(client)
    stranger = table_app.test_client()
    assert stranger.post(f"/s/{session_id}/table/accept", data={"csrf_token": csrf_of(stranger)}).status_code == 403


def _pending_stamp(client, session_id: str) -> str:
    """The hand the record page keeps its pending winners for (pending.js drops them on another)."""
    import re

    page = client.get(f"/s/{session_id}/record").get_data(as_text=True)
    data = re.search(r'<script type="application/json" id="tenbou-record">(.*?)</script>', page, re.S).group(1)
    return json.loads(data)["hand"]


def test_taking_the_tables_numbers_keeps_the_winners_being_entered(table_app):
    """A correction deals no hand: a double ron entered winner by winner still applies after it;
    a hand recorded meanwhile (here a draw) moves the table on and drops them."""
    client = table_app.test_client()
    session_id, _, token = new_session(client, uses_table="on")
    before = _pending_stamp(client, session_id)
    monitor = table_app.extensions["tenbou.table"]
    monitor.on_event(StateEvent(_snapshot([26000, 24000, 25000, 25000]), settled=True))
    accepted = client.post(f"/s/{session_id}/table/accept", data={"csrf_token": token, "form_token": "accept-2"})
    assert accepted.status_code == 302 and state(client, session_id)["last"]["kind"] == "correction"
    assert _pending_stamp(client, session_id) == before
    assert post_event(client, session_id, token, {"type": "draw", "tenpai": [0]}).status_code == 201
    assert _pending_stamp(client, session_id) != before
