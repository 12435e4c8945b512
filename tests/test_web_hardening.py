"""Issue 16, input and page safety: bounded numbers and a constant-cost chart, CSRF on starting a
session, the security headers and no inline script, same-site redirects, throttled and scoped
join codes that expire with their game, and a database only its owner can read."""
from __future__ import annotations

import json
import re
import stat
from contextlib import closing
from html.parser import HTMLParser
from pathlib import Path

import pytest

from webui import create_app
from webui.guard import limits
from webui.printing.chart import MOST_Y_GAPS, nice_step, score_chart
from webui.storage.db import connect
from webui.guard.headers import SECURITY_HEADERS
from webui.storage.throttle import JoinThrottle, TokenBuckets

from tests.test_web_support import (WIN_HAKU_TSUMO, app, client, csrf_of,  # noqa: F401
                                    new_session, post_event, state)

STATIC = Path(__file__).resolve().parents[1] / "webui" / "static"
PLAYERS = ["Aki", "Ben", "Chiyo", "Dan"]


def refused(response, status: int = 400) -> dict:
    """The documented error shape under /api/: ok false, a code, a message in words."""
    assert response.status_code == status, response.get_data(as_text=True)[:400]
    body = response.get_json()
    assert body["ok"] is False and isinstance(body["error"]["code"], str)
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]


def _api_session(client, **overrides):
    body = {"players": PLAYERS, "rules": "riichi", "rate": 1, **overrides}
    return client.post("/api/sessions", json=body, headers={"X-CSRF-Token": csrf_of(client)})


# --- numbers a player types --------------------------------------------------------------------

@pytest.mark.parametrize("overrides", [
    {"players": 5}, {"players": True}, {"players": 1.5}, {"players": None}, {"players": "Aki,Ben,Chiyo"},
    {"players": PLAYERS + ["Eri"]}, {"players": PLAYERS[:2]}, {"players": [1, 2, 3]},
    {"players": ["x" * (limits.NAME_LENGTH + 1), "B", "C"]}, {"players": ["A\x00", "B", "C"]},
    {"players": ["\u202eA", "B", "C"]},
    {"rate": 1e308}, {"rate": "1e308"}, {"rate": -1}, {"rate": True}, {"rate": "NaN"},
    {"chip_value": 10 ** 9}, {"starting_points": 10 ** 30}, {"starting_points": 25000.5},
    {"return_points": -1}, {"uma": [10 ** 20, 0, 0, -10 ** 20]}, {"uma": [30, 10, -10]},
    {"rules": {"a": 1}}, {"rules": ["riichi"]}, {"preset": ["x"]}, {"length": {"a": 1}}, {"length": "forever"},
    {"title": "x" * (limits.TITLE_LENGTH + 1)}, {"title": 5}, {"uses_table": "yes"},
])
def test_a_session_a_real_table_cannot_hold_is_refused_in_words(client, overrides):
    error = refused(_api_session(client, **overrides))
    assert error["code"] in ("bad_field", "bad_config") and error.get("detail")


def test_the_largest_real_session_is_taken(client):
    created = _api_session(client, starting_points=limits.MOST_START, return_points=limits.MOST_START,
                           uma=[limits.MOST_UMA, 0, 0, -limits.MOST_UMA], rate=limits.MOST_RATE,
                           chip_value=limits.MOST_CHIP_VALUE, title="t" * limits.TITLE_LENGTH, uses_table=False)
    assert created.status_code == 201, created.get_data(as_text=True)


def test_a_correction_past_any_real_score_is_refused_and_changes_nothing(client):
    session_id, _, token = new_session(client)
    for scores in ([10 ** 10, 0, 0, 0], [10 ** 30, 0, 0, 0], [limits.MOST_SCORE + 1, 0, 0, 0],
                   [0, -limits.MOST_SCORE - 1, 0, 0], [1e30, 0, 0, 0], [25000.5, 25000, 25000, 25000],
                   [True, 0, 0, 0], [25000] * 5, "lots"):
        error = refused(post_event(client, session_id, token, {"type": "correction", "scores": scores}))
        assert "scores" in error["detail"]
    assert state(client, session_id)["scores"] == [25000] * 4


