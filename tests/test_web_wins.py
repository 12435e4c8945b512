"""The record page's double and triple ron, the liable player (pao) and nagashi mangan at a
draw: through the forms and the JSON API, points moved as the ledger says, bad input refused in
words with nothing recorded, a form sent twice recorded once."""
from __future__ import annotations

import json

from tests.test_web_support import app, client, new_session, post_event, state  # noqa: F401

# Both win on the 5p Aki (seat 0, the dealer) discards:
BEN_HAKU = {"concealed": "234m456p678s33z555z", "win_tile": "5p"}      # haku, kanchan: 1 han 40 fu, 1300
CHIYO_PINFU_ITTSU = {"concealed": "123m456m789m345p55s", "win_tile": "5p"}   # pinfu + ittsu: 3 han 30 fu, 3900
NO_YAKU = {"concealed": "111m456m789p345p55s", "win_tile": "5p"}
# Ben (South) pons the third dragon from Chiyo (West, on his right): Chiyo is liable.
BEN_DAISANGEN = {"concealed": "555z666z123m44p", "win_tile": "4p",
                 "melds": [{"kind": "pon", "tiles": "777z", "from": "right"}]}


def _hand_form(token: str, form_token: str, **fields) -> dict:
    return {"csrf_token": token, "form_token": form_token, "winner": "", "tsumo": "", "discarder": "",
            "hand": "", "han": "", "fu": "", "yakuman": "", "points": "", "pao": "", "winners": "", **fields}


def _record(client, session_id: str, form: dict):
    return client.post(f"/s/{session_id}/hand", data=form)


def _events(client, session_id: str) -> list[dict]:
    return [e["event"] for e in client.get(f"/api/sessions/{session_id}/events").get_json() if not e["undone"]]


def test_double_ron_by_tiles_is_rescored_and_recorded_once(client):
    session_id, _, token = new_session(client)
    assert post_event(client, session_id, token, {"type": "riichi", "seat": 3}).status_code == 201
    winners = [{"winner": 2, "hand": CHIYO_PINFU_ITTSU}, {"winner": 1, "hand": BEN_HAKU}]
    form = _hand_form(token, "double-ron-1", discarder="0", winners=json.dumps(winners))
    first, again = _record(client, session_id, form), _record(client, session_id, form)
    assert first.status_code == again.status_code == 302
    snap = state(client, session_id)
    assert snap["events"] == 2                       # the riichi and one win, though sent twice
    # Ben is first in turn from Aki: he takes the riichi stick; Chiyo is paid her hand alone
    assert snap["scores"] == [25000 - 1300 - 3900, 25000 + 1300 + 1000, 25000 + 3900, 24000]
    assert snap["riichi_sticks"] == 0 and snap["dealer"] == 1 and snap["honba"] == 0
    win = _events(client, session_id)[-1]
    assert win["discarder"] == 0 and [w["winner"] for w in win["winners"]] == [2, 1]
    by_seat = {w["winner"]: w for w in win["winners"]}
    assert by_seat[1]["result"]["points"] == 1300 and by_seat[2]["result"]["han"] == 3
    assert by_seat[2]["request"]["takes_pot"] is False and "takes_pot" not in by_seat[1]["request"]
    assert "Already recorded" in client.get(f"/s/{session_id}").get_data(as_text=True)


def test_double_ron_by_han_and_fu_and_the_honba_go_to_the_first_in_turn(client):
    session_id, _, token = new_session(client)
    post_event(client, session_id, token, {"type": "draw", "tenpai": [0]})          # dealer ready: 1 honba
    before = state(client, session_id)["scores"]
    winners = [{"winner": 3, "han": "2", "fu": "30"}, {"winner": 2, "han": "3", "fu": "30"}]
    assert _record(client, session_id, _hand_form(token, "double-ron-2", discarder="1",
                                                  winners=json.dumps(winners))).status_code == 302
    after = state(client, session_id)["scores"]
    # Chiyo sits first in turn from Ben: 3900 + 300 honba; Dan 2000 with no honba
    assert [a - b for a, b in zip(after, before)] == [0, -3900 - 300 - 2000, 4200, 2000]


