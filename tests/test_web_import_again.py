"""A club's import page with a log it imported before: refused in words beside the form (the
log kept there), the standings unchanged; the box ticked adds it after all. On SQLite and on
PostgreSQL (where installed), so the digest's migration runs on both."""
from __future__ import annotations

import io
import json
import re
from html import unescape

from tests.club_support import app, client  # noqa: F401
from tests.test_web_clubs import EXAMPLES, make_club, standings_rows


def _import(client, club_id: str, token: str, body: bytes | None, **fields):
    data = {"csrf_token": token, **fields}
    if body is not None:
        data["log"] = (io.BytesIO(body), "session.json")
    return client.post(f"/c/{club_id}/import", data=data, content_type="multipart/form-data")


def test_a_log_imported_before_is_refused_beside_the_form_and_added_when_meant(client):
    club_id, token, _ = make_club(client, members=("Ann", "Bo"))
    log = (EXAMPLES / "riichi-session.json").read_bytes()
    assert _import(client, club_id, token, log, played_on="2026-11-20").status_code == 302
    before = standings_rows(client, club_id)
    assert {r["name"]: r["games"] for r in before} == {"Ann": "2", "Bo": "2"}

    # the same games, written another way and on another day
    rewritten = json.dumps(json.loads(log), indent=3, sort_keys=True).encode()
    page = _import(client, club_id, token, rewritten, played_on="2026-11-27", title="Friday")
    assert page.status_code == 409
    html = page.get_data(as_text=True)
    said = unescape(re.search(r'data-test="import-error">([^<]+)<', html).group(1))
    assert "added before (2 games, played on 2026-11-20)" in said and "Nothing was added" in said
    assert 'data-test="import-again"' in html
    assert 'value="2026-11-27"' in html and 'value="Friday"' in html       # what was typed is kept
    assert standings_rows(client, club_id) == before                        # nothing counted twice

    # the kept log and the ticked box: no file chosen again
    kept = unescape(re.search(r'<textarea name="log_text" hidden>(.*?)</textarea>', html, re.S).group(1))
    assert json.loads(kept) == json.loads(log)
    assert _import(client, club_id, token, None, log_text=kept, played_on="2026-11-27",
                   again="on").status_code == 302
    assert {r["name"]: r["games"] for r in standings_rows(client, club_id)} == {"Ann": "4", "Bo": "4"}


def test_a_refused_reimport_is_said_in_japanese_and_as_json(client):
    club_id, token, _ = make_club(client, members=("Ann",))
    log = (EXAMPLES / "riichi-game.json").read_bytes()
    assert _import(client, club_id, token, log, played_on="2026-11-20").status_code == 302
    client.set_cookie("lang", "ja")
    html = _import(client, club_id, token, log, played_on="2026-11-21").get_data(as_text=True)
    assert "このログは追加済みです（2026-11-20の1局）" in unescape(html)
    answer = client.post(f"/c/{club_id}/import", data={"csrf_token": token, "played_on": "2026-11-21",
                                                        "log": (io.BytesIO(log), "game.json")},
                         content_type="multipart/form-data", headers={"Accept": "application/json"})
    assert answer.status_code == 409 and answer.get_json()["error"]["code"] == "already_imported"
