"""Pao by han/fu with more than one yakuman: the player says how many of them the liable
player covers, and the table moves exactly what the same hand scored from its tiles moves.

The rule (docs/riichi-rules.md, scorer/riichi/payments.py): on tsumo the liable player alone
pays the covered yakuman as if dealt in; on ron the liable player and the discarder pay half of
it each; any other yakuman of the hand is paid the usual way."""
from __future__ import annotations

import json

import pytest

from tests.test_web_support import app, client, new_session, state  # noqa: F401

# Ben (seat 1, South) pons the fourth wind from Chiyo (seat 2, West, on his right): she is liable.
# Under Mahjong Soul's rules big four winds is a double yakuman, and both are hers to pay.
BEN_DAISUUSHII = {"concealed": "111z222z333z55m", "win_tile": "5m",
                  "melds": [{"kind": "pon", "tiles": "444z", "from": "right"}]}
# Ben pons the third dragon from Chiyo; all honours makes a second yakuman she does not cover.
BEN_DAISANGEN_TSUUIISOU = {"concealed": "555z666z111z22z", "win_tile": "2z",
                           "melds": [{"kind": "pon", "tiles": "777z", "from": "right"}]}

START = 25000


def _form(token: str, form_token: str, **fields) -> dict:
    return {"csrf_token": token, "form_token": form_token, "winner": "1", "tsumo": "", "discarder": "",
            "hand": "", "han": "", "fu": "", "yakuman": "", "points": "", "pao": "2", "pao_yakuman": "",
            "winners": "", **fields}


def _deltas(client, session_id: str) -> list[int]:
    return [s - START for s in state(client, session_id)["scores"]]


CASES = [
    # (preset, hand, yakuman, covered, how, expected deltas by seat: Aki (dealer), Ben, Chiyo, Dan)
    ("mahjongsoul", BEN_DAISUUSHII, 2, 2, {"tsumo": "1"}, [0, 64000, -64000, 0]),
    ("mahjongsoul", BEN_DAISUUSHII, 2, 2, {"discarder": "3"}, [0, 64000, -32000, -32000]),
    # one yakuman as a ron from Chiyo alone, the other as a tsumo: the dealer 16000, the others 8000
    ("tenhou", BEN_DAISANGEN_TSUUIISOU, 2, 1, {"tsumo": "1"}, [-16000, 64000, -32000 - 8000, -8000]),
    # the covered one split by Chiyo and Dan, the other paid by Dan, who dealt in
    ("tenhou", BEN_DAISANGEN_TSUUIISOU, 2, 1, {"discarder": "3"}, [0, 64000, -16000, -48000]),
]


@pytest.mark.parametrize("preset, hand, yakuman, covered, how, expected", CASES)
def test_han_fu_entry_pays_pao_as_the_same_hand_by_tiles(client, preset, hand, yakuman, covered, how, expected):
    by_tiles, _, token = new_session(client, preset=preset)
    assert client.post(f"/s/{by_tiles}/hand", data=_form(token, "tiles", hand=json.dumps(hand), **how)).status_code == 302
    stored = client.get(f"/api/sessions/{by_tiles}/events").get_json()[-1]["event"]
    assert stored["result"]["yakuman"] == yakuman and stored["pao_yakuman"] == covered
    assert _deltas(client, by_tiles) == expected

    by_numbers, _, token = new_session(client, preset=preset)
    # before it is recorded, the preview by numbers shows what the scorer shows for the tiles
    who = {"winner": 1, "tsumo": "tsumo" in how, "discarder": int(how["discarder"]) if "discarder" in how else None}
    tiles_preview = client.post(f"/api/sessions/{by_numbers}/preview", headers={"X-CSRF-Token": token},
                                json={**who, "hand": hand, "pao": 2}).get_json()["result"]
    numbers_preview = client.post(f"/api/sessions/{by_numbers}/preview", headers={"X-CSRF-Token": token},
                                  json={**who, "yakuman": yakuman, "pao": 2, "pao_yakuman": covered}).get_json()["result"]
    assert _paid(numbers_preview) == _paid(tiles_preview) == _paid_by_seat(expected)
    assert numbers_preview["points"] == tiles_preview["points"] == 64000

    form = _form(token, "numbers", yakuman=str(yakuman), pao_yakuman=str(covered), **how)
    assert client.post(f"/s/{by_numbers}/hand", data=form).status_code == 302
    assert _deltas(client, by_numbers) == expected
    assert client.get(f"/api/sessions/{by_numbers}/events").get_json()[-1]["event"]["pao_yakuman"] == covered


