"""Issue 25, the club server under attack, on SQLite and on PostgreSQL: poisoned settle logs
refused in words (by the page and by `tenbou club import`, one line and exit 2) while every
club page keeps answering; events kept before the check break nothing; scoreboards and an
ended game's PDF kept per version of the events; and the low findings (a pao that is no seat
wind, a stale "not ended" written after an `end`, one member in two seats, unreadable names,
season dates, a rename racing a new session, a --database file that is no database)."""
from __future__ import annotations

import copy
import io
import json
import os
import stat
from pathlib import Path

import pytest

from webui import create_app
from webui.cli import main

from tests.club_support import app, client  # noqa: F401
from tests.test_log_check import HOSTILE, log_with
from tests.test_web_clubs import club_session, make_club, member_ids, play_to_the_end
from tests.test_web_support import WIN_HAKU_TSUMO, post_event, session_form, state

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
# the hostile logs a page import must refuse (the others of tests/test_log_check.py are the same
# kinds of value in other places)
PAGE_HOSTILE = ("result yaku of numbers", "request a string", "chips 10**400", "chombo_penalty 10**400",
                "hand 9z9z9z", "melds 5", "hand {id: 7}", "length {}", "type {}", "one member in two seats",
                "a look-alike name", "uma Infinity")


def import_log(client, club_id: str, token: str, log, played_on: str = "2026-11-20"):
    body = log if isinstance(log, bytes) else json.dumps(log).encode()
    return client.post(f"/c/{club_id}/import", data={"csrf_token": token, "played_on": played_on,
                                                     "log": (io.BytesIO(body), "log.json")},
                       content_type="multipart/form-data", headers={"Accept": "application/json"})


def club_pages_answer(client, club_id: str, member_id: str) -> None:
    for path in ("/standings", "/standings.csv?season=all", "/season.json?season=all", "/standings/tv",
                 f"/p/{member_id}", "", "/lobby", "/tv"):
        response = client.get(f"/c/{club_id}{path}")
        assert response.status_code == 200, (path, response.status_code)


def test_each_poisoned_log_is_refused_in_words_and_the_club_still_answers(client):
    club_id, token, ids = make_club(client, members=("Ann", "Bo"))
    assert import_log(client, club_id, token, (EXAMPLES / "riichi-session.json").read_bytes()).status_code == 302
    for name in PAGE_HOSTILE:
        answer = import_log(client, club_id, token, copy.deepcopy(HOSTILE[name]))
        assert answer.status_code in (400, 422), (name, answer.status_code)
        said = answer.get_json()
        assert said and "Traceback" not in json.dumps(said) and len(json.dumps(said)) < 1000, name
        club_pages_answer(client, club_id, ids["Ann"])
    exported = client.get(f"/c/{club_id}/season.json?season=all").get_json()
    assert len(exported["games"]) == 2                      # nothing of the poisoned logs was added


def test_an_imported_hand_is_stored_as_scored_again_never_as_given(app, client):
    club_id, token, ids = make_club(client, members=("Ann", "Bo"))
    forged = {"ok": True, "han": 13, "fu": 0, "yakuman": 1, "points": 48000,
              "yaku": [{"id": 7}, {"id": "kokushi", "han": 13}]}
    log = log_with({"type": "win", "winner": 0, "result": forged,
                    "request": {**WIN_HAKU_TSUMO, "melds": [], "honba": 40, "junk": "x"}})
    assert import_log(client, club_id, token, log).status_code == 302
    from webui.play import clubs
    from webui.storage import store
    with app.app_context():
        session_id = clubs.club_sessions(club_id)[0].id
        win = [e.body for e in store.events(session_id) if e.body["type"] == "win"][0]
    assert win["result"]["yakuman"] == 0 and "junk" not in win["request"]
    assert {y["id"] for y in win["result"]["yaku"]} >= {"riichi", "yakuhai_haku"}
    page = client.get(f"/c/{club_id}/p/{ids['Ann']}")
    assert page.status_code == 200 and "kokushi" not in page.get_data(as_text=True)