def test_hand_counts_are_bounded_on_the_score_route(client):
    for name, most in (("honba", limits.MOST_HONBA), ("riichi_sticks", limits.MOST_RIICHI_STICKS)):
        assert client.post("/api/score", json={**WIN_HAKU_TSUMO, "tsumo": True, name: most}).status_code == 200
        error = refused(client.post("/api/score", json={**WIN_HAKU_TSUMO, "tsumo": True, name: 10 ** 50}))
        assert name in error["detail"]


def test_json_nested_past_any_hand_is_a_400_on_every_json_route(client):
    session_id, code, token = new_session(client)
    deep = "[" * 5000 + "]" * 5000                  # past Python's recursion limit
    shallow_but_deep = json.dumps({"event": {"type": "win", "hand": json.loads("[" * 40 + "]" * 40)}})
    routes = ["/api/score", "/api/sessions", f"/api/sessions/{session_id}/events", f"/api/sessions/{session_id}/undo",
              f"/api/sessions/{session_id}/preview"]
    for route in routes:
        for body in (deep, '{"a": ' + deep + "}", shallow_but_deep):
            error = refused(client.post(route, data=body, content_type="application/json",
                                        headers={"X-CSRF-Token": token}))
            assert error["code"] == "bad_json"
    nested_hand = {"csrf_token": token, "winner": "0", "tsumo": "1", "hand": deep}
    assert client.post(f"/s/{session_id}/hand", data=nested_hand).status_code == 400
    nested_winners = {"csrf_token": token, "discarder": "0", "winners": deep}
    assert client.post(f"/s/{session_id}/hand", data=nested_winners).status_code == 400


# --- the chart costs the same whatever the scores --------------------------------------------

