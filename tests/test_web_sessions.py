"""Pages: start, join, scoreboard, record by form, declare, undo — and their error paths."""
from __future__ import annotations

import json

from tests.test_web_support import (NOT_A_WIN, WIN_HAKU_TSUMO, app, client, csrf_of,  # noqa: F401
                                    new_session, session_form, state)


def test_home_and_new_form_render(client):
    assert client.get("/").status_code == 200
    page = client.get("/new")
    assert page.status_code == 200
    assert 'name="csrf_token"' in page.get_data(as_text=True)


def test_start_session_shows_join_code_and_qr(client):
    session_id, code, _ = new_session(client)
    share = client.get(f"/s/{session_id}/share").get_data(as_text=True)
    assert code in share and "<svg" in share and f"/s/{session_id}/join?code={code}" in share
    snap = state(client, session_id)
    assert snap["players"] == ["Aki", "Ben", "Chiyo", "Dan"]
    assert snap["scores"] == [25000] * 4 and snap["round_wind"] == "E" and snap["hand_number"] == 1
    assert client.get(f"/s/{session_id}/qr.svg").headers["Content-Type"] == "image/svg+xml"
    assert session_id in client.get("/").get_data(as_text=True)


def test_three_player_session(client):
    session_id, _, _ = new_session(client, player3="", uma="15,0,-15", starting_points="35000",
                                   return_points="40000")
    assert state(client, session_id)["scores"] == [35000] * 3


def test_new_session_without_csrf_is_refused(client):
    response = client.post("/new", data=session_form())
    assert response.status_code == 403
    assert "expired" in response.get_data(as_text=True)


def test_new_session_bad_values_are_4xx(client):
    token = csrf_of(client)
    cases = [dict(player2="", player3=""), dict(uma="15,5,-5"), dict(uma="10,10,10,10"), dict(rules="poker"),
             dict(starting_points="lots"), dict(rate="nan"), dict(player1="Aki"), dict(preset="nope"),
             dict(length="forever"), dict(title="x" * 200), dict(chip_value="-3")]
    for overrides in cases:
        response = client.post("/new", data={"csrf_token": token, **session_form(**overrides)})
        assert 400 <= response.status_code < 500, overrides
        assert "Traceback" not in response.get_data(as_text=True)


def test_join_by_code_and_link(app, client):
    session_id, code, _ = new_session(client)
    other = app.test_client()
    page = other.get(f"/s/{session_id}").get_data(as_text=True)
    assert "data-test=\"record-hand\"" not in page          # a viewer cannot change anything
    assert other.get(f"/s/{session_id}/record").status_code == 403
    assert other.get(f"/s/{session_id}/share").status_code == 403
    token = csrf_of(other)
    join = {"csrf_token": token, "session": session_id}      # a code opens the session the form names
    assert other.post("/join", data={**join, "code": "WRONG1"}).status_code == 403
    assert other.post("/join", data={**join, "code": code.lower()}).status_code == 302
    assert other.get(f"/s/{session_id}/record").status_code == 200
    third = app.test_client()
    assert third.get(f"/s/{session_id}/join?code=NOPE").status_code == 403
    assert third.get(f"/s/{session_id}/join?code={code}").status_code == 302
    assert "data-test=\"record-hand\"" in third.get(f"/s/{session_id}").get_data(as_text=True)


def test_changes_need_the_join_code(app, client):
    session_id, _, _ = new_session(client)
    stranger = app.test_client()
    token = csrf_of(stranger)
    response = stranger.post(f"/s/{session_id}/event", data={"csrf_token": token, "type": "riichi", "seat": "0"})
    assert response.status_code == 403
    assert stranger.post(f"/s/{session_id}/undo", data={"csrf_token": token}).status_code == 403
    assert state(client, session_id)["events"] == 0


def test_record_hand_by_tiles_is_rescored_and_idempotent(client):
    session_id, _, token = new_session(client)
    form = {"csrf_token": token, "form_token": "form-token-1", "winner": "0", "tsumo": "1",
            "hand": json.dumps(WIN_HAKU_TSUMO)}
    first = client.post(f"/s/{session_id}/hand", data=form)
    second = client.post(f"/s/{session_id}/hand", data=form)      # the double tap
    assert first.status_code == second.status_code == 302
    snap = state(client, session_id)
    assert snap["events"] == 1 and snap["scores"] == [28000, 24000, 24000, 24000]
    assert snap["honba"] == 1                                       # the dealer won: renchan
    page = client.get(f"/s/{session_id}").get_data(as_text=True)
    assert "Already recorded" in page