def test_events_kept_before_the_check_break_no_page(app, client):
    """A club poisoned by an import from before issue 25 (written straight into the database):
    its pages answer, the poisoned game is left out of the standings, its settlement is refused
    in words."""
    from webui.storage import store
    club_id, token, ids = make_club(client, members=("Ann", "Bo"))
    poisoned = [
        [{"type": "win", "winner": 0, "han": 2, "fu": 30, "result": {"yaku": [1]}}],
        [{"type": "win", "winner": 0, "han": 2, "fu": 30, "request": "concealed"}],
        [{"type": "win", "winner": 0, "han": 2, "fu": 30, "chips": 10 ** 400}],
        [{"type": "win", "winner": 0, "han": 2, "fu": 30,
          "request": {"concealed": "9z9z9z", "melds": 5, "win_tile": {"id": 7}}}],
    ]
    config = {**log_with()["config"]}
    with app.app_context():
        made = [store.create_session(config, "", club_id=club_id, members={0: ids["Ann"], 1: ids["Bo"]},
                                     played=store.Played("2026-11-20T00:00:01.000Z", events))
                for events in poisoned]
        penalty = store.create_session({**config, "options": {"chombo": "penalty", "chombo_penalty": 10 ** 400}},
                                       "", club_id=club_id, played=store.Played("2026-11-20T00:00:02.000Z",
                                                                               [{"type": "chombo", "seat": 1}]))
    club_pages_answer(client, club_id, ids["Ann"])
    for session in [*made, penalty]:
        for path in ("/settle", "/settle.pdf", "", "/tv"):
            assert client.get(f"/s/{session.id}{path}").status_code < 500, (session.id, path)


def test_tenbou_club_standings_of_a_club_poisoned_before_the_check(tmp_path, capsys):
    from webui.play import clubs
    from webui.storage import store
    app = create_app({"DATA_DIR": str(tmp_path)})
    with app.app_context():
        club = clubs.create_club("Thursday")
        ann = clubs.add_member(club.id, "Ann")
        for events in ([{"type": "win", "winner": 0, "han": 2, "fu": 30, "result": {"yaku": [1]}}],
                       [{"type": "win", "winner": 0, "han": 2, "fu": 30, "chips": 10 ** 400}],
                       [{"type": "win", "winner": 0, "han": 2, "fu": 30, "request": {"melds": 5, "concealed": 7}}]):
            store.create_session(log_with()["config"], "", club_id=club.id, members={0: ann.id},
                                 played=store.Played("2026-11-20T00:00:01.000Z", events))
    for argv in (["club", "standings", club.id, "--season", "all"], ["club", "standings", club.id, "--csv"]):
        assert main([*argv, "--data", str(tmp_path)]) == 0
        assert "Traceback" not in capsys.readouterr().err


def test_tenbou_club_import_refuses_each_poisoned_log_in_one_line(tmp_path, capsys):
    from webui.play import clubs
    app = create_app({"DATA_DIR": str(tmp_path)})
    with app.app_context():
        club = clubs.create_club("Thursday")
    data = ["--data", str(tmp_path)]
    for name in PAGE_HOSTILE:
        path = tmp_path / "log.json"
        path.write_text(json.dumps(HOSTILE[name]))
        assert main(["club", "import", club.id, str(path), "--played-on", "2026-11-01", *data]) == 2, name
        err = capsys.readouterr().err
        assert err.startswith("tenbou club: ") and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    path.write_text(json.dumps(log_with()))
    for day in ("20261101", "2026-W14-1", "2026-11-01x", "yesterday"):
        assert main(["club", "import", club.id, str(path), "--played-on", day, *data]) == 2
        assert "a date such as" in capsys.readouterr().err
    assert main(["club", "standings", club.id, "--season", "all", *data]) == 0
    with app.app_context():
        assert clubs.club_sessions(club.id) == []


# --- scoreboards and PDFs kept per version of the events ---------------------------------

def _count_replays(monkeypatch) -> list[str]:
    from webui.play import ledger
    loads: list[str] = []
    real = ledger.load

    def counted(game_session):
        loads.append(game_session.id)
        return real(game_session)
    monkeypatch.setattr(ledger, "load", counted)
    return loads


