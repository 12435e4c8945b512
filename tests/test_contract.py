"""The hand JSON contract through `scorer.score`: every error code, in a player's words, and the
response shape (field names, yaku ids, one entry per dora kind)."""
from __future__ import annotations

import json
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from scorer import score
from scorer.contract import merge_counted, render_riichi

EXAMPLE = json.loads((Path(__file__).resolve().parents[1] / "docs/examples/hand.json").read_text())

# A plain closed ron hand, valid in every way, that each case below breaks in one place.
BASE = {
    "rules": "riichi", "concealed": "234m456p99s123s555z", "win_tile": "4p", "melds": [],
    "tsumo": False, "discarder": "E", "seat_wind": "S", "round_wind": "E",
}
OPEN = {**BASE, "concealed": "234m456p99s555z", "melds": [{"kind": "pon", "tiles": "777z", "from": "across"}]}


def changed(base: dict, **changes) -> dict:
    request = {**base, **changes}
    return {key: value for key, value in request.items() if value is not DROP}


DROP = object()

# (request, error code, words the message must contain)
ERRORS = [
    # bad_tile: the character and its position
    (changed(BASE, concealed="234m456p99s123s5x5z"), "bad_tile", "'x' at position 17"),
    (changed(BASE, concealed="234m456p99s123s58z"), "bad_tile", "'8z' at position 17"),
    (changed(BASE, win_tile="45p"), "bad_tile", "one tile"),
    (changed(BASE, dora_indicators="0z"), "bad_tile", "0z"),
    (changed(BASE, concealed="234m456p99s123s55z1f"), "bad_tile", "plum"),
    (changed(BASE, flowers="1f"), "bad_tile", "without flowers"),
    (changed(BASE, players=3, discarder="W"), "bad_tile", "2 characters is not in a three-player set"),
    # too_many_copies: in a player's words, counting indicators
    (changed(BASE, concealed="333p456p99s123s55z", win_tile="3p", melds=[{"kind": "pon", "tiles": "333p",
                                                                      "from": "left"}]),
     "too_many_copies", "There are six 3 dots"),
    (changed(OPEN, concealed="33333p456m99s", win_tile="4m"), "too_many_copies",
     "There are five 3 dots: a set has only four of each tile."),
    (changed(OPEN, dora_indicators="7z", ura_indicators="7z", riichi=False), "too_many_copies", "five Reds"),
    (changed(BASE, dora_indicators="5z5z"), "too_many_copies", "counting the dora indicators"),
    (changed(BASE, concealed="234m406p99s123s555z", dora_indicators="0p"), "too_many_copies", "two red 5 dots"),
    # wrong_tile_count: how many, and how many there should be
    (changed(BASE, concealed="234m456p99s123s55z"), "wrong_tile_count", "The hand has 13 tiles, not 14"),
    (changed(OPEN, concealed="234m456p99s55z"), "wrong_tile_count", "with one meld the concealed part holds 11"),
    # bad_meld: which meld and what is wrong with it
    (changed(OPEN, melds=[{"kind": "pon", "tiles": "776z", "from": "across"}]), "bad_meld",
     "The pon 677z is not three of the same tile."),
    (changed(OPEN, melds=[{"kind": "chi", "tiles": "124m", "from": "left"}]), "bad_meld",
     "The chi 124m is not a run of three in one suit"),
    (changed(OPEN, melds=[{"kind": "chi", "tiles": "567z", "from": "left"}]), "bad_meld", "honours never make a run"),
    (changed(OPEN, melds=[{"kind": "chi", "tiles": "123m", "from": "across"}]), "bad_meld",
     "player on your left"),
    (changed(OPEN, melds=[{"kind": "pon", "tiles": "777z"}]), "bad_meld", "The pon 777z needs \"from\""),
    (changed(OPEN, melds=[{"kind": "pon", "tiles": "777z", "from": "behind"}]), "bad_meld", "'behind'"),
    (changed(OPEN, melds=[{"kind": "ankan", "tiles": "7777z", "from": "left"}]), "bad_meld",
     "The concealed kan 7777z was not called from anyone"),
    (changed(OPEN, melds=[{"kind": "minkan", "tiles": "777z", "from": "left"}]), "bad_meld",
     "The open kan 777z has 3 tiles; a open kan has 4"),
    (changed(OPEN, melds=[{"kind": "pong", "tiles": "777z", "from": "left"}]), "bad_meld", "'pong'"),
    (changed(OPEN, melds=["777z"]), "bad_meld", "meld 1"),
    (changed(OPEN, melds={"kind": "pon"}), "bad_meld", "a list of melds"),
    (changed(OPEN, melds=[{"kind": "pon", "tiles": "7z7z7q", "from": "left"}]), "bad_tile",
     "the pon (meld 1)"),
    # win_tile_not_in_hand
    (changed(BASE, win_tile="7p"), "win_tile_not_in_hand", "The winning tile 7p (7 dots) is not among"),
    (changed(BASE, win_tile="0p", concealed="234m456p99s123s555z"), "win_tile_not_in_hand", "plain five"),
    # missing_discarder and the discarder's other mistakes
    (changed(BASE, discarder=DROP), "missing_discarder", "A ron needs the discarder"),
    (changed(BASE, discarder=""), "missing_discarder", "who dealt in"),
    (changed(BASE, tsumo=True), "bad_flag_combination", "On a tsumo nobody deals in"),
    (changed(BASE, discarder="S"), "bad_flag_combination", "cannot deal in to themself"),
    # bad_flag_combination: flags that cannot go together
    (changed(BASE, ippatsu=True), "bad_flag_combination", "Ippatsu is only for a player in riichi"),
    (changed(OPEN, riichi=True), "bad_flag_combination", "Riichi needs a closed hand, but the pon 777z is called"),
    (changed(BASE, rinshan=True, tsumo=True, discarder=DROP), "bad_flag_combination", "no kan"),
    (changed(BASE, rinshan=True), "bad_flag_combination", "always a tsumo"),
    (changed(BASE, chankan=True, tsumo=True, discarder=DROP), "bad_flag_combination", "always a ron"),
    (changed(BASE, haitei=True), "bad_flag_combination", "houtei"),
    (changed(BASE, houtei=True, tsumo=True, discarder=DROP), "bad_flag_combination", "haitei"),
    (changed(BASE, haitei=True, houtei=True), "bad_flag_combination", None),
    (changed(BASE, tenhou=True, tsumo=True, discarder=DROP), "bad_flag_combination", "dealer"),
    (changed(BASE, seat_wind="E", discarder="S", tenhou=True), "bad_flag_combination", "tsumo"),
    (changed(BASE, seat_wind="E", discarder=DROP, tsumo=True, chiihou=True), "bad_flag_combination", "tenhou"),
    (changed(BASE, renhou=True, tsumo=True, discarder=DROP), "bad_flag_combination", "chiihou"),
    (changed(OPEN, renhou=True), "bad_flag_combination", "melds"),
    (changed(BASE, renhou=True, riichi=True), "bad_flag_combination", "no riichi yet"),
    (changed(BASE, pao="S"), "bad_flag_combination", "liable"),
    (changed(BASE, nukidora=1), "bad_flag_combination", "only in three-player"),
    (changed(BASE, ura_indicators="1m"), "bad_flag_combination", "Ura dora count only for a winner in riichi"),
    (changed(BASE, riichi=True, dora_indicators="1m", ura_indicators="1m2m"), "bad_flag_combination",
     "each ura indicator"),
    (changed(BASE, dora_indicators="1m1m1m2m2m2m"), "bad_flag_combination", "at most five"),
    # the request itself
    (["234m"], "bad_request", "JSON object"),
    (changed(BASE, concealed=DROP), "bad_request", "no concealed"),
    (changed(BASE, win_tile=DROP), "bad_request", "no win_tile"),
    (changed(BASE, riichi="yes"), "bad_request", "riichi is true or false"),
    (changed(BASE, honba=-1), "bad_request", "honba is a whole number"),
    (changed(BASE, seat_wind="X"), "bad_request", "seat_wind is a seat wind"),
    (changed(BASE, discarder=["E"]), "bad_request", "discarder is a seat wind"),
    (changed(BASE, melds=[{"kind": ["pon"], "tiles": "777z"}]), "bad_meld", "meld 1 has kind"),
    (changed(BASE, players=5), "bad_request", "players is 3 or 4"),
    (changed(BASE, players=3, seat_wind="N", discarder="E", concealed="111m456p99s123s555z", win_tile="4p"),
     "bad_request", "no North seat"),
    (changed(BASE, concealed=12), "bad_tile", "concealed must be a string"),
    # rules, presets and options
    (changed(BASE, rules="mcr"), "unknown_rules", "'mcr'"),
    (changed(BASE, preset="yahoo"), "unknown_preset", "'yahoo'"),
    (changed(BASE, preset=7), "unknown_preset", "7"),
    (changed(BASE, options={"kuitan": True}), "unknown_option", "'kuitan'"),
    (changed(BASE, options={"kiriage": "yes"}), "bad_option", "kiriage"),
    (changed(BASE, options={"double_wind_pair_fu": 3}), "bad_option", "double_wind_pair_fu"),
    (changed(BASE, options=["kiriage"]), "bad_option", "options must be an object"),
    (changed(BASE, options={"kiriage": [True]}), "bad_option", "kiriage"),
    (changed(BASE, options={"double_wind_pair_fu": 2.0}), "bad_option", "2 or 4, not 2.0"),
    (changed(BASE, options={"double_wind_pair_fu": True}), "bad_option", "2 or 4, not True"),
]


