"""scorer.club: what a game leaves each seat, and standings added up from those summaries."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorer.club import GameSummary, standings, summarise
from scorer.game import GameConfig, replay

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
FOUR = {"rules": "riichi", "preset": "tenhou", "players": ["A", "B", "C", "D"], "length": "east", "rate": 1}


def summary_of(config: dict, events: list[dict]) -> GameSummary:
    game = GameConfig.from_json(config)
    return summarise(game, replay(game, events), events)


def test_a_double_ron_is_two_wins_and_one_deal_in():
    events = [{"type": "riichi", "seat": 3}, {"type": "riichi", "seat": 1},
              {"type": "win", "discarder": 0, "winners": [{"winner": 3, "han": 3, "fu": 30},
                                                          {"winner": 1, "han": 2, "fu": 40}]}]
    summary = summary_of(FOUR, events)
    assert [(s.wins, s.deal_ins, s.riichi) for s in summary.seats] == [(0, 1, 0), (1, 0, 1), (0, 0, 0), (1, 0, 1)]
    assert summary.hands == 1 and {w.seat for w in summary.wins} == {1, 3}


def test_a_chombo_and_a_correction_are_not_hands_dealt():
    events = [{"type": "chombo", "seat": 2}, {"type": "draw", "tenpai": [0]},
              {"type": "correction", "scores": [26000, 24000, 25000, 25000], "reason": "miscount"}]
    summary = summary_of(FOUR, events)
    assert summary.hands == 1


def test_a_win_entered_by_tiles_keeps_its_yaku_and_tiles():
    hand = {"concealed": "234m456p678s22z555z", "win_tile": "5z"}
    game = GameConfig.from_json(FOUR)
    request = {"rules": "riichi", "preset": "tenhou", "players": 4, "tsumo": True, "seat_wind": "E",
               "round_wind": "E", **hand}
    from scorer import score
    result = score(request)
    events = [{"type": "win", "winner": 0, "discarder": None, "result": result, "request": request}]
    summary = summarise(game, replay(game, events), events)
    (win,) = summary.wins
    assert win.tiles == {"concealed": hand["concealed"], "win_tile": "5z"} and "yakuhai_haku" in win.yaku
    assert GameSummary.from_json(json.loads(json.dumps(summary.to_json()))) == summary


@pytest.mark.parametrize("example", ["riichi-game", "chinese-game", "fundamentals-game"])
def test_every_rule_set_summarises_and_adds_up(example):
    log = json.loads((EXAMPLES / f"{example}.json").read_text())
    summary = summary_of(log["config"], log["events"])
    assert sorted(s.place for s in summary.seats) == [1, 2, 3, 4]
    assert sum(s.wins for s in summary.seats) == len(summary.wins) > 0
    members = {seat: f"m{seat}" for seat in range(4)}
    (rows,) = standings([(summary, members), (summary, members)], {}).values()
    assert [r.games for r in rows] == [2, 2, 2, 2]
    assert sum(r.result for r in rows) == 2 * sum(s.result for s in summary.seats)
    assert rows[0].result >= rows[-1].result


def test_three_players_last_is_third_and_riichi_rates_only_for_riichi():
    three = {**FOUR, "players": ["A", "B", "C"]}
    summary = summary_of(three, [{"type": "win", "winner": 0, "discarder": 2, "han": 3, "fu": 30}])
    (rows,) = standings([(summary, {0: "a", 1: "b", 2: "c"})], {"a": "Ann"}).values()
    assert [(r.name, r.last) for r in rows] == [("Ann", 0), ("B", 0), ("C", 1)]
    assert rows[0].riichi_rate == 0 and rows[0].win_rate == 1
    fundamentals = json.loads((EXAMPLES / "fundamentals-game.json").read_text())
    (rows,) = standings([(summary_of(fundamentals["config"], fundamentals["events"]), {0: "x"})], {}).values()
    assert rows[0].riichi_rate is None and rows[0].to_json()["riichi_rate"] is None


def test_sorts_put_the_best_first_whichever_way_best_runs():
    log = json.loads((EXAMPLES / "riichi-game.json").read_text())
    summary = summary_of(log["config"], log["events"])
    members = {seat: f"m{seat}" for seat in range(4)}
    by_place = standings([(summary, members)], {}, sort="average_place")["riichi"]
    assert [r.average_place for r in by_place] == [1, 2, 3, 4]
    by_deal_ins = standings([(summary, members)], {}, sort="deal_in_rate")["riichi"]
    rates = [r.deal_in_rate for r in by_deal_ins]
    assert rates == sorted(rates)
