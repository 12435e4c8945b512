"""Member statistics over a season (scorer/club_stats.py) from the games' summaries, with the
hand detail scorer/club.py keeps per seat (scorer/club_detail.py); results rounded as clubs
write them (scorer/rounding.py)."""
from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from scorer import score
from scorer.club import DETAIL_VERSION, GameSummary, summarise
from scorer.club_stats import Mean, Rate, member_stats
from scorer.game import GameConfig, new_game, replay, request_context
from scorer.rounding import format_result, round_game, round_result

MEMBERS = {0: "m-a", 1: "m-b", 2: "m-c"}          # seat 3 is a guest
NAMES = {"m-a": "Aki", "m-b": "Bo", "m-c": "Chie"}


def _game() -> tuple[GameConfig, list[dict]]:
    """An East-only game: Aki's riichi mangan by tiles off Bo, Chie's open tsumo by tiles, a draw,
    Dan's ron off Aki entered as numbers with its yaku ticked, Bo's ron off Aki as bare numbers."""
    config = GameConfig.from_json({"rules": "riichi", "players": ["Aki", "Bo", "Chie", "Dan"], "length": "east"})
    state = new_game(config)
    first = {**request_context(config, state, 0, 1), "concealed": "123m456p789s234s55p", "win_tile": "5p",
             "melds": [], "dora_indicators": "4p", "riichi": True, "ura_indicators": "1z"}
    result = score(first)
    assert result["ok"] and result["points"] == 12000
    events = [{"type": "riichi", "seat": 0},
              {"type": "win", "winner": 0, "discarder": 1, "result": result, "request": first}]
    state = replay(config, events)
    second = {**request_context(config, state, 2, None), "concealed": "234m678p345s55s", "win_tile": "5s",
              "melds": [{"kind": "pon", "tiles": "555z", "from": "left"}], "dora_indicators": "9m"}
    result = score(second)
    assert result["ok"] and result["points"] == 1100
    events += [{"type": "win", "winner": 2, "result": result, "request": second},
               {"type": "draw", "tenpai": [1]},
               {"type": "win", "winner": 3, "discarder": 0, "han": 2, "fu": 30, "open": True, "dora": 1,
                "yaku": ["yakuhai_chun", "dora"]},
               {"type": "win", "winner": 1, "discarder": 0, "han": 1, "fu": 30},
               {"type": "end"}]
    return config, events


def _summary() -> GameSummary:
    config, events = _game()
    return summarise(config, replay(config, events), events)


def test_a_summary_keeps_each_seats_hand_detail():
    summary = _summary()
    assert summary.detail == DETAIL_VERSION and summary.finished
    aki, bo, chie, dan = summary.seats
    assert (aki.wins, aki.tsumo_wins, aki.win_points, aki.riichi, aki.riichi_wins) == (1, 0, 12000, 1, 1)
    assert (aki.told_open, aki.open_wins, aki.told_dora, aki.dora) == (1, 0, 1, 3)
    assert aki.yaku == {"riichi": 1}                     # dora are counted apart, not as a yaku
    # Aki dealt into Dan's 2 han 30 fu (2000) and Bo's 1 han 30 fu (1000)
    assert (aki.deal_ins, aki.deal_in_points) == (2, 3000)
    assert (chie.tsumo_wins, chie.win_points, chie.told_open, chie.open_wins, chie.dora) == (1, 1100, 1, 1, 0)
    assert chie.yaku == {"yakuhai_haku": 1}
    assert (dan.told_open, dan.open_wins, dan.told_dora, dan.dora, dan.yaku) == (1, 1, 1, 1, {"yakuhai_chun": 1})
    # bare numbers tell neither calls nor dora nor yaku
    assert (bo.wins, bo.told_open, bo.told_dora, bo.yaku) == (1, 0, 0, {})
    assert bo.deal_in_points == 12000


def test_kept_summary_reads_back_the_same_and_an_old_one_reads_as_without_detail():
    summary = _summary()
    again = GameSummary.from_json(summary.to_json())
    assert again == summary
    old = summary.to_json()
    old.pop("detail")
    for seat in old["seats"]:
        for name in ("tsumo_wins", "win_points", "deal_in_points", "riichi_wins", "open_wins", "told_open",
                     "dora", "told_dora", "yaku"):
            seat.pop(name)
    kept_before = GameSummary.from_json(old)
    stats = member_stats([(kept_before, MEMBERS)], NAMES)["riichi"]["m-a"]
    assert stats.games == 1 and stats.win_rate == Rate(1, 5)
    # the detail is not there to count: its samples are empty, not zeros read as facts
    assert stats.tsumo_share == Rate(0, 0) and stats.tsumo_share.value is None
    assert stats.average_win == Mean(0, 0) and stats.riichi_success == Rate(0, 0)


