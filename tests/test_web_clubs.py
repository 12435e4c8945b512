"""Clubs through the web app, on SQLite and on PostgreSQL: members seated in sessions and renamed
everywhere, season standings from games played in the app and from imported logs, kept results
redone after an undo, player pages, CSV and JSON export, and who may change a club."""
from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from pathlib import Path

import pytest

from tests.club_support import app, client  # noqa: F401
from tests.test_web_support import WIN_HAKU_TSUMO, csrf_of, post_event, session_form, state

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def make_club(client, name="Thursday", members=("Aki", "Ben", "Chiyo", "Dan")) -> tuple[str, str, dict]:
    """(club id, csrf token, member name -> id) for a club this client manages."""
    token = csrf_of(client)
    response = client.post("/clubs", data={"csrf_token": token, "name": name})
    assert response.status_code == 302
    club_id = response.headers["Location"].split("/")[2]
    for member in members:
        assert client.post(f"/c/{club_id}/members", data={"csrf_token": token, "name": member}).status_code == 302
    return club_id, token, member_ids(client, club_id)


def member_ids(client, club_id: str) -> dict:
    html = client.get(f"/c/{club_id}").get_data(as_text=True)
    return {unescape(name): mid for mid, name in re.findall(rf'href="/c/{club_id}/p/([\w-]+)">([^<]+)</a>', html)}


def club_session(client, club_id: str, token: str, **overrides) -> str:
    form = session_form(length="east", **overrides)
    response = client.post("/new", data={"csrf_token": token, "club": club_id, **form})
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].split("/")[2]


def standings_rows(client, club_id: str, season: str = "all") -> list[dict]:
    response = client.get(f"/c/{club_id}/standings.csv?season={season}")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))


def play_to_the_end(client, session_id: str, token: str) -> None:
    """An East-only game: Aki wins East 1 by tiles, Ben deals in twice, then the players stop."""
    assert post_event(client, session_id, token, {"type": "riichi", "seat": 0}).status_code == 201
    assert post_event(client, session_id, token,
                      {"type": "win", "winner": 0, "tsumo": True, "hand": WIN_HAKU_TSUMO}).status_code == 201
    assert post_event(client, session_id, token,
                      {"type": "win", "winner": 2, "discarder": 1, "han": 3, "fu": 30}).status_code == 201
    assert post_event(client, session_id, token,
                      {"type": "win", "winner": 3, "discarder": 1, "han": 1, "fu": 30}).status_code == 201
    assert post_event(client, session_id, token, {"type": "end"}).status_code == 201
    assert state(client, session_id)["finished"]


def test_a_club_game_counts_for_its_members_and_not_for_a_guest(client):
    club_id, token, ids = make_club(client)
    session_id = club_session(client, club_id, token, player3="Guest Eve", player0="aki")   # typed in lower case
    play_to_the_end(client, session_id, token)
    rows = {r["name"]: r for r in standings_rows(client, club_id)}
    assert set(rows) == {"Aki", "Ben", "Chiyo"}              # the guest is no member
    assert rows["Aki"]["games"] == "1" and rows["Aki"]["wins"] == "1" and rows["Aki"]["riichi"] == "1"
    assert rows["Ben"]["deal_ins"] == "2" and rows["Ben"]["hands"] == "3"
    assert float(rows["Ben"]["deal_in_rate"]) == pytest.approx(2 / 3, abs=1e-4)
    places = sorted(int(float(r["average_place"])) for r in rows.values())
    assert len(set(places)) == 3
    page = client.get(f"/c/{club_id}/standings").get_data(as_text=True)
    assert page.count('data-test="standing-row"') == 3


def test_an_unfinished_game_is_left_out_until_it_ends(client):
    club_id, token, _ = make_club(client)
    session_id = club_session(client, club_id, token)
    assert post_event(client, session_id, token,
                      {"type": "win", "winner": 0, "discarder": 1, "han": 2, "fu": 30}).status_code == 201
    assert standings_rows(client, club_id) == []
    assert post_event(client, session_id, token, {"type": "end"}).status_code == 201
    assert len(standings_rows(client, club_id)) == 4


