"""The lobby (issue 18): the live tables of the server or of one club, as a page, as JSON and as
a TV view that cycles through them; ended, old and other clubs' games left out."""
from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from webui.play import clubs, ledger
from webui.pages import lobby
from webui.play import live_tables
from webui.storage import store
from webui.storage.db import get_db, transaction
from webui.storage.schema.tables import session as session_t

from tests.test_web_support import app, client, new_session, post_event, session_form  # noqa: F401

HOSTILE = '<script>alert(1)</script>'
RON = {"type": "win", "winner": 1, "discarder": 0, "hand": {"concealed": "234m456p678s22z555z", "win_tile": "2z"}}


def _ids(client, path: str = "/api/lobby") -> list[str]:
    return [t["id"] for t in client.get(path).get_json()["tables"]]


def _played(client, **form) -> tuple[str, str, str]:
    """A new session with something recorded (a riichi): one the lobby lists."""
    session_id, code, token = new_session(client, **form)
    assert post_event(client, session_id, token, {"type": "riichi", "seat": 0}).status_code == 201
    return session_id, code, token


def _club_session(app, title: str, club_id: str | None) -> str:
    with app.test_request_context():
        made = store.create_session(ledger.config_from_form(session_form()), title, club_id=club_id).id
    with app.app_context(), transaction() as db:
        from webui.storage.schema.tables import event as event_t
        db.execute(event_t.insert().values(session_id=made, body_json='{"type": "riichi", "seat": 0}',
                                           created_at="2030-01-01T00:00:00.000Z"))
    return made


def test_live_tables_are_listed_newest_first_and_ended_ones_are_not(client):
    first, _, token = _played(client, title="Table one")
    second, _, _ = _played(client, title="Table two")
    ended, _, _ = _played(client, title="Table three")
    assert post_event(client, ended, token, {"type": "end"}).status_code == 201
    assert _ids(client) == [second, first]
    page = client.get("/lobby").get_data(as_text=True)
    assert "Table one" in page and "Table two" in page and "Table three" not in page
    assert page.index("Table two") < page.index("Table one")
    # each table links to its scoreboard and its TV view
    assert f'href="/s/{first}"' in page and f'href="/s/{first}/tv"' in page
    # an undone end reopens the game: the lobby finds it by a replay
    client.post(f"/api/sessions/{ended}/undo", json={}, headers={"X-CSRF-Token": token})
    assert _ids(client) == [ended, second, first]


def test_sessions_with_nothing_recorded_are_not_listed_so_a_flood_pushes_no_table_off(app, client):
    real, _, _ = _played(client, title="Real table")
    flooder = app.test_client()
    for n in range(19):                     # with the real one, as many as one address may start at once
        new_session(flooder, title=f"SPAM {n}")
    assert _ids(client) == [real]
    page = client.get("/lobby").get_data(as_text=True)
    assert "Real table" in page and "SPAM" not in page


def test_a_table_shows_its_round_sticks_and_scores(client):
    session_id, _, token = new_session(client, title="Busy")
    post_event(client, session_id, token, RON)
    post_event(client, session_id, token, {"type": "riichi", "seat": 2})     # a stick on the table
    (table,) = client.get("/api/lobby").get_json()["tables"]
    assert table["scores"] == [23400, 26600, 24000, 25000] and table["riichi_sticks"] == 1
    assert (table["round_wind"], table["hand_number"], table["honba"]) == ("E", 2, 0)
    page = client.get("/lobby").get_data(as_text=True)
    assert "East 2" in page and "26600" in page and "Riichi sticks <b>1</b>" in page


def test_the_json_shape_and_no_join_code(client):
    session_id, code, _ = _played(client)
    response = client.get("/api/lobby")
    body = response.get_json()
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert set(body) == {"club", "tables", "hours", "most"} and body["club"] is None
    assert (body["hours"], body["most"]) == (24, live_tables.MOST_TABLES)
    (table,) = body["tables"]
    assert {"id", "title", "rules", "players", "scores", "round_wind", "hand_number", "honba", "riichi_sticks",
            "dealer", "seat_winds", "finished", "events", "created_at", "links"} <= set(table)
    assert table["links"] == {"scoreboard": f"/s/{session_id}", "tv": f"/s/{session_id}/tv",
                              "live": f"/live/{session_id}", "state": f"/api/sessions/{session_id}"}
    # the lobby is open to anyone who reaches the server: it never tells a join code
    for path in ("/api/lobby", "/lobby", "/lobby/tv"):
        assert code not in client.get(path).get_data(as_text=True), path


def test_old_tables_drop_out_and_the_list_is_bounded(app, client, monkeypatch):
    old, _, _ = _played(client, title="Yesterday's")
    with app.app_context(), transaction() as db:
        db.execute(session_t.update().where(session_t.c.id == old).values(created_at="2020-01-01T00:00:00.000Z"))
    made = [_played(client, title=f"T{i}")[0] for i in range(4)]
    assert _ids(client) == made[::-1]
    monkeypatch.setattr(live_tables, "MOST_TABLES", 3)
    assert _ids(client) == made[:0:-1]