def test_three_winners_follow_the_table_rule(client):
    winners = json.dumps([{"winner": w, "han": "1", "fu": "30"} for w in (1, 2, 3)])
    tenhou, _, token = new_session(client)
    assert _record(client, tenhou, _hand_form(token, "triple-tenhou", discarder="0", winners=winners)).status_code == 302
    snap = state(client, tenhou)
    assert snap["scores"] == [25000] * 4 and snap["last"]["kind"] == "abortive_draw"
    assert snap["last"]["detail"]["reason"] == "triple_ron" and snap["honba"] == 1
    assert "abortive draw" in client.get(f"/s/{tenhou}").get_data(as_text=True)
    assert "Triple ron" in client.get(f"/s/{tenhou}/settle").get_data(as_text=True)

    wrc, _, token = new_session(client, preset="wrc", starting_points="30000")
    winners = json.dumps([{"winner": w, "han": "1", "fu": "30"} for w in (0, 1, 3)])
    assert _record(client, wrc, _hand_form(token, "triple-wrc", discarder="2", winners=winners)).status_code == 302
    snap = state(client, wrc)
    assert snap["scores"] == [30000, 30000, 30000 - 1000, 30000 + 1000]    # Dan, next in turn, alone
    assert "Head bump" in client.get(f"/s/{wrc}").get_data(as_text=True)
    assert "head bump" in client.get(f"/s/{wrc}/settle").get_data(as_text=True)


def test_a_double_ron_is_a_head_bump_where_the_rules_say(client):
    session_id, _, token = new_session(client, preset="ema", starting_points="30000")
    winners = [{"winner": 1, "han": "1", "fu": "30"}, {"winner": 2, "han": "4", "fu": "30"}]
    assert _record(client, session_id, _hand_form(token, "ema-double", discarder="3",
                                                  winners=json.dumps(winners))).status_code == 302
    assert state(client, session_id)["scores"] == [30000, 30000 + 1000, 30000, 30000 - 1000]


def test_several_winners_bad_input_is_refused_in_words(client):
    session_id, _, token = new_session(client)
    ok = {"winner": 1, "han": "1", "fu": "30"}
    cases = [
        (dict(discarder="0", winners="[{oops"), 400, ""),
        (dict(discarder="0", winners=json.dumps({"winner": 1})), 400, "winners"),
        (dict(discarder="0", winners=json.dumps([ok, {**ok, "winner": 0}])), 400, "Aki dealt in"),
        (dict(discarder="0", winners=json.dumps([ok, ok])), 400, "Ben is named twice"),
        (dict(discarder="0", tsumo="1", winners=json.dumps([ok, {**ok, "winner": 2}])), 400, "tsumo"),
        (dict(discarder="", winners=json.dumps([ok, {**ok, "winner": 2}])), 400, "discarder"),
        (dict(discarder="0", winners=json.dumps([{**ok, "winner": w} for w in (1, 2, 3, 0)])), 400, "1 to 3"),
        (dict(discarder="0", winners=json.dumps([ok, {"winner": 2, "hand": NO_YAKU}])), 422, "Chiyo:"),
        (dict(discarder="0", winners=json.dumps([ok, {"winner": 9, "han": "1", "fu": "30"}])), 400, "winner"),
        # refused as typed, before the ledger: no hand is 33 fu
        (dict(discarder="0", winners=json.dumps([ok, {"winner": 2, "han": "2", "fu": "33"}])), 400,
         "Chiyo: fu are rounded up to 10"),
    ]
    _each_refused(client, session_id, token, "bad-several", cases)

    other, _, token = new_session(client, rules="fundamentals")
    response = _record(client, other, _hand_form(token, "fundamentals-double", discarder="0",
                                                 winners=json.dumps([ok, {**ok, "winner": 2}])))
    assert response.status_code == 400 and "only one player wins" in response.get_data(as_text=True)
    assert state(client, other)["events"] == 0


def test_pao_on_a_tsumo_by_tiles_the_liable_player_pays_it_all(client):
    session_id, _, token = new_session(client)
    form = _hand_form(token, "pao-tiles", winner="1", tsumo="1", pao="2", hand=json.dumps(BEN_DAISANGEN))
    assert _record(client, session_id, form).status_code == 302
    assert state(client, session_id)["scores"] == [25000, 25000 + 32000, 25000 - 32000, 25000]
    win = _events(client, session_id)[-1]
    assert win["pao"] == 2 and win["pao_yakuman"] == 1 and win["request"]["pao"] == "W"
    assert "pao: Chiyo" in client.get(f"/s/{session_id}/settle").get_data(as_text=True)


def test_pao_on_a_ron_by_numbers_splits_with_the_discarder(client):
    session_id, _, token = new_session(client)
    form = _hand_form(token, "pao-numbers", winner="1", discarder="0", yakuman="1", pao="2")
    assert _record(client, session_id, form).status_code == 302
    assert state(client, session_id)["scores"] == [25000 - 16000, 25000 + 32000, 25000 - 16000, 25000]


def test_pao_in_a_double_ron_through_the_api(client):
    session_id, _, token = new_session(client)
    event = {"type": "win", "discarder": 0, "winners": [
        {"winner": 1, "hand": BEN_DAISANGEN, "pao": 2},
        {"winner": 3, "han": 1, "fu": 30}]}
    # Ben's daisangen wins on 4p by ron here: Aki and the liable Chiyo share it
    response = post_event(client, session_id, token, event, form_token="api-pao-double")
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["state"]["scores"] == [25000 - 16000 - 1000, 25000 + 32000, 25000 - 16000, 25000 + 1000]


