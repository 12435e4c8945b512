"""Fuzzed requests, one test per route family: whatever a client sends, the answer is never a
5xx, and every refusal has the documented error shape (JSON under /api/, the error page
elsewhere). Bounded: a few dozen examples each, no deadline (the machine is shared)."""
from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webui import create_app
from webui.guard import limits
from webui.storage.throttle import JoinThrottle

PLAYERS = ["Aki", "Ben", "Chiyo", "Dan"]
FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Numbers at and past every edge a field has, beside the usual JSON junk.
edges = st.sampled_from([0, 1, -1, 99, 100, 25000, limits.MOST_SCORE, limits.MOST_SCORE + 1, -limits.MOST_SCORE - 1,
                         limits.MOST_START + 1, 2 ** 63, -2 ** 63, 10 ** 30, 1e308, -1e308, 0.5, 1e-9])
scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | edges
           | st.text(max_size=30) | st.sampled_from(["", "1e308", "NaN", "-0", "25000", " 3 ", "\ud800", "\x00"]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=15)
texts = st.text(max_size=40) | st.sampled_from(["<iframe onload=alert(1)>", "\r\nX: y", "/\t/evil.example",
                                                "//evil.example", "/\\evil", "ABCDEF", "ＡＢＣ", "\x7f"])
addresses = st.ip_addresses().map(str)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return create_app({"DATA_DIR": str(tmp_path_factory.mktemp("fuzz")), "SECRET_KEY": "fuzz", "SSE_HEARTBEAT": 0.2})


def fresh(app):
    """A client joined to a new session: (client, session id, join code, csrf token). The join
    throttle starts afresh too, so each example reaches past it."""
    app.extensions["tenbou.join_throttle"] = JoinThrottle()
    client = app.test_client()
    token = client.get("/api/csrf").get_json()["csrf_token"]
    created = client.post("/api/sessions", json={"players": PLAYERS, "rate": 1}, headers={"X-CSRF-Token": token})
    assert created.status_code == 201
    body = created.get_json()
    return client, body["id"], body["join_code"], token


def answered(response) -> None:
    """No 5xx; a refusal in the documented shape."""
    text = response.get_data(as_text=True)
    assert response.status_code < 500, text[:500]
    assert "Traceback" not in text
    if response.status_code >= 400:
        if response.mimetype == "application/json":
            error = response.get_json()["error"]
            assert response.get_json()["ok"] is False
            assert isinstance(error["code"], str) and isinstance(error["message"], str) and error["message"]
        else:
            assert 'data-test="error-message"' in text
        if response.status_code == 429:
            assert int(response.headers["Retry-After"]) >= 1


@FUZZ
@given(body=st.dictionaries(st.sampled_from(["players", "rules", "preset", "length", "starting_points",
                                             "return_points", "uma", "rate", "chip_value", "title", "uses_table"]),
                            json_values, max_size=8))
def test_starting_a_session(app, body):
    client, _, _, token = fresh(app)
    for response in (client.post("/api/sessions", json=body, headers={"X-CSRF-Token": token}),
                     # a form is bytes: a lone surrogate arrives as bytes that are not UTF-8
                     client.post("/new", data={"csrf_token": token, **{k: str(v).encode("utf-8", "surrogatepass")
                                                                       for k, v in body.items()}})):
        answered(response)
    made = client.post("/api/sessions", json={"players": PLAYERS, **body}, headers={"X-CSRF-Token": token})
    answered(made)
    if made.status_code == 201:
        snap = client.get(f"/api/sessions/{made.get_json()['id']}").get_json()
        assert len(snap["players"]) in limits.PLAYERS
        assert all(abs(s) <= limits.MOST_START for s in snap["scores"])


event_kinds = st.sampled_from(["riichi", "chombo", "draw", "abortive_draw", "correction", "win", "end", "nap", None])
events = st.builds(lambda kind, extra: {"type": kind, **extra}, event_kinds,
                   st.dictionaries(st.sampled_from(["seat", "tenpai", "nagashi_mangan", "reason", "scores", "winner",
                                                    "discarder", "tsumo", "hand", "han", "fu", "yakuman", "pao",
                                                    "pao_yakuman", "winners", "points"]), json_values, max_size=5))


@FUZZ
@given(event=events | json_values, form_token=json_values)
def test_recording_events(app, event, form_token):
    client, session_id, code, token = fresh(app)
    program = app.test_client()
    for response in (client.post(f"/api/sessions/{session_id}/events", json={"event": event, "form_token": form_token},
                                 headers={"X-CSRF-Token": token}),
                     program.post(f"/api/sessions/{session_id}/events", json={"event": event},
                                  headers={"X-Join-Code": code}),
                     client.post(f"/api/sessions/{session_id}/undo", json={"form_token": form_token},
                                 headers={"X-CSRF-Token": token})):
        answered(response)
    snap = client.get(f"/api/sessions/{session_id}").get_json()
    assert all(abs(s) <= limits.MOST_SCORE for s in snap["scores"])
    answered(client.get(f"/s/{session_id}/settle"))