@pytest.mark.parametrize("request_, code, words", ERRORS, ids=[f"{c}-{i}" for i, (_, c, _) in enumerate(ERRORS)])
def test_bad_requests_get_the_contract_error_in_a_players_words(request_, code, words):
    response = score(request_)
    assert response["ok"] is False, response
    assert response["error"]["code"] == code, response
    if words:
        assert words in response["error"]["message"]
    assert set(response) == {"ok", "error"} and set(response["error"]) == {"code", "message"}


def test_every_error_code_of_the_spec_is_exercised():
    codes = {code for _, code, _ in ERRORS} | {"not_a_winning_hand", "no_yaku"}   # the engine's two below
    spec = {"bad_tile", "wrong_tile_count", "too_many_copies", "bad_meld", "not_a_winning_hand", "no_yaku",
            "win_tile_not_in_hand", "bad_flag_combination", "missing_discarder", "unknown_rules",
            "unknown_preset", "unknown_option", "bad_option"}
    assert spec <= codes


def test_remembered_rules_do_not_take_a_number_for_true():
    # 1 == True in Python: rules remembered for {"kiriage": true} must not answer {"kiriage": 1},
    # which is not a value the option takes.
    assert score(changed(BASE, options={"kiriage": True}))["ok"]
    refused = score(changed(BASE, options={"kiriage": 1}))
    assert not refused["ok"] and refused["error"]["code"] == "bad_option"
    assert score(changed(BASE, options={"kiriage": True}))["ok"]


