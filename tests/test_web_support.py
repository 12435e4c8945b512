"""Fixtures and helpers shared by the web app's tests (imported by tests/test_web_*.py)."""
from __future__ import annotations

import re

import pytest

from webui import create_app

WIN_HAKU_TSUMO = {"concealed": "234m456p678s22z555z", "win_tile": "5z"}   # haku, menzen tsumo
NOT_A_WIN = {"concealed": "1239m456p78s22z555z", "win_tile": "5z"}


@pytest.fixture
def app(tmp_path):
    return create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "SECRET_KEY": "test", "SSE_HEARTBEAT": 0.2})


@pytest.fixture
def client(app):
    return app.test_client()


def csrf_of(client) -> str:
    return client.get("/api/csrf").get_json()["csrf_token"]


def session_form(**overrides) -> dict:
    form = {"player0": "Aki", "player1": "Ben", "player2": "Chiyo", "player3": "Dan", "rules": "riichi",
            "preset": "tenhou", "length": "south", "starting_points": "25000", "return_points": "30000",
            "uma": "15,5,-5,-15", "chip_value": "0", "rate": "1", "title": "Friday"}
    form.update(overrides)
    return form


def new_session(client, **overrides) -> tuple[str, str, str]:
    """Create a session through the form; this client is joined. (id, join code, csrf token)"""
    token = csrf_of(client)
    response = client.post("/new", data={"csrf_token": token, **session_form(**overrides)})
    assert response.status_code == 302, response.get_data(as_text=True)
    session_id = response.headers["Location"].split("/")[2]
    return session_id, _code(client, session_id), token


def _code(client, session_id: str) -> str:
    html = client.get(f"/s/{session_id}/share").get_data(as_text=True)
    return re.search(r'data-test="join-code">([A-Z0-9]+)<', html).group(1)


def post_event(client, session_id: str, token: str, event: dict, form_token: str | None = None):
    body = {"event": event}
    if form_token:
        body["form_token"] = form_token
    return client.post(f"/api/sessions/{session_id}/events", json=body, headers={"X-CSRF-Token": token})


def state(client, session_id: str) -> dict:
    return client.get(f"/api/sessions/{session_id}").get_json()