def test_pao_bad_input_is_refused_with_the_rule_in_words(client):
    session_id, _, token = new_session(client)
    cases = [
        (dict(winner="1", discarder="0", han="3", fu="30", pao="2"), 422, "pao covers a yakuman"),
        (dict(winner="1", discarder="0", hand=json.dumps(BEN_HAKU), pao="2"), 422, "pao (liability) applies only"),
        (dict(winner="1", tsumo="1", yakuman="1", pao="1"), 400, "own hand"),
        (dict(winner="1", tsumo="1", yakuman="1", pao="7"), 400, "pao"),
        (dict(winner="1", tsumo="1", hand=json.dumps({**BEN_DAISANGEN, "pao": "N"}), pao="2"), 400, "different"),
        (dict(winner="1", tsumo="1", hand=json.dumps({**BEN_DAISANGEN, "pao": "X"})), 400, "seat wind"),
    ]
    _each_refused(client, session_id, token, "bad-pao", cases)
    # the hand's own pao (a seat wind, as the scorer takes it) names the same liable seat
    api = post_event(client, session_id, token, {"type": "win", "winner": 1, "tsumo": True,
                                                 "hand": {**BEN_DAISANGEN, "pao": "W"}})
    assert api.status_code == 201 and api.get_json()["state"]["scores"][2] == 25000 - 32000


def test_preview_takes_pao_and_a_later_winner(client):
    session_id, _, token = new_session(client)
    post_event(client, session_id, token, {"type": "riichi", "seat": 3})
    url = f"/api/sessions/{session_id}/preview"
    later = client.post(url, json={"winner": 2, "discarder": 0, "hand": CHIYO_PINFU_ITTSU, "takes_pot": False},
                        headers={"X-CSRF-Token": token}).get_json()
    assert later["request"]["takes_pot"] is False
    assert later["result"]["transfers"] == [{"from": "E", "to": "W", "points": 3900}]     # no riichi stick
    refused = client.post(url, json={"winner": 1, "discarder": 0, "hand": BEN_HAKU, "pao": 2},
                          headers={"X-CSRF-Token": token}).get_json()
    assert refused["result"]["ok"] is False and "pao" in refused["result"]["error"]["message"]


def test_preview_by_han_and_fu_pays_as_the_ledger_will(client):
    session_id, _, token = new_session(client)
    post_event(client, session_id, token, {"type": "riichi", "seat": 3})

    def preview(**body):
        response = client.post(f"/api/sessions/{session_id}/preview", json={"discarder": 0, **body},
                               headers={"X-CSRF-Token": token})
        return response.status_code, response.get_json()
    status, first = preview(winner=2, han="3", fu="30")
    assert status == 200 and first["result"]["points"] == 3900 and first["result"]["limit"] is None
    assert first["result"]["transfers"] == [{"from": "E", "to": "W", "points": 3900},
                                            {"from": "pot", "to": "W", "points": 1000}]
    _, later = preview(winner=2, han="3", fu="30", takes_pot=False)
    assert later["result"]["transfers"] == [{"from": "E", "to": "W", "points": 3900}]
    _, liable = preview(winner=1, yakuman="1", pao=2, takes_pot=False)
    assert liable["result"]["han"] == 13 and liable["result"]["limit"] == "yakuman"
    assert sorted((t["from"], t["points"]) for t in liable["result"]["transfers"]) == [("E", 16000), ("W", 16000)]
    _, refused = preview(winner=1, han="3", fu="30", pao=2)
    assert refused["result"]["ok"] is False and "pao covers a yakuman" in refused["result"]["error"]["message"]
    _, bad_fu = preview(winner=1, han="2", fu="33")
    assert bad_fu["result"]["ok"] is False and "fu" in bad_fu["result"]["error"]["message"]
    assert preview(winner=1, han="0")[0] == 400
    assert state(client, session_id)["events"] == 1                 # previews store nothing


