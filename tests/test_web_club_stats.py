"""A club's ratings, statistics and written results through the web app, on SQLite and on
PostgreSQL (the kept figures' fingerprint is an aggregate query both must answer alike):
ratings moved by places and kept until a game changes, the standings sorted by rating, each
member's statistics with their samples on the player's and the club's page, the club's rounding
on the page and in the CSV, the yaku picked for a win entered by han and fu kept in the event
and counted, and the all-last conditions of the last hand checked against the ledger."""
from __future__ import annotations

import re
from html import unescape

import sqlalchemy as sa

from tests.club_support import app, client  # noqa: F401
from tests.test_web_clubs import club_session, make_club, play_to_the_end, standings_rows
from tests.test_web_support import post_event, state


def finish(client, session_id: str, token: str, winner: int, discarder: int, han: int = 3) -> None:
    """One East-only game: `winner` rons `discarder` once, then the players stop."""
    assert post_event(client, session_id, token, {"type": "win", "winner": winner, "discarder": discarder,
                                                  "han": han, "fu": 30}).status_code == 201
    assert post_event(client, session_id, token, {"type": "end"}).status_code == 201


def ratings_rows(client, club_id: str) -> list[tuple[str, float, int]]:
    """(name, rating, games) from the ratings page, best first."""
    html = client.get(f"/c/{club_id}/ratings").get_data(as_text=True)
    rows = re.findall(r'data-test="rating-row">.*?<a [^>]*>([^<]+)</a>.*?data-test="rating-value"><b>([-\d.]+)</b>'
                      r'.*?<td class="num">[^<]*</td>\s*<td class="num">(\d+)</td>', html, re.S)
    return [(unescape(name), float(rating), int(games)) for name, rating, games in rows]


def test_ratings_follow_the_places_and_are_kept_until_a_game_changes(app, client):
    from webui.storage.db import get_db
    from webui.storage.schema.tables import club_figures

    club_id, token, ids = make_club(client)
    assert "data-test=\"no-ratings\"" in client.get(f"/c/{club_id}/ratings").get_data(as_text=True)
    for _ in range(3):                                       # Chiyo wins off Ben every game
        finish(client, club_session(client, club_id, token), token, winner=2, discarder=1)
    rows = ratings_rows(client, club_id)
    assert [name for name, _, _ in rows][0] == "Chiyo" and [name for name, _, _ in rows][-1] == "Ben"
    assert all(games == 3 for _, _, games in rows)
    assert rows[0][1] > 0 > rows[-1][1]
    with app.app_context():
        kept = get_db().execute(sa.select(club_figures.c.scope, club_figures.c.fingerprint)).all()
    assert {"ratings", f"rating_history:{ids['Chiyo']}"} <= {scope for scope, _ in kept}
    # a look with nothing changed reads what was kept; a game in play changes nothing counted
    playing = club_session(client, club_id, token)
    assert post_event(client, playing, token, {"type": "win", "winner": 1, "discarder": 2,
                                               "han": 4, "fu": 30}).status_code == 201
    assert ratings_rows(client, club_id) == rows
    with app.app_context():
        assert get_db().execute(sa.select(club_figures.c.scope, club_figures.c.fingerprint)).all() == kept
    # the game ends: Ben's first first place moves him up, and the ratings are made again
    assert post_event(client, playing, token, {"type": "end"}).status_code == 201
    after = dict((name, rating) for name, rating, _ in ratings_rows(client, club_id))
    assert after["Ben"] > dict((n, r) for n, r, _ in rows)["Ben"]
    # an undo of the end takes the game out of the ratings again
    assert client.post(f"/api/sessions/{playing}/undo", headers={"X-CSRF-Token": token}).status_code == 200
    assert ratings_rows(client, club_id) == rows


def test_the_standings_sort_by_rating_and_the_player_page_charts_it(client):
    club_id, token, ids = make_club(client)
    for winner in (2, 2, 3):
        finish(client, club_session(client, club_id, token), token, winner=winner, discarder=1)
    page = client.get(f"/c/{club_id}/standings?season=all&sort=rating").get_data(as_text=True)
    listed = [unescape(n) for n in re.findall(r'data-test="standing-row">.*?<a [^>]*>([^<]+)</a>', page, re.S)]
    shown = [float(v) for v in re.findall(r'data-test="standing-rating">([-\d.]+)<', page)]
    assert shown == sorted(shown, reverse=True) and len(shown) == 4 and listed[-1] == "Ben"
    assert 'data-test="sort-rating"' in page
    player = client.get(f"/c/{club_id}/p/{ids['Chiyo']}?season=all").get_data(as_text=True)
    assert 'data-test="rating-chart"' in player and 'data-test="player-rating"' in player
    chart = player.split('data-test="rating-chart"')[1].split("</svg>")[0]
    assert chart.count("<polyline") == 1 and chart.count(",") >= 4      # a point a game, from 0
    assert client.get(f"/c/{club_id}/standings?sort=nonsense").status_code == 400


