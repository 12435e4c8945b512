"""The JSON API: the hand contract, sessions, events by join code, preview, photos."""
from __future__ import annotations

import struct
import zlib

from tests.test_web_support import (NOT_A_WIN, WIN_HAKU_TSUMO, app, client, csrf_of,  # noqa: F401
                                    new_session, post_event, state)


def test_score_takes_the_contract(client):
    ok = client.post("/api/score", json={**WIN_HAKU_TSUMO, "tsumo": True})
    assert ok.status_code == 200
    body = ok.get_json()
    assert body["ok"] and body["han"] == 2 and body["fu"] == 30 and body["points"] == 3000
    bad = client.post("/api/score", json={**NOT_A_WIN, "tsumo": True})
    assert bad.status_code == 422 and bad.get_json()["error"]["code"] == "not_a_winning_hand"
    assert client.post("/api/score", json={"concealed": "12x"}).get_json()["error"]["code"] == "bad_tile"


def test_score_request_errors(client):
    assert client.post("/api/score", data="{}", content_type="text/plain").status_code == 415
    assert client.post("/api/score", data="{oops", content_type="application/json").status_code == 400
    assert client.post("/api/score", json=[1, 2]).status_code == 400
    assert client.post("/api/score", data=b"\xff\xfe", content_type="application/json").status_code == 400
    assert client.get("/api/score").status_code == 405


def test_create_session_by_api(app, client):
    token = csrf_of(client)
    body = {"players": ["A", "B", "C", "D"], "rules": "riichi", "preset": "mleague", "uma": [30, 10, -10, -30],
            "starting_points": 25000, "return_points": 30000, "rate": 2}
    response = client.post("/api/sessions", json=body, headers={"X-CSRF-Token": token})
    assert response.status_code == 201
    created = response.get_json()
    assert state(client, created["id"])["players"] == ["A", "B", "C", "D"]
    assert client.post("/api/sessions", json=body).status_code == 403                      # no CSRF token
    assert client.post("/api/sessions", json={**body, "players": ["A"]},
                       headers={"X-CSRF-Token": token}).status_code == 400


def test_events_by_join_code_header(app, client):
    session_id, code, _ = new_session(client)
    program = app.test_client()                 # no cookies at all: the join code is the credential
    ok = program.post(f"/api/sessions/{session_id}/events", json={"event": {"type": "riichi", "seat": 3}},
                      headers={"X-Join-Code": code})
    assert ok.status_code == 201 and ok.get_json()["state"]["riichi"][3]
    wrong = program.post(f"/api/sessions/{session_id}/events", json={"event": {"type": "riichi", "seat": 2}},
                         headers={"X-Join-Code": "AAAAAA"})
    assert wrong.status_code == 403
    no_header = program.post(f"/api/sessions/{session_id}/events", json={"event": {"type": "riichi", "seat": 2}})
    assert no_header.status_code == 403


def test_event_api_paths(client):
    session_id, _, token = new_session(client)
    win = {"type": "win", "winner": 1, "discarder": 0, "hand": {"concealed": "234m456p678s22z555z", "win_tile": "2z"}}
    first = post_event(client, session_id, token, win, form_token="api-token-1")
    again = post_event(client, session_id, token, win, form_token="api-token-1")
    assert first.status_code == 201 and again.status_code == 200 and not again.get_json()["created"]
    assert state(client, session_id)["scores"] == [23400, 26600, 25000, 25000]    # haku, 50 fu ron: 1600
    events = client.get(f"/api/sessions/{session_id}/events").get_json()
    assert len(events) == 1 and events[0]["event"]["result"]["ok"]
    assert post_event(client, session_id, token, {"type": "correction", "scores": [25000] * 4}).status_code == 201
    undo = client.post(f"/api/sessions/{session_id}/undo", json={}, headers={"X-CSRF-Token": token})
    assert undo.status_code == 200 and undo.get_json()["state"]["scores"] == [23400, 26600, 25000, 25000]


def test_event_api_errors(client):
    session_id, _, token = new_session(client)
    bad = [{"event": "riichi"}, {"event": {"type": "riichi", "seat": "north"}}, {"event": {"type": "draw", "tenpai": 3}},
           {"event": {"type": "correction", "scores": [1, 2]}}, {"event": {"type": "correction", "scores": "all"}},
           {"event": {"type": "win", "winner": 0, "tsumo": True, "hand": {"concealed": "1m"}}},
           {"event": {"type": "nap"}}, {"event": {"type": "riichi", "seat": 0}, "form_token": 5},
           {"event": {"type": "riichi", "seat": 0}, "form_token": "short"}]
    for body in bad:
        response = client.post(f"/api/sessions/{session_id}/events", json=body, headers={"X-CSRF-Token": token})
        assert 400 <= response.status_code < 500, body
        assert response.get_json()["ok"] is False
    assert client.post(f"/api/sessions/{session_id}/events", json={"event": {"type": "riichi", "seat": 0}},
                       headers={"X-CSRF-Token": "forged"}).status_code == 403
    assert state(client, session_id)["events"] == 0