def test_nagashi_mangan_at_a_draw(client):
    session_id, _, token = new_session(client)
    page = client.get(f"/s/{session_id}").get_data(as_text=True)
    assert 'name="nagashi_mangan"' in page and "Who made nagashi mangan?" in page
    form = {"csrf_token": token, "form_token": "nagashi-1", "type": "draw", "tenpai": ["1"], "nagashi_mangan": ["2"]}
    assert client.post(f"/s/{session_id}/event", data=form).status_code == 302
    assert client.post(f"/s/{session_id}/event", data=form).status_code == 302          # sent twice
    snap = state(client, session_id)
    # Chiyo paid as a mangan tsumo (the dealer 4000, the others 2000); no noten payments
    assert snap["events"] == 1 and snap["scores"] == [21000, 23000, 33000, 23000]
    assert _events(client, session_id)[-1] == {"type": "draw", "tenpai": [1], "nagashi_mangan": [2]}
    assert "nagashi mangan: Chiyo" in client.get(f"/s/{session_id}/settle").get_data(as_text=True)

    plain = {"csrf_token": token, "form_token": "plain-draw", "type": "draw", "tenpai": ["0"]}
    client.post(f"/s/{session_id}/event", data=plain)
    assert _events(client, session_id)[-1] == {"type": "draw", "tenpai": [0]}


def test_nagashi_mangan_where_the_rules_have_none_or_bad_input(client):
    wrc, _, token = new_session(client, preset="wrc", starting_points="30000")
    assert 'name="nagashi_mangan"' not in client.get(f"/s/{wrc}").get_data(as_text=True)
    refused = client.post(f"/s/{wrc}/event", data={"csrf_token": token, "type": "draw", "nagashi_mangan": ["1"]})
    assert refused.status_code == 422 and "no nagashi mangan" in refused.get_data(as_text=True)
    assert state(client, wrc)["events"] == 0

    session_id, _, token = new_session(client)
    bad_seat = client.post(f"/s/{session_id}/event", data={"csrf_token": token, "type": "draw", "nagashi_mangan": ["5"]})
    assert bad_seat.status_code == 400 and "nagashi mangan" in bad_seat.get_data(as_text=True)
    for value in ("2", [7], [True]):
        response = post_event(client, session_id, token, {"type": "draw", "tenpai": [], "nagashi_mangan": value})
        assert response.status_code == 400, value
    assert state(client, session_id)["events"] == 0
    ok = post_event(client, session_id, token, {"type": "draw", "tenpai": [], "nagashi_mangan": [0]})
    assert ok.status_code == 201 and ok.get_json()["state"]["scores"] == [37000, 21000, 21000, 21000]


def test_record_page_offers_pao_and_another_winner_only_for_riichi(client):
    session_id, _, _ = new_session(client)
    page = client.get(f"/s/{session_id}/record").get_data(as_text=True)
    assert 'data-test="add-winner"' in page and 'data-test="pao"' in page and "winners.js" in page
    other, _, _ = new_session(client, rules="fundamentals")
    page = client.get(f"/s/{other}/record").get_data(as_text=True)
    assert 'data-test="add-winner"' not in page and 'data-test="pao"' not in page
    client.set_cookie("lang", "ja")
    page = client.get(f"/s/{session_id}/record").get_data(as_text=True)
    assert "同じ牌で他の人も和了" in page and "責任払い" in page


def test_every_label_the_pages_name_has_english_and_japanese():
    import re
    from pathlib import Path

    from webui.words.messages import MESSAGES

    root = Path(__file__).resolve().parents[1] / "webui"
    named = set()
    for path in [*root.rglob("*.html"), *root.rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        named |= set(re.findall(r"""\b(?:t|flash)\(\s*['"]([a-z_]+(?:\.[a-z_]+)+)['"]""", text))
        named |= set(re.findall(r"""return "((?:session|record|log)\.[a-z_]+)"$""", text, re.M))
    assert {"record.another", "record.pao", "session.nagashi_who", "session.head_bump"} <= named
    assert sorted(k for k in named if k not in MESSAGES) == []
    assert [k for k, (english, japanese) in MESSAGES.items() if not english or not japanese] == []


def _each_refused(client, session_id: str, token: str, name: str, cases: list) -> None:
    """Each (form fields, status, words) is answered with that status and words, no traceback,
    and nothing is recorded."""
    for i, (fields, status, words) in enumerate(cases):
        response = _record(client, session_id, _hand_form(token, f"{name}-{i}", **fields))
        text = response.get_data(as_text=True)
        assert response.status_code == status, (fields, text)
        assert words in text and "Traceback" not in text, (fields, text)
    assert state(client, session_id)["events"] == 0


def test_winners_of_one_discard_won_on_the_same_tile(client):
    session_id, _, token = new_session(client)
    on_a_four = {"concealed": "123m456m789m345p55s", "win_tile": "4p"}    # ittsu, won on the 4p instead
    winners = [{"winner": 1, "hand": BEN_HAKU}, {"winner": 2, "hand": on_a_four},
               {"winner": 3, "han": "1", "fu": "30"}]                    # by numbers: no tile to compare
    response = _record(client, session_id, _hand_form(token, "two-tiles", discarder="0", winners=json.dumps(winners)))
    assert response.status_code == 400
    assert "Ben on 5p, Chiyo on 4p" in response.get_data(as_text=True)
    assert state(client, session_id)["events"] == 0