def test_statistics_say_what_they_count_over(client):
    club_id, token, ids = make_club(client)
    # Aki riichis and wins by tiles (haku, tsumo); Chiyo rons Ben; Dan rons Ben
    session_id = club_session(client, club_id, token)
    play_to_the_end(client, session_id, token)
    page = client.get(f"/c/{club_id}/stats?season=all").get_data(as_text=True)
    assert page.count('data-test="stats-row"') == 4
    assert page.count('<svg class="stack"') == 4 and "<script" not in page.split("<main")[1].split("</main>")[0]
    ben = client.get(f"/c/{club_id}/p/{ids['Ben']}?season=all").get_data(as_text=True)
    stats = ben.split('data-test="player-stats"')[1].split("</dl>")[0]
    assert "66.7%" in stats and "2 of 3" in stats                      # Ben dealt in 2 of 3 hands
    aki = client.get(f"/c/{club_id}/p/{ids['Aki']}?season=all").get_data(as_text=True)
    aki_stats = aki.split('data-test="player-stats"')[1].split("</dl>")[0]
    assert "100.0%" in aki_stats and "1 of 1" in aki_stats            # the riichi won, by tsumo
    assert 'data-test="yaku-rates"' in aki and ("White dragon" in aki or "役牌 白" in aki)
    assert aki.count('class="bar ') == 4                               # placements, first to fourth


def test_a_club_writes_its_results_its_way(client):
    club_id, token, ids = make_club(client)
    session_id = club_session(client, club_id, token)
    play_to_the_end(client, session_id, token)
    exact = {r["name"]: int(r["result_points"]) for r in standings_rows(client, club_id)}
    tenhou = {r["name"]: r["result"] for r in standings_rows(client, club_id)}
    assert all(re.fullmatch(r"-?\d+\.\d", v) for v in tenhou.values())
    # 五捨六入: whole thousands, the difference to first place, the table still adding up
    assert client.post(f"/c/{club_id}/rounding", data={"csrf_token": token, "rounding": "gosha_rokunyu"}).status_code == 302
    written = {r["name"]: r["result"] for r in standings_rows(client, club_id)}
    assert all(re.fullmatch(r"-?\d+", v) for v in written.values())
    assert sum(int(v) for v in written.values()) == round(sum(exact.values()) / 1000)
    page = client.get(f"/c/{club_id}/standings?season=all").get_data(as_text=True)
    shown = re.findall(r'data-test="standing-result">([^<]+)<', page)
    assert sorted(shown) == sorted(f"{int(v):+d}" if int(v) else "+0" for v in written.values())
    player = client.get(f"/c/{club_id}/p/{ids['Aki']}?season=all").get_data(as_text=True)
    assert re.search(r'data-test="player-result">[+-]\d+<', player)
    chart = player.split('data-test="chart"')[1].split("</svg>")[0]
    assert not re.search(r'class="tick">[-+]?\d{1,3},\d{3}<', chart)    # ticks in thousands, not points
    assert client.post(f"/c/{club_id}/rounding", data={"csrf_token": token, "rounding": "none"}).status_code == 302
    assert {r["name"]: float(r["result"]) for r in standings_rows(client, club_id)} == {
        name: points / 1000 for name, points in exact.items()}
    assert client.post(f"/c/{club_id}/rounding", data={"csrf_token": token, "rounding": "round"}).status_code == 400


def test_only_the_club_chooses_its_rounding(app, client):
    club_id, token, _ = make_club(client)
    other = app.test_client()
    from tests.test_web_support import csrf_of
    stranger = csrf_of(other)
    assert other.post(f"/c/{club_id}/rounding", data={"csrf_token": stranger, "rounding": "none"}).status_code == 403
    assert 'data-test="rounding-form"' not in other.get(f"/c/{club_id}/stats").get_data(as_text=True)
    assert 'data-test="rounding-form"' in client.get(f"/c/{club_id}/stats").get_data(as_text=True)


