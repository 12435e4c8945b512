"""What the record page needs beyond a hand's tiles (issue 24): three-player north tiles set
aside, the tiles each rule set's picker offers, han and fu that no hand reaches refused in
words, chips by han and fu, and the classical Chinese losers' own counts, typed or from tiles,
paid as the text has them pay."""
from __future__ import annotations

import json
import re

import pytest

from scorer import score

from tests.test_web_support import app, client, new_session, state  # noqa: F401

CHINESE = {"rules": "chinese-classical", "preset": "", "starting_points": "", "return_points": "", "uma": "",
           "length": "full", "limit": "500"}
FUNDAMENTALS = {"rules": "fundamentals", "preset": "", "length": "", "starting_points": "", "return_points": "", "uma": ""}
THREE = {"player3": "", "starting_points": "", "return_points": "", "uma": ""}
HAKU_TSUMO_3P = {"concealed": "234p456p678s22z555z", "win_tile": "5z"}    # haku, menzen tsumo: no 2m-8m


def _preview(client, session_id: str, token: str, body: dict, language: str = "en") -> dict:
    response = client.post(f"/api/sessions/{session_id}/preview", json=body,
                           headers={"X-CSRF-Token": token, "Accept-Language": language})
    return {"status": response.status_code, **response.get_json()}


def _form(token: str, form_token: str, **fields) -> dict:
    return {"csrf_token": token, "form_token": form_token, "winner": "", "tsumo": "", "discarder": "",
            "hand": "", "han": "", "fu": "", "yakuman": "", "points": "", "pao": "", "winners": "",
            "chips": "", "other_counts": "", **fields}


def _picks(client, session_id: str) -> set[str]:
    return set(re.findall(r'data-test="pick-(\w+)"', client.get(f"/s/{session_id}/record").get_data(as_text=True)))


# three-player riichi: north tiles set aside, and only the tiles the game uses

def test_two_north_tiles_set_aside_are_scored_as_the_scorer_scores_them(client):
    session_id, _, token = new_session(client, **THREE)
    page = client.get(f"/s/{session_id}/record").get_data(as_text=True)
    assert 'data-test="nukidora2"' in page and "North tiles set aside" in page
    assert "The north tiles set aside count in the han" in page          # by han and fu the player counts them
    without = _preview(client, session_id, token, {"winner": 0, "tsumo": True, "hand": HAKU_TSUMO_3P})
    found = _preview(client, session_id, token, {"winner": 0, "tsumo": True, "hand": {**HAKU_TSUMO_3P, "nukidora": 2}})
    assert found["request"]["nukidora"] == 2 and found["request"]["players"] == 3
    assert found["result"] == score(found["request"])           # the preview is the scorer's answer
    assert found["result"]["han"] == without["result"]["han"] + 2
    assert {"id": "nukidora", "han": 2} in found["result"]["yaku"]
    recorded = client.post(f"/s/{session_id}/hand", data=_form(
        token, "north-1", winner="0", tsumo="1", hand=json.dumps({**HAKU_TSUMO_3P, "nukidora": 2})))
    assert recorded.status_code == 302
    snap = state(client, session_id)
    paid = found["result"]["points"]
    assert snap["scores"][0] - 35000 == paid and sum(snap["scores"]) <= 3 * 35000


def test_five_north_tiles_are_refused_in_words(client):
    session_id, _, token = new_session(client, **THREE)
    refused = _preview(client, session_id, token, {"winner": 0, "tsumo": True, "hand": {**HAKU_TSUMO_3P, "nukidora": 5}})
    assert refused["status"] == 400 and "nukidora" in refused["error"]["detail"]


def test_each_pickers_tiles_are_the_games_own(client):
    three, _, _ = new_session(client, **THREE)
    four, _, _ = new_session(client)
    chinese, _, _ = new_session(client, **CHINESE)
    fundamentals, _, _ = new_session(client, **FUNDAMENTALS)
    characters = {f"{n}m" for n in range(2, 9)}
    assert not (characters | {"0m"}) & _picks(client, three)
    assert {"1m", "9m", "0p", "0s", "4z", "7z"} <= _picks(client, three)
    assert characters | {"0m", "0p", "0s"} <= _picks(client, four) and "1f" not in _picks(client, four)
    assert not {"0m", "0p", "0s"} & _picks(client, chinese) and {"1f", "8f", "5m"} <= _picks(client, chinese)
    assert not {"0m", "0p", "0s", "1f"} & _picks(client, fundamentals) and "5p" in _picks(client, fundamentals)
    assert 'data-test="nukidora-row"' not in client.get(f"/s/{four}/record").get_data(as_text=True)


