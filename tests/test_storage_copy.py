"""`tenbou db copy` and `tenbou db migrate`: a home table's SQLite history moved into another
database (SQLite, and PostgreSQL where it is installed) that already holds other tables'
sessions, without losing an event, an undo or a double-tap guard; copied twice, copied once;
refused whole when the destination played on. Clubs go with their sessions: members, seasons
and who sat where, merged by id into a club the destination already has."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from webui import create_app
from webui.storage import db
from webui.cli import main

from tests.test_web_support import new_session, post_event, state


def _app(url: str, folder):
    return create_app({"DATA_DIR": str(folder), "DATABASE_URL": url, "TESTING": True})


def _close(app) -> None:
    app.extensions["tenbou.broker"].close()
    app.extensions["tenbou.db"].dispose()


def _home_table(folder) -> tuple[str, list[str]]:
    """A home table's SQLite file: a game with an undo (and its marker) and an ended game."""
    url = db.url_for_path(folder / "tenbou.sqlite3")
    app = _app(url, folder)
    client = app.test_client()
    first, _, token = new_session(client, title="Tuesday")
    post_event(client, first, token, {"type": "riichi", "seat": 1})
    post_event(client, first, token, {"type": "win", "winner": 1, "discarder": 3, "han": 2, "fu": 40})
    post_event(client, first, token, {"type": "riichi", "seat": 2})
    client.post(f"/api/sessions/{first}/undo", json={"form_token": "undo-0001"}, headers={"X-CSRF-Token": token})
    post_event(client, first, token, {"type": "draw", "tenpai": [0, 2]})
    second, _, token = new_session(client, title="Friday")
    post_event(client, second, token, {"type": "end"})
    _close(app)
    return url, [first, second]


def _history(client, session_id: str) -> list[tuple]:
    return [(e["event"], e["at"], e["undone"]) for e in client.get(f"/api/sessions/{session_id}/events").get_json()]


def test_a_home_tables_history_moves_to_a_club_database_that_has_its_own(tmp_path, database_url, capsys):
    home, copied = _home_table(tmp_path / "home")
    club = _app(database_url, tmp_path / "club")
    client = club.test_client()
    theirs, _, token = new_session(client, title="Club night")          # ids 1.. are taken there
    for seat in range(4):
        post_event(client, theirs, token, {"type": "riichi", "seat": seat})
    before = {}
    home_app = _app(home, tmp_path / "home")
    home_client = home_app.test_client()
    for session_id in copied:
        before[session_id] = (state(home_client, session_id), _history(home_client, session_id))
    _close(home_app)

    assert main(["db", "copy", "--from", home, "--to", database_url]) == 0
    assert "Copied 2 sessions and 6 events" in capsys.readouterr().out
    assert main(["db", "copy", "--from", home, "--to", database_url]) == 0      # again: nothing new
    assert "Copied 0 sessions and 0 events" in capsys.readouterr().out
    for session_id in copied:
        assert (state(client, session_id), _history(client, session_id)) == before[session_id]
    assert state(client, theirs)["events"] == 4
    # the copied game goes on at the club: the undo marker's form token still counts once, and
    # the next undo takes back the copied draw, not an event of another table
    first = copied[0]
    with club.app_context():
        from webui.storage import store
        code = store.get_session(first).join_code
    assert client.post(f"/api/sessions/{first}/undo", json={"form_token": "undo-0001"},
                       headers={"X-Join-Code": code}).get_json()["undone"] is None
    undone = client.post(f"/api/sessions/{first}/undo", json={}, headers={"X-Join-Code": code}).get_json()
    listed = client.get(f"/api/sessions/{first}/events").get_json()
    assert undone["undone"] == listed[-1]["id"] and listed[-1]["event"]["type"] == "draw"
    assert undone["state"]["events"] == 2
    _close(club)

    # the home table plays a new game; copying again now meets the game the club played on,
    # and is refused whole: not even the new game is copied
    home_app = _app(home, tmp_path / "home")
    more = home_app.test_client()
    extra, _, token = new_session(more, title="Sunday")
    post_event(more, extra, token, {"type": "riichi", "seat": 0})
    _close(home_app)
    assert main(["db", "copy", "--from", home, "--to", database_url]) == 2
    assert "another history" in capsys.readouterr().err
    club = _app(database_url, tmp_path / "club")
    with club.app_context():
        from webui.storage import store
        assert store.get_session(extra) is None
    _close(club)


def test_db_migrate_brings_a_database_to_the_newest_schema(tmp_path, database_url, capsys):
    assert main(["db", "migrate", "--database", database_url]) == 0
    assert capsys.readouterr().out.strip().endswith(f"schema version {db.newest_version()}")
    assert main(["db", "migrate", "--data", str(tmp_path / "fresh")]) == 0
    assert (tmp_path / "fresh" / "tenbou.sqlite3").stat().st_mode & 0o077 == 0


RIICHI_GAME = json.loads((Path(__file__).resolve().parents[1] / "docs/examples/riichi-game.json").read_text())