def test_member_statistics_carry_their_samples():
    summary = _summary()
    stats = member_stats([(summary, MEMBERS), (summary, MEMBERS)], NAMES)["riichi"]
    assert set(stats) == {"m-a", "m-b", "m-c"}          # the guest has none
    aki = stats["m-a"]
    assert aki.name == "Aki" and aki.games == 2
    place = summary.seats[0].place
    assert aki.place_shares()[place - 1] == Rate(2, 2)
    assert aki.average_place == Mean(2 * place, 2)
    assert aki.average_score == Mean(2 * summary.seats[0].score, 2)
    assert aki.bust_rate == Rate(0, 2)
    assert aki.win_rate == Rate(2, 10)                   # 5 hands dealt a game: 4 wins and a draw
    assert aki.tsumo_share == Rate(0, 2) and aki.ron_share == Rate(2, 2)
    assert aki.average_win.value == 12000
    assert aki.deal_in_rate == Rate(4, 10) and aki.average_deal_in.value == 1500
    assert aki.riichi_rate == Rate(2, 10) and aki.riichi_success == Rate(2, 2)
    assert aki.calls_rate == Rate(0, 2) and aki.dora_per_win == Mean(6, 2)
    assert aki.yaku_rates() == [("riichi", Rate(2, 2))]
    assert [w.points for w in aki.best] == [12000, 12000]
    chie = stats["m-c"]
    assert chie.calls_rate == Rate(2, 2) and chie.tsumo_share == Rate(2, 2)
    bo = stats["m-b"]
    assert bo.calls_rate == Rate(0, 0) and bo.dora_per_win.value is None
    data = aki.to_json()
    assert data["win_rate"] == {"count": 2, "of": 10, "rate": 0.2}
    assert data["yaku"] == [{"id": "riichi", "count": 2, "of": 2, "rate": 1.0}]


def test_best_hands_come_from_the_wins_read():
    summary = _summary()
    stats = member_stats([(summary, MEMBERS)], NAMES, best=1)["riichi"]
    assert [w.points for w in stats["m-a"].best] == [12000]
    # a page that read the games without their wins (the standings' way) has no best hands,
    # and every other figure is the same
    without = member_stats([(replace(summary, wins=()), MEMBERS)], NAMES)["riichi"]["m-a"]
    assert without.best == [] and without.average_win == stats["m-a"].average_win


def test_a_bust_counts():
    config = GameConfig.from_json({"rules": "riichi", "players": ["Aki", "Bo", "Chie", "Dan"]})
    events = [{"type": "win", "winner": 0, "discarder": 1, "yakuman": 1}]   # Bo at 25000 pays 48000
    summary = summarise(config, replay(config, events), events)
    assert summary.finished and summary.seats[1].score < 0
    assert member_stats([(summary, MEMBERS)], NAMES)["riichi"]["m-b"].bust_rate == Rate(1, 1)


@pytest.mark.parametrize("points, tenhou, gosha, exact", [
    (45300, "45.3", "45", "45.3"),
    (34500, "34.5", "34", "34.5"),          # 五捨: a 5 in the hundreds drops
    (34600, "34.6", "35", "34.6"),          # 六入: a 6 raises
    (-12000, "-12.0", "-12", "-12"),
    (-1500, "-1.5", "-2", "-1.5"),          # on the number line: 500 above -2000
    (250, "0.3", "0", "0.25"),
    (0, "0.0", "0", "0"),
])
def test_rounding_as_clubs_write_results(points, tenhou, gosha, exact):
    assert str(round_result(points, "tenhou")) == tenhou
    assert str(round_result(points, "gosha_rokunyu")) == gosha
    assert round_result(points, "none") == Decimal(exact)
    assert format_result(round_result(points, "gosha_rokunyu"), "gosha_rokunyu").lstrip("+") == gosha


def test_a_rounded_game_adds_up_with_first_place_taking_the_difference():
    results = [45500, 5500, -15500, -35500]            # 五捨: 45, 5, -16, -36 would add to -2
    assert round_game(results, "gosha_rokunyu") == (Decimal(47), Decimal(5), Decimal(-16), Decimal(-36))
    assert sum(round_game(results, "gosha_rokunyu")) == 0
    assert round_game([12340, -12340], "tenhou") == (Decimal("12.3"), Decimal("-12.3"))
    assert format_result(Decimal("12.3")) == "+12.3" and format_result(Decimal("-0.0")) == "+0.0"
    assert format_result(Decimal("0.25"), "none") == "+0.25"
    with pytest.raises(ValueError, match="rounding is one of"):
        round_result(100, "half_even")


def test_odd_kept_fields_count_as_not_known():
    # events kept before logs were checked may hold anything beside what the ledger reads
    config = GameConfig.from_json({"rules": "riichi", "players": ["Aki", "Bo", "Chie", "Dan"], "length": "east"})
    events = [{"type": "win", "winner": 0, "discarder": 1, "han": 1, "fu": 30, "yaku": {"riichi": 1},
               "open": "yes", "dora": -3, "request": {"melds": "pon", "concealed": 5}},
              {"type": "win", "winner": 2, "han": 2, "fu": 30, "yaku": [None, 7, "tanyao", "tanyao", "dora"],
               "dora": True, "request": {"concealed": "234m", "melds": ["x", {"kind": 3}]}},
              {"type": "end"}]
    aki, _, chie, _ = summarise(config, replay(config, events), events).seats
    assert (aki.told_open, aki.told_dora, aki.yaku) == (0, 0, {})
    assert (chie.told_open, chie.told_dora, chie.yaku) == (0, 0, {"tanyao": 1})
