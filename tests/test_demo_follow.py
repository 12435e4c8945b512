"""`tenbou demo`'s simulated table follows the demo session: the states it is told reach the
host as settled states, the sticks handed over as payments, and a hand recorded in the app is
confirmed by the table's panel."""
from __future__ import annotations

import random
import threading
import time

import pytest

from device.events import PaymentEvent, RestartEvent, StateEvent
from device.frames import Snapshot
from device.game import follow_hand
from device.settle import POT, net_of, table_points
from device.simulator import SimOptions, SimulatedTable
from device.tracker import TableTracker
from table_panel import wait_table

START = Snapshot((25000,) * 4, "E1", 0, 0, 1, (False,) * 4)
RIICHI = Snapshot((25000, 24000, 25000, 25000), "E1", 0, 1, 1, (False, True, False, False))
# seat 2 wins by ron off seat 4 for 3900 and takes the riichi stick; seat 2 deals next
RON = Snapshot((25000, 28900, 25000, 21100), "E2", 0, 0, 2, (False,) * 4)
TARGETS = (RIICHI, RON)
PAID = ({2: -1000, POT: 1000}, {4: -3900, 2: 4900, POT: -1000})


def test_a_hand_over_is_half_counted_on_the_way_and_ends_at_the_target():
    readings = follow_hand(RON, START, random.Random(3))  # an undo: the sticks go back
    assert readings[-1].snapshot == START
    assert any(table_points(r.snapshot) != 100000 for r in readings[:-1])
    assert all(r.pause >= 0 for r in readings)


def test_a_target_with_other_sticks_in_play_is_refused_in_words():
    with pytest.raises(ValueError, match="same sticks in play"):
        follow_hand(START, Snapshot((30000,) * 4, "E1", 0, 0, 1, (False,) * 4), random.Random(1))
    with pytest.raises(ValueError, match="plays its own game"):
        SimulatedTable(SimOptions(), 0.0).follow(START)


def test_told_states_settle_and_their_payments_are_inferred_on_fake_time():
    table, tracker = SimulatedTable(SimOptions(seed=5, follow=True), 0.0), TableTracker()
    tracker.connected(0.0)
    events, now = [], 0.0
    while now < 3.0:  # switched off until told: nothing on the wire
        assert table.step(now) == b""
        now += 0.05
    table.follow(START)
    for target in TARGETS:
        table.follow(target)
    while now < 20.0:
        events += tracker.feed(table.step(now), now)
        now += 0.05
    settled = [e.snapshot for e in events if isinstance(e, StateEvent) and e.settled]
    assert [s for s in settled if s in (START, *TARGETS)] == [START, *TARGETS]
    assert [net_of(e.payment.transfers) for e in events if isinstance(e, PaymentEvent)] == list(PAID)
    assert not any(isinstance(e, RestartEvent) for e in events)


def test_a_following_table_on_a_pty_reaches_the_reader_as_settled_states_and_payments():
    ports = pytest.importorskip("device.ports")
    from device.reader import TableReader

    table = SimulatedTable(SimOptions(seed=2, follow=True), time.monotonic())
    path, halt = ports.start_simulated_table(table=table)
    events: list = []
    got = threading.Condition()

    def on_event(event) -> None:
        with got:
            events.append(event)
            got.notify_all()

    def wait_for(snapshot: Snapshot) -> None:
        with got:
            assert got.wait_for(lambda: any(isinstance(e, StateEvent) and e.settled and e.snapshot == snapshot
                                            for e in events), timeout=10), events[-5:]

    reader = TableReader(path, on_event).start()
    try:
        table.follow(START)
        wait_for(START)
        for target in TARGETS:
            table.follow(target)
            wait_for(target)
    finally:
        reader.stop()
        halt()
    assert [net_of(e.payment.transfers) for e in events if isinstance(e, PaymentEvent)] == list(PAID)


def test_a_hand_recorded_in_the_demo_app_is_followed_and_confirmed_by_the_table(tmp_path):
    ports = pytest.importorskip("device.ports")
    from webui import create_app
    from webui.commands.demo import follow_session, seed_demo_session

    from tests.test_web_support import csrf_of, post_event, state

    table = SimulatedTable(SimOptions(seed=4, follow=True), time.monotonic())
    path, halt = ports.start_simulated_table(table=table)
    app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t", "TABLE_PORT": path})
    stop_following = lambda: None  # noqa: E731
    try:
        session_id, code = seed_demo_session(app)
        stop_following = follow_session(app, session_id, table)
        client = app.test_client()
        assert client.get(f"/s/{session_id}/join?code={code}").status_code == 302
        seeded = state(client, session_id)["scores"]
        first = wait_table(client, lambda v: v.get("settled") and v["points"] == seeded)
        assert first["payment"] is None  # switched on at the session's scores: nothing was paid

        token = csrf_of(client)
        response = post_event(client, session_id, token, {"type": "win", "winner": 0, "discarder": 2, "han": 2, "fu": 30})
        assert response.status_code in (200, 201), response.get_data(as_text=True)
        scores = state(client, session_id)["scores"]
        assert scores != seeded
        view = wait_table(client, lambda v: v.get("settled") and _paid_to(v, scores))
        assert view["payment"]["match"] == {"session": session_id, "matched": True, "differences": []}

        # Undo: the sticks go back to the seeded scores, a payment no hand asked for, so the
        # panel makes no claim about it rather than calling the hand wrong.
        undone = client.post(f"/api/sessions/{session_id}/undo", json={}, headers={"X-CSRF-Token": token})
        assert undone.status_code == 200 and undone.get_json()["undone"] is not None
        back = wait_table(client, lambda v: v.get("settled") and _paid_to(v, seeded))
        assert back["payment"]["match"] is None
    finally:
        stop_following()
        if "tenbou.table" in app.extensions:
            app.extensions["tenbou.table"].stop()
        halt()


def _paid_to(view: dict, points: list[int]) -> bool:
    """The panel shows the table at `points` and the payment that brought it there: the
    settled points can arrive a moment before their payment, while the last one still shows."""
    payment = view.get("payment") or {}
    return view["points"] == points and payment.get("points_after") == points