def test_preview_fills_the_situation(client):
    session_id, _, token = new_session(client)
    post_event(client, session_id, token, {"type": "riichi", "seat": 2})
    response = client.post(f"/api/sessions/{session_id}/preview",
                           json={"winner": 2, "tsumo": False, "discarder": 0, "hand": WIN_HAKU_TSUMO | {"win_tile": "2z"}})
    body = response.get_json()
    assert response.status_code == 200
    assert body["request"]["seat_wind"] == "W" and body["request"]["discarder"] == "E"
    assert body["request"]["riichi"] is True and body["request"]["riichi_sticks"] == 1
    assert {"id": "riichi", "han": 1} in body["result"]["yaku"]
    incomplete = client.post(f"/api/sessions/{session_id}/preview", json={"winner": 0, "tsumo": True, "hand": NOT_A_WIN})
    assert incomplete.status_code == 200 and not incomplete.get_json()["result"]["ok"]
    assert client.post(f"/api/sessions/{session_id}/preview", json={"winner": 0}).status_code == 400
    assert client.post(f"/api/sessions/{session_id}/preview", json={"winner": 9, "hand": {}}).status_code == 400


def _png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00" + b"\x80\x80\x80" * width)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def _scan(client, session_id, token, data: bytes, name="hand.png"):
    import io
    return client.post(f"/api/sessions/{session_id}/scan", data={"photo": (io.BytesIO(data), name)},
                       headers={"X-CSRF-Token": token}, content_type="multipart/form-data")


def test_scan_checks_the_photo_first(tmp_path):
    from webui import create_app
    seen = []

    def fake_scan(data: bytes, rules: str) -> dict:
        seen.append(len(data))
        assert rules == "riichi"                 # the session's rules: no flowers read
        return {"tiles": [{"tile": "5m", "red": True, "box": [0, 0, 1, 1], "pose": "upright", "confidence": 0.55,
                           "alternatives": ["5m"]}], "hand": None, "result": None}

    app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t", "SCAN": fake_scan,
                      "MAX_CONTENT_LENGTH": 200_000})
    client = app.test_client()
    session_id, _, token = new_session(client)
    ok = _scan(client, session_id, token, _png(8, 4))
    assert ok.status_code == 200 and ok.get_json()["tiles"][0]["red"] and seen == [len(_png(8, 4))]
    assert _scan(client, session_id, token, b"GIF89a not a photo").status_code == 400
    assert _scan(client, session_id, token, b"").status_code == 400
    bomb = _scan(client, session_id, token, _png(60000, 60000))         # tiny file, 3.6 gigapixels claimed
    assert bomb.status_code == 413 and bomb.get_json()["error"]["code"] == "too_large"
    assert _scan(client, session_id, token, b"\x89PNG\r\n\x1a\n" + b"\0" * 300_000).status_code == 413
    missing = client.post(f"/api/sessions/{session_id}/scan", data={}, headers={"X-CSRF-Token": token})
    assert missing.status_code == 400
    assert len(seen) == 1                    # nothing but the good photo reached the recogniser
    stranger = app.test_client()
    assert _scan(stranger, session_id, csrf_of(stranger), _png(8, 4)).status_code == 403


def test_scan_failure_is_a_clear_422(tmp_path):
    from webui import create_app

    def failing(data, rules):
        raise ValueError("no tiles in view")
    app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t", "SCAN": failing})
    client = app.test_client()
    session_id, _, token = new_session(client)
    response = _scan(client, session_id, token, _png(8, 4))
    assert response.status_code == 422 and response.get_json()["error"]["detail"] == "no tiles in view"


def test_a_photo_of_too_many_tiles_is_refused_though_they_were_named(tmp_path):
    """A photo of a whole table names its tiles for `tenbou scan --json`, but the record page's
    hand row cannot hold them: the web answer is a refusal in words."""
    from vision.hand import Arrangement
    from vision.scan import Scan, ScanError
    from webui import create_app

    def crowded(data, rules):
        message = "45 tiles in view; a hand has at most 18 plus dora indicators: photograph just the one hand"
        raise ScanError("too_many_tiles", message, [], Scan([], [], Arrangement(), None, [message]))
    app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t", "SCAN": crowded})
    client = app.test_client()
    session_id, _, token = new_session(client)
    response = _scan(client, session_id, token, _png(8, 4))
    assert response.status_code == 422 and response.get_json()["error"]["code"] == "too_many_tiles"


