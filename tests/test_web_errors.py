"""No request input yields a 500 or a traceback: every route, every method, junk input."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webui import create_app

from tests.test_web_support import app, client, new_session  # noqa: F401

JUNK_BODIES = [b"", b"{", b"[]", b"null", b'{"event": null}', b'{"hand": "x", "winner": -1}', b"\xff" * 50,
               json.dumps({"event": {"type": "win", "winner": 0, "hand": {"concealed": 5}}}).encode(),
               json.dumps({"winner": "0", "tsumo": "yes", "discarder": 2.5, "hand": {"melds": "x"}}).encode(),
               json.dumps({"players": [1, 2, 3]}).encode(), b"a" * 5000]
JUNK_FORMS = [{}, {"type": "riichi", "seat": "-1"}, {"winner": "x", "hand": "[]"}, {"hand": '{"melds": [1]}', "winner": "0"},
              {"code": "\x00"}, {"tenpai": ["a", "9"], "type": "draw"}, {"han": "1e9", "fu": "NaN", "winner": "0", "tsumo": "1"},
              {"player0": "x" * 500}, {"lang": "xx", "next": "//evil"}]


def _paths(app, session_id: str) -> list[tuple[str, list[str]]]:
    out = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = rule.rule.replace("<session_id>", session_id)
        out.append((path, sorted(rule.methods - {"HEAD", "OPTIONS"})))
    return out


def _check(response) -> None:
    body = response.get_data()
    assert response.status_code < 500, body[:400]
    assert b"Traceback" not in body


def test_every_route_survives_junk(app, client):
    session_id, _, token = new_session(client)
    headers = {"X-CSRF-Token": token}
    for path, methods in _paths(app, session_id):
        if path.startswith("/live/"):
            continue                                  # a stream: covered in test_web_live
        for method in methods:
            if method == "GET":
                _check(client.get(path + "?code=%00&x=" + "y" * 300))
                continue
            for body in JUNK_BODIES:
                _check(client.open(path, method=method, data=body, content_type="application/json", headers=headers))
            for form in JUNK_FORMS:
                _check(client.open(path, method=method, data={"csrf_token": token, **form}))
                _check(client.open(path, method=method, data=form))            # no CSRF token


json_values = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
                           max_leaves=12)
hand_like = st.fixed_dictionaries({}, optional={
    "concealed": st.text("0123456789mpszf", max_size=20) | json_values, "win_tile": st.text("0123456789mpsz", max_size=3),
    "melds": st.lists(st.fixed_dictionaries({"kind": st.sampled_from(["pon", "chi", "ankan", "x"]),
                                             "tiles": st.text("0123456789mpsz", max_size=8)}), max_size=3) | json_values,
    "dora_indicators": st.text("0123456789mpsz", max_size=6), "riichi": json_values})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(winner=json_values, discarder=json_values, tsumo=json_values, hand=hand_like | json_values)
def test_preview_and_win_never_fail_with_a_500(tmp_path_factory, winner, discarder, tsumo, hand):
    app = _shared_app(tmp_path_factory)
    client, session_id, token = app.config["fuzz"]
    body = {"winner": winner, "discarder": discarder, "tsumo": tsumo, "hand": hand}
    _check(client.post(f"/api/sessions/{session_id}/preview", json=body))
    _check(client.post(f"/api/sessions/{session_id}/events", json={"event": {"type": "win", **body}},
                       headers={"X-CSRF-Token": token}))


_APP = {}


def _shared_app(factory):
    if "app" not in _APP:
        app = create_app({"DATA_DIR": str(factory.mktemp("fuzz")), "SECRET_KEY": "t"})
        client = app.test_client()
        session_id, _, token = new_session(client)
        app.config["fuzz"] = (client, session_id, token)
        _APP["app"] = app
    return _APP["app"]
