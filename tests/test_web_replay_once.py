"""Recording a hand replays the game once to check it; the scoreboard it broadcasts, the API's
answer and the double/triple ron note come from that same replay, not from replaying again."""
from __future__ import annotations

import json

import pytest

from scorer import game as ledger

from tests.test_web_support import app, client, new_session, post_event, state  # noqa: F401


@pytest.fixture
def replays(monkeypatch) -> list[int]:
    """The length of every event list the ledger replays from now on."""
    counted: list[int] = []
    real = ledger.replay

    def counting(config, events):
        counted.append(len(events))
        return real(config, events)
    monkeypatch.setattr(ledger, "replay", counting)
    return counted


def _several(client, session_id: str, token: str, form_token: str, discarder: int, winners: list[int]):
    entries = [{"winner": w, "han": "1", "fu": "30"} for w in winners]
    return client.post(f"/s/{session_id}/hand", data={
        "csrf_token": token, "form_token": form_token, "discarder": str(discarder), "winners": json.dumps(entries)})


def _flashed(client, session_id: str) -> str:
    return client.get(f"/s/{session_id}").get_data(as_text=True)


def test_a_head_bump_is_noted_from_the_one_replay_that_checked_it(client, replays):
    wrc, _, token = new_session(client, preset="wrc", starting_points="30000")
    post_event(client, wrc, token, {"type": "riichi", "seat": 1})
    replays.clear()
    assert _several(client, wrc, token, "wrc-triple", 2, [0, 1, 3]).status_code == 302
    # one replay to build the winners' request (the hands need the table), one to check and store it
    assert replays == [1, 2]
    page = _flashed(client, wrc)
    assert "Head bump: only the first winner" in page and "Recorded." in page
    assert state(client, wrc)["scores"] == [30000, 29000, 30000 - 1000, 30000 + 1000 + 1000]


def test_a_triple_ron_that_aborts_is_noted_the_same_way(client, replays):
    tenhou, _, token = new_session(client)
    replays.clear()
    assert _several(client, tenhou, token, "tenhou-triple", 0, [1, 2, 3]).status_code == 302
    assert replays == [0, 1]
    assert "under these rules the hand is an abortive draw" in _flashed(client, tenhou)


def test_a_double_ron_paid_to_both_has_no_note(client, replays):
    tenhou, _, token = new_session(client)
    replays.clear()
    assert _several(client, tenhou, token, "tenhou-double", 0, [1, 2]).status_code == 302
    assert replays == [0, 1]
    page = _flashed(client, tenhou)
    assert "Recorded." in page and "Head bump" not in page and "abortive draw" not in page


def test_the_api_answers_the_state_its_own_replay_made(client, replays):
    session_id, _, token = new_session(client)
    replays.clear()
    response = post_event(client, session_id, token, {"type": "riichi", "seat": 2}, form_token="riichi-once")
    assert response.status_code == 201 and replays == [1]
    assert response.get_json()["state"] == state(client, session_id)
    again = post_event(client, session_id, token, {"type": "riichi", "seat": 2}, form_token="riichi-once")
    assert again.status_code == 200 and again.get_json()["created"] is False
    assert again.get_json()["state"]["riichi"] == [False, False, True, False]