def test_the_lobby_replays_a_table_only_when_its_events_changed(client, monkeypatch):
    club_id, token, ids = make_club(client)
    tables = [club_session(client, club_id, token) for _ in range(3)]
    for session_id in tables:
        assert post_event(client, session_id, token, {"type": "riichi", "seat": 0}).status_code == 201
    loads = _count_replays(monkeypatch)
    first = client.get("/api/lobby").get_json()["tables"]
    assert len(first) == 3
    again = client.get("/api/lobby").get_json()["tables"]
    assert again == first and loads.count(tables[0]) <= 1
    before = len(loads)
    for _ in range(3):
        client.get("/api/lobby")
        client.get(f"/api/clubs/{club_id}/lobby")
        client.get(f"/s/{tables[0]}/tv")
    assert len(loads) == before                              # nothing changed: nothing replayed
    # a hand recorded: the board recording kept is the lobby's, without a replay
    assert post_event(client, tables[0], token, {"type": "win", "winner": 0, "tsumo": True,
                                                 "hand": WIN_HAKU_TSUMO}).status_code == 201
    before = len(loads)         # scoring the hand read the table (the record page's own replay)
    listed = {t["id"]: t for t in client.get("/api/lobby").get_json()["tables"]}
    assert listed[tables[0]]["hands"] == 1 and listed[tables[0]] == {**state(client, tables[0]),
                                                                     **{k: listed[tables[0]][k] for k in ("created_at", "links")}}
    assert len(loads) == before
    # an undo: the lobby shows the table as it is now
    assert client.post(f"/api/sessions/{tables[0]}/undo", headers={"X-CSRF-Token": token}).status_code == 200
    listed = {t["id"]: t for t in client.get("/api/lobby").get_json()["tables"]}
    assert listed[tables[0]]["hands"] == 0 and listed[tables[0]]["riichi"][0] is True
    # a rename changes no event, and every board says the new name
    assert client.post(f"/c/{club_id}/members/{ids['Aki']}", data={"csrf_token": token,
                                                                   "name": "Akiko"}).status_code == 302
    assert all(t["players"][0] == "Akiko" for t in client.get("/api/lobby").get_json()["tables"])
    # an end: the table leaves the lobby
    assert post_event(client, tables[1], token, {"type": "end"}).status_code == 201
    assert tables[1] not in {t["id"] for t in client.get("/api/lobby").get_json()["tables"]}


def test_the_pdf_of_an_ended_game_is_drawn_once_per_version(client, monkeypatch):
    club_id, token, _ = make_club(client)
    session_id = club_session(client, club_id, token)
    play_to_the_end(client, session_id, token)
    loads = _count_replays(monkeypatch)
    first = client.get(f"/s/{session_id}/settle.pdf")
    assert first.status_code == 200 and first.mimetype == "application/pdf"
    assert client.get(f"/s/{session_id}/settle.pdf").data == first.data
    assert loads.count(session_id) == 1                      # the second was the kept one
    # undo the end: the game is open again, and its sheet is drawn from the events now
    assert client.post(f"/api/sessions/{session_id}/undo", headers={"X-CSRF-Token": token}).status_code == 200
    undone = loads.count(session_id)        # the undo's own replay, for the scoreboards
    assert client.get(f"/s/{session_id}/settle.pdf").status_code == 200
    assert loads.count(session_id) == undone + 1
    client.get(f"/s/{session_id}/settle.pdf")
    assert loads.count(session_id) == undone + 2             # not ended: never kept


# --- the low findings --------------------------------------------------------------------

@pytest.mark.parametrize("pao", [[1], {"a": 1}, 7, True, "SW", "EN", "X"])
def test_a_pao_that_is_no_seat_wind_is_refused_in_words(client, pao):
    club_id, token, _ = make_club(client)
    session_id = club_session(client, club_id, token)
    answer = client.post(f"/api/sessions/{session_id}/preview", headers={"X-CSRF-Token": token},
                         json={"winner": 0, "tsumo": True, "hand": {**WIN_HAKU_TSUMO, "pao": pao}})
    assert answer.status_code == 400, answer.get_data(as_text=True)
    assert "pao" in json.dumps(answer.get_json())


def test_a_stale_not_ended_is_never_written_after_an_end(app, client):
    """The race of the attack run, in order: a page replays the events (not ended), an `end` is
    recorded, the page then writes what it found: the write is refused, the game stays ended."""
    from webui.play import ledger
    from webui.storage import store
    club_id, token, _ = make_club(client)
    session_id = club_session(client, club_id, token)
    assert post_event(client, session_id, token, {"type": "riichi", "seat": 0}).status_code == 201
    with app.app_context():
        stale = ledger.load(store.get_session(session_id))
        assert not ledger.ended(stale.state)
    assert post_event(client, session_id, token, {"type": "end"}).status_code == 201
    with app.app_context():
        assert store.set_ended(session_id, False, stale.through_event) is False
        assert store.get_session(session_id).ended is True
    # after an undo nobody has said: a replay of the live events says, once
    assert client.post(f"/api/sessions/{session_id}/undo", headers={"X-CSRF-Token": token}).status_code == 200
    with app.app_context():
        found = store.get_session(session_id)
        assert found.ended is None and ledger.has_ended(found) is False
        assert store.get_session(session_id).ended is False
        assert store.set_ended(session_id, True, ledger.load(found).through_event) is False    # said already


