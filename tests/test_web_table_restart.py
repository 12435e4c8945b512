"""The table monitor keeps the table's last settled reading in the database, so sticks moved
while the app or the table's bridge restarted are still reported and checked against the last
hand; a new game set out, or other sticks put in play, is not a payment."""
from __future__ import annotations

import time
from contextlib import contextmanager

import pytest
from device.events import PaymentEvent, RestartEvent, StateEvent
from device.frames import Snapshot
from device.settle import Payment, Transfer

from webui import create_app
from webui.storage.table_settled import SettledMemory
from webui.play.table_monitor import TableMonitor

from tests.test_web_support import WIN_HAKU_TSUMO, new_session, post_event, state
from table_panel import wait_table

START = Snapshot((25000,) * 4, "E1", 0, 0, 1, (False,) * 4)
# Ben (seat 2) wins a 2000 ron off Dan (seat 4); the deal passes to him
RON = Snapshot((25000, 27000, 25000, 23000), "E2", 0, 0, 2, (False,) * 4)


def _memory(tmp_path) -> SettledMemory:
    app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t"})      # the database, migrated
    return SettledMemory(app.extensions["tenbou.db"], "/dev/ttyUSB0")


def _payments(published: list[dict]) -> list[dict]:
    """Each payment the scoreboards were told of (a view keeps its payment until the next one)."""
    told: list[dict] = []
    for view in published:
        if view["payment"] and (not told or view["payment"] != told[-1]):
            told.append(view["payment"])
    return told


def test_the_settled_reading_is_kept_and_read_back(tmp_path):
    memory = _memory(tmp_path)
    assert memory.load() is None
    memory.save(RON)
    assert memory.load() == RON
    assert SettledMemory(memory.engine, "/dev/ttyUSB1").load() is None      # another table's port
    memory.forget()
    assert memory.load() is None


def test_sticks_moved_while_the_app_was_down_are_reported(tmp_path):
    memory = _memory(tmp_path)
    first = TableMonitor("/dev/ttyUSB0", lambda view: None, memory=memory)
    first.on_event(StateEvent(START, settled=True))

    published: list[dict] = []
    again = TableMonitor("/dev/ttyUSB0", published.append, memory=memory)     # the app started again
    again.on_event(StateEvent(RON, settled=True))
    [payment] = _payments(published)
    assert payment["across_restart"] is True and payment["dealer"] == 1
    assert payment["transfers"] == [{"from": 4, "to": 2, "points": 2000}]
    assert again.view()["payment"] == payment
    assert memory.load() == RON


def test_sticks_moved_while_the_bridge_restarted_are_reported_once(tmp_path):
    memory = _memory(tmp_path)
    published: list[dict] = []
    monitor = TableMonitor("/dev/ttyUSB0", published.append, memory=memory)
    monitor.on_event(StateEvent(START, settled=True))
    assert _payments(published) == []                                       # nothing kept yet: a fresh start
    monitor.on_event(RestartEvent())
    monitor.on_event(StateEvent(RON, settled=True))
    assert [p["transfers"] for p in _payments(published)] == [[{"from": 4, "to": 2, "points": 2000}]]

    # without a restart the reader infers payments itself (an undo here); the monitor adds none
    monitor.on_event(StateEvent(START, settled=True))
    monitor.on_event(PaymentEvent(Payment(RON, START, (Transfer(2, 4, 2000),))))
    told = _payments(published)
    assert [p.get("across_restart", False) for p in told] == [True, False]
    assert told[1]["transfers"] == [{"from": 2, "to": 4, "points": 2000}]
    assert memory.load() == START