def test_an_undo_redoes_the_kept_results(client):
    club_id, token, _ = make_club(client)
    session_id = club_session(client, club_id, token)
    play_to_the_end(client, session_id, token)
    before = {r["name"]: r for r in standings_rows(client, club_id)}
    assert before["Ben"]["deal_ins"] == "2"
    # undo the end and the last win (a kept result for these events exists now), record another
    for _ in range(2):
        assert client.post(f"/api/sessions/{session_id}/undo", headers={"X-CSRF-Token": token}).status_code == 200
    assert standings_rows(client, club_id) == []            # no longer finished
    assert post_event(client, session_id, token,
                      {"type": "win", "winner": 3, "discarder": 2, "han": 1, "fu": 30}).status_code == 201
    assert post_event(client, session_id, token, {"type": "end"}).status_code == 201
    after = {r["name"]: r for r in standings_rows(client, club_id)}
    assert after["Ben"]["deal_ins"] == "1" and after["Chiyo"]["deal_ins"] == "1"


def test_renaming_a_member_renames_them_in_every_game(client):
    club_id, token, ids = make_club(client)
    first = club_session(client, club_id, token)
    play_to_the_end(client, first, token)
    second = club_session(client, club_id, token, player0="Ben", player1="Aki")
    response = client.post(f"/c/{club_id}/members/{ids['Aki']}", data={"csrf_token": token, "name": "Akiko"})
    assert response.status_code == 302
    assert state(client, first)["players"][0] == "Akiko"
    assert state(client, second)["players"][1] == "Akiko"
    assert "Akiko" in client.get(f"/s/{first}/settle").get_data(as_text=True)
    assert {r["name"] for r in standings_rows(client, club_id)} == {"Akiko", "Ben", "Chiyo", "Dan"}
    # a name another member has, or another player of a game they sat in, is refused
    taken = client.post(f"/c/{club_id}/members/{ids['Aki']}", data={"csrf_token": token, "name": "ben"})
    assert taken.status_code == 409
    guest_game = club_session(client, club_id, token, player0="Akiko", player3="Eve")
    clash = client.post(f"/c/{club_id}/members/{ids['Aki']}", data={"csrf_token": token, "name": "Eve"})
    assert clash.status_code == 409 and state(client, guest_game)["players"][0] == "Akiko"


def test_seasons_split_the_games_by_date(client):
    club_id, token, _ = make_club(client)
    log = (EXAMPLES / "riichi-game.json").read_bytes()
    for day in ("2026-03-10", "2026-05-02", "2026-05-20"):    # one log on three days: meant, so "again"
        assert client.post(f"/c/{club_id}/import", data={"csrf_token": token, "played_on": day, "again": "on",
                                                         "log": (io.BytesIO(log), "game.json")},
                           content_type="multipart/form-data").status_code == 302
    log_names = json.loads(log)["config"]["players"]
    for name, day in (("Spring", "2026-03-01"), ("Summer", "2026-05-15")):
        assert client.post(f"/c/{club_id}/seasons",
                           data={"csrf_token": token, "name": name, "starts": day}).status_code == 302
    html = client.get(f"/c/{club_id}").get_data(as_text=True)
    seasons = dict((name, sid) for sid, name in re.findall(rf'/c/{club_id}/standings\?season=([\w-]+)">([^<]+)<', html))
    assert set(seasons) == {"Spring", "Summer"}
    # the log's players are no members: add one so the standings have a row
    assert client.post(f"/c/{club_id}/members", data={"csrf_token": token, "name": log_names[0]}).status_code == 302
    # a member added after the import is not seated in the imported games: import once more
    assert client.post(f"/c/{club_id}/import", data={"csrf_token": token, "played_on": "2026-05-21", "again": "on",
                                                     "log": (io.BytesIO(log), "game.json")},
                       content_type="multipart/form-data").status_code == 302
    spring = standings_rows(client, club_id, seasons["Spring"])
    summer = standings_rows(client, club_id, seasons["Summer"])
    assert spring == [] and [r["games"] for r in summer] == ["1"]
    assert client.post(f"/c/{club_id}/seasons", data={"csrf_token": token, "name": "Again",
                                                      "starts": "2026-05-15"}).status_code == 409
    assert client.post(f"/c/{club_id}/seasons", data={"csrf_token": token, "name": "Bad",
                                                      "starts": "yesterday"}).status_code == 400
    assert client.get(f"/c/{club_id}/standings?season=nope").status_code == 404