def test_a_hand_that_is_not_complete_is_not_a_winning_hand():
    response = score(changed(BASE, concealed="234m456p99s124s555z"))
    assert response["error"]["code"] == "not_a_winning_hand"


def test_a_complete_hand_without_yaku_is_no_yaku():
    response = score(changed(BASE, concealed="234m456p99s123s777s", win_tile="4p"))
    assert response["error"]["code"] == "no_yaku"


def test_the_example_hand_scores_as_a_player_expects():
    # Riichi, pinfu, tanyao and one red five: 4 han 30 fu, 7700, plus a honba and the two sticks.
    response = score(EXAMPLE)
    assert response["ok"], response
    assert {y["id"]: y["han"] for y in response["yaku"]} == {"riichi": 1, "pinfu": 1, "tanyao": 1, "aka_dora": 1}
    assert (response["han"], response["fu"], response["points"], response["limit"]) == (4, 30, 7700, None)
    paid = {}
    for t in response["transfers"]:
        paid[(t["from"], t["to"])] = paid.get((t["from"], t["to"]), 0) + t["points"]
    assert paid == {("W", "S"): 8000, ("pot", "S"): 2000}


def test_response_fields_are_the_contracts():
    response = score(EXAMPLE)
    assert set(response) >= {"ok", "han", "fu", "yakuman", "yaku", "limit", "fu_breakdown", "points", "transfers"}
    assert all(set(y) == {"id", "han"} for y in response["yaku"])
    assert all(set(f) == {"reason", "fu"} for f in response["fu_breakdown"])
    assert all(set(t) == {"from", "to", "points"} for t in response["transfers"])
    json.dumps(response)


