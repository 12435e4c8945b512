"""Club nights through the web app, on SQLite and on PostgreSQL: a club's kept rules (saved by a
manager, refused in words when a new session would refuse them, filling in the new-session
form, starting every table of a night), the seat draw of a single table shown on its
scoreboard, a night's rounds drawn with the fewest repeat meetings (Swiss, by lot, three-player
tables and byes), one-tap table starts, the standings after each round, the round timer, the
per-player view, and who may change a night."""
from __future__ import annotations

import re
from html import unescape

import pytest

from webui import create_app

from tests.club_support import app, client  # noqa: F401
from tests.test_web_clubs import make_club
from tests.test_web_support import csrf_of, post_event


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(n)]


def plan_night(client, club_id: str, token: str, ids: dict, players: list[str], **settings) -> str:
    form = {"csrf_token": token, "name": "Thursday night", "rounds": "4", "style": "swiss", "short": "three",
            "winds": "tiles", **settings}
    response = client.post(f"/c/{club_id}/nights", data={**form, "player": [ids[p] for p in players]})
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].split("/")[-1]


def night_state(client, club_id: str, night_id: str) -> dict:
    return client.get(f"/c/{club_id}/n/{night_id}/state.json").get_json()


def draw(client, club_id: str, night_id: str, token: str):
    return client.post(f"/c/{club_id}/n/{night_id}/draw", data={"csrf_token": token})


def start(client, club_id: str, night_id: str, token: str, round_number: int, table: int) -> str:
    response = client.post(f"/c/{club_id}/n/{night_id}/r/{round_number}/t/{table}/start", data={"csrf_token": token})
    assert response.status_code == 302, response.get_data(as_text=True)
    return night_state(client, club_id, night_id)["tables"][round_number - 1][table - 1]


def play_out(client, session_id: str, token: str, winner: int, han: int = 3) -> None:
    """One ron off the next seat, then the players end the game."""
    seats = len(client.get(f"/api/sessions/{session_id}").get_json()["players"])
    assert post_event(client, session_id, token, {"type": "win", "winner": winner, "discarder": (winner + 1) % seats,
                                                  "han": han, "fu": 30}).status_code == 201
    assert post_event(client, session_id, token, {"type": "end"}).status_code == 201


def figure(html: str) -> tuple[int, int]:
    """(repeat meetings, fewest possible) as the night's page prints them."""
    repeats = re.search(r'data-test="repeats">(\d+)<', html)
    fewest = re.search(r"fewest possible: (\d+)", html)
    return int(repeats.group(1)), int(fewest.group(1))


