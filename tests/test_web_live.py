"""Live updates: the broker's fan-out and the server-sent event stream."""
from __future__ import annotations

import json
import threading

from webui.storage.broker import CLIENT_QUEUE, Broker

from tests.test_web_support import app, client, new_session, post_event  # noqa: F401


def test_broker_fans_out_to_every_client_of_a_topic():
    broker = Broker()
    subs = [broker.subscribe("s1") for _ in range(50)]
    other = broker.subscribe("s2")
    assert broker.publish("s1", "state", "{}") == 50
    assert all(s.get(timeout=0.1) == ("state", "{}") for s in subs)
    assert other.get(timeout=0.01) is None
    for s in subs:
        s.close()
    assert broker.count("s1") == 0 and broker.count() == 1


def test_a_slow_client_keeps_only_the_newest_states():
    broker = Broker()
    with broker.subscribe("s") as slow:
        for i in range(CLIENT_QUEUE * 3):
            broker.publish("s", "state", str(i))
        got = [slow.get(timeout=0.01)[1] for _ in range(CLIENT_QUEUE)]
        assert got == [str(i) for i in range(CLIENT_QUEUE * 2, CLIENT_QUEUE * 3)]
        assert slow.get(timeout=0.01) is None


def test_one_client_can_follow_two_topics():
    broker = Broker()
    sub = broker.subscribe("s", "table")
    broker.publish("table", "table", "1")
    broker.publish("s", "state", "2")
    assert [sub.get(0.1), sub.get(0.1)] == [("table", "1"), ("state", "2")]
    sub.close()
    assert broker.count() == 0


def test_publish_from_many_threads():
    broker = Broker()
    sub = broker.subscribe("s")
    threads = [threading.Thread(target=broker.publish, args=("s", "state", str(i))) for i in range(CLIENT_QUEUE)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(int(sub.get(0.1)[1]) for _ in range(CLIENT_QUEUE)) == list(range(CLIENT_QUEUE))


def _frames(chunks):
    """Parse server-sent event frames out of the streamed chunks."""
    for chunk in chunks:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        for block in text.split("\n\n"):
            lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
            if "event" in lines:
                yield lines["event"], json.loads(lines["data"])
            elif block.startswith(":"):
                yield "keep-alive", None


def test_stream_sends_state_now_and_after_each_change(app, client):
    session_id, _, token = new_session(client)
    response = client.get(f"/live/{session_id}", buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    frames = _frames(iter(response.response))
    kind, first = next(frames)
    assert kind == "state" and first["events"] == 0
    assert next(frames)[0] == "keep-alive"                 # the heartbeat is 0.2 s in tests
    post_event(client, session_id, token, {"type": "riichi", "seat": 1})
    kind, second = next(frames)
    assert kind == "state" and second["riichi"] == [False, True, False, False] and second["events"] == 1
    client.post(f"/api/sessions/{session_id}/undo", json={}, headers={"X-CSRF-Token": token})
    assert next(f for f in frames if f[0] == "state")[1]["events"] == 0
    response.close()
    assert app.extensions["tenbou.broker"].count(session_id) == 0     # a gone client is unsubscribed


def test_duplicate_submission_is_not_broadcast(app, client):
    session_id, _, token = new_session(client)
    broker = app.extensions["tenbou.broker"]
    with broker.subscribe(session_id) as sub:
        post_event(client, session_id, token, {"type": "riichi", "seat": 0}, form_token="same-token-1")
        post_event(client, session_id, token, {"type": "riichi", "seat": 0}, form_token="same-token-1")
        assert sub.get(0.1) is not None and sub.get(0.05) is None