def test_request_defaults_match_the_spec():
    minimal = {"concealed": "234m456p99s123s555z", "win_tile": "4p", "tsumo": True, "riichi": True}
    response = score(minimal)
    assert response["ok"], response
    # Dealer (East by default) tsumo: every payer pays the dealer's share.
    assert {t["from"] for t in response["transfers"]} == {"S", "W", "N"}


@dataclass
class FakeResult:
    han: int = 3
    fu: int = 40
    yakuman: int = 0
    yaku: list = field(default_factory=lambda: [("riichi", 1), ("dora", 1), ("aka_dora", 0), ("dora", 1)])
    limit: str | None = None
    fu_breakdown: list = field(default_factory=lambda: [("base", 20), ("closed_pon_honor", 8)])
    points: int = 5200
    transfers: list = field(default_factory=lambda: [{"from": "E", "to": "S", "points": 5200},
                                                     {"from": "W", "to": "S", "points": 0}])


def test_rendering_merges_dora_into_one_entry_and_drops_zero_entries():
    response = render_riichi(FakeResult())
    assert response["yaku"] == [{"id": "riichi", "han": 1}, {"id": "dora", "han": 2}]
    assert response["fu_breakdown"] == [{"reason": "base", "fu": 20}, {"reason": "closed_pon_honor", "fu": 8}]
    assert response["transfers"] == [{"from": "E", "to": "S", "points": 5200}]
    assert merge_counted([("seat_wind", 1), ("round_wind", 1)]) == [("seat_wind", 1), ("round_wind", 1)]


def test_other_rule_sets_get_the_checked_hand_and_the_options_unchanged(monkeypatch):
    seen = {}

    def score_hand(hand, options):
        seen.update(hand=hand, options=options)
        return {"ok": True, "points": 4, "transfers": [], "fundamentals": {"pool": hand.extra["pool"]}}

    monkeypatch.setitem(sys.modules, "scorer.fundamentals", types.SimpleNamespace(score_hand=score_hand))
    response = score(changed(BASE, rules="fundamentals", options={"anything": 1}, pool=2))
    assert response == {"ok": True, "points": 4, "transfers": [], "fundamentals": {"pool": 2}}
    assert seen["options"] == {"anything": 1}
    assert seen["hand"].seat_wind == "S" and seat_tiles(seen["hand"]) == "234m456p12399s555z"
    # The reader's checks hold for every rule set.
    assert score(changed(BASE, rules="fundamentals", discarder=DROP))["error"]["code"] == "missing_discarder"


def test_a_rule_set_that_is_not_there_is_unknown_rules(monkeypatch):
    monkeypatch.setitem(sys.modules, "scorer.chinese", types.SimpleNamespace())
    response = score(changed(BASE, rules="chinese-classical"))
    assert response["error"]["code"] == "unknown_rules"


def test_a_bug_in_a_rule_set_is_an_answer_not_a_crash(monkeypatch):
    def broken(hand, options):
        raise KeyError("oops")

    monkeypatch.setitem(sys.modules, "scorer.fundamentals", types.SimpleNamespace(score_hand=broken))
    response = score(changed(BASE, rules="fundamentals"))
    assert response["ok"] is False and response["error"]["code"] == "internal_error"
    assert "please report it" in response["error"]["message"]


def seat_tiles(hand) -> str:
    from scorer.tiles import format_tiles
    return format_tiles(hand.concealed)
