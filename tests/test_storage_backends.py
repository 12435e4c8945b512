"""The same app on SQLite and on PostgreSQL: hands recorded, undone, replayed by a new server,
settled, checked one after another when sent at once, and followed live. Every test here runs
on both databases (PostgreSQL where it is installed: tests/postgres_cluster.py)."""
from __future__ import annotations

import json
import threading
import time

import pytest
import sqlalchemy as sa

from webui import create_app
from webui.storage import db

from tests.test_web_support import WIN_HAKU_TSUMO, new_session, post_event, state


@pytest.fixture
def servers(database_url, tmp_path):
    """Make apps on one database, as `tenbou serve` processes would be; all closed at the end."""
    made = []

    def make():
        app = create_app({"DATA_DIR": str(tmp_path / "data"), "DATABASE_URL": database_url, "TESTING": True,
                          "SSE_HEARTBEAT": 0.2})
        made.append(app)
        return app
    yield make
    for app in made:
        app.extensions["tenbou.broker"].close()
        app.extensions["tenbou.db"].dispose()


def _is_postgres(app) -> bool:
    return not db.is_sqlite(app.extensions["tenbou.db"])


def test_hands_recorded_are_replayed_alike_by_a_new_server(servers):
    first = servers().test_client()
    session_id, _, token = new_session(first)
    assert post_event(first, session_id, token, {"type": "riichi", "seat": 1}).status_code == 201
    assert post_event(first, session_id, token,
                      {"type": "win", "winner": 1, "discarder": 3, "han": 2, "fu": 40}).status_code == 201
    assert post_event(first, session_id, token,
                      {"type": "win", "winner": 2, "tsumo": True, "hand": WIN_HAKU_TSUMO}).status_code == 201
    before, log = state(first, session_id), first.get(f"/api/sessions/{session_id}/events").get_json()
    assert before["events"] == 3 and [e["id"] for e in log] == sorted(e["id"] for e in log)
    again = servers().test_client()
    assert state(again, session_id) == before
    assert again.get(f"/api/sessions/{session_id}/events").get_json() == log
    assert log[0]["at"].endswith("Z") and len(log[0]["at"]) == len("2024-05-01T20:00:00.000Z")


def test_undo_and_a_double_submit_count_once(servers):
    client = servers().test_client()
    session_id, _, token = new_session(client)
    for _ in range(2):
        post_event(client, session_id, token, {"type": "riichi", "seat": 0}, form_token="form-0001")
    assert state(client, session_id)["events"] == 1
    post_event(client, session_id, token, {"type": "riichi", "seat": 2})
    undo = {"form_token": "undo-0001"}
    answers = [client.post(f"/api/sessions/{session_id}/undo", json=undo, headers={"X-CSRF-Token": token})
               .get_json() for _ in range(2)]
    assert answers[0]["undone"] is not None and answers[1]["undone"] is None     # a double tap undoes one
    shown = state(client, session_id)
    assert shown["events"] == 1 and shown["riichi"] == [True, False, False, False]
    listed = client.get(f"/api/sessions/{session_id}/events").get_json()
    assert [e["undone"] for e in listed] == [False, True]          # the undone hand stays on record


def test_the_settlement_reads_the_same_from_either_database(servers):
    client = servers().test_client()
    session_id, _, token = new_session(client)
    post_event(client, session_id, token, {"type": "win", "winner": 1, "discarder": 3, "han": 2, "fu": 40})
    post_event(client, session_id, token, {"type": "end"})
    page = client.get(f"/s/{session_id}/settle").get_data(as_text=True)
    assert "Who pays whom" in page and "Dan pays" in page
    assert client.get(f"/s/{session_id}/settle.pdf").data.startswith(b"%PDF-")


