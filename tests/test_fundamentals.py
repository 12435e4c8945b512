"""Mahjong Fundamentals (rule text 004): a hand's payments through the contract, and the
whole 20-point game through the ledger."""
from __future__ import annotations

import pytest

from scorer import score
from scorer.game import GameConfig, LedgerError, replay
from scorer.settlement import settle

HAND = {"rules": "fundamentals", "concealed": "234m567p345s22z", "win_tile": "2z",
        "melds": [{"kind": "pon", "tiles": "111z", "from": "left"}]}


def pays(response):
    return {(t["from"], t["to"]): t["points"] for t in response["transfers"]}


@pytest.mark.parametrize("seat, tsumo, discarder, expected", [
    ("S", True, None, {("E", "S"): 2, ("W", "S"): 1, ("N", "S"): 1}),     # non-dealer tsumo 2/1/1
    ("E", True, None, {("S", "E"): 2, ("W", "E"): 2, ("N", "E"): 2}),     # dealer tsumo 2 each
    ("S", False, "W", {("W", "S"): 4}),                                   # ron 4
    ("E", False, "N", {("N", "E"): 6}),                                   # dealer ron 6
])
def test_payments(seat, tsumo, discarder, expected):
    request = {**HAND, "seat_wind": seat, "tsumo": tsumo}
    if discarder:
        request["discarder"] = discarder
    response = score(request)
    assert response["ok"] and pays(response) == expected
    assert response["points"] == sum(expected.values())


def test_the_winner_takes_the_draw_pool():
    response = score({**HAND, "seat_wind": "S", "discarder": "E", "pool": 3})
    assert pays(response)[("pot", "S")] == 3 and response["points"] == 4


@pytest.mark.parametrize("change, code", [
    ({"concealed": "1133557799m2244p", "win_tile": "2p", "melds": []}, "not_a_winning_hand"),
    ({"melds": [{"kind": "minkan", "tiles": "1111z", "from": "left"}]}, "bad_meld"),
    ({"options": {"aka": True}}, "unknown_option"),
])
def test_what_the_rules_do_not_have(change, code):
    response = score({**HAND, "seat_wind": "S", "discarder": "E", **change})
    assert not response["ok"] and response["error"]["code"] == code


CONFIG = {"rules": "fundamentals", "players": ["Ann", "Bo", "Cy", "Di"], "rate": 0.5}


def test_whole_game_from_the_first_deal_to_the_settlement_sheet():
    config = GameConfig.from_json(CONFIG)
    events = [
        {"type": "win", "winner": 0},                    # Ann (dealer) tsumo: 2 from each; keeps the deal
        {"type": "draw", "tenpai": [0, 2]},              # Bo, Di not ready: 1 each into the pool; Ann keeps
        {"type": "win", "winner": 1, "discarder": 0},    # Bo ron 4 + the pool 2; the deal passes to Bo
        {"type": "win", "winner": 1, "discarder": 3},    # Bo (dealer) ron 6; keeps
        {"type": "win", "winner": 2},                    # Cy tsumo: Bo 2, Ann 1, Di 1; deal to Cy
        {"type": "draw", "tenpai": []},                  # nobody ready: 4 into the pool; deal to Di
        {"type": "win", "winner": 0, "discarder": 3},    # Ann ron 4 + pool 4: the deal returns to Ann
    ]
    state = replay(config, events)
    assert [h.scores for h in state.hands] == [
        (26, 18, 18, 18), (26, 17, 18, 17), (22, 23, 18, 17), (22, 29, 18, 11),
        (21, 27, 22, 10), (20, 26, 21, 9), (28, 26, 21, 5)]
    assert state.finished and state.end_reason == "the deal returned to the first dealer"
    assert state.pool == 0 and state.total == 80
    with pytest.raises(LedgerError, match="game is over"):
        replay(config, events + [{"type": "draw", "tenpai": []}])
    sheet = settle(config, [state]).to_json()
    assert [(s["name"], s["place"], s["result"], s["money"]) for s in sheet["games"][0]["standings"]] == [
        ("Ann", 1, 8, 4.0), ("Bo", 2, 6, 3.0), ("Cy", 3, 1, 0.5), ("Di", 4, -15, -7.5)]
    assert sheet["payments"] == [{"from": "Di", "to": "Ann", "amount": 4.0}, {"from": "Di", "to": "Bo", "amount": 3.0},
                                 {"from": "Di", "to": "Cy", "amount": 0.5}]


