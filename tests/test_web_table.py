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


def _confirm(client, session_id: str, token: str, form_token: str, points=None):
    """Take the table's numbers as a player does: the confirmation page first, then its form
    with the numbers it showed (or `points`, to send others)."""
    import re

    page = client.get(f"/s/{session_id}/table/accept")
    assert page.status_code == 200, page.get_data(as_text=True)
    shown = re.search(r'name="points" value="([-0-9,]+)"', page.get_data(as_text=True)).group(1)
    return client.post(f"/s/{session_id}/table/accept", data={
        "csrf_token": token, "form_token": form_token, "points": shown if points is None else points})


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
    # a tap without the confirmation records nothing: it is sent to the confirmation
    asked = client.post(f"/s/{session_id}/table/accept", data={"csrf_token": token, "form_token": "accept-0"})
    assert asked.status_code == 303 and asked.headers["Location"].endswith(f"/s/{session_id}/table/accept")
    assert state(client, session_id)["events"] == 0
    accepted = _confirm(client, session_id, token, "accept-1")
    assert accepted.status_code == 302
    snap = state(client, session_id)
    assert snap["scores"] == [26000, 24000, 25000, 25000] and snap["last"]["kind"] == "correction"


def test_the_confirmation_says_what_changes_seat_by_seat(table_app):
    import re

    client = table_app.test_client()
    session_id, _, token = new_session(client, uses_table="on")
    table_app.extensions["tenbou.table"].on_event(StateEvent(_snapshot([24000, 25600, 29000, 21400]), settled=True))
    page = client.get(f"/s/{session_id}/table/accept").get_data(as_text=True)
    rows = re.findall(r'data-test="table-change\d"><td>(\w+)</td><td class="num">(-?\d+)</td>\s*'
                      r'<td class="num"><b>(-?\d+)</b></td>\s*<td class="num[^"]*">([^<]+)</td>', page)
    assert rows == [("Aki", "25000", "24000", "-1000"), ("Ben", "25000", "25600", "+600"),
                    ("Chiyo", "25000", "29000", "+4000"), ("Dan", "25000", "21400", "-3600")]
    assert "Use the table&#39;s numbers?" in page and "Keep the recorded scores" in page
    assert state(client, session_id)["events"] == 0                     # asking records nothing
    japanese = client.get(f"/s/{session_id}/table/accept", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert "自動卓の点数を採用しますか" in japanese


def test_numbers_that_moved_since_the_confirmation_are_asked_again(table_app):
    client = table_app.test_client()
    session_id, _, token = new_session(client, uses_table="on")
    monitor = table_app.extensions["tenbou.table"]
    monitor.on_event(StateEvent(_snapshot([26000, 24000, 25000, 25000]), settled=True))
    stale = _confirm(client, session_id, token, "accept-stale", points="25000,25000,26000,24000")
    assert stale.status_code == 409 and "moved while you looked" in stale.get_data(as_text=True)
    assert "26000" in stale.get_data(as_text=True) and state(client, session_id)["events"] == 0


def test_the_panel_belongs_to_the_session_that_follows_the_table(table_app):
    """Not on a session started without following the table, nor on an older one once a newer
    session follows it; its numbers are refused to both."""
    client = table_app.test_client()
    table_app.extensions["tenbou.table"].on_event(StateEvent(_snapshot([24000, 25600, 29000, 21400]), settled=True))
    older, _, token = new_session(client, uses_table="on")
    assert 'data-test="table-panel"' in client.get(f"/s/{older}").get_data(as_text=True)
    plain, _, _ = new_session(client)
    assert 'data-test="table-panel"' not in client.get(f"/s/{plain}").get_data(as_text=True)
    newer, _, _ = new_session(client, uses_table="on")
    assert 'data-test="table-panel"' in client.get(f"/s/{newer}").get_data(as_text=True)
    assert 'data-test="table-panel"' not in client.get(f"/s/{older}").get_data(as_text=True)
    for session_id in (plain, older):
        assert client.get(f"/s/{session_id}/table/accept").status_code == 409
        refused = client.post(f"/s/{session_id}/table/accept",
                              data={"csrf_token": token, "form_token": f"x-{session_id}", "points": "24000,25600,29000,21400"})
        assert refused.status_code == 409 and "does not follow the automatic table" in refused.get_data(as_text=True)
        assert state(client, session_id)["events"] == 0


@pytest.mark.parametrize("rules", ["chinese-classical", "fundamentals"])
def test_rules_a_point_display_cannot_show_never_follow_the_table(table_app, rules):
    client = table_app.test_client()
    token = csrf_of(client)
    from tests.test_web_support import session_form

    refused = client.post("/new", data={"csrf_token": token, **session_form(rules=rules, uses_table="on")})
    assert refused.status_code == 400 and "point display holds riichi points" in refused.get_data(as_text=True)
    api = client.post("/api/sessions", json={"players": ["Aki", "Ben", "Chiyo", "Dan"], "rules": rules,
                                             "uses_table": True}, headers={"X-CSRF-Token": token})
    assert api.status_code == 400 and "point display holds riichi points" in api.get_json()["error"]["detail"]
    # the form offers it with the riichi fields alone (new.js hides and disables the others)
    assert 'data-rules="riichi"><input type="checkbox" name="uses_table"' in client.get("/new").get_data(as_text=True)
    session_id, _, _ = new_session(client, rules=rules)
    table_app.extensions["tenbou.table"].on_event(StateEvent(_snapshot([24000, 25600, 29000, 21400]), settled=True))
    assert 'data-test="table-panel"' not in client.get(f"/s/{session_id}").get_data(as_text=True)


def test_table_changes_reach_the_live_stream(table_app):
    client = table_app.test_client()
    session_id, _, _ = new_session(client)
    broker = table_app.extensions["tenbou.broker"]
    with broker.subscribe(session_id, "table") as sub:
        table_app.extensions["tenbou.table"].on_event(LinkEvent("stale"))
        kind, data = sub.get(0.5)
        assert kind == "table" and json.loads(data)["link"] == "stale"


def test_a_table_change_before_the_page_follows_comes_in_its_first_frames(table_app):
    """The page looks at /api/table and opens its stream side by side: a change the table made
    between the two reaches no subscriber, so the stream opens with the table as it is now."""
    from tests.test_web_live import _frames

    client = table_app.test_client()
    session_id, _, _ = new_session(client, uses_table="on")
    table_app.extensions["tenbou.table"].on_event(StateEvent(_snapshot([30000] * 4), settled=True))
    response = client.get(f"/live/{session_id}", buffered=False)
    frames = _frames(iter(response.response))
    assert next(frames)[0] == "state"
    kind, table = next(frames)
    assert kind == "table" and table["points"] == [30000] * 4 and table["settled"]
    response.close()


def test_a_stream_without_a_table_sends_the_state_alone(client):
    from tests.test_web_live import _frames

    session_id, _, _ = new_session(client)
    response = client.get(f"/live/{session_id}", buffered=False)
    frames = _frames(iter(response.response))
    assert next(frames)[0] == "state" and next(frames)[0] == "keep-alive"
    response.close()


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
    accepted = _confirm(client, session_id, token, "accept-2")
    assert accepted.status_code == 302 and state(client, session_id)["last"]["kind"] == "correction"
    assert _pending_stamp(client, session_id) == before
    assert post_event(client, session_id, token, {"type": "draw", "tenpai": [0]}).status_code == 201
    assert _pending_stamp(client, session_id) != before