def test_hands_sent_at_once_through_two_servers_are_checked_one_after_another(servers):
    """Two servers, one session: each hand is checked against what is stored, so of eight
    riichi declarations for one seat exactly one is recorded, and twenty draws all are."""
    apps = [servers(), servers()]
    owner = apps[0].test_client()
    session_id, code, _ = new_session(owner)
    url = f"/api/sessions/{session_id}/events"
    answers: list[int] = []

    def send(app, event: dict, count: int) -> None:
        client = app.test_client()
        for _ in range(count):
            answers.append(client.post(url, json={"event": event}, headers={"X-Join-Code": code}).status_code)

    threads = [threading.Thread(target=send, args=(apps[i % 2], {"type": "riichi", "seat": 0}, 1)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers)[0] == 201 and answers.count(201) == 1, answers
    answers.clear()
    threads = [threading.Thread(target=send, args=(app, {"type": "draw", "tenpai": [0]}, 10)) for app in apps]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [201] * 20
    assert state(apps[1].test_client(), session_id)["events"] == 21


def test_join_codes_and_players_joined_hold_across_servers(servers):
    """A player joined through one server is joined through the other (PostgreSQL keeps the
    cookie key in the database; SQLite's servers share the data folder's)."""
    one, two = servers(), servers()
    assert one.config["SECRET_KEY"] == two.config["SECRET_KEY"]
    client = one.test_client()
    session_id, code, token = new_session(client)
    other = two.test_client()
    other.set_cookie("session", client.get_cookie("session").value)
    assert post_event(other, session_id, token, {"type": "riichi", "seat": 3}).status_code == 201
    with two.app_context():
        from webui.storage import store
        assert store.get_session(session_id).join_code == code


def _frames(response, until, seconds: float = 10.0):
    """Server-sent state frames from a streamed response, until `until(state)` or the time is up."""
    ends = time.monotonic() + seconds
    for chunk in response.response:
        for block in chunk.decode().split("\n\n"):
            data = [line[6:] for line in block.splitlines() if line.startswith("data: ")]
            if "event: state" in block and data and until(json.loads(data[0])):
                return json.loads(data[0])
        if time.monotonic() > ends:
            break
    raise AssertionError("the scoreboard was not updated")


def test_a_scoreboard_follows_hands_recorded_through_another_server(servers):
    """SQLite: one server holds the pages and the hands. PostgreSQL: a page on one server
    follows hands recorded (and undone) through another, by LISTEN/NOTIFY."""
    recorder = servers()
    watcher = servers() if _is_postgres(recorder) else recorder
    client = recorder.test_client()
    session_id, _, token = new_session(client)
    response = watcher.test_client().get(f"/live/{session_id}", buffered=False)
    assert response.status_code == 200
    assert _frames(response, lambda s: True)["events"] == 0
    if _is_postgres(recorder):
        assert watcher.extensions["tenbou.broker"].listening.wait(10)
    post_event(client, session_id, token, {"type": "riichi", "seat": 1})
    assert _frames(response, lambda s: s["events"] == 1)["riichi"] == [False, True, False, False]
    client.post(f"/api/sessions/{session_id}/undo", json={}, headers={"X-CSRF-Token": token})
    assert _frames(response, lambda s: s["events"] == 0)["riichi"] == [False] * 4
    response.close()
    assert watcher.extensions["tenbou.broker"].count(session_id) == 0      # the page let go
    assert watcher.extensions["tenbou.streams"].held == 0


def test_the_tables_settled_reading_is_kept_in_either_database(servers):
    from device.frames import Snapshot

    from webui.storage.table_settled import SettledMemory

    reading = Snapshot((25000, 27000, 25000, 23000), "E2", 0, 0, 2, (False,) * 4)
    memory = SettledMemory(servers().extensions["tenbou.db"], "/dev/ttyUSB0")
    assert memory.load() is None
    memory.save(reading)
    memory.save(reading)                   # a second save replaces the first
    assert memory.load() == reading
    assert SettledMemory(memory.engine, "/dev/ttyUSB1").load() is None
    with memory.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM table_settled")).scalar() == 1
    memory.forget()
    assert memory.load() is None


def test_the_automatic_tables_panel_reaches_the_pages_of_every_server(servers):
    """The table is plugged into one server; its view goes to pages on the others too."""
    reader = servers()
    other = servers() if _is_postgres(reader) else reader
    broker = other.extensions["tenbou.broker"]
    with broker.subscribe("session-x", "table") as page:
        if _is_postgres(reader):
            assert broker.listening.wait(10)
        view = json.dumps({"points": [25000, 25000, 25000, 25000], "settled": True})
        reader.extensions["tenbou.broker"].publish("table", "table", view)
        assert page.get(timeout=10) == ("table", view)


def test_notices_for_one_session_during_a_read_cost_one_more_read_and_end_on_the_newest():
    """No database needed: the listening thread's hand-off, with a slow read."""
    from webui.storage.notifier import NotifyBroker

    stored = {"n": 0}
    reads: list[int] = []
    first_read = threading.Event()

    def read(topic: str):
        reads.append(stored["n"])
        first_read.set()
        time.sleep(0.2)
        return "state", str(reads[-1])

    broker = NotifyBroker(None, read)
    with broker.subscribe("s") as page:
        stored["n"] = 1
        broker._changed("s")
        assert first_read.wait(5)
        for n in range(2, 12):            # ten commits while the first read runs
            stored["n"] = n
            broker._changed("s")
        shown = [page.get(timeout=5), page.get(timeout=5)]
        assert page.get(timeout=0.5) is None
    broker.close()
    assert reads == [1, 11] and shown == [("state", "1"), ("state", "11")]
    broker._changed("gone")               # nobody follows it: nothing is read
    assert reads == [1, 11]


def test_a_server_that_loses_its_listening_connection_catches_up(postgres, tmp_path):
    """PostgreSQL restarted or the connection cut: the server listens again and reads afresh
    what its pages follow, so a hand recorded meanwhile still reaches them."""
    url = postgres.new_database()
    apps = [create_app({"DATA_DIR": str(tmp_path / "data"), "DATABASE_URL": url, "TESTING": True})
            for _ in range(2)]
    try:
        client = apps[0].test_client()
        session_id, _, token = new_session(client)
        broker = apps[1].extensions["tenbou.broker"]
        with broker.subscribe(session_id) as page:
            assert broker.listening.wait(10)
            cut = postgres.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'",
                                database=url.split("/")[3].split("?")[0])
            assert cut.split() == ["t"]
            ends = time.monotonic() + 10
            while broker.listening.is_set() and time.monotonic() < ends:
                time.sleep(0.01)
            assert not broker.listening.is_set()
            post_event(client, session_id, token, {"type": "riichi", "seat": 2})     # no notice heard
            ends = time.monotonic() + 20
            while time.monotonic() < ends:
                message = page.get(timeout=1)
                if message is not None and json.loads(message[1])["events"] == 1:
                    break
            else:
                raise AssertionError("the page never had the hand recorded while its server was not listening")
    finally:
        for app in apps:
            app.extensions["tenbou.broker"].close()
            app.extensions["tenbou.db"].dispose()
        postgres.drop(url)