def test_sixteen_members_four_swiss_rounds_meet_nobody_twice(client):
    club_id, token, ids = make_club(client, members=names(16))
    night_id = plan_night(client, club_id, token, ids, names(16))
    by_id = {v: k for k, v in ids.items()}
    top_four = None
    for round_number in range(1, 5):
        assert draw(client, club_id, night_id, token).status_code == 302
        state = night_state(client, club_id, night_id)
        assert state["rounds"] == round_number and len(state["tables"][-1]) == 4
        if round_number == 2:
            # Swiss: the four leaders (each won their table in round 1, so they have not met) sit together
            page = client.get(f"/c/{club_id}/n/{night_id}").get_data(as_text=True)
            tables = [set(re.findall(r'/p/(\w+)">', t))
                      for t in re.findall(r'data-round="2" data-table="\d">(.*?)</ol>', page, re.S)]
            assert set(top_four) in tables, (top_four, tables)
        # the next round waits for this one's games
        refused = draw(client, club_id, night_id, token)
        why = "A table of this round is still playing." if round_number < 4 else "Every round of the night is drawn."
        assert refused.status_code == 409 and why in refused.get_data(as_text=True)
        for table in range(1, 5):
            session_id = start(client, club_id, night_id, token, round_number, table)
            assert start(client, club_id, night_id, token, round_number, table) == session_id   # a second tap
            play_out(client, session_id, token, winner=table % 4, han=table)
        html = client.get(f"/c/{club_id}/n/{night_id}").get_data(as_text=True)
        assert figure(html) == (0, 0)
        assert f"Standings after round {round_number}" in html
        rows = re.findall(r'data-test="night-standing-row">.*?</tr>', html, re.S)
        assert len(rows) == 16
        top_four = [re.search(r'/p/(\w+)">', row).group(1) for row in rows[:4]]
        # every table's session seats its members from East as drawn, under the night's title
        state = night_state(client, club_id, night_id)
        assert state["repeat_meetings"] == 0 and state["fewest_possible"] == 0
    assert "Every round is drawn." in client.get(f"/c/{club_id}/n/{night_id}").get_data(as_text=True)
    assert draw(client, club_id, night_id, token).status_code == 409

    # the standings add each player's four games up: the totals are the sums of the rounds
    html = client.get(f"/c/{club_id}/n/{night_id}").get_data(as_text=True)
    for row in re.findall(r'data-test="night-standing-row">(.*?)</tr>', html, re.S):
        cells = [unescape(c) for c in re.findall(r'<td class="num"[^>]*>([^<]*)</td>', row)]
        total, rounds = float(cells[0]), [float(c) for c in cells[1:]]
        assert len(rounds) == 4 and total == pytest.approx(sum(rounds), abs=0.05)
    # the standings after round 1 are still there to see
    first = client.get(f"/c/{club_id}/n/{night_id}?after=1").get_data(as_text=True)
    assert "Standings after round 1" in first and 'data-after="1"' in first
    # the club's season standings count the night's sixteen games
    games = client.get(f"/c/{club_id}/season.json?season=all").get_json()
    assert sum(r["games"] for r in games["standings"]["riichi"]) == 64
    assert {by_id[r["player"]] for r in games["standings"]["riichi"]} == set(names(16))


def test_a_table_started_from_the_night_seats_the_drawn_winds_and_keeps_the_club_rules(client):
    club_id, token, ids = make_club(client, members=names(8))
    saved = client.post(f"/c/{club_id}/rules", data={"csrf_token": token, "rules": "riichi", "preset": "mleague",
                                                     "length": "east", "starting_points": "25000",
                                                     "return_points": "30000", "uma": "30,10,-10,-30",
                                                     "rate": "2", "chip_value": "0"})
    assert saved.status_code == 302
    night_id = plan_night(client, club_id, token, ids, names(8), rounds="2", style="random")
    draw(client, club_id, night_id, token)
    session_id = start(client, club_id, night_id, token, 1, 1)
    config = client.get(f"/api/sessions/{session_id}").get_json()
    html = client.get(f"/c/{club_id}/n/{night_id}").get_data(as_text=True)
    table = re.search(r'data-round="1" data-table="1">(.*?)</li>\s*</ol>', html, re.S).group(1)
    seated = [unescape(n) for n in re.findall(r'class="name" href="[^"]+">([^<]+)</a>', table)]
    assert config["players"] == seated                              # East first, as drawn
    scoreboard = client.get(f"/s/{session_id}").get_data(as_text=True)
    assert "drawn with wind tiles" in scoreboard                      # every phone sees the draw
    stored = client.get(f"/api/sessions/{session_id}").get_json()
    assert stored["title"].startswith("Thursday night · R1 T1")
    line = re.search(r'data-test="club-rules-line">(.*?)</span>', client.get(f"/c/{club_id}").get_data(as_text=True)).group(1)
    assert line.startswith("Riichi · M.League · East only") and "Money per 1000 points 2" in line
    # the session plays the club's rules: mleague's uma, an east game, rate 2
    from webui.storage import store
    with client.application.app_context():
        kept = store.get_session(session_id).config
    assert kept["uma"] == [30, 10, -10, -30] and kept["length"] == "east" and kept["rate"] == 2
    assert kept["preset"] == "mleague"