def test_webcam_not_configured_or_missing_is_a_clear_error(tmp_path):
    from webui import create_app
    plain = create_app({"DATA_DIR": str(tmp_path / "a"), "SECRET_KEY": "t"}).test_client()
    session_id, _, token = new_session(plain)
    response = plain.post(f"/api/sessions/{session_id}/webcam", headers={"X-CSRF-Token": token})
    assert response.status_code == 409 and response.get_json()["error"]["code"] == "webcam_unavailable"
    absent = create_app({"DATA_DIR": str(tmp_path / "b"), "SECRET_KEY": "t", "WEBCAM": 97}).test_client()
    session_id, _, token = new_session(absent)
    response = absent.post(f"/api/sessions/{session_id}/webcam", headers={"X-CSRF-Token": token})
    assert response.status_code == 503 and "cannot be opened" in response.get_json()["error"]["detail"]


def test_errors_say_what_is_wrong_in_the_players_language(client):
    """The scorer explains in English (which tile, which meld); a Japanese page has it in
    Japanese, the tile named too."""
    session_id, _, token = new_session(client)
    five_threes = {"concealed": "33333p456s22z555z", "win_tile": "5z"}
    body = {"winner": 0, "tsumo": True, "hand": five_threes}
    english = client.post(f"/api/sessions/{session_id}/preview", json=body).get_json()["result"]["error"]
    assert english["code"] == "too_many_copies" and "five 3 dots" in english["message"]
    assert english["summary"] == "There are more of a tile than a set has."

    client.set_cookie("lang", "ja")
    japanese = client.post(f"/api/sessions/{session_id}/preview", json=body).get_json()["result"]["error"]
    assert japanese["summary"].startswith("同じ牌が多すぎます") and japanese["message"] == english["message"]
    assert japanese["said"] == "3筒が多すぎます。同じ牌は4枚までです。"
    recorded = client.post(f"/api/sessions/{session_id}/events", json={"event": {**body, "type": "win"}},
                           headers={"X-CSRF-Token": token})
    error = recorded.get_json()["error"]
    assert recorded.status_code == 422 and error["code"] == "too_many_copies"
    assert error["message"].startswith("同じ牌が多すぎます") and error["detail"] == "3筒が多すぎます。同じ牌は4枚までです。"
    assert state(client, session_id)["events"] == 0


def test_a_scan_reads_the_hand_by_the_sessions_rules(tmp_path, monkeypatch):
    """The camera pipeline behind the web app knows the session's rules: riichi plays no
    flowers, so a tile the model named a flower is renamed to its runner-up; a classical
    Chinese session keeps a flower as a flower."""
    import io

    import vision.classify
    import vision.scan
    from test_vision_scan_cli import ColourClassifier, hand_photo
    from vision_scenes import find_toy_tiles

    from webui import create_app

    class FlowerSeer(ColourClassifier):
        """Takes the 4 of dots for the spring season, the dots its runner-up."""

        def classify(self, crops):
            out = super().classify(crops)
            return [[("5f", 0.9), ("4p", 0.08), ("5p", 0.02)] if r[0][0] == "4p" else r for r in out]

    monkeypatch.setattr(vision.classify, "TileClassifier", FlowerSeer)
    monkeypatch.setattr(vision.scan, "find_tiles", find_toy_tiles)
    photo = hand_photo(tmp_path, "1m 2m 3m 4p 5p 6p 7s 8s 9s 2z 2z 5z 5z 5z".split()).read_bytes()
    app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t"})
    client = app.test_client()
    hands = {}
    for rules in ("riichi", "chinese-classical"):
        session_id, _, token = new_session(client, rules=rules)
        response = client.post(f"/api/sessions/{session_id}/scan", data={"photo": (io.BytesIO(photo), "hand.png")},
                               headers={"X-CSRF-Token": token}, content_type="multipart/form-data")
        assert response.status_code == 200, response.get_data(as_text=True)
        hands[rules] = response.get_json()["hand"]
    assert hands["riichi"]["concealed"] == "123m456p789s22555z" and hands["riichi"]["flowers"] == ""
    assert hands["chinese-classical"]["flowers"] == "5f" and hands["chinese-classical"]["rules"] == "chinese-classical"


def test_a_photo_of_too_few_tiles_for_a_hand_answers_with_them_named(tmp_path, monkeypatch):
    """The record page's dora photo holds a tile or two, and a hand photo may miss a tile: the
    answer names what was seen, `hand` null and `doubts` saying why, not a refusal that loses it."""
    import io

    import vision.classify
    import vision.scan
    from test_vision_scan_cli import ColourClassifier, hand_photo
    from vision_scenes import find_toy_tiles

    from webui import create_app

    monkeypatch.setattr(vision.classify, "TileClassifier", ColourClassifier)
    monkeypatch.setattr(vision.scan, "find_tiles", find_toy_tiles)
    photo = hand_photo(tmp_path, ["3m", "5z"]).read_bytes()
    client = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t"}).test_client()
    session_id, _, token = new_session(client)
    response = client.post(f"/api/sessions/{session_id}/scan", data={"photo": (io.BytesIO(photo), "dora.png")},
                           headers={"X-CSRF-Token": token}, content_type="multipart/form-data")
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    assert [t["tile"] for t in body["tiles"]] == ["3m", "5z"] and body["hand"] is None
    assert "only 2 tiles found" in body["doubts"][0]