@FUZZ
@given(form=st.dictionaries(st.sampled_from(["type", "seat", "tenpai", "reason", "winner", "discarder", "tsumo", "hand",
                                             "han", "fu", "yakuman", "points", "pao", "pao_yakuman", "winners",
                                             "form_token"]),
                            texts | json_values.map(json.dumps), max_size=6))
def test_recording_by_the_pages_forms(app, form):
    client, session_id, _, token = fresh(app)
    for path in (f"/s/{session_id}/event", f"/s/{session_id}/hand", f"/s/{session_id}/undo"):
        answered(client.post(path, data={"csrf_token": token, **form}))


@FUZZ
@given(body=st.fixed_dictionaries({}, optional={k: json_values for k in (
    "winner", "discarder", "tsumo", "han", "fu", "yakuman", "pao", "pao_yakuman", "takes_pot", "points", "hand")}))
def test_previewing_a_win(app, body):
    client, session_id, _, _ = fresh(app)
    answered(client.post(f"/api/sessions/{session_id}/preview", json=body))


@FUZZ
@given(body=st.dictionaries(st.sampled_from(["concealed", "win_tile", "melds", "honba", "riichi_sticks", "nukidora",
                                             "tsumo", "discarder", "seat_wind", "round_wind", "players", "rules",
                                             "preset", "options", "dora_indicators", "riichi"]), json_values, max_size=8))
def test_scoring_a_hand(app, body):
    client = app.test_client()
    answered(client.post("/api/score", json={"concealed": "234m456p678s22z555z", "win_tile": "5z", **body}))


@FUZZ
@given(code=texts, session_field=texts, next_path=texts, lang=texts, address=addresses)
def test_joining_and_the_language(app, code, session_field, next_path, lang, address):
    client, session_id, _, token = fresh(app)
    phone = app.test_client()
    phone_token = phone.get("/api/csrf").get_json()["csrf_token"]
    env = {"REMOTE_ADDR": address}
    for response in (phone.post("/join", data={"csrf_token": phone_token, "session": session_field, "code": code},
                                environ_base=env),
                     phone.post("/join", data={"csrf_token": phone_token, "session": session_id, "code": code},
                                environ_base=env),
                     phone.get(f"/s/{session_id}/join", query_string={"code": code}, environ_base=env)):
        answered(response)
    moved = client.post("/lang", data={"csrf_token": token, "lang": lang, "next": next_path})
    answered(moved)
    if moved.status_code == 302:
        target = moved.headers["Location"]
        assert target.startswith("/") and not target.startswith("//") and "\\" not in target
        assert all("\x21" <= c <= "\x7e" for c in target)


latin1 = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xff), max_size=40)


@FUZZ
@given(join_code=st.none() | latin1, csrf=st.none() | latin1, address=addresses)
def test_credentials_in_headers(app, join_code, csrf, address):
    client, session_id, _, _ = fresh(app)
    headers = {k: v for k, v in (("X-Join-Code", join_code), ("X-CSRF-Token", csrf)) if v is not None}
    env = {"REMOTE_ADDR": address}
    for response in (client.post(f"/api/sessions/{session_id}/events", json={"event": {"type": "riichi", "seat": 0}},
                                 headers=headers, environ_base=env),
                     client.post(f"/api/sessions/{session_id}/undo", headers=headers, environ_base=env),
                     client.post("/api/sessions", json={"players": PLAYERS}, headers=headers, environ_base=env),
                     client.get(f"/s/{session_id}/record", headers=headers, environ_base=env),
                     client.post(f"/s/{session_id}/event", data={"type": "end"}, headers=headers, environ_base=env)):
        answered(response)


@FUZZ
@given(segment=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30).filter(
    lambda s: s not in (".", "..")).map(lambda s: quote(s, safe="")), query=st.dictionaries(texts, texts, max_size=3))
def test_reading_pages_and_state(app, segment, query):
    client, session_id, _, _ = fresh(app)
    for path in (f"/s/{segment}", f"/s/{segment}/settle", f"/s/{segment}/tv", f"/api/sessions/{segment}",
                 f"/s/{session_id}", f"/s/{session_id}/settle", f"/s/{session_id}/record", "/"):
        answered(client.get(path, query_string=query, headers={"Accept": "text/html"}))