def test_club_rules_are_checked_and_fill_in_the_new_session_form(client):
    club_id, token, _ = make_club(client)
    bad = client.post(f"/c/{club_id}/rules", data={"csrf_token": token, "rules": "riichi", "uma": "10,5"})
    assert bad.status_code == 400 and "uma: 4 numbers are needed" in bad.get_data(as_text=True)
    assert client.post(f"/c/{club_id}/rules", data={"csrf_token": token, "rules": "riichi", "preset": "wrc",
                                                    "starting_points": "30000", "return_points": "30000",
                                                    "uma": "15,5,-5,-15", "rate": "0.5",
                                                    "chip_value": "1"}).status_code == 302
    form = client.get(f"/new?club={club_id}").get_data(as_text=True)
    preset = re.search(r'<select name="preset".*?</select>', form, re.S).group(0)
    assert re.findall(r'<option value="(\w+)" selected>', preset) == ["wrc"], preset       # the one selected
    assert 'value="30000" step="100" data-default="starting_points" data-kept="30000"' in form
    assert 'value="15,5,-5,-15"' in form and 'value="0.5"' in form
    # a stranger's phone may not change them
    other = client.application.test_client()
    refused = other.post(f"/c/{club_id}/rules", data={"csrf_token": csrf_of(other), "rules": "riichi"})
    assert refused.status_code == 403


def test_a_seat_draw_reorders_the_typed_players_and_the_scoreboard_shows_it(client):
    token = csrf_of(client)
    form = {"csrf_token": token, "player0": "Aki", "player1": "Ben", "player2": "Chiyo", "player3": "Dan",
            "rules": "riichi", "preset": "tenhou", "seat_draw": "tiles"}
    seen = set()
    for _ in range(12):
        response = client.post("/new", data=form)
        session_id = response.headers["Location"].split("/")[2]
        players = client.get(f"/api/sessions/{session_id}").get_json()["players"]
        assert sorted(players) == ["Aki", "Ben", "Chiyo", "Dan"]
        seen.add(tuple(players))
        board = client.get(f"/s/{session_id}").get_data(as_text=True)
        drawn = re.findall(r"<b>(\w+)</b> drew <span class=\"wind-badge\">(\w+)</span>", board)
        assert sorted(p for p, _ in drawn) == ["Aki", "Ben", "Chiyo", "Dan"]
        east = next(p for p, w in drawn if w == "East")
        assert players[0] == east                                    # who drew East deals first
    assert len(seen) > 1                                             # drawn, not always as typed
    typed = client.post("/new", data={**form, "seat_draw": "typed"}).headers["Location"].split("/")[2]
    assert client.get(f"/api/sessions/{typed}").get_json()["players"] == ["Aki", "Ben", "Chiyo", "Dan"]
    assert 'data-test="seat-draw-shown"' not in client.get(f"/s/{typed}").get_data(as_text=True)
    assert client.post("/new", data={**form, "seat_draw": "dice"}).status_code == 400


def test_thirteen_players_make_three_player_tables_and_a_bye_rule_sits_one_out(client):
    club_id, token, ids = make_club(client, members=names(13))
    night_id = plan_night(client, club_id, token, ids, names(13), rounds="2", style="random")
    draw(client, club_id, night_id, token)
    html = client.get(f"/c/{club_id}/n/{night_id}").get_data(as_text=True)
    seats_at = [t.count("wind-badge") for t in re.findall(r'data-test="night-table".*?</ol>', html, re.S)]
    assert sorted(seats_at) == [3, 3, 3, 4] and len(night_state(client, club_id, night_id)["tables"][0]) == 4
    # a three-player table plays the preset's three-player points and uma
    session_id = start(client, club_id, night_id, token, 1, seats_at.index(3) + 1)
    config = client.get(f"/api/sessions/{session_id}").get_json()
    assert len(config["players"]) == 3 and config["scores"] == [35000] * 3

    bye_night = plan_night(client, club_id, token, ids, names(13), rounds="2", style="random", short="bye")
    draw(client, club_id, bye_night, token)
    page = client.get(f"/c/{club_id}/n/{bye_night}").get_data(as_text=True)
    assert page.count('data-test="night-table"') == 3 and 'data-test="byes"' in page
    sitting_out = re.search(r'data-test="byes">Sitting out: ([^<]+)</p>', page).group(1).strip()
    member = ids[unescape(sitting_out)]
    mine = client.get(f"/c/{club_id}/n/{bye_night}/p/{member}").get_data(as_text=True)
    assert 'data-test="my-bye"' in mine


