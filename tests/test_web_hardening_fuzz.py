"""Fuzzed requests, one test per route family: whatever a client sends, the answer is never a
5xx, and every refusal has the documented error shape (JSON under /api/, the error page
elsewhere). Bounded: a few dozen examples each, no deadline (the machine is shared)."""
from __future__ import annotations

import io
import itertools
import json
import random
import re
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webui import create_app
from webui.guard import limits

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


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def app(request, tmp_path_factory):
    """One app a module on each database (PostgreSQL where installed: tests/postgres_cluster.py)."""
    config = {"DATA_DIR": str(tmp_path_factory.mktemp("fuzz")), "SECRET_KEY": "fuzz", "SSE_HEARTBEAT": 0.2}
    cluster = request.getfixturevalue("postgres") if request.param == "postgresql" else None
    if cluster is not None:
        config["DATABASE_URL"] = cluster.new_database()
    made = create_app(config)
    yield made
    made.extensions["tenbou.broker"].close()
    made.extensions["tenbou.db"].dispose()
    if cluster is not None:
        cluster.drop(config["DATABASE_URL"])


_addresses = itertools.count(1)


def fresh(app):
    """A client joined to a new session: (client, session id, join code, csrf token). Each
    comes from an address of its own, so the throttles (starting sessions, wrong codes) let
    every example reach past them."""
    client = app.test_client()
    n = next(_addresses)
    client.environ_base["REMOTE_ADDR"] = f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"
    token = client.get("/api/csrf").get_json()["csrf_token"]
    created = client.post("/api/sessions", json={"players": PLAYERS, "rate": 1}, headers={"X-CSRF-Token": token})
    assert created.status_code == 201
    body = created.get_json()
    return client, body["id"], body["join_code"], token


def answered(response) -> None:
    """No 5xx; a refusal in the documented shape."""
    binary = response.mimetype in ("application/pdf", "image/png", "image/jpeg")
    text = "" if binary else response.get_data(as_text=True)
    assert response.status_code < 500, text[:500]
    assert "Traceback" not in text
    if response.status_code >= 400:
        if response.mimetype == "application/json":
            error = response.get_json()["error"]
            assert response.get_json()["ok"] is False
            assert isinstance(error["code"], str) and isinstance(error["message"], str) and error["message"]
        else:
            # the error page, a form shown again with the refusal beside its field, or (a page
            # that changes the game, opened by a phone not joined) the join form
            assert any(f'data-test="{mark}"' in text for mark in ("error-message", "form-error", "join-first"))
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


# --- every route, swept -------------------------------------------------------------------------
# A seeded generator, cheaper per request than hypothesis: every rule of the app's URL map (so a
# route added later is swept too) with hostile path segments, query strings, forms, JSON, files
# and credentials, from many addresses (some through a proxy), on each database. With both
# databases a run sends more than 20,000 requests; none may answer a 5xx.

SWEEP_REQUESTS = 10_500
SEGMENTS = ["%00", "abc%00", "%ED%A0%80", "nope", "..%2F..", "%C0%AF", "a" * 300, "%F0%9F%80%84", "1e308", "-1",
            "%0D%0AX-A:%20b", "%25", "%3Cb%3E", "%FF%FE", "0", "club:x", "%20", "p", "season.json"]
TEXTS = ["", "\x00", "a\x00b", "\ud800", "x" * 3000, "ＡＢＣ", "1e308", "-1", "0", "1", "3", "<iframe onload=x>",
         "\r\nX: y", "25000", "ABCDEF", "\x7f", "٣", "true", "null", "[]", "{}", '{"a": [1, 2]}', "riichi", "end",
         "win", "draw", "2026-04-01", "20260401", "9z9z9z", "234m456p678s22z555z", "/\\evil", "//evil.example"]
FIELDS = ["csrf_token", "code", "session", "name", "starts", "title", "log_text", "played_on", "type", "seat",
          "tenpai", "reason", "winner", "discarder", "tsumo", "hand", "han", "fu", "yakuman", "pao", "pao_yakuman",
          "winners", "form_token", "lang", "next", "player0", "player1", "player2", "player3", "rules", "preset",
          "length", "uma", "rate", "chip_value", "starting_points", "return_points", "uses_table", "club", "season",
          "sort", "every", "nagashi_mangan", "scores", "event", "concealed", "win_tile", "melds", "players"]
