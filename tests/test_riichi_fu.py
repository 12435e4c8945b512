"""Fu, rule by rule: base 20, closed ron 10, tsumo 2, pons and kans by kind, value pairs,
waits, seven pairs 25, the pinfu exceptions, rounding up to 10, and the best reading."""
from __future__ import annotations

import pytest

from tests.test_riichi_yaku import score


def breakdown(result) -> dict:
    return dict(result.fu_breakdown)


def test_closed_ron_and_rounding():
    # Riichi, tanki on 8p, closed pon of 555s: 20 + 10 + 4 + 2 = 36 -> 40.
    result = score("234m456p678s555s88p", "8p", riichi=True)
    assert breakdown(result) == {"base": 20, "closed_ron": 10, "closed_pon_simple": 4, "wait_tanki": 2}
    assert result.fu == 40


@pytest.mark.parametrize("meld, reason, fu", [
    (("pon", "555p"), "open_pon_simple", 2),
    (("pon", "999p"), "open_pon_terminal", 4),
    (("pon", "777z"), "open_pon_honor", 4),
    (("minkan", "5555p"), "open_kan_simple", 8),
    (("kakan", "1111p"), "open_kan_terminal", 16),
    (("minkan", "6666z"), "open_kan_honor", 16),
    (("ankan", "5555p"), "closed_kan_simple", 16),
    (("ankan", "9999p"), "closed_kan_terminal", 32),
    (("ankan", "5555z"), "closed_kan_honor", 32),
])
def test_pons_and_kans(meld, reason, fu):
    # The rest: 123m 456m 789s, pair 99m won by tanki (2), riichi where the hand is closed.
    closed = meld[0] == "ankan"
    result = score("123m456m789s99m", "9m", [meld], riichi=closed, options={"open_tanyao": True},
                   tsumo=not closed, haitei=not closed)
    assert breakdown(result)[reason] == fu


def test_closed_pon_of_honours():
    result = score("123m456p789s777z55s", "5s", riichi=True)
    assert breakdown(result)["closed_pon_honor"] == 8


@pytest.mark.parametrize("pair, seat, reason, fu", [
    ("55z", "S", "pair_dragon", 2),
    ("22z", "S", "pair_seat_wind", 2),
    ("11z", "S", "pair_round_wind", 2),
    ("44z", "S", None, 0),
])
def test_value_pairs(pair, seat, reason, fu):
    result = score("123m456p789s234s" + pair, "4s", riichi=True, seat_wind=seat)
    if reason:
        assert breakdown(result)[reason] == fu
    else:
        assert not any(r.startswith("pair") for r in breakdown(result))


@pytest.mark.parametrize("preset, fu", [("tenhou", 4), ("mahjongsoul", 4), ("wrc", 2), ("ema", 2)])
def test_double_wind_pair(preset, fu):
    # The dealer in the East round with a pair of East: seat and round wind.
    result = score("123m456p789s234s11z", "4s", riichi=True, seat_wind="E", preset=preset)
    assert breakdown(result)["pair_double_wind"] == fu


def test_double_wind_pair_option():
    result = score("123m456p789s234s11z", "4s", riichi=True, seat_wind="E", options={"double_wind_pair_fu": 2})
    assert breakdown(result)["pair_double_wind"] == 2
    assert result.fu == 40     # 20 + 10 + 2 = 32 -> 40


@pytest.mark.parametrize("concealed, win, wait", [
    ("123m456p789s35s55p4s", "4s", "wait_kanchan"),
    ("123m456p789s12s55p3s", "3s", "wait_penchan"),
    ("123m456p789s89s55p7s", "7s", "wait_penchan"),
    ("123m456p789s234s5p5p", "5p", "wait_tanki"),
])
def test_closed_waits_earn_2(concealed, win, wait):
    result = score(concealed, win, riichi=True)
    assert breakdown(result)[wait] == 2


def test_two_sided_and_pon_waits_earn_nothing():
    result = score("123m456p789s23s55p4s", "4s", riichi=True)
    assert not any(r.startswith("wait") for r in breakdown(result))
    result = score("123m456p789s55s99p5s", "5s", riichi=True)     # 55s / 99p shanpon
    assert not any(r.startswith("wait") for r in breakdown(result))
    assert breakdown(result)["open_pon_simple"] == 2               # completed by the ron


def test_seven_pairs_is_25_flat():
    result = score("11m99m33p55p77s11z33z", "3z", tsumo=True)
    assert result.fu_breakdown == [("chiitoitsu", 25)] and result.fu == 25


def test_pinfu_tsumo_20_and_ron_30():
    assert score("234m456p789s23s55p4s", "4s", tsumo=True).fu == 20
    assert score("234m456p789s23s55p4s", "4s").fu == 30


def test_open_pinfu_shape_ron_is_raised_to_30():
    result = score("234m456p23s55p4s", "4s", [("chi", "678s")])      # tanyao, nothing else
    assert breakdown(result) == {"base": 20, "open_pinfu": 2} and result.fu == 30
    assert result.points == 1000


def test_open_pinfu_shape_ron_20_fu_when_the_rules_say():
    result = score("234m456p23s55p4s", "4s", [("chi", "678s")], options={"open_pinfu_fu": False})
    assert result.fu == 20 and result.points == 700     # 20 x 2^3 x 4 = 640 -> 700


def test_open_tsumo_without_fu_is_30_by_its_tsumo_fu():
    result = score("234m456p23s55p4s", "4s", [("chi", "678s")], tsumo=True)
    assert breakdown(result) == {"base": 20, "tsumo": 2} and result.fu == 30


def test_the_reading_with_the_higher_score_is_chosen():
    # 34456s + 5s reads as 345 + 456: the 5s finishing 34 (two-sided: pinfu) or 4_6 (kanchan).
    hand = ("123m456p99p344556s", "5s")
    result = score(*hand)
    assert dict(result.yaku) == {"pinfu": 1} and result.fu == 30       # kanchan reading has no yaku
    # Riichi tsumo: pinfu reading 3 han 20 fu (700 / 1300) beats kanchan 2 han 30 fu (500 / 1000).
    result = score(*hand, riichi=True, tsumo=True)
    assert dict(result.yaku) == {"riichi": 1, "menzen_tsumo": 1, "pinfu": 1}
    assert (result.fu, result.points) == (20, 2700)


def test_pinfu_hand_read_two_sided_not_edge():
    # 12345m + 3m: 123 with the 3 last (edge wait, 2 fu) or 345 with the 3 first (two-sided).
    # Riichi + pinfu 2 han 30 fu = 2000 beats riichi 1 han 40 fu = 1300.
    result = score("12345m678p789s44s3m", "3m", riichi=True)
    assert dict(result.yaku) == {"riichi": 1, "pinfu": 1}
    assert result.points == 2000


def test_three_pons_or_three_runs():
    # 111222333m: three closed pons (sanankou; 8 + 4 + 4 fu) or three runs 123m (iipeikou).
    # Riichi + sanankou, 20 + 10 + 16 + 2 tanki = 48 -> 50 fu, 3 han = 6400, beats
    # riichi + iipeikou, 2 han 40 fu = 2600.
    result = score("111222333m456p99s", "9s", riichi=True)
    assert dict(result.yaku) == {"riichi": 1, "sanankou": 2}
    assert (result.han, result.fu, result.points) == (3, 50, 6400)