def test_a_club_lobby_lists_only_that_clubs_tables(app, client):
    with app.test_request_context():
        club = clubs.create_club("Thursday club")
        other = clubs.create_club("Other club")
    ours = _club_session(app, "Ours", club.id)
    _club_session(app, "Theirs", other.id)
    _club_session(app, "Nobody's", None)
    assert _ids(client, f"/api/clubs/{club.id}/lobby") == [ours]
    body = client.get(f"/api/clubs/{club.id}/lobby").get_json()
    assert body["club"] == {"id": club.id, "name": "Thursday club"}
    page = client.get(f"/c/{club.id}/lobby").get_data(as_text=True)
    assert "Thursday club" in page and "Ours" in page and "Theirs" not in page and "Nobody" not in page
    assert f'href="/c/{club.id}/tv"' in page
    tv = client.get(f"/c/{club.id}/tv").get_data(as_text=True)
    assert f'data-lobby="/api/clubs/{club.id}/lobby"' in tv and "Ours" in tv and "Theirs" not in tv
    # the server's lobby lists every club's tables and the others
    assert len(_ids(client)) == 3


@pytest.mark.parametrize("path", ["/c/nope/lobby", "/c/nope/tv", "/api/clubs/nope/lobby"])
def test_an_unknown_club_is_a_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    if path.startswith("/api/"):
        assert response.get_json()["error"]["code"] == "not_found"


def test_hostile_names_are_escaped_on_every_page(client):
    _played(client, title=HOSTILE[:60], player0="<img src=x onerror=alert(1)>"[:24], player1='"><b>Ben')
    for path in ("/lobby", "/lobby/tv"):
        page = client.get(path).get_data(as_text=True)
        assert "<script>alert" not in page and "<img src=x" not in page and '"><b>Ben' not in page, path
        # the only script elements are the page's own: the tables' JSON cannot close its block
        assert len(re.findall(r"<script", page)) == len(re.findall(r"</script>", page))
    tv = client.get("/lobby/tv").get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in tv and "\\u003cscript\\u003e" in tv
    assert client.get("/api/lobby").get_json()["tables"][0]["title"] == HOSTILE


@pytest.mark.parametrize("every, status", [("5", 200), ("300", 200), ("", 200), ("4", 400), ("301", 400),
                                           ("0", 400), ("-5", 400), ("abc", 400), ("1e9", 400), ("9" * 400, 400)])
def test_the_tv_seconds_per_table_are_bounded_in_words(client, every, status):
    response = client.get(f"/lobby/tv?every={every}")
    assert response.status_code == status
    page = response.get_data(as_text=True)
    if status == 200:
        assert f'data-every="{every or lobby.EVERY_DEFAULT}"' in page
    else:
        assert "every:" in page and "Traceback" not in page


def test_the_tv_waits_in_words_while_no_table_is_live(client):
    assert 'data-every="15"' in client.get("/lobby/tv").get_data(as_text=True)
    tv = client.get("/lobby/tv").get_data(as_text=True)
    assert re.search(r'data-test="tv-empty">No table is being played right now', tv)
    assert re.search(r'data-test="scoreboard" hidden', tv)
    assert "No table is being played right now." in client.get("/lobby").get_data(as_text=True)
    japanese = client.get("/lobby", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert "現在対局中の卓はありません。" in japanese and "対局中の卓" in japanese


def test_the_lobby_page_reads_itself_again_without_a_script(client):
    html = client.get("/lobby").get_data(as_text=True)
    assert re.search(r'<meta http-equiv="refresh" content="\d+">', html)


def test_the_home_page_links_to_the_lobby(client):
    assert 'href="/lobby"' in client.get("/").get_data(as_text=True)


def test_a_game_a_newer_ledger_refuses_is_left_out_not_a_500(app, client):
    session_id, _, _ = new_session(client, title="Strange")
    with app.app_context(), transaction() as db:
        from webui.storage.schema.tables import event as event_t
        db.execute(event_t.insert().values(session_id=session_id, body_json='{"type": "no such event"}',
                                           created_at="2030-01-01T00:00:00.000Z"))
    with app.app_context():
        assert get_db().execute(sa.select(session_t.c.ended).where(session_t.c.id == session_id)).scalar() is None
    response = client.get("/lobby")
    assert response.status_code == 200 and "Strange" not in response.get_data(as_text=True)


def test_the_tv_seats_each_table_around_it_as_the_one_tables_tv_does(client):
    """The first paint of the cycling TV is _table_seats.html: seat 0's side at the bottom, and a
    three-player table sits bottom, right and left with no empty seat drawn."""
    places = lambda html: dict(re.findall(r'data-seat="(\d)" data-at="(\w+)"', html))
    _played(client, title="Four")
    four = client.get("/lobby/tv").get_data(as_text=True)
    assert places(four) == {"0": "bottom", "1": "right", "2": "top", "3": "left"}
    assert "table-ring-4" in four and 'class="seats ' not in four
    _played(client, title="Three", player3="", uma="")
    three = client.get("/lobby/tv").get_data(as_text=True)       # the newest table is drawn first
    assert places(three) == {"0": "bottom", "1": "right", "2": "left"}
    assert "table-ring-3" in three and three.count('class="seat ') == 3 and 'data-at="top"' not in three
    # the board's words are the scoreboard's, read by the shared script before the TV's own
    assert three.index("board-text.js") < three.index("tv-cycle.js") and 'id="tenbou-text"' in three