def test_a_player_sees_their_table_and_wind_and_the_timer_runs_on_the_tv(client):
    club_id, token, ids = make_club(client, members=names(8))
    night_id = plan_night(client, club_id, token, ids, names(8), rounds="3")
    member = ids["P05"]
    waiting = client.get(f"/c/{club_id}/n/{night_id}/p/{member}").get_data(as_text=True)
    assert 'data-test="my-wait"' in waiting
    draw(client, club_id, night_id, token)
    mine = client.get(f"/c/{club_id}/n/{night_id}/p/{member}").get_data(as_text=True)
    table = int(re.search(r'data-test="my-table">Table (\d)<', mine).group(1))
    wind = re.search(r'data-test="my-wind">(\w+)<', mine).group(1)
    night = client.get(f"/c/{club_id}/n/{night_id}").get_data(as_text=True)
    seats = re.search(rf'data-round="1" data-table="{table}">(.*?)</ol>', night, re.S).group(1)
    pairs = re.findall(r'wind-badge">(\w+)</span>\s*<a class="name" href="[^"]+/p/(\w+)">', seats)
    assert (wind, member) in pairs
    assert client.get(f"/c/{club_id}/n/{night_id}/me?member={member}").headers["Location"].endswith(f"/p/{member}")

    tv = client.get(f"/c/{club_id}/n/{night_id}/tv").get_data(as_text=True)
    assert 'data-test="night-timer" hidden' in tv
    assert client.post(f"/c/{club_id}/n/{night_id}/timer", data={"csrf_token": token, "minutes": "45"}).status_code == 302
    state = night_state(client, club_id, night_id)
    assert state["timer"]["minutes"] == 45 and 44 * 60 < state["seconds_left"] <= 45 * 60
    tv = client.get(f"/c/{club_id}/n/{night_id}/tv").get_data(as_text=True)
    assert re.search(r'data-seconds-left="(\d+)"', tv) and "finish the hand in play" in tv
    assert "<script>" not in tv and "night.js" in tv
    assert client.post(f"/c/{club_id}/n/{night_id}/timer", data={"csrf_token": token, "minutes": "0"}).status_code == 400
    assert client.post(f"/c/{club_id}/n/{night_id}/timer", data={"csrf_token": token, "stop": "1"}).status_code == 302
    assert night_state(client, club_id, night_id)["timer"] is None