# han and fu that no hand reaches

@pytest.mark.parametrize("fields, words", [
    ({"han": "1", "fu": "20", "discarder": 1}, "a ron is at least 30 fu"),
    ({"han": "1", "fu": "25", "discarder": 1}, "1 han 25 fu cannot be"),
    ({"han": "2", "fu": "25", "tsumo": True}, "at least 3 han"),
    ({"han": "1", "fu": "20", "tsumo": True}, "pinfu and menzen tsumo: at least 2 han"),
    ({"han": "3", "fu": "120", "discarder": 1}, "fu go up to 110"),
    ({"han": "99", "fu": "30", "discarder": 1}, "13 han or more is paid as a counted yakuman"),
])
def test_han_and_fu_no_hand_reaches_are_refused_in_words(client, fields, words):
    session_id, _, token = new_session(client)
    said = _preview(client, session_id, token, {"winner": 0, **fields})
    assert said["status"] == 200 and said["result"]["ok"] is False
    assert said["result"]["error"]["code"] == "impossible_han_fu" and words in said["result"]["error"]["message"]
    assert said["result"]["error"]["summary"] == "No hand is worth these han and fu."
    form = _form(token, f"impossible-{fields['han']}-{fields['fu']}", winner="0", han=fields["han"], fu=fields["fu"],
                 tsumo="1" if fields.get("tsumo") else "", discarder=str(fields.get("discarder", "")))
    refused = client.post(f"/s/{session_id}/hand", data=form)
    assert refused.status_code == 400 and words in refused.get_data(as_text=True).replace("&#39;", "'")
    assert state(client, session_id)["events"] == 0


def test_the_refusal_is_said_in_japanese_on_a_japanese_page(client):
    session_id, _, token = new_session(client)
    said = _preview(client, session_id, token, {"winner": 0, "han": "1", "fu": "20", "discarder": 1}, language="ja")
    assert said["result"]["error"]["summary"] == "この翻・符になる手はありません。"
    assert said["result"]["error"]["said"].startswith("ロンは30符以上です")


def test_hands_that_exist_still_pay(client):
    session_id, _, token = new_session(client)
    pinfu_tsumo = _preview(client, session_id, token, {"winner": 1, "han": "2", "fu": "20", "tsumo": True})
    assert pinfu_tsumo["result"]["ok"] and pinfu_tsumo["result"]["points"] == 1500    # 400 each, 700 from the dealer
    seven_pairs = _preview(client, session_id, token, {"winner": 1, "han": "2", "fu": "25", "discarder": 2})
    assert seven_pairs["result"]["ok"] and seven_pairs["result"]["points"] == 1600
    counted = _preview(client, session_id, token, {"winner": 1, "han": "14", "fu": "40", "discarder": 2})
    assert counted["result"]["limit"] == "kazoe_yakuman" and counted["result"]["points"] == 32000


# chips for a win by han and fu

def test_chips_are_entered_with_han_and_fu_where_the_game_has_chips(client):
    session_id, _, token = new_session(client, chip_value="0.5")
    assert 'data-test="chips"' in client.get(f"/s/{session_id}/record").get_data(as_text=True)
    recorded = client.post(f"/s/{session_id}/hand", data=_form(token, "chips-1", winner="1", discarder="2",
                                                               han="3", fu="30", chips="2"))
    assert recorded.status_code == 302
    events = client.get(f"/api/sessions/{session_id}/events").get_json()
    assert events[-1]["event"]["chips"] == 2
    sheet = client.get(f"/s/{session_id}/settle").get_data(as_text=True)
    assert '<td class="num">+2</td>' in sheet and '<td class="num">-2</td>' in sheet     # Ben and Chiyo's chips
    plain, _, token = new_session(client)
    assert 'data-test="chips"' not in client.get(f"/s/{plain}/record").get_data(as_text=True)
    refused = client.post(f"/s/{plain}/hand", data=_form(token, "chips-2", winner="1", discarder="2",
                                                         han="3", fu="30", chips="2"))
    assert refused.status_code == 400 and "this game plays no chips" in refused.get_data(as_text=True)