def test_yaku_picked_by_han_and_fu_are_kept_and_counted(app, client):
    club_id, token, ids = make_club(client)
    session_id = club_session(client, club_id, token)
    win = {"type": "win", "winner": 2, "discarder": 1, "han": 4, "fu": 30,
           "yaku": ["riichi", "tanyao"], "dora": 1, "aka_dora": 1}
    assert post_event(client, session_id, token, win).status_code == 201
    with app.app_context():
        from webui.storage import store
        body = store.events(session_id)[-1].body
    assert [y["id"] for y in body["result"]["yaku"]] == ["riichi", "tanyao", "dora", "aka_dora"]
    assert body["result"]["han"] == 4 and body["open"] is False
    assert state(client, session_id)["scores"][2] > 25000
    # the yaku must add up to the han given; a closed hand's yaku on an open hand is refused
    assert post_event(client, session_id, token, {**win, "han": 5}).status_code == 400
    assert post_event(client, session_id, token, {**win, "open": True, "yaku": ["riichi", "tanyao"]}).status_code == 400
    assert post_event(client, session_id, token, {**win, "yaku": ["riichi", "made_up"]}).status_code == 400
    # an open hand: honitsu is 2 there, and the han follow
    assert post_event(client, session_id, token, {"type": "win", "winner": 3, "discarder": 0, "han": 3, "fu": 30,
                                                  "yaku": ["honitsu", "yakuhai_chun"], "open": True}).status_code == 201
    assert post_event(client, session_id, token, {"type": "end"}).status_code == 201
    chiyo = client.get(f"/c/{club_id}/p/{ids['Chiyo']}?season=all").get_data(as_text=True)
    rates = chiyo.split('data-test="yaku-rates"')[1].split("</ul>")[0]
    assert ("Riichi" in rates or "立直" in rates) and "dora" not in rates.lower()
    dan = client.get(f"/c/{club_id}/p/{ids['Dan']}?season=all").get_data(as_text=True)
    assert "1 of 1" in dan.split('data-test="player-stats"')[1].split("</dl>")[0]     # a win with calls


def test_the_record_page_offers_the_yaku_grouped_riichi_first(client):
    club_id, token, _ = make_club(client)
    session_id = club_session(client, club_id, token)
    page = client.get(f"/s/{session_id}/record").get_data(as_text=True)
    groups = re.findall(r'data-test="yaku-group-(\w+)"', page)
    assert groups[0] == "won" and groups[-1] == "yakuman" and "han1" in groups
    first = page.split('data-test="yaku-group-won"')[1]
    assert first.index('data-test="yaku-riichi"') < first.index('data-test="yaku-menzen_tsumo"')
    assert 'data-yaku-pick="honitsu" data-han-closed="3" data-han-open="2"' in page
    assert 'data-yaku-pick="pinfu" data-han-closed="1" data-han-open="0"' in page
    assert '<input type="hidden" name="yaku">' in page


def test_the_last_hand_says_what_each_player_needs_and_it_holds(client):
    from scorer.all_last import places_of
    from scorer.game import GameConfig, apply, new_game

    club_id, token, _ = make_club(client)
    session_id = club_session(client, club_id, token)
    hands = [{"type": "win", "winner": 1, "discarder": 0, "han": 3, "fu": 30},
             {"type": "win", "winner": 3, "discarder": 2, "han": 2, "fu": 30},
             {"type": "draw", "tenpai": [1]}]
    assert state(client, session_id)["all_last"] is None                # East 1 of an East-only game
    for hand in hands:
        assert post_event(client, session_id, token, hand).status_code == 201
    board = state(client, session_id)
    view = board["all_last"]
    assert view is not None and len(view["seats"]) == 4
    assert sorted(s["place"] for s in view["seats"]) == [1, 2, 3, 4]
    leader = next(s for s in view["seats"] if s["place"] == 1)
    assert leader["next"] is None
    # every stated ron and tsumo, played through the ledger, moves its player up to that place
    config = GameConfig.from_json({**state_config(client, session_id)})
    game = new_game(config)
    for hand in hands:
        game = apply(config, game, hand)
    assert list(game.scores) == board["scores"]
    checked = 0
    for seat, conditions in enumerate(view["seats"]):
        need = conditions["next"]
        if need is None:
            continue
        wins = [({"discarder": r["from"]}, r["hand"]) for r in need["ron"]] + [({}, need["tsumo"])]
        for how, hand in wins:
            if hand is None:
                continue
            numbers = {"yakuman": hand["yakuman"]} if hand["yakuman"] else {"han": hand["han"], "fu": hand["fu"]}
            after = apply(config, game, {"type": "win", "winner": seat, **how, **numbers})
            assert places_of(tuple(after.hands[-1].scores))[seat] <= need["place"], (seat, how, hand)
            checked += 1
    assert checked >= 9
    page = client.get(f"/s/{session_id}/tv").get_data(as_text=True)
    assert page.count('data-field="all-last"') == 4 and '"allLast"' in page