PHOTOS = [b"", b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n" + b"\x00" * 30, b"RIFF\x00\x00\x00\x00WEBP", b"not a photo"]


def _decode_only(data: bytes, rules: str) -> dict:
    """The photo checks and decode without the tile model: what the sweep can reach cheaply."""
    from vision.image_io import decode_photo
    decode_photo(data)
    return {"tiles": [], "hand": None}


def _json_value(rng, depth: int = 0):
    roll = rng.random()
    if depth < 3 and roll < 0.15:
        return [_json_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    if depth < 3 and roll < 0.3:
        return {rng.choice(FIELDS): _json_value(rng, depth + 1) for _ in range(rng.randrange(5))}
    return rng.choice([None, True, False, 0, -1, 2 ** 63, 10 ** 30, 1e308, 0.5, rng.randrange(-5, 40),
                       rng.choice(TEXTS)])


class _World:
    """The real ids the sweep aims at besides hostile ones: a session and a club this client
    started (so it is joined to both), and a member."""

    def __init__(self, app, rng):
        self.client = app.test_client()
        self.client.environ_base["REMOTE_ADDR"] = "10.200.0.1"
        self.token = self.client.get("/api/csrf").get_json()["csrf_token"]
        made = self.client.post("/api/sessions", json={"players": PLAYERS}, headers={"X-CSRF-Token": self.token})
        self.session_id, self.code = made.get_json()["id"], made.get_json()["join_code"]
        club = self.client.post("/clubs", data={"csrf_token": self.token, "name": f"Club {rng.random()}"})
        self.club_id = club.headers["Location"].rstrip("/").split("/")[-1]
        self.client.post(f"/c/{self.club_id}/members", data={"csrf_token": self.token, "name": "Aki"})
        player = re.search(rf'/c/{self.club_id}/p/([^"?]+)"', self.client.get(f"/c/{self.club_id}").get_data(as_text=True))
        self.member_id = player.group(1) if player else "nobody"

    def argument(self, rng, name: str) -> str:
        real = {"session_id": self.session_id, "club_id": self.club_id, "member_id": self.member_id,
                "filename": "page.js"}.get(name)        # an argument it knows no id for: hostile only
        return real if real is not None and rng.random() < 0.6 else rng.choice(SEGMENTS)


def _sweep_request(rng, world: _World, app, rule):
    path = rule.rule
    for name in rule.arguments:
        path = path.replace(f"<{name}>", world.argument(rng, name)).replace(f"<path:{name}>", world.argument(rng, name))
    methods = sorted(rule.methods - {"HEAD", "OPTIONS"})
    method = rng.choice(methods) if rng.random() < 0.97 else rng.choice(["PUT", "DELETE", "PATCH"])
    # as bytes: a lone surrogate arrives as bytes that are not UTF-8
    query = urlencode({rng.choice(FIELDS): rng.choice(TEXTS).encode("utf-8", "surrogatepass")
                       for _ in range(rng.randrange(3))})
    client = world.client if rng.random() < 0.7 else app.test_client()
    headers = {}
    if rng.random() < 0.3:
        headers["X-Join-Code"] = rng.choice([world.code, "WRONG1", "", "\x7f\x80"])
    if rng.random() < 0.7:
        headers["X-CSRF-Token"] = world.token if rng.random() < 0.8 else rng.choice(["", "x" * 40])
    if rng.random() < 0.3:
        headers["X-Forwarded-For"] = rng.choice(["203.0.113.9", "1.2.3.4, 203.0.113.8", "unknown", "::1", "x" * 80])
    environ = {"REMOTE_ADDR": rng.choice(["127.0.0.1", "10.0.0.1", "::1", "2001:db8::1", f"10.1.0.{rng.randrange(250)}"])}
    kwargs = {"query_string": query, "headers": headers, "environ_base": environ}
    if method == "POST":
        shape = rng.random()
        if shape < 0.45:
            form = {rng.choice(FIELDS): rng.choice(TEXTS) for _ in range(rng.randrange(6))}
            if rng.random() < 0.8:
                form["csrf_token"] = world.token
            kwargs["data"] = {k: v.encode("utf-8", "surrogatepass") for k, v in form.items()}
        elif shape < 0.8:
            kwargs["json"] = {rng.choice(FIELDS): _json_value(rng) for _ in range(rng.randrange(6))}
        elif shape < 0.9:
            field = rng.choice(["photo", "log"])
            kwargs["data"] = {field: (io.BytesIO(rng.choice(PHOTOS) + rng.randbytes(rng.randrange(64))), "f.bin"),
                              "csrf_token": world.token}
            kwargs["content_type"] = "multipart/form-data"
        else:
            kwargs["data"] = rng.randbytes(rng.randrange(200))
            kwargs["content_type"] = rng.choice(["application/json", "text/plain", "application/x-www-form-urlencoded"])
    return client.open(path, method=method, **kwargs)


def test_every_route_answers_hostile_requests_without_a_5xx(app):
    rng = random.Random(f"sweep-{app.config['DATABASE_URL'].split(':')[0]}")
    app.config["SCAN"] = _decode_only
    world = _World(app, rng)
    rules = list(app.url_map.iter_rules())
    sent = rounds = 0
    while sent < SWEEP_REQUESTS:
        rounds += 1
        for rule in rules:
            if rule.rule.endswith(".pdf") and rounds % 20:     # a PDF costs forty pages: one round in 20
                continue
            response = _sweep_request(rng, world, app, rule)
            sent += 1
            if response.mimetype == "text/event-stream":      # a live stream: it answered, let it go
                assert response.status_code == 200
                response.close()
                continue
            try:
                answered(response)
            except AssertionError as failure:
                raise AssertionError(f"{response.request.method} {response.request.url}: {failure}") from None
    assert sent >= SWEEP_REQUESTS