def test_record_hand_by_han_and_fu(client):
    session_id, _, token = new_session(client)
    form = {"csrf_token": token, "form_token": "hanfu-token", "winner": "2", "tsumo": "", "discarder": "1",
            "hand": "", "han": "3", "fu": "30"}
    assert client.post(f"/s/{session_id}/hand", data=form).status_code == 302
    snap = state(client, session_id)
    assert snap["scores"] == [25000, 21100, 28900, 25000]
    assert snap["dealer"] == 1 and snap["hand_number"] == 2


def test_record_hand_errors_are_4xx_in_words(client):
    session_id, _, token = new_session(client)
    base = {"csrf_token": token, "winner": "0", "tsumo": "1"}
    cases = [
        ({**base, "hand": json.dumps(NOT_A_WIN)}, 422, "four sets"),
        ({**base, "hand": "{not json"}, 400, ""),
        ({**base, "hand": "", "han": "three"}, 400, "han"),
        ({**base, "hand": "", "han": "0"}, 400, ""),
        ({**base, "tsumo": "", "hand": json.dumps(WIN_HAKU_TSUMO)}, 400, "discarder"),
        ({**base, "tsumo": "", "discarder": "0", "han": "1", "fu": "30"}, 400, "discarder"),
        ({**base, "winner": "7", "han": "1", "fu": "30"}, 400, "winner"),
        ({**base, "hand": "", "han": "2", "fu": "33"}, 400, "fu are rounded up to 10"),      # no hand is 33 fu
        ({**base, "hand": json.dumps({"concealed": "99x"})}, 422, ""),
    ]
    for form, status, word in cases:
        response = client.post(f"/s/{session_id}/hand", data=form)
        text = response.get_data(as_text=True)
        assert response.status_code == status, (form, text)
        assert word in text and "Traceback" not in text
    assert state(client, session_id)["events"] == 0


def _event(client, session_id, token, **fields):
    return client.post(f"/s/{session_id}/event", data={"csrf_token": token, **fields})


def test_declare_riichi_draw_abortive_chombo(client):
    session_id, _, token = new_session(client)
    assert _event(client, session_id, token, type="riichi", seat="1", form_token="t-riichi-1").status_code == 302
    snap = state(client, session_id)
    assert snap["riichi"] == [False, True, False, False] and snap["riichi_sticks"] == 1
    assert _event(client, session_id, token, type="riichi", seat="1").status_code == 422    # already in riichi
    response = client.post(f"/s/{session_id}/event", data={"csrf_token": token, "type": "draw", "tenpai": ["1", "2"]})
    assert response.status_code == 302
    snap = state(client, session_id)
    assert snap["scores"] == [23500, 25500, 26500, 23500] and snap["honba"] == 1
    assert _event(client, session_id, token, type="abortive_draw", reason="four_winds").status_code == 302
    assert _event(client, session_id, token, type="chombo", seat="3").status_code == 302
    assert state(client, session_id)["events"] == 4
    assert _event(client, session_id, token, type="end").status_code == 302
    assert state(client, session_id)["finished"] is True
    assert _event(client, session_id, token, type="riichi", seat="0").status_code == 422      # the game is over


def test_event_errors(client):
    session_id, _, token = new_session(client)
    for fields in [dict(type="dance"), dict(type="riichi", seat="9"), dict(type="riichi", seat="x"),
                   dict(type="abortive_draw", reason="boredom"), dict(type="chombo"), dict()]:
        response = _event(client, session_id, token, **fields)
        assert response.status_code == 400, fields
    assert state(client, session_id)["events"] == 0


def test_undo_last_and_double_tapped_undo(client):
    session_id, _, token = new_session(client)
    _event(client, session_id, token, type="riichi", seat="0")
    _event(client, session_id, token, type="riichi", seat="2")
    undo = {"csrf_token": token, "form_token": "undo-token-1"}
    assert client.post(f"/s/{session_id}/undo", data=undo).status_code == 302
    assert client.post(f"/s/{session_id}/undo", data=undo).status_code == 302     # same form: no second undo
    snap = state(client, session_id)
    assert snap["riichi"] == [True, False, False, False] and snap["events"] == 1
    client.post(f"/s/{session_id}/undo", data={"csrf_token": token})
    response = client.post(f"/s/{session_id}/undo", data={"csrf_token": token}, follow_redirects=True)
    assert "Nothing to undo" in response.get_data(as_text=True)
    events = client.get(f"/api/sessions/{session_id}/events").get_json()
    assert [e["undone"] for e in events] == [True, True]                        # kept for the record