def state_config(client, session_id: str) -> dict:
    from webui.storage import store
    with client.application.app_context():
        return store.get_session(session_id).config


def test_the_quick_way_of_writing_a_game_agrees_with_the_scorers_rounding():
    """`written_game` skips `round_game` for the usual game (results in hundreds): the same
    numbers, written the same way, for any results."""
    import random
    from decimal import Decimal

    from scorer.club import GameSummary, SeatLine
    from scorer.rounding import ROUNDINGS, round_game
    from webui.play.standings import written_game

    rng = random.Random(26)
    for _ in range(500):
        results = [rng.choice((100, 10, 1)) * rng.randrange(-900, 900) for _ in range(4)]
        places = sorted(range(4), key=lambda s: -results[s])
        seats = tuple(SeatLine(s, f"P{s}", 25000, places.index(s) + 1, results[s], 0, 0, 0, 0) for s in range(4))
        summary = GameSummary("riichi", True, 8, seats)
        for rounding in ROUNDINGS:
            quick = written_game(summary, rounding)
            slow = round_game(results, rounding, places[0])
            assert quick == slow and [str(q) for q in quick] == [str(v) for v in slow], (results, rounding)
    assert written_game(GameSummary("fundamentals", True, 8, ()), "tenhou") is None
    assert Decimal("0.0") == written_game(GameSummary("riichi", True, 1, (SeatLine(0, "A", 0, 1, 0, 0, 0, 0, 0),)),
                                          "tenhou")[0]


def test_the_pages_speak_japanese_too(client):
    club_id, token, ids = make_club(client)
    play_to_the_end(client, club_session(client, club_id, token), token)
    client.set_cookie("lang", "ja")
    stats = client.get(f"/c/{club_id}/stats?season=all").get_data(as_text=True)
    assert "和了率" in stats and "中" in stats                   # "4中1": one of four
    assert "レーティング" in client.get(f"/c/{club_id}/ratings").get_data(as_text=True)
    player = client.get(f"/c/{club_id}/p/{ids['Aki']}?season=all").get_data(as_text=True)
    assert "順位分布" in player and "対局ごとのレート" in player


def test_the_preview_names_the_yaku_picked_and_refuses_a_mismatch_in_words(client):
    club_id, token, _ = make_club(client)
    session_id = club_session(client, club_id, token)

    def preview(**body):
        response = client.post(f"/api/sessions/{session_id}/preview", headers={"X-CSRF-Token": token},
                               json={"winner": 1, "discarder": 0, **body})
        assert response.status_code == 200, response.get_data(as_text=True)
        return response.get_json()["result"]
    named = preview(han=3, fu=40, yaku="riichi,tanyao", dora="1")
    assert named["ok"] and [y["id"] for y in named["yaku"]] == ["riichi", "tanyao", "dora"]
    assert named["points"] == 5200
    refused = preview(han=4, fu=40, yaku="riichi,tanyao", dora="1")
    assert not refused["ok"] and "3 han, not 4" in refused["error"]["message"]
    yakuman = preview(yakuman=1, yaku=["daisangen"])
    assert yakuman["ok"] and yakuman["yaku"] == [{"id": "daisangen", "han": 13}]
    for odd in ({"yaku": 5}, {"yaku": [1, 2]}, {"yaku": "riichi", "dora": "many"}):
        response = client.post(f"/api/sessions/{session_id}/preview", headers={"X-CSRF-Token": token},
                               json={"winner": 1, "discarder": 0, "han": 1, "fu": 30, **odd})
        assert response.status_code == 400 and "Traceback" not in response.get_data(as_text=True)


def test_three_players_in_the_last_hand_see_theirs(client):
    club_id, token, _ = make_club(client)
    session_id = club_session(client, club_id, token, player3="", uma="15,0,-15", starting_points="35000",
                              return_points="40000")
    for hand in ({"type": "win", "winner": 1, "discarder": 0, "han": 2, "fu": 30},
                 {"type": "win", "winner": 2, "discarder": 1, "han": 1, "fu": 30}):
        assert post_event(client, session_id, token, hand).status_code == 201
    view = state(client, session_id)["all_last"]
    assert view is not None and len(view["seats"]) == 3
    assert sorted(s["place"] for s in view["seats"]) == [1, 2, 3]
    for seat in view["seats"]:
        if seat["next"]:
            assert len(seat["next"]["ron"]) == 2