def test_an_imported_log_is_seated_by_member_names_and_checked_first(client):
    club_id, token, _ = make_club(client, members=("Ann", "Bo"))
    log = (EXAMPLES / "riichi-session.json").read_bytes()
    response = client.post(f"/c/{club_id}/import", data={"csrf_token": token, "played_on": "2026-11-20",
                                                          "log": (io.BytesIO(log), "session.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 302
    rows = {r["name"]: r for r in standings_rows(client, club_id)}
    assert set(rows) == {"Ann", "Bo"} and rows["Ann"]["games"] == "2"
    exported = client.get(f"/c/{club_id}/season.json?season=all").get_json()
    assert len(exported["games"]) == 2 and all(g["imported"] for g in exported["games"])
    assert {s["name"]: s["member"] is not None for s in exported["games"][0]["seats"]} == \
        {"Ann": True, "Bo": True, "Cy": False, "Di": False}

    def refused(body: bytes, status: int, words: str) -> None:
        answer = client.post(f"/c/{club_id}/import", data={"csrf_token": token, "played_on": "2026-11-21",
                                                           "log": (io.BytesIO(body), "x.json")},
                             content_type="multipart/form-data", headers={"Accept": "application/json"})
        assert answer.status_code == status, answer.get_data(as_text=True)
        assert words in json.dumps(answer.get_json())

    refused(b"{not json", 400, "JSON")
    bad_event = json.loads(log)
    bad_event["games"][0].append({"type": "win", "winner": 9, "han": 1, "fu": 30})
    refused(json.dumps(bad_event).encode(), 422, "game 1")
    huge = json.loads((EXAMPLES / "riichi-game.json").read_text())
    huge["config"]["starting_points"] = 10 ** 9
    refused(json.dumps(huge).encode(), 422, "starting points")
    refused(b" " * (600 * 1024) + b"{}", 413, "KB")
    assert len(client.get(f"/c/{club_id}/season.json?season=all").get_json()["games"]) == 2   # nothing added


def test_a_player_page_shows_the_season_chart_sessions_and_best_hands_with_tiles(client):
    club_id, token, ids = make_club(client)
    session_id = club_session(client, club_id, token)
    play_to_the_end(client, session_id, token)
    page = client.get(f"/c/{club_id}/p/{ids['Aki']}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'data-test="chart"' in html and "<polyline" in html
    assert 'data-test="best-hand-tiles"' in html and html.count('class="tile-svg"') >= 14
    assert "White dragon" in html                            # the hand's yaku, in words
    assert f"/s/{session_id}/settle" in html
    assert client.get(f"/c/{club_id}/p/nobody").status_code == 404


def test_standings_sort_and_bad_sorts(client):
    club_id, token, _ = make_club(client)
    play_to_the_end(client, club_session(client, club_id, token), token)
    by_deal_ins = client.get(f"/c/{club_id}/standings?sort=deal_in_rate").get_data(as_text=True)
    names = re.findall(rf'/c/{club_id}/p/[\w-]+\?season=all">([^<]+)<', by_deal_ins)
    assert names[-1] == "Ben"                                # the most deal-ins last
    assert client.get(f"/c/{club_id}/standings?sort=__class__").status_code == 400


def test_exports_keep_hostile_names_inert(client):
    club_id, token, ids = make_club(client, members=("=HYPERLINK(1)", "<script>x</script>", "Chiyo", "Dan"))
    session_id = club_session(client, club_id, token, player0="=HYPERLINK(1)", player1="<script>x</script>")
    play_to_the_end(client, session_id, token)
    text = client.get(f"/c/{club_id}/standings.csv").get_data(as_text=True)
    assert "'=HYPERLINK(1)" in text and "\n=HYPERLINK" not in text and ",=HYPERLINK" not in text
    for path in ("/standings", "", f"/p/{ids['<script>x</script>']}"):
        html = client.get(f"/c/{club_id}{path}").get_data(as_text=True)
        assert "<script>x</script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html
    assert 'filename="tenbou-' in client.get(f"/c/{club_id}/season.json").headers["Content-Disposition"]


def test_only_a_phone_with_the_club_code_changes_the_club(app, client):
    club_id, token, ids = make_club(client)
    stranger = app.test_client()
    theirs = csrf_of(stranger)
    assert stranger.get(f"/c/{club_id}/standings").status_code == 200      # reading is open
    for path, data in ((f"/c/{club_id}/members", {"name": "Mallory"}),
                       (f"/c/{club_id}/members/{ids['Aki']}", {"name": "Mallory"}),
                       (f"/c/{club_id}/seasons", {"name": "X", "starts": "2026-01-01"}),
                       ("/new", {"club": club_id, **session_form()})):
        assert stranger.post(path, data={"csrf_token": theirs, **data}).status_code == 403
    assert stranger.post(f"/c/{club_id}/members", data={"name": "NoToken"}).status_code == 403
    assert stranger.post(f"/c/{club_id}/join", data={"csrf_token": theirs, "code": "WRONG2"}).status_code == 403
    code = re.search(r'data-test="club-code">([A-Z0-9]+)<', client.get(f"/c/{club_id}").get_data(as_text=True)).group(1)
    assert stranger.post(f"/c/{club_id}/join", data={"csrf_token": theirs, "code": code.lower()}).status_code == 302
    assert stranger.post(f"/c/{club_id}/members", data={"csrf_token": theirs, "name": "Eve"}).status_code == 302
    assert client.get("/c/unknown").status_code == 404


def test_wrong_club_codes_are_throttled(app):
    owner = app.test_client()
    club_id, _, _ = make_club(owner, members=())
    guesser = app.test_client()
    token = csrf_of(guesser)
    answers = [guesser.post(f"/c/{club_id}/join", data={"csrf_token": token, "code": f"WRNG{i:02d}"}).status_code
               for i in range(12)]
    assert 429 in answers and answers[0] == 403


def test_a_result_worked_out_from_events_no_longer_live_is_not_kept(app, client):
    """A replay that raced a new event: the kept row would be stale, so nothing is written."""
    import sqlalchemy as sa

    from webui.storage import kept_results
    from webui.storage.db import get_db, transaction
    from webui.storage.schema.tables import game_result

    club_id, token, _ = make_club(client)
    session_id = club_session(client, club_id, token)
    play_to_the_end(client, session_id, token)
    with app.app_context():
        [played] = kept_results.games(club_id)              # worked out and kept
        with transaction() as db:
            kept_results.forget(db, [session_id])
        kept_results._keep({session_id: played.summary}, {session_id: (1, 1)})   # not what is live
        assert get_db().execute(sa.select(sa.func.count()).select_from(game_result)).scalar() == 0
        assert kept_results.games(club_id)[0].summary == played.summary          # worked out again
        assert get_db().execute(sa.select(sa.func.count()).select_from(game_result)).scalar() == 1


def test_member_names_differing_only_in_case_are_one_name_beyond_ascii(client):
    club_id, token, _ = make_club(client, members=("Äki", "Émile"))
    for name in ("äki", "ÉMILE"):
        assert client.post(f"/c/{club_id}/members", data={"csrf_token": token, "name": name}).status_code == 409
    assert list(member_ids(client, club_id)) == ["Äki", "Émile"]