# classical Chinese: the losers' own counts

def _chinese(client, settlement: str):
    session_id, _, token = new_session(client, **CHINESE, settlement=settlement)
    return session_id, token


# Ben (South) self-draws 48; Aki (East, paying double) counts 8, Chiyo 0, Dan 52 (above the score).
COUNTS = {"0": 8, "2": 0, "3": 52}
WHO_PAYS = {
    # "pay the difference to the one who went out. The current East player always pays ... twice"
    "difference": {("E", "S", (48 - 8) * 2), ("W", "S", 48)},
    # the common variant: the full score each, and the losers settle their counts between them
    "full": {("E", "S", 96), ("W", "S", 48), ("N", "S", 48), ("W", "E", 16), ("E", "N", 88), ("W", "N", 52)},
}


@pytest.mark.parametrize("settlement", ["difference", "full"])
def test_losers_typed_counts_pay_as_the_text_says(client, settlement):
    session_id, token = _chinese(client, settlement)
    page = client.get(f"/s/{session_id}/record").get_data(as_text=True)
    assert all(f'data-test="loser{s}-add4"' in page and f'data-test="loser-count{s}"' in page for s in range(4))
    shown = _preview(client, session_id, token, {"winner": 1, "tsumo": True, "points": "48", "other_counts": COUNTS})
    assert shown["result"]["other_counts"] == {"E": 8, "W": 0, "N": 52}
    assert {(t["from"], t["to"], t["points"]) for t in shown["result"]["transfers"]} == WHO_PAYS[settlement]
    recorded = client.post(f"/s/{session_id}/hand", data=_form(token, "chinese-1", winner="1", tsumo="1", points="48",
                                                               other_counts=json.dumps(COUNTS)))
    assert recorded.status_code == 302
    deltas = {"E": 0, "S": 0, "W": 0, "N": 0}
    for payer, payee, points in WHO_PAYS[settlement]:
        deltas[payer] -= points
        deltas[payee] += points
    assert state(client, session_id)["scores"] == [deltas[w] for w in "ESWN"]
    log = client.get(f"/s/{session_id}/settle").get_data(as_text=True)
    assert "Ben tsumo · 48 points · own counts: Aki 8, Chiyo 0, Dan 52" in log


def test_the_losers_fields_speak_japanese_on_a_japanese_page(client):
    session_id, _ = _chinese(client, "difference")
    page = client.get(f"/s/{session_id}/record", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert "支払う人の手の点数" in page and "牌から数える" in page and "The others" not in page
    three, _, _ = new_session(client, **THREE)
    assert "抜いた北（抜きドラ）" in client.get(f"/s/{three}/record", headers={"Accept-Language": "ja"}).get_data(as_text=True)


def test_a_losers_count_is_taken_from_their_tiles(client):
    session_id, token = _chinese(client, "difference")
    hand = {"concealed": "123m456m789p234s88s", "win_tile": "3s",
            # West: a concealed pung of 5 dots (4) and an exposed pung of red dragons (4); South typed
            "other_hands": {"W": {"concealed": "555p19s", "melds": [{"kind": "pon", "tiles": "777z"}]}},
            "other_counts": {"S": 6}}
    shown = _preview(client, session_id, token, {"winner": 0, "discarder": 1, "hand": hand})
    result = shown["result"]
    assert result["ok"] and result["chinese"]["other_counts"] == {"W": 8, "S": 6}
    owed = {t["from"]: t["points"] for t in result["transfers"]}
    points = result["points"]
    assert owed == {"S": (points - 6) * 2, "W": (points - 8) * 2, "N": points * 2}      # East won: double


def test_a_count_for_the_winner_or_not_a_number_is_refused(client):
    session_id, token = _chinese(client, "difference")
    winner = client.post(f"/s/{session_id}/hand", data=_form(token, "c-1", winner="1", tsumo="1", points="48",
                                                             other_counts=json.dumps({"1": 4})))
    assert winner.status_code == 422 and "each loser" in winner.get_data(as_text=True)
    word = client.post(f"/s/{session_id}/hand", data=_form(token, "c-2", winner="1", tsumo="1", points="48",
                                                           other_counts=json.dumps({"2": "many"})))
    assert word.status_code == 400 and "other_counts" in word.get_data(as_text=True)
    assert state(client, session_id)["events"] == 0
