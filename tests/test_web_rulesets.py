"""Each rule set through the web app without a browser: the new-session form's own fields, three
players with seat 4 left empty, the late pon, the scoreboard, the settlement's log, columns and
chart, and the scorer's, ledger's and camera's words on a Japanese page."""
from __future__ import annotations

import re

import pytest

from webui.printing.chart import score_chart
from webui.words.japanese import in_japanese

from tests.test_web_support import app, client, new_session, post_event, state  # noqa: F401

CHINESE = {"rules": "chinese-classical", "preset": "", "starting_points": "", "return_points": "", "uma": "",
           "length": "full", "limit": "500", "settlement": "full"}
FUNDAMENTALS = {"rules": "fundamentals", "preset": "", "length": "", "starting_points": "", "return_points": "", "uma": ""}


def _config(client, session_id: str) -> dict:
    return client.get(f"/api/sessions/{session_id}").get_json()


def _settle(client, session_id: str) -> str:
    return client.get(f"/s/{session_id}/settle").get_data(as_text=True)


def test_three_players_with_seat_four_empty_take_the_three_player_points(client, app):
    """The form's four-player uma stays as it was typed for four: empty fields are the rules' own."""
    session_id, _, _ = new_session(client, player3="", starting_points="", return_points="", uma="")
    with app.app_context():
        from webui.storage import store
        config = store.get_session(session_id).config
    assert config["players"] == ["Aki", "Ben", "Chiyo"]
    assert (config["starting_points"], config["return_points"], config["uma"]) == (35000, 40000, [15, 0, -15])


def test_the_book_preset_starts_at_its_own_30000(client, app):
    session_id, _, _ = new_session(client, preset="book", starting_points="", return_points="", uma="")
    with app.app_context():
        from webui.storage import store
        config = store.get_session(session_id).config
    assert (config["starting_points"], config["return_points"]) == (30000, 30000)


def test_the_new_session_form_carries_each_presets_points_for_its_script(client):
    page = client.get("/new").get_data(as_text=True)
    assert 'id="tenbou-new"' in page and "new.js" in page
    assert re.search(r'"book": \{"3": \{"return_points": 40000, "starting_points": 35000, "uma": "15,0,-15"\}, '
                     r'"4": \{"return_points": 30000, "starting_points": 30000, "uma": "20,10,-10,-20"\}\}', page)


def test_classical_chinese_reads_its_own_fields_and_shows_no_riichi(client, app):
    session_id, _, token = new_session(client, **CHINESE)
    with app.app_context():
        from webui.storage import store
        config = store.get_session(session_id).config
    assert config["options"] == {"limit": 500, "settlement": "full"} and config["length"] == "full"
    board = client.get(f"/s/{session_id}").get_data(as_text=True)
    assert 'data-test="riichi0"' not in board and 'data-field="sticks"' not in board
    assert "<summary>Abortive draw" not in board and "<summary>Late pon" not in board
    assert post_event(client, session_id, token, {"type": "win", "winner": 1, "discarder": 0, "points": 48}).status_code == 201
    assert post_event(client, session_id, token, {"type": "draw"}).status_code == 201
    page = _settle(client, session_id)
    assert "Ben ron off Aki · 48 points" in page and ">Draw<" in page
    assert ">Uma<" not in page and ">Oka<" not in page


def test_fundamentals_shows_its_pool_and_says_who_paid_into_it(client):
    session_id, _, token = new_session(client, **FUNDAMENTALS)
    board = client.get(f"/s/{session_id}").get_data(as_text=True)
    assert 'data-field="pool">0<' in board and 'data-test="riichi0"' not in board
    post_event(client, session_id, token, {"type": "draw", "tenpai": [0]})
    assert state(client, session_id)["pool"] == 3
    post_event(client, session_id, token, {"type": "win", "winner": 0, "discarder": 2})
    page = _settle(client, session_id)
    assert "Draw · ready: Aki · 3 to the pool" in page and "Aki ron off Chiyo · takes the pool: 3" in page
    assert ">Uma<" not in page and ">Oka<" not in page
    ticks = re.findall(r'class="tick">(-?[\d,]+)</text>', page)
    assert ticks and max(int(t) for t in ticks) <= 30 and min(int(t) for t in ticks) >= 10, ticks


def test_a_late_pon_where_the_book_fines_it_is_logged_with_its_hand(client):
    session_id, _, token = new_session(client, preset="book", starting_points="", return_points="", uma="")
    assert "<summary>Late pon" in client.get(f"/s/{session_id}").get_data(as_text=True)
    form = {"csrf_token": token, "type": "late_pon", "seat": "2", "form_token": "late-pon-form-1"}
    assert client.post(f"/s/{session_id}/event", data=form).status_code == 302
    assert state(client, session_id)["riichi_sticks"] == 1 and state(client, session_id)["scores"][2] == 29000
    post_event(client, session_id, token, {"type": "win", "winner": 1, "discarder": 0, "han": 3, "fu": 40})
    assert "Ben ron off Aki · 3 han 40 fu · late pon: Chiyo" in _settle(client, session_id)