def test_a_new_game_set_out_across_a_restart_is_told_as_one(tmp_path):
    """Three players at a four-seat table: the last game's drawers were kept, the table comes
    back set out for the next one; the same sticks are in play, but nobody paid anybody."""
    memory = _memory(tmp_path)
    memory.save(Snapshot((41000, 30000, 34000, 0), "E3", 1, 0, 3, (False,) * 4))
    published: list[dict] = []
    monitor = TableMonitor("/dev/ttyUSB0", published.append, memory=memory, session_start=lambda: 35000)
    monitor.on_event(StateEvent(Snapshot((35000, 35000, 35000, 0), "E1", 0, 0, 1, (False,) * 4), settled=True))
    assert _payments(published) == []
    assert monitor.view()["new_game"] == {"points": [35000, 35000, 35000, 0], "across_restart": True,
                                          "session_start": 35000}
    monitor.on_event(StateEvent(RON, settled=True))                         # a later payment replaces the word
    monitor.on_event(PaymentEvent(Payment(START, RON, (Transfer(4, 2, 2000),))))
    assert monitor.view()["new_game"] is None and monitor.view()["payment"]["transfers"]


def test_the_monitor_counts_what_its_reader_saw(tmp_path):
    monitor = TableMonitor("loop://", lambda view: None)
    assert monitor.stats() == {}                                            # not reading
    monitor.start(total=100000)
    try:
        assert {"frames", "bad_crc", "seq_gaps", "restarts", "reconnects"} <= set(monitor.stats())
    finally:
        monitor.stop()
    assert monitor.stats() == {}


@pytest.mark.parametrize("after", [
    START,                                                                  # a new game set out
    Snapshot((30000,) * 4, "E1", 0, 0, 1, (False,) * 4),                    # ... at other points
    Snapshot((26000, 27000, 25000, 23000), "E2", 0, 0, 2, (False,) * 4),   # other sticks in play
    RON,                                                                    # nothing moved
    Snapshot((25000, 27000, 23000), "E2", 0, 0, 2, (False,) * 3),           # another table
])
def test_what_is_not_a_payment_is_not_reported(tmp_path, after):
    memory = _memory(tmp_path)
    memory.save(RON)
    published: list[dict] = []
    TableMonitor("/dev/ttyUSB0", published.append, memory=memory).on_event(StateEvent(after, settled=True))
    assert _payments(published) == []
    assert memory.load() == after