def test_one_member_sits_in_one_seat(client):
    club_id, token, _ = make_club(client, members=("Bea", "Ben", "Chiyo", "Dan"))
    answer = client.post("/new", data={"csrf_token": token, "club": club_id,
                                       **session_form(player0="Bea", player1="bea", player2="BEA")})
    assert answer.status_code == 400 and "same name" in answer.get_data(as_text=True)
    answer = import_log(client, club_id, token, log_with(config={"players": ["Bea", "bea", "BEA", "Dan"]}))
    assert answer.status_code == 422 and "same name" in json.dumps(answer.get_json())


@pytest.mark.parametrize("name, words", [
    ("\u200b\u200b", "invisible"), ("\u3164", "see"), ("\u0410ki", "look alike"), ("Ak\u202ei", "control"),
    ("B\u200dea", "invisible")])
def test_member_names_people_cannot_read_are_refused(client, name, words):
    club_id, token, ids = make_club(client, members=("Aki",))
    for path in (f"/c/{club_id}/members", f"/c/{club_id}/members/{ids['Aki']}"):
        answer = client.post(path, data={"csrf_token": token, "name": name}, headers={"Accept": "application/json"})
        assert answer.status_code == 400 and words in json.dumps(answer.get_json()), answer.get_data(as_text=True)
    answer = client.post("/new", data={"csrf_token": token, "club": club_id, **session_form(player3=name)},
                         headers={"Accept": "application/json"})
    assert answer.status_code == 400


def test_member_names_are_normalised(client):
    club_id, token, _ = make_club(client, members=("Zoe\u0308",))          # e + combining diaeresis
    assert "Zo\u00eb" in member_ids(client, club_id)
    answer = client.post(f"/c/{club_id}/members", data={"csrf_token": token, "name": "ZO\u00cb"},
                         headers={"Accept": "application/json"})
    assert answer.status_code == 409


@pytest.mark.parametrize("starts", ["20260401", "2026-W14-1", "2026-04-01x", "2026-4-1", "2026-02-30", "", "x" * 100])
def test_a_season_starts_on_a_date_written_year_month_day(client, starts):
    club_id, token, _ = make_club(client)
    answer = client.post(f"/c/{club_id}/seasons", data={"csrf_token": token, "name": "Spring", "starts": starts},
                         headers={"Accept": "application/json"})
    assert answer.status_code == 400 and "2026-04-01" in json.dumps(answer.get_json())
    assert client.post(f"/c/{club_id}/seasons", data={"csrf_token": token, "name": "Spring",
                                                      "starts": " 2026-04-01 "}).status_code == 302
    assert import_log(client, club_id, token, log_with(), played_on="20261120").status_code == 400


def test_a_new_session_names_a_member_as_named_in_its_own_transaction(app, client):
    """A rename racing a new club session, in the order that lost it: the seats were matched to
    members (by their old names), the rename committed, then the session was stored. The stored
    seat names the member as named now."""
    from webui.play import clubs, ledger
    from webui.storage import store
    club_id, token, ids = make_club(client)
    form = session_form(player0="aki", length="east")
    with app.test_request_context():
        config = ledger.config_from_form(form)
        seated = clubs.seats_from_names(club_id, config["players"])      # matched before the rename
    assert client.post(f"/c/{club_id}/members/{ids['Aki']}", data={"csrf_token": token,
                                                                   "name": "Akiko"}).status_code == 302
    with app.app_context():
        made = store.create_session(config, "", club_id=club_id, members=seated)
    assert made.config["players"][0] == "Akiko"
    assert state(client, made.id)["players"][0] == "Akiko"


# --- a --database file that is no database ------------------------------------------------

@pytest.mark.parametrize("argv", [["db", "migrate"], ["club", "list"]])
def test_a_database_file_that_is_no_database_is_refused_untouched(tmp_path, capsys, argv):
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n")
    os.chmod(notes, 0o644)
    assert main([*argv, "--database", f"sqlite:///{notes}"]) == 2
    err = capsys.readouterr().err
    assert "not an SQLite database" in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert stat.S_IMODE(os.stat(notes).st_mode) == 0o644 and notes.read_text() == "not a database\n"


def test_an_older_database_file_is_still_made_private(tmp_path):
    from webui.storage import db
    path = tmp_path / "tenbou.sqlite3"
    create_app({"DATA_DIR": str(tmp_path), "DATABASE_URL": f"sqlite:///{path}"}).extensions["tenbou.db"].dispose()
    os.chmod(path, 0o644)
    db.private(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    with pytest.raises(db.NotADatabase):
        db.private(tmp_path)                    # a folder is no database either