def test_only_a_manager_changes_a_night_and_its_players_are_members(client):
    club_id, token, ids = make_club(client, members=names(6))
    other_club, _, other_ids = make_club(client, name="Other", members=("Zed",))
    refused = client.post(f"/c/{club_id}/nights", data={"csrf_token": token, "name": "x", "player": [ids["P00"], ids["P01"], other_ids["Zed"]]})
    assert refused.status_code == 400 and "only the club's members" in unescape(refused.get_data(as_text=True))
    too_few = client.post(f"/c/{club_id}/nights", data={"csrf_token": token, "name": "x", "player": [ids["P00"], ids["P01"]]})
    assert too_few.status_code == 400
    night_id = plan_night(client, club_id, token, ids, names(6), rounds="2")
    stranger = client.application.test_client()
    stranger_token = csrf_of(stranger)
    assert stranger.get(f"/c/{club_id}/n/{night_id}").status_code == 200          # anyone may read it
    assert 'data-test="draw-round"' not in stranger.get(f"/c/{club_id}/n/{night_id}").get_data(as_text=True)
    assert draw(stranger, club_id, night_id, stranger_token).status_code == 403
    assert stranger.post(f"/c/{club_id}/n/{night_id}/timer", data={"csrf_token": stranger_token, "minutes": "5"}).status_code == 403
    assert stranger.get(f"/c/{other_club}/n/{night_id}").status_code == 404        # a night of another club
    assert draw(client, club_id, night_id, token).status_code == 302
    assert stranger.post(f"/c/{club_id}/n/{night_id}/r/1/t/1/start", data={"csrf_token": stranger_token}).status_code == 403
    assert client.post(f"/c/{club_id}/n/{night_id}/r/1/t/9/start", data={"csrf_token": token}).status_code == 404
    # the organiser sees each started table's join code, on a page no cache keeps; nobody else sees it
    session_id = start(client, club_id, night_id, token, 1, 1)
    with client.application.app_context():
        from webui.storage import store
        code = store.get_session(session_id).join_code
    managed = client.get(f"/c/{club_id}/n/{night_id}")
    assert managed.headers["Cache-Control"] == "no-store" and f'class="code-small">{code}<' in managed.get_data(as_text=True)
    public = stranger.get(f"/c/{club_id}/n/{night_id}")
    assert "no-store" not in public.headers.get("Cache-Control", "") and 'class="code-small"' not in public.get_data(as_text=True)
    # six players, three-player tables: two of three
    assert len(night_state(client, club_id, night_id)["tables"][0]) == 2


def test_a_single_tv_seats_the_players_around_the_table(client):
    token = csrf_of(client)
    base = {"csrf_token": token, "rules": "riichi", "preset": "tenhou"}
    four = client.post("/new", data={**base, "player0": "A", "player1": "B", "player2": "C", "player3": "D"})
    four_id = four.headers["Location"].split("/")[2]
    places = lambda html: dict(re.findall(r'data-seat="(\d)" data-at="(\w+)"', html))
    assert places(client.get(f"/s/{four_id}/tv").get_data(as_text=True)) == {"0": "bottom", "1": "right", "2": "top", "3": "left"}
    # the TV at seat 2's side: seat 2 at the bottom, the one after it on the right
    assert places(client.get(f"/s/{four_id}/tv?side=2").get_data(as_text=True)) == {"2": "bottom", "3": "right", "0": "top", "1": "left"}
    three = client.post("/new", data={**base, "player0": "A", "player1": "B", "player2": "C"})
    three_html = client.get(f"/s/{three.headers['Location'].split('/')[2]}/tv").get_data(as_text=True)
    assert places(three_html) == {"0": "bottom", "1": "right", "2": "left"}
    assert "table-ring-3" in three_html and three_html.count('class="seat ') == 3


def test_a_night_by_rating_spreads_the_strong_players_over_the_tables(client):
    club_id, token, ids = make_club(client, members=names(8))
    by_id = {v: k for k, v in ids.items()}
    fresh = plan_night(client, club_id, token, ids, names(8), rounds="1", style="rating")
    assert 'data-test="no-ratings"' in client.get(f"/c/{club_id}/n/{fresh}").get_data(as_text=True)
    # a first night's one round: at each table one player wins big, the next deals in
    draw(client, club_id, fresh, token)
    place_of = {}
    for table in (1, 2):
        session_id = start(client, club_id, fresh, token, 1, table)
        play_out(client, session_id, token, winner=0, han=5)
        summary = client.get(f"/api/sessions/{session_id}").get_json()
        order = sorted(range(4), key=lambda s: -summary["scores"][s])
        for place, seat in enumerate(order, start=1):
            place_of[summary["players"][seat]] = place
    assert sorted(place_of.values()) == [1, 1, 2, 2, 3, 3, 4, 4]
    # three nights drawn by rating (a split by lot does this one time in four)
    for _ in range(3):
        rated = plan_night(client, club_id, token, ids, names(8), rounds="1", style="rating")
        page = client.get(f"/c/{club_id}/n/{rated}").get_data(as_text=True)
        assert 'data-test="no-ratings"' not in page
        draw(client, club_id, rated, token)
        page = client.get(f"/c/{club_id}/n/{rated}").get_data(as_text=True)
        for table in (1, 2):
            seats = re.search(rf'data-round="1" data-table="{table}">(.*?)</ol>', page, re.S).group(1)
            members = [by_id[m] for m in re.findall(r'/p/(\w+)">', seats)]
            # one of each place of the first night at each table: the two winners apart, the two last apart
            assert sorted(place_of[m] for m in members) == [1, 2, 3, 4], members