def _wait_shown(table, target: Snapshot, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while table.shown != target:
        assert time.monotonic() < deadline, table.shown
        time.sleep(0.05)


def test_a_hand_paid_while_the_app_was_down_is_checked_when_it_comes_back(tmp_path):
    """A simulated table on a pty follows the session; the app goes down, a hand is recorded
    and its sticks handed over meanwhile, and the app that comes back confirms them."""
    ports = pytest.importorskip("device.ports")
    from device.simulator import SimOptions, SimulatedTable

    from webui.commands.demo import table_state

    table = SimulatedTable(SimOptions(seed=3, follow=True, pace=1.0), time.monotonic())
    path, halt = ports.start_simulated_table(table=table)
    config = {"DATA_DIR": str(tmp_path), "SECRET_KEY": "t", "TABLE_PORT": path}
    apps = [create_app(config)]
    try:
        client = apps[0].test_client()
        session_id, _, token = new_session(client, uses_table="on")
        table.follow(table_state(state(client, session_id)))
        wait_table(client, lambda v: v.get("settled") and v["points"] == [25000] * 4)
        apps[0].extensions["tenbou.table"].stop()                           # the app goes down

        won = post_event(client, session_id, token, {"type": "win", "winner": 0, "tsumo": True, "hand": WIN_HAKU_TSUMO})
        assert won.status_code == 201
        target = table_state(state(client, session_id))
        table.follow(target)                                                # the sticks move meanwhile
        _wait_shown(table, target)

        apps.append(create_app(config))                                     # ... and comes back
        again = apps[1].test_client()
        view = wait_table(again, lambda v: v.get("settled") and v.get("payment"))
        assert view["points"] == list(target.points)
        assert view["payment"]["across_restart"] is True
        assert view["payment"]["match"] == {"session": session_id, "matched": True, "differences": []}
        assert again.get(f"/s/{session_id}").status_code == 200
    finally:
        for app in apps:
            if "tenbou.table" in app.extensions:
                app.extensions["tenbou.table"].stop()
        halt()


@contextmanager
def session_at_simulated_table(tmp_path, seed: int, starting_points: int):
    """A session at the simulated table on a pty, the table set out as the ledger says and
    settled: (table, app, client, session id, csrf token). Stops the monitor and the table."""
    ports = pytest.importorskip("device.ports")
    from device.simulator import SimOptions, SimulatedTable

    from webui.commands.demo import table_state

    table = SimulatedTable(SimOptions(seed=seed, follow=True, pace=1.0), time.monotonic())
    path, halt = ports.start_simulated_table(table=table)
    app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t", "TABLE_PORT": path})
    try:
        client = app.test_client()
        session_id, _, token = new_session(client, uses_table="on", starting_points=str(starting_points),
                                           return_points=str(max(starting_points, 30000)))
        table.follow(table_state(state(client, session_id)))
        wait_table(client, lambda v: v.get("settled") and v["points"] == [starting_points] * 4)
        yield table, app, client, session_id, token
    finally:
        app.extensions["tenbou.table"].stop()
        halt()


def test_a_bridge_restart_on_the_pty_while_sticks_move_is_reported(tmp_path):
    """The table's bridge reboots (its frame numbers and uptime start again) and comes back
    showing the drawers after a hand: the reader forgets, the monitor remembers."""
    from webui.commands.demo import table_state

    with session_at_simulated_table(tmp_path, 5, 25000) as (table, app, client, session_id, token):
        post_event(client, session_id, token, {"type": "win", "winner": 0, "tsumo": True, "hand": WIN_HAKU_TSUMO})
        target = table_state(state(client, session_id))
        table.power_cycle(target)                                           # counted at power-on of a rebooted bridge
        view = wait_table(client, lambda v: v.get("settled") and v.get("payment"))
        assert view["points"] == list(target.points) and view["payment"]["across_restart"] is True
        assert view["payment"]["match"]["matched"] is True
        assert app.extensions["tenbou.table"].stats()["restarts"] >= 1     # seen as a reboot


@pytest.mark.parametrize("bridge_restarts", [False, True], ids=["bridge-on-usb", "bridge-reboots"])
def test_a_table_reset_to_a_club_game_on_the_pty_is_a_new_game(tmp_path, bridge_restarts):
    """A club starts at 30000. After a hand the table is switched off and on with a new game set
    out: whether its bridge kept counting (powered by the host's USB) or rebooted with it, the
    panel says a new game, not a payment the last hand failed to explain."""
    from webui.commands.demo import table_state

    with session_at_simulated_table(tmp_path, 6, 30000) as (table, app, client, session_id, token):
        post_event(client, session_id, token, {"type": "win", "winner": 0, "tsumo": True, "hand": WIN_HAKU_TSUMO})
        table.follow(table_state(state(client, session_id)))
        paid = wait_table(client, lambda v: v.get("settled") and (v.get("payment") or {}).get("match"))
        assert paid["payment"]["match"]["matched"] is True

        # the next game at the points this club plays (another session) or the same: reset either way
        table.power_cycle(Snapshot((30000,) * 4, "E1", 0, 0, 1, (False,) * 4), bridge_restarts)
        view = wait_table(client, lambda v: v.get("settled") and v["points"] == [30000] * 4)
        view = wait_table(client, lambda v: v.get("new_game"), 3.0)
        assert view["payment"] is None
        assert view["new_game"] == {"points": [30000] * 4, "across_restart": bridge_restarts, "session_start": 30000}
        assert app.extensions["tenbou.table"].stats()["restarts"] == int(bridge_restarts)
        page = client.get(f"/s/{session_id}").get_data(as_text=True)
        assert 'data-test="table-new-game"' in page