def test_a_late_pon_is_refused_where_the_rules_have_no_penalty(client):
    session_id, _, token = new_session(client)
    assert "<summary>Late pon" not in client.get(f"/s/{session_id}").get_data(as_text=True)
    refused = post_event(client, session_id, token, {"type": "late_pon", "seat": 1})
    assert refused.status_code == 422 and "no penalty for a late pon" in refused.get_json()["error"]["detail"]


def test_an_ended_game_offers_the_settlement_not_the_hand_actions(client):
    session_id, _, token = new_session(client)
    post_event(client, session_id, token, {"type": "end"})
    board = client.get(f"/s/{session_id}").get_data(as_text=True)
    assert re.search(r'<section class="card actions" data-actions hidden>', board)
    assert re.search(r'data-ended\s+data-test="ended"', board) and 'data-test="to-settle"' in board


@pytest.mark.parametrize("english, japanese", [
    ("event 3: Aki is in riichi, so calls no pon, late or not", "Akiはリーチ中なので、ポンはできません。"),
    ("uma: 3 numbers are needed, got 4", "ウマ：3個の数が必要です（4個あります）。"),
    ("The winning tile 1z (East) is not among the concealed tiles: list it in concealed too.",
     "和了牌の東が手牌に入っていません。手牌にも入れてください。"),
    ("Declaring riichi is part of riichi, not of the Fundamentals rules: leave riichi out.",
     "リーチはリーチ麻雀のもので、基本ルールにはありません。外してください。"),
    ("tile 3 looked most like 4p but is read as 0p, which makes a valid hand",
     "3枚目は4筒に見えましたが、和了形になる赤5筒と読みました。"),
    ("There are two red 5 characters: a set has one.", "赤5萬が多すぎます。"),
    ("a concealed kan shows one face-down tile: its other end was not seen",
     "暗槓の裏向きの牌が1枚しか見えません。もう一方の端は見つかりませんでした。"),
    ("2 tiles apart from the hand were not named surely enough to be read; they were left out",
     "手牌から離れた2枚を確かに読めなかったので除きました。"),
    ("6 tiles apart from the hand are left out: a hand has at most 5 dora indicators",
     "手牌から離れた6枚は除きました（ドラ表示牌は最大5枚です）。"),
])
def test_messages_with_variable_parts_are_rebuilt_in_japanese(english, japanese):
    assert in_japanese(english) == japanese


def test_a_message_without_a_translation_is_left_off_a_japanese_page(client):
    client.set_cookie("lang", "ja")
    session_id, _, token = new_session(client)
    refused = post_event(client, session_id, token, {"type": "riichi", "seat": 9})
    error = refused.get_json()["error"]
    assert error["message"] == "項目が不足または不正です。" and error["detail"] == "席：9は0から3の範囲にありません。"
    nonsense = client.post(f"/api/sessions/{session_id}/events", data="[", content_type="application/json",
                           headers={"X-CSRF-Token": token}).get_json()["error"]
    assert nonsense["message"] == "リクエストのJSONが不正です。" and "detail" not in nonsense   # the parser's English


def test_small_scores_fill_the_chart():
    chart = score_chart([20] * 4, [{"scores": [26, 18, 18, 18], "label": "East 1"}], least_step=1)
    assert [label for _, label in chart.y_ticks] == ["18", "20", "22", "24", "26"]


def test_what_the_camera_doubts_about_a_hand_s_layout_is_said_in_japanese():
    from test_vision_hand import lay, read
    from vision.hand import Detection

    hand = lay("2m 3m 4m 6p 7p 8p 2z | 2z", y=200)
    shelf = [Detection(d.box, d.pose, ((d.label, 0.2),)) for d in lay("1z 4m", x=100, y=20)]
    layouts = [lay("2m 3m 4m 6p 7p 8p 3s 4s 5s 2z | 2z | d 9m 9m"),       # a kan with an end unseen
               hand + shelf[:1], hand + shelf,                             # one, then two tiles unsure
               lay("2m 3m 4m 6p 7p 8p 3s 4s 5s 2z 2z | s:5z"),             # the winning tile looks turned
               lay("2m 3m 4m 6p 7p 8p 3s 4s 5s 2z 2z | 9m 9m 9m 9m")]      # a kan with none turned
    doubts = [d for tiles in layouts for d in read(tiles)[0].doubts]
    # ... and the repair step's, where the rules have no dora indicators for the tiles apart
    from vision.hand import arrange
    from vision.repair import repair
    whole = lay("1m 2m 3m 4p 5p 6p 7s 8s 9s 2z 2z 5z 5z | 5z", y=200)
    for tiles in (whole + lay("4m", x=40, y=20), whole + lay("4m 6p", x=40, y=20), hand):
        doubts += repair(arrange(tiles), tiles, {"rules": "chinese-classical"}).doubts
    # ... and in riichi, a row apart from the hand of more than a hand's dora indicators
    row = whole + lay("1s 2s 3s 4s 6s 7s", x=40, y=20)
    doubts += repair(arrange(row), row).doubts
    assert len(doubts) >= 9 and all(in_japanese(d) for d in doubts), [d for d in doubts if not in_japanese(d)]
    assert "手牌から離れた2枚は除きました（中国古典ルールにはドラ表示牌がありません）。" in map(in_japanese, doubts)