def test_tenbou_db_copy_takes_a_clubs_rules_nights_and_seat_draws_along(client, app, tmp_path, database_url, capsys):
    from webui.cli import main
    from webui.storage import db

    club_id, token, ids = make_club(client, members=names(8))
    client.post(f"/c/{club_id}/rules", data={"csrf_token": token, "rules": "riichi", "preset": "wrc"})
    night_id = plan_night(client, club_id, token, ids, names(8), rounds="2")
    draw(client, club_id, night_id, token)
    session_id = start(client, club_id, night_id, token, 1, 2)
    before = client.get(f"/c/{club_id}/n/{night_id}").get_data(as_text=True)
    home = app.config["DATABASE_URL"]
    destination = db.url_for_path(tmp_path / "club-server.sqlite3")
    assert main(["db", "copy", "--from", home, "--to", destination]) == 0
    assert "1 club nights" in capsys.readouterr().out
    copied = create_app({"DATA_DIR": str(tmp_path / "server"), "DATABASE_URL": destination, "TESTING": True,
                         "SECRET_KEY": "test"})
    there = copied.test_client()
    page = there.get(f"/c/{club_id}/n/{night_id}").get_data(as_text=True)
    seats = lambda html: re.findall(r'data-round="1" data-table="\d">.*?</ol>', html, re.S)
    assert seats(page) == seats(before)                                   # the same tables and winds
    assert "drawn with wind tiles" in there.get(f"/s/{session_id}").get_data(as_text=True)
    assert 'data-test="club-rules-line">Riichi · WRC' in there.get(f"/c/{club_id}").get_data(as_text=True)
    assert main(["db", "copy", "--from", home, "--to", destination]) == 0    # a second copy copies nothing new
    copied.extensions["tenbou.broker"].close()
    copied.extensions["tenbou.db"].dispose()


@pytest.mark.parametrize("path, form", [
    ("/c/{club}/nights", {"name": "x" * 500, "rounds": "4"}),
    ("/c/{club}/nights", {"name": "x", "rounds": "1e9", "player": ["a"]}),
    ("/c/{club}/nights", {"name": "x", "rounds": "4", "style": "chess", "player": ["a"]}),
    ("/c/{club}/nights", {"name": "x", "rounds": "-1"}),
    ("/c/{club}/n/{night}/timer", {"minutes": "99999999999999999999"}),
    ("/c/{club}/n/{night}/timer", {"minutes": "ten"}),
    ("/c/{club}/n/{night}/r/99999999999999999999/t/1/start", {}),
    ("/c/{club}/n/{night}/r/0/t/0/start", {}),
    ("/c/{club}/rules", {"rules": "poker"}),
    ("/c/{club}/rules", {"rules": "riichi", "starting_points": "1e400", "uma": "x"}),
    ("/c/{club}/rules", {"rules": "chinese-classical", "limit": "-5"}),
    ("/new", {"player0": "A", "player1": "a", "player2": "B", "seat_draw": "tiles", "rules": "riichi"}),
])
def test_junk_sent_to_a_night_is_refused_in_words(client, path, form):
    club_id, token, ids = make_club(client, members=names(4))
    night_id = plan_night(client, club_id, token, ids, names(4), rounds="1")
    response = client.post(path.format(club=club_id, night=night_id), data={"csrf_token": token, **form})
    assert 400 <= response.status_code < 500, response.status_code
    assert b"Traceback" not in response.get_data()
    for page in (f"/c/{club_id}/n/{night_id}?after=99999999999999999999", f"/c/{club_id}/n/{night_id}/me?member=x",
                 f"/c/{club_id}/n/nonight/tv", f"/c/{club_id}/n/{night_id}/p/{ids['P00']}x"):
        assert client.get(page).status_code in (200, 404)