def test_ties_go_to_the_first_dealer_then_in_turn():
    config = GameConfig.from_json(CONFIG)
    state = replay(config, [{"type": "win", "winner": 1, "discarder": 3}, {"type": "win", "winner": 0, "discarder": 3}])
    assert state.scores == (24, 24, 20, 12)
    assert state.placement()[:2] == (0, 1)


def test_riichi_events_do_not_exist_here():
    with pytest.raises(LedgerError, match="no event 'riichi'"):
        replay(GameConfig.from_json(CONFIG), [{"type": "riichi", "seat": 0}])


# The lines of text 004 the tests below check, word for word (`test_the_quoted_lines_are_the_text`).
VALID_CLAIMS = "Valid claims are: Pon"
RON = ("If any player at the table has a Ready Hand that can be completed with the tile that was "
       "just discarded, that player may claim the discarded tile to declare victory.")
CHI = "A Chi is a set of precisely three sequential tiles of the same suit."


def test_the_quoted_lines_are_the_text(shared):
    text = " ".join((shared / "rules" / "004_70db1c6a06d319d5.txt").read_text().split())
    for line in (VALID_CLAIMS, RON, CHI):
        assert line in text
    claims = text[text.index(VALID_CLAIMS):text.index("Pass to the next player")]
    assert "Chi" not in claims      # the claims are Pon and Ron; a chi is never claimed


def test_a_chi_is_never_claimed_but_may_be_made_from_the_wall():
    # VALID_CLAIMS (Pon, then Ron): a chi called from a discard is refused, with the tiles named ...
    called = score({**HAND, "concealed": "567p345s22z111z", "seat_wind": "S", "discarder": "E",
                    "melds": [{"kind": "chi", "tiles": "234m", "from": "left"}]})
    assert not called["ok"] and called["error"]["code"] == "bad_meld"
    assert "234m" in called["error"]["message"] and "pon and ron" in called["error"]["message"]
    # ... while CHI, drawn from the wall, is one of the four sets, and RON may complete it.
    assert score({**HAND, "concealed": "234m567p345s22z111z", "win_tile": "3m", "melds": [],
                  "seat_wind": "S", "discarder": "E"})["ok"]


@pytest.mark.parametrize("field, value", [
    ("riichi", True), ("double_riichi", True), ("honba", 1), ("riichi_sticks", 2),
    ("dora_indicators", "1m"), ("ura_indicators", "1m"), ("takes_pot", False), ("pao", "N"),
])
def test_riichi_fields_are_refused_in_words_as_classical_chinese_refuses_them(field, value):
    closed = {"concealed": "234m567p345s22z111z", "win_tile": "2z", "seat_wind": "S", "discarder": "E"}
    request = {**closed, field: value}
    if field == "ura_indicators":
        request["riichi"] = True        # the contract's own check asks for riichi first
    fundamentals = score({**request, "rules": "fundamentals"})
    chinese = score({**request, "rules": "chinese-classical"})
    for response in (fundamentals, chinese):
        assert not response["ok"] and response["error"]["code"] == "bad_flag_combination", response
    first = "riichi" if field == "ura_indicators" else field
    assert fundamentals["error"]["message"].endswith(f"not of the Fundamentals rules: leave {first} out.")
    assert chinese["error"]["message"].endswith(f"not of classical Chinese scoring: leave {first} out.")


def test_three_player_north_tiles_set_aside_are_refused_too():
    response = score({**HAND, "players": 3, "seat_wind": "S", "discarder": "E", "nukidora": 1})
    assert not response["ok"] and "leave nukidora out" in response["error"]["message"]


@pytest.mark.parametrize("flag", ["tenhou", "haitei"])
def test_riichi_situations_that_pay_nothing_here_are_refused(flag):
    # Text 004 pays every tsumo alike: a first-draw or last-tile win changes nothing, so the
    # flag is a mistake for another rule set, not something to drop silently.
    seat = "E" if flag == "tenhou" else "S"
    response = score({"rules": "fundamentals", "concealed": "234m567p345s22z111z", "win_tile": "2z",
                      "seat_wind": seat, "tsumo": True, flag: True})
    assert not response["ok"] and response["error"]["code"] == "bad_flag_combination", response