@pytest.mark.parametrize("span", [1, 999, 6000, 13_000, 60_000, 2 * limits.MOST_SCORE, 10 ** 30, 10 ** 300])
def test_the_y_step_is_a_nice_number_with_a_bounded_count_of_ticks(span):
    step = nice_step(span)
    digits = str(step).rstrip("0")
    assert digits in ("1", "2", "25", "5") and step >= 1000
    assert -(-span // step) <= MOST_Y_GAPS
    chart = score_chart([0] * 4, [{"scores": [span, 0, 0, 0], "label": "East 1"}])
    assert 2 <= len(chart.y_ticks) <= MOST_Y_GAPS + 3


def test_the_settlement_of_extreme_allowed_scores_costs_what_a_normal_one_does(app, client):
    sizes = {}
    for name, scores in (("normal", [30000, 20000, 26000, 24000]),
                         ("extreme", [limits.MOST_SCORE, -limits.MOST_SCORE, 0, 0])):
        session_id, _, token = new_session(client)
        assert post_event(client, session_id, token, {"type": "correction", "scores": scores}).status_code == 201
        page = client.get(f"/s/{session_id}/settle")
        assert page.status_code == 200
        ticks = re.findall(r'class="tick">([-\d,]+)<', page.get_data(as_text=True))
        assert 2 <= len(ticks) <= MOST_Y_GAPS + 3
        pdf = client.get(f"/s/{session_id}/settle.pdf")
        assert pdf.status_code == 200
        sizes[name] = (len(page.get_data()), len(pdf.get_data()))
    # the same few lines and labels, a few more digits in each: not 7 MB of ticks
    assert sizes["extreme"][0] < sizes["normal"][0] * 1.1 and sizes["extreme"][1] < sizes["normal"][1] * 1.5


# --- CSRF and join codes -----------------------------------------------------------------------

def test_a_join_code_header_does_not_skip_the_csrf_check_outside_its_session(app, client):
    session_id, code, token = new_session(client)
    stranger = app.test_client()
    body = {"players": PLAYERS}
    for header in (code, "ANYTHING", ""):
        error = refused(stranger.post("/api/sessions", json=body, headers={"X-Join-Code": header}), 403)
        assert error["code"] == "csrf_failed"
    assert stranger.post("/new", data={"player0": "A", "player1": "B", "player2": "C"},
                         headers={"X-Join-Code": code}).status_code == 403
    assert stranger.post("/join", data={"session": session_id, "code": code},
                         headers={"X-Join-Code": code}).status_code == 403
    assert stranger.post("/lang", data={"lang": "ja"}, headers={"X-Join-Code": code}).status_code == 403
    assert stranger.post("/api/sessions", json=body, headers={"X-CSRF-Token": csrf_of(stranger)}).status_code == 201


@pytest.mark.parametrize("header", ["X-Join-Code", "X-CSRF-Token"])
def test_non_ascii_codes_and_tokens_are_a_403_not_a_500(app, client, header):
    session_id, _, _ = new_session(client)
    stranger = app.test_client()
    csrf_of(stranger)                                   # holds a token, sends another
    for value in ("ÄÖÜ", "コード".encode().decode("latin-1"), "\x7f\x80"):
        response = stranger.post(f"/api/sessions/{session_id}/events", json={"event": {"type": "riichi", "seat": 0}},
                                 headers={header: value})
        refused(response, 403)


def test_a_wrong_code_answers_the_same_whatever_the_request_holds(app, client):
    session_id, _, _ = new_session(client)
    program = app.test_client()
    url = f"/api/sessions/{session_id}/events"
    answers = {(r.status_code, r.get_data()) for r in (
        program.post(url, json={"event": {"type": "riichi", "seat": 0}}, headers={"X-Join-Code": "WRONG2"}),
        program.post(url, json={"event": {"type": "nap"}}, headers={"X-Join-Code": "WRONG3"}),
        program.post(url, data="[" * 5000, content_type="application/json", headers={"X-Join-Code": "WRONG4"}),
        program.post(url, data="x", content_type="text/plain", headers={"X-Join-Code": "WRONG5"}),
        program.post(f"/api/sessions/{session_id}/undo", headers={"X-Join-Code": "WRONG6"}),
    )}
    assert len(answers) == 1 and next(iter(answers))[0] == 403


def test_post_join_opens_only_the_session_its_form_names(app, client):
    first, first_code, _ = new_session(client)
    second, second_code, _ = new_session(client)
    phone = app.test_client()
    token = csrf_of(phone)
    assert phone.post("/join", data={"csrf_token": token, "session": first, "code": second_code}).status_code == 403
    assert phone.post("/join", data={"csrf_token": token, "session": "nope", "code": first_code}).status_code == 403
    assert phone.post("/join", data={"csrf_token": token, "code": first_code}).status_code == 400
    joined = phone.post("/join", data={"csrf_token": token, "session": second, "code": second_code})
    assert joined.status_code == 302 and joined.headers["Location"].endswith(f"/s/{second}")
    assert phone.get(f"/s/{second}/record").status_code == 200 and phone.get(f"/s/{first}/record").status_code == 403
    home = client.get("/").get_data(as_text=True)
    assert f'value="{first}"' in home and f'value="{second}"' in home        # the form names the session


def test_a_code_expires_with_its_game_and_comes_back_with_an_undo(app, client):
    session_id, code, token = new_session(client)
    assert post_event(client, session_id, token, {"type": "end"}).status_code == 201
    latecomer = app.test_client()
    error = refused(latecomer.get(f"/s/{session_id}/join?code={code}", headers={"Accept": "application/json"}), 403)
    assert error["code"] == "code_expired"
    assert refused(latecomer.post(f"/api/sessions/{session_id}/undo", headers={"X-Join-Code": code}), 403)["code"] \
        == "code_expired"
    assert f'value="{session_id}"' not in client.get("/").get_data(as_text=True)   # not offered to join
    # the players already joined can still see, settle and take the end back
    assert client.get(f"/s/{session_id}/settle").status_code == 200
    assert client.post(f"/api/sessions/{session_id}/undo", json={}, headers={"X-CSRF-Token": token}).status_code == 200
    assert latecomer.get(f"/s/{session_id}/join?code={code}").status_code == 302


def test_an_ended_game_stored_before_the_flag_is_found_by_a_replay(app, client):
    session_id, code, token = new_session(client)
    assert post_event(client, session_id, token, {"type": "end"}).status_code == 201
    with app.app_context():
        from webui.storage.db import get_db
        get_db().exec_driver_sql("UPDATE session SET ended = NULL")       # as a database from before the column
    assert app.test_client().get(f"/s/{session_id}/join?code={code}").status_code == 403


def test_wrong_codes_are_throttled_per_guesser_and_target(app, client):
    session_id, code, _ = new_session(client)
    guesser = app.test_client()
    url = f"/api/sessions/{session_id}/events"
    event = {"event": {"type": "riichi", "seat": 0}}
    for _ in range(10):
        refused(guesser.post(url, json=event, headers={"X-Join-Code": "WRONG7"}), 403)
    throttled = guesser.post(url, json=event, headers={"X-Join-Code": code})         # even the right code now
    error = refused(throttled, 429)
    assert error["code"] == "join_throttled" and int(throttled.headers["Retry-After"]) >= 1
    page = guesser.get(f"/s/{session_id}/join?code={code}")
    assert page.status_code == 429 and page.headers["Retry-After"]
    # other addresses may try until the session's own bucket is spent; then only one that has
    # not guessed wrong there is answered: a phone arriving with the right code gets in
    for i in range(20):
        env = {"REMOTE_ADDR": f"10.0.0.{i}"}
        refused(guesser.post(url, json=event, headers={"X-Join-Code": "WRONG8"}, environ_base=env), 403)
    refused(guesser.post(url, json=event, headers={"X-Join-Code": "WRONG9"}, environ_base={"REMOTE_ADDR": "10.0.0.1"}),
            429)
    assert guesser.post(url, json=event, headers={"X-Join-Code": code},
                        environ_base={"REMOTE_ADDR": "10.9.9.9"}).status_code == 201
    # a player who joined by cookie never meets the throttle
    assert client.post(url, json={"event": {"type": "riichi", "seat": 1}},
                       headers={"X-CSRF-Token": csrf_of(client)}).status_code == 201


def test_a_right_code_spends_nothing():
    throttle = JoinThrottle()
    for _ in range(100):
        assert throttle.retry_after("10.0.0.1", "s1") == 0


def test_buckets_refill_with_the_clock_and_forget_the_oldest():
    now = [0.0]
    buckets = TokenBuckets(capacity=2, refill_s=5.0, most_keys=3, clock=lambda: now[0])
    buckets.take("a")
    buckets.take("a")
    assert buckets.wait("a") == pytest.approx(5.0)
    now[0] = 2.5
    assert buckets.wait("a") == pytest.approx(2.5)
    now[0] = 5.0
    assert buckets.wait("a") == 0
    for key in "bcd":
        buckets.take(key)
        buckets.take(key)
    assert "a" not in buckets._tokens and buckets.wait("b") > 0      # memory stays bounded


# --- headers, inline script and redirects -------------------------------------------------------

class _Inline(HTMLParser):
    """Whatever in a page a strict Content-Security-Policy would refuse."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self._script: dict | None = None

    def handle_starttag(self, tag, attrs):
        named = dict(attrs)
        for name, value in attrs:
            if name.startswith("on") or name == "style" or (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={value!r}>")
        if tag == "script":
            self._script = named
            if "src" not in named and named.get("type") != "application/json":
                self.found.append(f"inline <script {named}>")

    def handle_endtag(self, tag):
        self._script = None


def _pages(app, client) -> dict[str, str]:
    session_id, code, token = new_session(client)
    post_event(client, session_id, token, {"type": "riichi", "seat": 1})
    return {"home": "/", "new": "/new", "scoreboard": f"/s/{session_id}", "tv": f"/s/{session_id}/tv",
            "record": f"/s/{session_id}/record", "share": f"/s/{session_id}/share", "settle": f"/s/{session_id}/settle",
            "error": "/s/nope", "api": f"/api/sessions/{session_id}", "api error": "/api/sessions/nope",
            "static": "/static/record.js", "pdf": f"/s/{session_id}/settle.pdf", "qr": f"/s/{session_id}/qr.svg"}


def test_every_response_carries_the_security_headers_and_no_page_runs_inline_script(app, client):
    for name, path in _pages(app, client).items():
        response = client.get(path)
        assert response.status_code < 500, name
        for header, value in SECURITY_HEADERS.items():
            assert response.headers.get(header) == value, (name, header)
        if response.mimetype == "text/html":
            parser = _Inline()
            parser.feed(response.get_data(as_text=True))
            assert parser.found == [], (name, parser.found)
    policy = dict(part.strip().split(" ", 1) for part in SECURITY_HEADERS["Content-Security-Policy"].split(";"))
    assert policy["script-src"] == "'self'" and policy["object-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    assert "unsafe" not in SECURITY_HEADERS["Content-Security-Policy"]


def test_no_script_writes_markup():
    for script in STATIC.glob("*.js"):
        text = script.read_text(encoding="utf-8")
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
            assert sink not in text, (script.name, sink)


@pytest.mark.parametrize("target, expected", [
    ("/s/abc?x=1", "/s/abc?x=1"), ("/", "/"), (None, "/"), ("", "/"),
    ("//evil.example", "/"), ("/\t/evil.example", "/"), ("/\\evil.example", "/"), ("\\\\evil.example", "/"),
    ("https://evil.example/", "/"), ("/\r\nSet-Cookie: x=1", "/"), ("/ok\n", "/"), ("/caf\u00e9", "/"),
    (" /s/abc", "/"), ("/%09/evil.example", "/%09/evil.example"),
])
def test_the_language_toggle_goes_back_only_to_a_path_of_this_site(client, target, expected):
    form = {"csrf_token": csrf_of(client), "lang": "ja"}
    if target is not None:
        form["next"] = target
    response = client.post("/lang", data=form)
    assert response.status_code == 302
    assert response.headers["Location"] == expected


# --- the database file ------------------------------------------------------------------------

def test_the_database_and_its_journal_are_private_to_their_owner(tmp_path):
    data = tmp_path / "fresh"
    app = create_app({"DATA_DIR": str(data), "SECRET_KEY": "t"})
    new_session(app.test_client())
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    # the journal files live while a connection is open (the last one to close removes them)
    with closing(connect(app.config["DATABASE"])) as conn:
        conn.execute("UPDATE session SET title = 'kept open'")
        files = [data / "tenbou.sqlite3", data / "tenbou.sqlite3-wal", data / "tenbou.sqlite3-shm"]
        assert all(f.exists() for f in files)
        for f in files:
            assert stat.S_IMODE(f.stat().st_mode) & 0o077 == 0, f


def test_an_older_world_readable_database_is_made_private_at_start(tmp_path):
    create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t"})
    database = tmp_path / "tenbou.sqlite3"
    database.chmod(0o644)
    create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t"})
    assert stat.S_IMODE(database.stat().st_mode) == 0o600


def test_a_session_holds_a_bounded_number_of_events(client, monkeypatch):
    monkeypatch.setattr(limits, "MOST_EVENTS", 3)
    session_id, _, token = new_session(client)
    for seat in range(3):
        assert post_event(client, session_id, token, {"type": "riichi", "seat": seat}).status_code == 201
    error = refused(post_event(client, session_id, token, {"type": "correction", "scores": [25000] * 4}), 422)
    assert error["code"] == "too_many_events" and "new session" in error["detail"]
    assert state(client, session_id)["events"] == 3
