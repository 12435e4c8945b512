"""Whole games, from the first deal to the settlement sheet: riichi (East-South, Tenhou
table rules), classical Chinese. (The Fundamentals game is in test_fundamentals.py.)"""
from __future__ import annotations

from scorer.game import GameConfig, replay
from scorer.settlement import settle


def ron(winner, discarder, han, fu=30):
    return {"type": "win", "winner": winner, "discarder": discarder, "han": han, "fu": fu}


def tsumo(winner, han, fu=30):
    return {"type": "win", "winner": winner, "han": han, "fu": fu}


RIICHI_GAME = [
    {"type": "riichi", "seat": 0}, tsumo(0, 3, 40),                      # E1   Ann riichi, dealer tsumo 2600 all
    {"type": "draw", "tenpai": [1]},                                     # E1-1 Bo alone ready
    ron(2, 3, 2),                                                        # E2-2 Cy from Di, 2000 + 600
    {"type": "riichi", "seat": 3}, {"type": "riichi", "seat": 1},        # E3   two riichi, then a double ron
    {"type": "win", "discarder": 0, "winners": [{"winner": 3, "han": 3, "fu": 30}, {"winner": 1, "han": 2, "fu": 40}]},
    {"type": "abortive_draw", "reason": "four_winds"},                   # E4
    tsumo(3, 1),                                                         # E4-1 Di dealer tsumo 500 all + 100
    ron(2, 1, 5),                                                        # E4-2 Cy mangan from Bo + 600
    {"type": "chombo", "seat": 0},                                       # S1   Ann (dealer) chombo: 4000 each
    {"type": "draw", "tenpai": [0, 1, 2, 3]},                            # S1   all ready
    ron(3, 2, 4),                                                        # S1-1 Di 7700 + 300 from Cy
    tsumo(1, 2),                                                         # S2   Bo dealer tsumo 1000 all
    {"type": "riichi", "seat": 0}, {"type": "draw", "tenpai": [0]},      # S2-1 Ann riichi, alone ready
    tsumo(3, 3),                                                         # S3-2 Di 1000/2000 + 200 each + pot
    ron(3, 0, 2),                                                        # S4   Di dealer 2900: stops in the lead
]
RIICHI_DELTAS = [
    (7800, -2600, -2600, -2600), (-1000, 3000, -1000, -1000), (0, 0, 2600, -2600), (-6500, 3600, 0, 2900),
    (0, 0, 0, 0), (-600, -600, -600, 1800), (0, -8600, 8600, 0), (-12000, 4000, 4000, 4000), (0, 0, 0, 0),
    (0, 0, -8000, 8000), (-1000, 3000, -1000, -1000), (2000, -1000, -1000, -1000), (-1200, -1200, -2200, 5600),
    (-2900, 0, 0, 2900)]


def test_riichi_east_south_game_to_the_settlement_sheet():
    config = GameConfig.from_json({"rules": "riichi", "preset": "tenhou", "players": ["Ann", "Bo", "Cy", "Di"],
                                   "length": "south", "rate": 0.1, "currency": "EUR"})
    state = replay(config, RIICHI_GAME)
    assert [h.deltas for h in state.hands] == RIICHI_DELTAS
    assert [h.label for h in state.hands] == [     # a hand of a round played again says its honba
        "East 1", "East 1, 1 honba", "East 2, 2 honba", "East 3", "East 4", "East 4, 1 honba", "East 4, 2 honba",
        "South 1", "South 1", "South 1, 1 honba", "South 2", "South 2, 1 honba", "South 3, 2 honba", "South 4"]
    assert [h.honba for h in state.hands] == [0, 1, 2, 0, 0, 1, 2, 0, 0, 1, 0, 1, 2, 0]
    assert state.scores == (9600, 24600, 23800, 42000) and state.riichi_sticks == 0
    assert state.finished and state.end_reason == "the last dealer, Di, stopped in the lead"
    sheet = settle(config, [state]).to_json()
    standings = [(s["name"], s["place"], s["result"], s["money"]) for s in sheet["games"][0]["standings"]]
    # score - 30000 return + uma 20/10/-10/-20 thousand, oka 20000 to first; 0.1 a thousand.
    assert standings == [("Di", 1, 52000, 5.2), ("Bo", 2, 4600, 0.46), ("Cy", 3, -16200, -1.62),
                         ("Ann", 4, -40400, -4.04)]
    assert sheet["payments"] == [{"from": "Ann", "to": "Di", "amount": 4.04}, {"from": "Cy", "to": "Di", "amount": 1.16},
                                 {"from": "Cy", "to": "Bo", "amount": 0.46}]


def test_chinese_game_to_the_settlement_sheet():
    config = GameConfig.from_json({"rules": "chinese-classical", "players": ["Ann", "Bo", "Cy", "Di"],
                                   "length": "east", "rate": 0.01})
    events = [
        {"type": "win", "winner": 1, "discarder": 2, "points": 56, "other_counts": {"0": 10, "2": 4}},
        {"type": "win", "winner": 1, "points": 100},           # Bo is East now: takes double from each
        {"type": "draw"},                                      # East did not win: the winds move on
        {"type": "win", "winner": 3, "discarder": 0, "points": 1000},
        {"type": "win", "winner": 0, "discarder": 1, "points": 30, "other_counts": {"3": 40}},
    ]
    state = replay(config, events)
    assert [h.deltas for h in state.hands] == [
        (-92, 200, -52, -56), (-200, 600, -200, -200), (0, 0, 0, 0), (-1000, -1000, -2000, 4000), (60, -30, -30, 0)]
    assert [h.dealer for h in state.hands] == [0, 1, 1, 2, 3]
    assert state.finished and state.scores == (-1232, -230, -2282, 3744)
    sheet = settle(config, [state]).to_json()
    assert [(s["name"], s["money"]) for s in sheet["games"][0]["standings"]] == [
        ("Di", 37.44), ("Bo", -2.3), ("Ann", -12.32), ("Cy", -22.82)]


def test_chinese_full_game_ends_when_the_prevailing_wind_comes_back_to_east():
    config = GameConfig.from_json({"rules": "chinese-classical", "players": ["Ann", "Bo", "Cy", "Di"]})
    state = replay(config, [{"type": "draw"}] * 15)
    assert not state.finished and state.round_label == "North 4"
    state = replay(config, [{"type": "draw"}] * 15 + [{"type": "win", "winner": 2, "points": 40}])
    assert state.finished and state.end_reason == "the prevailing wind has come round to East again"
    kept = replay(config, [{"type": "win", "winner": 0, "points": 40}] * 3)
    assert kept.dealer == 0 and kept.scores == (720, -240, -240, -240)   # East takes 80 from each, three times