def test_unknown_session_is_404_everywhere(client):
    token = csrf_of(client)
    for path in ["/s/nope", "/s/nope/tv", "/s/nope/share", "/s/nope/record", "/s/nope/settle", "/s/nope/settle.pdf",
                 "/s/nope/qr.svg", "/s/nope/join?code=X", "/live/nope", "/api/sessions/nope",
                 "/api/sessions/nope/events", "/no/such/page"]:
        assert client.get(path).status_code == 404, path
    for path in ["/s/nope/hand", "/s/nope/event", "/s/nope/undo", "/s/nope/table/accept"]:
        assert client.post(path, data={"csrf_token": token}).status_code == 404, path


def test_wrong_method_is_405_page(client):
    response = client.get("/join")
    assert response.status_code == 405 and "<html" in response.get_data(as_text=True)


def test_japanese_by_browser_and_by_toggle(client):
    page = client.get("/", headers={"Accept-Language": "ja,en;q=0.5"}).get_data(as_text=True)
    assert "新しい対局" in page and 'lang="ja"' in page
    token = csrf_of(client)
    response = client.post("/lang", data={"csrf_token": token, "lang": "ja", "next": "/new"})
    assert response.status_code == 302 and response.headers["Location"] == "/new"
    assert "配給原点" in client.get("/new").get_data(as_text=True)
    assert client.post("/lang", data={"lang": "en"}).status_code == 403             # no CSRF token
    off_site = client.post("/lang", data={"csrf_token": token, "lang": "en", "next": "https://evil.example/"})
    assert off_site.headers["Location"] == "/"                                       # never an open redirect
    assert "Starting points" in client.get("/new").get_data(as_text=True)
    error = client.post("/new", data=session_form(), headers={"Accept-Language": "ja"})
    assert error.status_code == 403


def test_japanese_error_page(app):
    fresh = app.test_client()
    response = fresh.get("/s/nope", headers={"Accept-Language": "ja"})
    assert response.status_code == 404 and "見つかりません" in response.get_data(as_text=True)
    api = fresh.post("/api/score", data="{", content_type="application/json", headers={"Accept-Language": "ja"})
    assert api.status_code == 400 and api.get_json()["error"]["message"] == "リクエストのJSONが不正です。"


def test_tv_and_record_pages_render(client):
    session_id, _, _ = new_session(client)
    tv = client.get(f"/s/{session_id}/tv").get_data(as_text=True)
    assert "tv-board" in tv and "Aki" in tv
    record = client.get(f"/s/{session_id}/record").get_data(as_text=True)
    assert 'capture="environment"' in record or "not installed" in record
    assert record.count('data-pick="') == 37


def test_fundamentals_and_chinese_sessions_record_wins_without_tiles(client):
    token = csrf_of(client)
    for rules, fields in (("fundamentals", {}), ("chinese-classical", {"points": "24"})):
        session_id, _, token = new_session(client, rules=rules)
        form = {"csrf_token": token, "winner": "1", "tsumo": "", "discarder": "2", "hand": "", **fields}
        assert client.post(f"/s/{session_id}/hand", data=form).status_code == 302, rules
        snap = state(client, session_id)
        assert snap["events"] == 1 and snap["scores"][1] > snap["scores"][0], (rules, snap["scores"])
        assert client.get(f"/s/{session_id}/record").status_code == 200
        assert client.get(f"/s/{session_id}/settle").status_code == 200
    bad = client.post(f"/s/{session_id}/hand", data={"csrf_token": token, "winner": "1", "tsumo": "1", "points": "-4"})
    assert bad.status_code == 400


def test_join_link_uses_the_servers_network_address_when_opened_on_the_host(app, client):
    session_id, code, _ = new_session(client)
    page = client.get(f"/s/{session_id}/share").get_data(as_text=True)
    assert 'data-test="only-here"' in page                         # 127.0.0.1 cannot be reached by phones
    app.config["PUBLIC_URL"] = "http://192.168.1.20:8000"
    page = client.get(f"/s/{session_id}/share").get_data(as_text=True)
    assert f"http://192.168.1.20:8000/s/{session_id}/join?code={code}" in page and "only-here" not in page
    phone = app.test_client()                                      # a phone that came by the network address
    phone.get(f"/s/{session_id}/join?code={code}", base_url="http://192.168.1.20:8000")
    remote = phone.get(f"/s/{session_id}/share", base_url="http://192.168.1.20:8000").get_data(as_text=True)
    assert f"http://192.168.1.20:8000/s/{session_id}/join" in remote