def _home_club(folder) -> tuple[str, str, str]:
    """A home table's SQLite file with a club: three members, a season, and a game entered
    from a log (Ann, Bo and Cy seated as members, Di a guest), its results kept."""
    from webui.storage import kept_results
    from webui.play import clubs
    url = db.url_for_path(folder / "tenbou.sqlite3")
    app = _app(url, folder)
    with app.app_context():
        club = clubs.create_club("Thursday club")
        for name in ("Ann", "Bo", "Cy"):
            clubs.add_member(club.id, name)
        clubs.add_season(club.id, "Spring", "2026-03-01")
        [played] = clubs.import_log(club, RIICHI_GAME, "2026-03-05")
        assert len(kept_results.games(club.id)) == 1           # keeps its results at home
    _close(app)
    return url, club.id, played.id


def _club_as_seen(app, club_id: str, session_id: str) -> tuple:
    from scorer.club import standings
    from webui.storage import kept_results, store
    from webui.play import clubs
    with app.app_context():
        found = clubs.get_club(club_id)
        names = {m.id: m.name for m in clubs.members(club_id)}
        copied = store.get_session(session_id)
        table = standings(((g.summary, g.members) for g in kept_results.games(club_id)), names)
        return (found.name, found.created_at, names, [(s.id, s.name, s.starts) for s in clubs.seasons(club_id)],
                clubs.seated(session_id), copied.club_id, copied.imported,
                {rules: [r.to_json() for r in rows] for rules, rows in table.items()})


def test_a_club_goes_with_its_sessions_and_its_join_code_is_renewed_where_taken(tmp_path, database_url, capsys):
    from webui.play import clubs
    from webui.storage.schema.tables import club as club_t
    from webui.storage.schema.tables import game_result
    home, club_id, played = _home_club(tmp_path / "home")
    home_app = _app(home, tmp_path / "home")
    before = _club_as_seen(home_app, club_id, played)
    with home_app.app_context():
        home_code = clubs.get_club(club_id).join_code
    _close(home_app)
    destination = _app(database_url, tmp_path / "club")
    with destination.app_context():                     # another club there holds the same join code
        other = clubs.create_club("Other club")
        with db.transaction() as conn:
            conn.execute(club_t.update().where(club_t.c.id == other.id).values(join_code=home_code))

    assert main(["db", "copy", "--from", home, "--to", database_url]) == 0
    out = capsys.readouterr().out
    assert "Copied 1 sessions and 18 events, 1 clubs, 3 members and 1 seasons to" in out
    with destination.app_context():
        renewed = clubs.get_club(club_id).join_code
        # the kept results are a cache: not copied, worked out again by the first look below
        assert db.get_db().execute(sa.select(game_result)).all() == []
    assert renewed != home_code and f"club {club_id}: its join code was taken there; it is now {renewed}" in out
    assert _club_as_seen(destination, club_id, played) == before
    assert main(["db", "copy", "--from", home, "--to", database_url]) == 0      # again: nothing new
    assert "Copied 0 sessions and 0 events to" in capsys.readouterr().out
    _close(destination)


def _rename_member(conn, club_id: str, name: str, to: str) -> None:
    from webui.storage.schema.tables import member
    conn.execute(member.update().where(member.c.club_id == club_id, member.c.name == name).values(name=to))


@pytest.mark.parametrize("change, says", [
    # renamed at home after the copy (at the club it is still Bo)
    (lambda home, club, club_id: _rename_member(home, club_id, "Bo", "Bob"), "is on the destination as Bo"),
    # the club added its own Dee, and so did the home table
    (lambda home, club, club_id: [_add_member(c, club_id, f"dee-{n}", "Dee") for n, c in enumerate((home, club))],
     "has another member called Dee"),
    (lambda home, club, club_id: home.execute(sa.text("UPDATE club SET name = 'Friday club'")),
     "is on the destination as Thursday club"),
])
def test_a_club_that_differs_on_the_destination_is_refused_and_nothing_is_copied(tmp_path, database_url, capsys,
                                                                               change, says):
    from webui.play import clubs
    from webui.storage import store
    home, club_id, _ = _home_club(tmp_path / "home")
    assert main(["db", "copy", "--from", home, "--to", database_url]) == 0
    capsys.readouterr()
    home_app, destination = _app(home, tmp_path / "home"), _app(database_url, tmp_path / "club")
    with home_app.app_context():
        [extra] = clubs.import_log(clubs.get_club(club_id), RIICHI_GAME, "2026-03-12",
                                         again=True)   # the same game played again: not to be copied
    with home_app.extensions["tenbou.db"].begin() as home_conn, \
            destination.extensions["tenbou.db"].begin() as club_conn:
        change(home_conn, club_conn, club_id)
    _close(home_app)

    assert main(["db", "copy", "--from", home, "--to", database_url]) == 2
    assert says in capsys.readouterr().err
    with destination.app_context():
        assert store.get_session(extra.id) is None
    _close(destination)


def _add_member(conn, club_id: str, member_id: str, name: str) -> None:
    from webui.storage.schema.tables import member
    conn.execute(member.insert().values(id=member_id, club_id=club_id, name=name, created_at=db.now()))


@pytest.mark.parametrize("argv, says", [
    (["db", "migrate", "--database", "mysql://u@h/db"], "SQLite or PostgreSQL"),
    (["db", "copy", "--from", "/nowhere/t.sqlite3", "--to", "sqlite:////tmp/x.sqlite3"], "no database at"),
    (["db", "migrate", "--database", "postgresql://u@/db?host=/nowhere&port=1"], "cannot use postgresql://u@/db"),
])
def test_db_commands_say_what_they_cannot_use(argv, says, capsys):
    assert main(argv) == 2
    assert says in capsys.readouterr().err
