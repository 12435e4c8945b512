"""The new-session form as a player fills it: a refusal said beside the field it is about, the
form filled in again with what was typed (not a page of its own); uma written as logs write it
("10-20"); return points below the starting points refused in words; a typed name that is a
club member's shown as the member's name; the honba said in the log and the chart."""
from __future__ import annotations

import re
from html import unescape

from tests.test_web_support import app, client, csrf_of, new_session, post_event, session_form, state  # noqa: F401


def said(html: str) -> list[str]:
    return [unescape(m) for m in re.findall(r'data-test="form-error">([^<]+)<', html)]


def value_of(html: str, name: str) -> str:
    tag = re.search(rf'<input name="{name}"[^>]*>', html).group(0)
    found = re.search(r'value="([^"]*)"', tag)
    return unescape(found.group(1)) if found else ""


def test_a_refused_form_comes_back_filled_in_with_the_reason_beside_the_field(client):
    token = csrf_of(client)
    form = session_form(uma="20,10,-10", starting_points="27000", title="Friday night", player1="Ben")
    page = client.post("/new", data={"csrf_token": token, **form})
    assert page.status_code == 400
    html = page.get_data(as_text=True)
    assert "Something is not right" not in html and 'data-test="new-form"' in html
    assert said(html) == ["uma: 4 numbers are needed, got 3"]
    # beside the uma field: after it, before the rate
    assert html.index('data-test="uma"') < html.index('data-test="form-error"') < html.index('data-test="rate"')
    assert value_of(html, "uma") == "20,10,-10" and value_of(html, "starting_points") == "27000"
    assert value_of(html, "title") == "Friday night" and 'value="Ben"' in html
    assert "data-refilled" in html           # new.js keeps every value as typed

    page = client.post("/new", data={"csrf_token": token, **session_form(player1="", player2="", player3="")})
    html = page.get_data(as_text=True)
    assert page.status_code == 400 and said(html) == ["players: three or four names are needed"]
    assert html.index('data-test="player3"') < html.index('data-test="form-error"') < html.index('data-test="starting-points"')


def test_the_reason_is_said_in_japanese_on_a_japanese_page(client):
    client.set_cookie("lang", "ja")
    token = csrf_of(client)
    page = client.post("/new", data={"csrf_token": token, **session_form(return_points="20000")})
    assert page.status_code == 400
    (line,) = said(page.get_data(as_text=True))
    assert "返し" in line or "原点" in line or line.startswith("入力")   # not the English words
    assert "return points" not in line


def config_of(app, session_id: str) -> dict:
    from webui.storage import store
    with app.app_context():
        return store.get_session(session_id).config


def test_uma_by_its_name_as_logs_write_it(app, client):
    session_id, _, _ = new_session(client, uma="10-20")
    assert config_of(app, session_id)["uma"] == [20, 10, -10, -20]
    token = csrf_of(client)
    three = client.post("/new", data={"csrf_token": token, **session_form(player3="", uma="10-20")})
    assert three.status_code == 400 and "names four players' uma" in said(three.get_data(as_text=True))[0]


def test_return_points_below_the_starting_points_are_refused_in_words(app, client):
    token = csrf_of(client)
    page = client.post("/new", data={"csrf_token": token, **session_form(starting_points="30000",
                                                                          return_points="10000")})
    assert page.status_code == 400
    assert said(page.get_data(as_text=True)) == [
        "return points: 10,000 is below the starting points (30,000); return points are at least "
        "the starting points (equal: no oka)"]
    answer = client.post("/api/sessions", json={"players": ["A", "B", "C", "D"], "starting_points": 30000,
                                                "return_points": 10000}, headers={"X-CSRF-Token": token})
    assert answer.status_code == 400 and "below the starting points" in answer.get_json()["error"]["detail"]
    session_id, _, _ = new_session(client, starting_points="30000", return_points="30000")   # no oka: fine
    assert config_of(app, session_id)["return_points"] == 30000


def test_a_typed_name_of_a_member_is_shown_as_the_member_writes_it(client):
    token = csrf_of(client)
    made = client.post("/clubs", data={"csrf_token": token, "name": "Thursday"})
    club_id = made.headers["Location"].split("/")[2]
    for name in ("Aki", "Ben"):
        assert client.post(f"/c/{club_id}/members", data={"csrf_token": token, "name": name}).status_code == 302
    page = client.post("/new", data={"csrf_token": token, "club": club_id,
                                     **session_form(player0="aki", player1="BEN", length="east")})
    assert page.status_code == 302, page.get_data(as_text=True)
    session_id = page.headers["Location"].split("/")[2]
    assert state(client, session_id)["players"][:2] == ["Aki", "Ben"]
    board = client.get(f"/s/{session_id}").get_data(as_text=True)
    assert "Aki" in board and ">aki<" not in board