def test_a_nights_results_are_written_the_clubs_way_as_its_standings_are(client):
    """The night's page, its TV and a player's night page write results as the club's standings
    and CSV do: Tenhou's 0.1 until the club chooses, then 五捨六入 (whole thousands, the rest to
    first place) or the exact figure, each game rounded as its standings round it."""
    from decimal import Decimal

    from tests.test_web_clubs import standings_rows

    club_id, token, ids = make_club(client, members=names(4))
    night_id = plan_night(client, club_id, token, ids, names(4), rounds="1")
    assert draw(client, club_id, night_id, token).status_code == 302
    # the dealer's 3 han 30 fu ron, 5,800: results in hundreds, which 五捨六入 rounds away
    play_out(client, start(client, club_id, night_id, token, 1, 1), token, winner=0, han=3)
    by_name = {v: k for k, v in ids.items()}
    night_url = f"/c/{club_id}/n/{night_id}"

    def night_totals() -> dict[str, str]:
        html = client.get(night_url).get_data(as_text=True)
        rows = re.findall(r'data-test="night-standing-row">(.*?)</tr>', html, re.S)
        found = {}
        for row in rows:
            name = by_name[re.search(r'/p/(\w+)">', row).group(1)]
            total, *rounds = re.findall(r'<td class="num"[^>]*>([^<]*)</td>', row)
            assert rounds == [total], row                      # one round: its result is the total
            found[name] = total
        tv = client.get(night_url + "/tv").get_data(as_text=True)
        ranking = tv.split('data-test="tv-standings"')[1].split("</ol>")[0]
        assert dict(re.findall(r'class="name">([^<]+)</span> <b class="num">([^<]+)<', ranking)) == found
        for name, total in found.items():
            mine = client.get(f"{night_url}/p/{ids[name]}").get_data(as_text=True)
            assert re.search(r'data-test="my-standing">[^<]*· ' + re.escape(total) + "<", mine), (name, total)
            assert f'<b class="num">{total}</b>' in mine
        return found

    def written() -> dict[str, Decimal]:
        return {row["name"]: Decimal(row["result"]) for row in standings_rows(client, club_id)}

    tenhou = night_totals()
    assert all(re.fullmatch(r"[+-]\d+\.\d", v) for v in tenhou.values()), tenhou
    assert {name: Decimal(v) for name, v in tenhou.items()} == written()
    assert any(not v.endswith(".0") for v in tenhou.values())       # a figure 五捨六入 must round

    assert client.post(f"/c/{club_id}/rounding", data={"csrf_token": token, "rounding": "gosha_rokunyu"}).status_code == 302
    gosha = night_totals()
    assert all(re.fullmatch(r"[+-]\d+", v) for v in gosha.values()), gosha
    assert {name: Decimal(v) for name, v in gosha.items()} == written()
    assert sum(int(v) for v in gosha.values()) == 0                  # the table still adds up

    assert client.post(f"/c/{club_id}/rounding", data={"csrf_token": token, "rounding": "none"}).status_code == 302
    exact = night_totals()
    assert {name: Decimal(v) for name, v in exact.items()} == written()
