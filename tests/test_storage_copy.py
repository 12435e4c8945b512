"""`tenbou db copy` and `tenbou db migrate`: a home table's SQLite history moved into another
database (SQLite, and PostgreSQL where it is installed) that already holds other tables'
sessions, without losing an event, an undo or a double-tap guard; copied twice, copied once;
refused whole when the destination played on."""
from __future__ import annotations

import pytest

from webui import create_app, db
from webui.cli import main

from tests.test_storage_backends import database_url  # noqa: F401  (SQLite and PostgreSQL)
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
        from webui import store
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
        from webui import store
        assert store.get_session(extra) is None
    _close(club)


def test_db_migrate_brings_a_database_to_the_newest_schema(tmp_path, database_url, capsys):
    assert main(["db", "migrate", "--database", database_url]) == 0
    assert capsys.readouterr().out.strip().endswith(f"schema version {db.newest_version()}")
    assert main(["db", "migrate", "--data", str(tmp_path / "fresh")]) == 0
    assert (tmp_path / "fresh" / "tenbou.sqlite3").stat().st_mode & 0o077 == 0


@pytest.mark.parametrize("argv, says", [
    (["db", "migrate", "--database", "mysql://u@h/db"], "SQLite or PostgreSQL"),
    (["db", "copy", "--from", "/nowhere/t.sqlite3", "--to", "sqlite:////tmp/x.sqlite3"], "no database at"),
    (["db", "migrate", "--database", "postgresql://u@/db?host=/nowhere&port=1"], "cannot use postgresql://u@/db"),
])
def test_db_commands_say_what_they_cannot_use(argv, says, capsys):
    assert main(argv) == 2
    assert says in capsys.readouterr().err