def test_the_log_and_the_chart_say_the_honba(client):
    session_id, _, token = new_session(client)
    assert post_event(client, session_id, token, {"type": "draw", "tenpai": [0]}).status_code in (200, 201)
    assert post_event(client, session_id, token, {"type": "draw", "tenpai": [0]}).status_code in (200, 201)
    html = unescape(client.get(f"/s/{session_id}/settle").get_data(as_text=True))
    # the second draw was played at 1 honba: the log's row and the chart's label say so
    assert re.findall(r"<tr><td>\d+</td><td>([^<]*)</td>", html)[:2] == ["East 1", "East 1, 1 honba"]
    assert re.findall(r'class="tick">(East[^<]*)<', html) == ["East 1", "East 1, 1 honba"]
    assert "East 1-1" not in html
    client.set_cookie("lang", "ja")
    html = unescape(client.get(f"/s/{session_id}/settle").get_data(as_text=True))
    assert "東1局1本場" in html and "東1局-1" not in html


def test_record_before_joining_asks_for_the_code_there_and_opens_after(app, client):
    session_id, code, _ = new_session(client)
    other = app.test_client()
    page = other.get(f"/s/{session_id}/record")
    assert page.status_code == 403
    html = page.get_data(as_text=True)
    assert 'data-test="join-first"' in html and 'name="code"' in html and f'value="/s/{session_id}/record"' in html
    token = csrf_of(other)
    joined = other.post("/join", data={"csrf_token": token, "session": session_id, "code": code,
                                       "next": f"/s/{session_id}/record"})
    assert joined.status_code == 302 and joined.headers["Location"].endswith(f"/s/{session_id}/record")
    assert other.get(f"/s/{session_id}/record").status_code == 200
    # a "next" elsewhere is not followed
    third = app.test_client()
    token = csrf_of(third)
    joined = third.post("/join", data={"csrf_token": token, "session": session_id, "code": code, "next": "/clubs"})
    assert joined.headers["Location"].endswith(f"/s/{session_id}")


def test_the_undo_confirmation_says_what_it_undoes(client):
    session_id, _, token = new_session(client)
    assert "Undo the last recorded event?" in unescape(client.get(f"/s/{session_id}").get_data(as_text=True))
    assert client.get(f"/s/{session_id}/last-entry").get_json()["what"] is None
    post_event(client, session_id, token, {"type": "riichi", "seat": 1})
    assert client.get(f"/s/{session_id}/last-entry").get_json()["ask"] == "Undo the last entry, Ben's riichi?"
    post_event(client, session_id, token, {"type": "win", "winner": 1, "discarder": 3, "han": 2, "fu": 30})
    html = unescape(client.get(f"/s/{session_id}").get_data(as_text=True))
    assert 'data-confirm-first="Undo the last entry, Ben\'s ron from Dan in East 1?"' in html
    client.set_cookie("lang", "ja")
    assert client.get(f"/s/{session_id}/last-entry").get_json()["ask"] == "最後の記録（東1局のBenのロン（Danから））を取り消しますか？"


def test_the_favicon_is_served(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["Content-Type"].startswith("image/svg+xml")
    assert b"<svg" in icon.data
    assert 'rel="icon"' in client.get("/").get_data(as_text=True)


def test_a_fundamentals_preview_from_winner_and_how_and_by_tiles_pays_the_pool(client):
    session_id, _, token = new_session(client, rules="fundamentals", length="east")
    post_event(client, session_id, token, {"type": "draw", "tenpai": [0]})      # the noten players fill the pool
    html = client.get(f"/s/{session_id}/record").get_data(as_text=True)
    url = re.search(r'data-preview="([^"]+)"', html).group(1)
    assert '"byWinner": true' in html
    plain = client.post(url, json={"winner": 1, "discarder": 2}, headers={"X-CSRF-Token": token}).get_json()
    tiles = client.post(url, json={"winner": 1, "discarder": 2, "hand": {"concealed": "234m456p678s22z555z",
                                                                         "win_tile": "5z"}},
                        headers={"X-CSRF-Token": token}).get_json()
    for answer in (plain, tiles):
        assert answer["result"]["ok"] and answer["result"]["points"] == 4
        assert answer["result"]["transfers"] == [{"from": "W", "points": 4, "to": "S"}, {"from": "pot", "points": 3, "to": "S"}]