def _paid_by_seat(deltas: list[int]) -> dict:
    """Who pays what, by seat wind (Aki is the dealer, East), from the deltas."""
    return {wind: -d for wind, d in zip("ESWN", deltas) if d < 0}


def _paid(result: dict) -> dict:
    total: dict[str, int] = {}
    for t in result["transfers"]:
        total[t["from"]] = total.get(t["from"], 0) + t["points"]
    return total


def test_one_yakuman_is_covered_when_the_form_does_not_say(client):
    session_id, _, token = new_session(client)
    assert client.post(f"/s/{session_id}/hand", data=_form(token, "default", tsumo="1", yakuman="2")).status_code == 302
    assert client.get(f"/api/sessions/{session_id}/events").get_json()[-1]["event"]["pao_yakuman"] == 1
    assert _deltas(client, session_id) == [-16000, 64000, -40000, -8000]


def test_a_double_ron_entry_carries_its_own_count(client):
    session_id, _, token = new_session(client, preset="mahjongsoul")
    winners = [{"winner": 1, "yakuman": "2", "pao": 2, "pao_yakuman": "2"}, {"winner": 3, "han": "1", "fu": "30"}]
    form = {"csrf_token": token, "form_token": "double", "discarder": "0", "winners": json.dumps(winners)}
    assert client.post(f"/s/{session_id}/hand", data=form).status_code == 302
    # Ben's double yakuman split by Aki (who dealt in) and the liable Chiyo; Dan's 1000 from Aki
    assert _deltas(client, session_id) == [-32000 - 1000, 64000, -32000, 1000]


@pytest.mark.parametrize("fields, status, words", [
    ({"yakuman": "2", "pao_yakuman": "3"}, 400, "covers 1 to 2"),
    ({"yakuman": "1", "pao_yakuman": "2"}, 400, "covers 1 to 1"),
    ({"yakuman": "2", "pao_yakuman": "0"}, 400, "not 0"),
    ({"yakuman": "2", "pao_yakuman": "two"}, 400, "whole number"),
    ({"han": "3", "fu": "30", "pao_yakuman": "1"}, 422, "pao covers a yakuman"),
])
def test_a_count_that_does_not_fit_the_hand_is_refused_in_words(client, fields, status, words):
    session_id, _, token = new_session(client)
    response = client.post(f"/s/{session_id}/hand", data=_form(token, "bad", tsumo="1", **fields))
    assert response.status_code == status and words in response.get_data(as_text=True)
    assert state(client, session_id)["events"] == 0
    preview = client.post(f"/api/sessions/{session_id}/preview", headers={"X-CSRF-Token": token},
                          json={"winner": 1, "tsumo": True, "pao": 2, **fields})
    body = preview.get_json()
    words_seen = json.dumps(body)
    assert words in words_seen and (preview.status_code == 400 or body["result"]["ok"] is False)


def test_the_refusal_reads_in_japanese_too(client):
    session_id, _, token = new_session(client)
    client.set_cookie("lang", "ja")
    response = client.post(f"/s/{session_id}/hand", data=_form(token, "ja", tsumo="1", yakuman="1", pao_yakuman="2"))
    assert response.status_code == 400 and "責任払いの役満数は1から" in response.get_data(as_text=True)


def test_the_record_page_asks_how_many_the_liable_player_covers(client):
    session_id, _, _ = new_session(client)
    page = client.get(f"/s/{session_id}/record").get_data(as_text=True)
    assert 'data-test="pao-yakuman"' in page and 'name="pao_yakuman"' in page
    assert "Yakuman the liable player covers" in page
    client.set_cookie("lang", "ja")
    assert "責任払いの対象の役満数" in client.get(f"/s/{session_id}/record").get_data(as_text=True)
