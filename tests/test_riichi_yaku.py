"""Every riichi yaku and yakuman, each on a worked example hand (closed and, where it counts
open, open), with the han, fu and points a scorer at the table would write down.

Seat South, round East, non-dealer unless said; a ron comes from West unless said.
"""
from __future__ import annotations

import pytest

from scorer.errors import HandError
from scorer.hand import Meld, WinningHand
from scorer.riichi import rules_for, score_hand
from scorer.tiles import parse_tiles


def make_hand(concealed: str, win: str, melds=(), **flags) -> WinningHand:
    """A WinningHand from MPSZ strings; melds as (kind, tiles) or (kind, tiles, source)."""
    called = tuple(Meld(m[0], tuple(parse_tiles(m[1])), None if m[0] == "ankan" else (m[2] if len(m) > 2 else "left"))
                   for m in melds)
    flags.setdefault("seat_wind", "S")
    flags.setdefault("round_wind", "E")
    if not flags.get("tsumo"):
        flags.setdefault("discarder", "W" if flags["seat_wind"] != "W" else "N")
    for name in ("dora_indicators", "ura_indicators"):
        if name in flags:
            flags[name] = tuple(parse_tiles(flags[name]))
    return WinningHand(concealed=tuple(parse_tiles(concealed)), win_tile=parse_tiles(win)[0],
                       melds=called, **flags)


def score(concealed: str, win: str, melds=(), preset="tenhou", options=None, players=4, **flags):
    rules = rules_for(preset, options or {}, players)
    return score_hand(make_hand(concealed, win, melds, players=players, **flags), rules)


def check(result, yaku: dict, han: int, fu: int | None, points: int, limit=None):
    assert dict(result.yaku) == yaku
    assert len(result.yaku) == len(yaku)
    assert (result.han, result.points, result.limit) == (han, points, limit)
    if fu is not None:
        assert result.fu == fu


# --- yaku that come from how the hand was won ----------------------------------------------

# 123m 456p 789s 234s + East pair (the round wind): no pinfu, one way to read the 4s.
PLAIN = ("123m456p789s234s11z", "4s")


def test_riichi():
    # 20 base + 10 closed ron + 2 round-wind pair = 32 -> 40 fu; 1 han 40 fu = 1300.
    check(score(*PLAIN, riichi=True), {"riichi": 1}, 1, 40, 1300)


def test_double_riichi_replaces_riichi():
    check(score(*PLAIN, riichi=True, double_riichi=True), {"double_riichi": 2}, 2, 40, 2600)


def test_ippatsu():
    check(score(*PLAIN, riichi=True, ippatsu=True), {"riichi": 1, "ippatsu": 1}, 2, 40, 2600)


def test_ippatsu_not_counted_where_rules_drop_it():
    check(score(*PLAIN, riichi=True, ippatsu=True, options={"ippatsu": False}), {"riichi": 1}, 1, 40, 1300)


def test_menzen_tsumo():
    # 20 + 2 tsumo + 2 pair = 24 -> 30 fu; 1 han 30 fu tsumo: 300 / 500.
    check(score(*PLAIN, tsumo=True), {"menzen_tsumo": 1}, 1, 30, 1100)


def test_haitei_and_houtei():
    check(score(*PLAIN, tsumo=True, haitei=True), {"menzen_tsumo": 1, "haitei": 1}, 2, 30, 2000)
    check(score(*PLAIN, houtei=True), {"houtei": 1}, 1, 40, 1300)


def test_rinshan_on_an_open_hand():
    # Open kan of 5p (8) + 20 + 2 tsumo + 2 round-wind pair = 32 -> 40 fu; 1 han: 400 / 700.
    result = score("123m789s234s11z", "4s", [("minkan", "5555p")], tsumo=True, rinshan=True)
    check(result, {"rinshan": 1}, 1, 40, 1500)


def test_chankan():
    result = score("123m789s234s11z", "4s", [("pon", "555p")], chankan=True)
    check(result, {"chankan": 1}, 1, 30, 1000)


# --- yaku of the tiles -----------------------------------------------------------------

def test_pinfu_ron_is_30_fu():
    check(score("234m456p789s23s55p" + "4s", "4s"), {"pinfu": 1}, 1, 30, 1000)


def test_pinfu_tsumo_is_20_fu_on_tenhou():
    check(score("234m456p789s23s55p4s", "4s", tsumo=True), {"pinfu": 1, "menzen_tsumo": 1}, 2, 20, 1500)


def test_pinfu_tsumo_earns_tsumo_fu_where_the_rules_say():
    # The tsumo's 2 fu make the hand no longer fu-less, so no pinfu: 1 han 30 fu, 300 / 500.
    result = score("234m456p789s23s55p4s", "4s", tsumo=True, options={"pinfu_tsumo_fu": True})
    check(result, {"menzen_tsumo": 1}, 1, 30, 1100)
    check(score("234m456p789s23s55p4s", "4s", options={"pinfu_tsumo_fu": True}), {"pinfu": 1}, 1, 30, 1000)


def test_no_pinfu_with_a_value_pair_or_a_closed_wait():
    # Round-wind pair: no pinfu, the hand has no yaku.
    with pytest.raises(HandError) as error:
        score("234m456p789s23s11z4s", "4s")
    assert error.value.code == "no_yaku"
    # 4s on 3-5 is a closed wait (kanchan): no pinfu.
    with pytest.raises(HandError):
        score("234m456p789s35s55p4s", "4s")


def test_tanyao_closed_and_open():
    # 555s concealed pon (4) + tanki (2) + 30 = 36 -> 40 fu.
    check(score("234m456p678s555s88p", "8p"), {"tanyao": 1}, 1, 40, 1300)
    open_hand = score("234m456p678s88p", "8p", [("pon", "555s")])
    check(open_hand, {"tanyao": 1}, 1, 30, 1000)


def test_open_tanyao_off():
    with pytest.raises(HandError) as error:
        score("234m456p678s88p", "8p", [("pon", "555s")], options={"open_tanyao": False})
    assert error.value.code == "no_yaku"
    assert "open hand" in error.value.message


def test_iipeikou():
    check(score("223344m456p789s99p", "2m"), {"pinfu": 1, "iipeikou": 1}, 2, 30, 2000)


def test_ryanpeikou_beats_seven_pairs():
    # Also seven pairs (2 han 25 fu = 1600); ryanpeikou 3 han 40 fu = 5200 is the better reading.
    check(score("223344m556677p99s", "9s"), {"ryanpeikou": 3}, 3, 40, 5200)


@pytest.mark.parametrize("honor, yaku", [("555z", "yakuhai_haku"), ("666z", "yakuhai_hatsu"),
                                         ("777z", "yakuhai_chun"), ("222z", "seat_wind"),
                                         ("111z", "round_wind")])
def test_value_tiles(honor, yaku):
    # Open honour pon 4 + tanki 2 + 20 = 26 -> 30 fu.
    check(score("234m456p789s11p", "1p", [("pon", honor)]), {yaku: 1}, 1, 30, 1000)


def test_double_wind_pon_counts_twice():
    # The dealer in the East round: East is seat and round wind.
    result = score("234m456p789s11p", "1p", [("pon", "111z")], seat_wind="E")
    check(result, {"seat_wind": 1, "round_wind": 1}, 2, 30, 2900)


def test_north_is_no_value_tile_for_south():
    with pytest.raises(HandError):
        score("234m456p789s11p", "1p", [("pon", "444z")])


def test_chiitoitsu():
    check(score("11m99m33p55p77s11z33z", "3z"), {"chiitoitsu": 2}, 2, 25, 1600)


def test_chanta_closed_and_open():
    # 999s closed (8) + East pair (2) + penchan 3s (2) + 30 = 42 -> 50 fu.
    check(score("123m789p999s123s11z", "3s"), {"chanta": 2}, 2, 50, 3200)
    check(score("789p999s123s11z", "3s", [("chi", "123m")]), {"chanta": 1}, 1, 40, 1300)


def test_junchan_closed_and_open():
    check(score("123m789p999s123s11p", "3s"), {"junchan": 3}, 3, 40, 5200)
    check(score("789p999s123s11p", "3s", [("chi", "123m")]), {"junchan": 2}, 2, 30, 2000)


def test_ittsu_closed_and_open():
    check(score("123456789m234p55s", "5s"), {"ittsu": 2}, 2, 40, 2600)
    check(score("123456m234p55s", "5s", [("chi", "789m")]), {"ittsu": 1}, 1, 30, 1000)


def test_sanshoku_closed_and_open():
    check(score("123m123p123s456m99p", "9p"), {"sanshoku": 2}, 2, 40, 2600)
    check(score("123m123p456m99p", "9p", [("chi", "123s")]), {"sanshoku": 1}, 1, 30, 1000)


def test_sanshoku_doukou():
    # Open 222s (2) + closed 222m, 222p (4 + 4) + tanki (2) + 20 = 32 -> 40 fu; tanyao too.
    result = score("222m222p456m88p", "8p", [("pon", "222s")])
    check(result, {"sanshoku_doukou": 2, "tanyao": 1}, 3, 40, 5200)


def test_toitoi_and_a_pon_completed_by_ron_is_open():
    # 222p, 444s open (2 + 2), 333m closed (4), 999p won on a discard: open terminal (4).
    result = score("333m999p11m", "9p", [("pon", "222p"), ("pon", "444s")])
    check(result, {"toitoi": 2}, 2, 40, 2600)


def test_sanankou():
    # Three closed pons (4 each) + East pair (2) + penchan (2) + 30 = 46 -> 50 fu.
    check(score("222m444p666s789s11z", "7s"), {"sanankou": 2}, 2, 50, 3200)


def test_sanankou_needs_the_third_pon_drawn_not_called():
    hand = ("222m444p789s666s11z", "6s")
    check(score(*hand, riichi=True), {"riichi": 1}, 1, 50, 1600)   # 666s opened by the ron
    check(score(*hand, riichi=True, tsumo=True), {"riichi": 1, "menzen_tsumo": 1, "sanankou": 2}, 4, 40, 8000,
          "mangan")


def test_sankantsu():
    # Open kans 2m, 6s (8 each), closed kan 4p (16), tanki (2) + 20 = 54 -> 60 fu.
    melds = [("minkan", "2222m"), ("ankan", "4444p"), ("minkan", "6666s")]
    check(score("789s11p", "1p", melds), {"sankantsu": 2}, 2, 60, 3900)


def test_shousangen():
    result = score("234m456p77z", "7z", [("pon", "555z"), ("pon", "666z")])
    check(result, {"shousangen": 2, "yakuhai_haku": 1, "yakuhai_hatsu": 1}, 4, 40, 8000, "mangan")


def test_honroutou_with_toitoi():
    result = score("111z999s22z", "2z", [("pon", "111m"), ("pon", "999p")])
    check(result, {"toitoi": 2, "honroutou": 2, "round_wind": 1}, 5, None, 8000, "mangan")


def test_honroutou_with_seven_pairs():
    # 4 han 25 fu: base 1600, ron 6400.
    check(score("11m99m11p99p11s11z33z", "3z"), {"chiitoitsu": 2, "honroutou": 2}, 4, 25, 6400)


def test_honitsu_closed_and_open():
    check(score("123m345m678m999m11z", "9m"), {"honitsu": 3}, 3, 40, 5200)
    check(score("345m678m999m11z", "9m", [("chi", "123m")]), {"honitsu": 2}, 2, 30, 2000)


def test_chinitsu_closed_and_open():
    # (With 99m for the pair this hand would be nine gates.)
    check(score("111m234m567m789m55m", "5m"), {"chinitsu": 6}, 6, 40, 12000, "haneman")
    check(score("111m567m789m55m", "5m", [("chi", "234m")]), {"chinitsu": 5}, 5, None, 8000, "mangan")


def test_renhou_by_option():
    with pytest.raises(HandError) as error:
        score(*PLAIN, renhou=True)
    assert error.value.code == "bad_flag_combination"
    check(score(*PLAIN, renhou=True, options={"renhou": "mangan"}), {"renhou": 5}, 5, None, 8000, "mangan")
    check(score(*PLAIN, renhou=True, options={"renhou": "yakuman"}), {"renhou_yakuman": 13}, 13, None, 32000,
          "yakuman")


def test_nagashi_mangan_pays_a_tsumo_mangan():
    result = score(*PLAIN, tsumo=True, nagashi_mangan=True, honba=2, riichi_sticks=1)
    check(result, {"nagashi_mangan": 5}, 5, None, 8000, "mangan")
    assert sorted((t["from"], t["points"]) for t in result.transfers) == [("E", 4000), ("N", 2000), ("W", 2000)]


# --- yakuman -------------------------------------------------------------------------

def test_kokushi_and_the_thirteen_wait():
    check(score("119m19p19s1234567z", "9m"), {"kokushi": 13}, 13, None, 32000, "yakuman")
    check(score("119m19p19s1234567z", "1m"), {"kokushi_13": 13}, 13, None, 32000, "yakuman")
    check(score("119m19p19s1234567z", "1m", preset="mahjongsoul"), {"kokushi_13": 26}, 26, None, 64000,
          "double_yakuman")


def test_suuankou_and_tanki():
    hand = "111m333p555s777s99p"
    check(score(hand, "7s", tsumo=True), {"suuankou": 13}, 13, None, 32000, "yakuman")
    check(score(hand, "9p"), {"suuankou_tanki": 13}, 13, None, 32000, "yakuman")
    check(score(hand, "9p", preset="mahjongsoul"), {"suuankou_tanki": 26}, 26, None, 64000, "double_yakuman")


def test_suuankou_won_on_a_discard_to_a_pon_is_sanankou_toitoi():
    # 111m closed terminal 8, 333p 555s 4 + 4, 777s opened 2, + 30 = 48 -> 50 fu; 4 han 50 fu is mangan.
    check(score("111m333p555s777s99p", "7s"), {"toitoi": 2, "sanankou": 2}, 4, 50, 8000, "mangan")


def test_daisangen():
    result = score("777z234m11p", "1p", [("pon", "555z"), ("pon", "666z")])
    check(result, {"daisangen": 13}, 13, None, 32000, "yakuman")


def test_shousuushii_and_daisuushii():
    winds = [("pon", "111z"), ("pon", "222z"), ("pon", "333z")]
    check(score("234m44z", "2m", winds), {"shousuushii": 13}, 13, None, 32000, "yakuman")
    check(score("444z55m", "5m", winds), {"daisuushii": 13}, 13, None, 32000, "yakuman")
    check(score("444z55m", "5m", winds, preset="mahjongsoul"), {"daisuushii": 26}, 26, None, 64000,
          "double_yakuman")


def test_tsuuiisou_open_and_as_seven_pairs():
    check(score("222z333z555z77z", "7z", [("pon", "111z")]), {"tsuuiisou": 13}, 13, None, 32000, "yakuman")
    check(score("11223344556677z", "7z"), {"tsuuiisou": 13}, 13, None, 32000, "yakuman")


def test_two_yakuman_stack_on_tenhou_but_not_when_off():
    hand = ("111z222z333z555z77z", "7z")
    check(score(*hand), {"tsuuiisou": 13, "suuankou_tanki": 13}, 26, None, 64000, "double_yakuman")
    result = score(*hand, options={"stacked_yakuman": False})
    assert result.yakuman == 1 and result.points == 32000 and len(result.yaku) == 1


def test_ryuuiisou():
    check(score("223344s666s888s66z", "8s"), {"ryuuiisou": 13}, 13, None, 32000, "yakuman")


def test_chinroutou():
    result = score("111s999s99m", "9m", [("pon", "111m"), ("pon", "999p")])
    check(result, {"chinroutou": 13}, 13, None, 32000, "yakuman")


def test_chuuren_and_junsei_chuuren():
    check(score("11122345678999m", "5m"), {"chuuren": 13}, 13, None, 32000, "yakuman")
    check(score("11123456789999m", "9m"), {"junsei_chuuren": 13}, 13, None, 32000, "yakuman")
    check(score("11123456789999m", "9m", preset="mahjongsoul"), {"junsei_chuuren": 26}, 26, None, 64000,
          "double_yakuman")


def test_suukantsu():
    melds = [("minkan", "2222m"), ("ankan", "4444p"), ("minkan", "6666s"), ("kakan", "7777z")]
    check(score("11p", "1p", melds), {"suukantsu": 13}, 13, None, 32000, "yakuman")


def test_tenhou_and_chiihou():
    # The dealer's yakuman on tsumo: 16000 from each of three.
    check(score(*PLAIN, tsumo=True, tenhou=True, seat_wind="E"), {"tenhou": 13}, 13, None, 48000, "yakuman")
    check(score(*PLAIN, tsumo=True, chiihou=True), {"chiihou": 13}, 13, None, 32000, "yakuman")


def test_yakuman_hand_lists_no_dora():
    result = score("777z234m11p", "1p", [("pon", "555z"), ("pon", "666z")], dora_indicators="1p")
    assert dict(result.yaku) == {"daisangen": 13}


def test_not_a_winning_hand_says_what_it_waits_on():
    with pytest.raises(HandError) as error:
        score("123m456p789s23s11z5s", "5s")
    assert error.value.code == "not_a_winning_hand"
    assert "1 bamboo, 4 bamboo" in error.value.message


def test_rows_skipped_for_missing_runs_pons_or_honours_could_never_hold():
    """`needs` on a yaku row only spares tests that cannot pass: on 3,000 random winning hands
    (closed and open, honours and pons and runs in every mix) testing every row gives the same
    yaku and yakuman as the engine's filtered tables."""
    import random
    from scorer.riichi.readings import read_tiles
    from scorer.riichi.yaku import TILE_YAKU, TILE_YAKUMAN, tile_yaku, tile_yakuman
    rng = random.Random(20261122)
    rules = rules_for("mahjongsoul", {}, 4)
    checked = 0
    while checked < 3000:
        counts, melds = [0] * 34, []
        for _ in range(4):
            if rng.random() < 0.5:
                start = rng.choice([k for k in range(27) if k % 9 <= 6])
                kinds, meld = [start, start + 1, start + 2], ("chi", start)
            else:
                kind = rng.randrange(34)
                kinds, meld = [kind] * 3, ("pon", kind)
            if rng.random() < 0.25:
                melds.append(meld)
                kinds = []
            for kind in kinds:
                counts[kind] += 1
        counts[rng.randrange(34)] += 2
        if max(counts) > 4:
            continue
        win = rng.choice([k for k in range(34) if counts[k]])
        for reading in read_tiles(tuple(counts), win, tuple(melds), rng.random() < 0.5, "S", "E", rules):
            every_row = [(y.id, y.han_closed if reading.closed else y.han_open) for y in TILE_YAKU
                         if (y.han_closed if reading.closed else y.han_open) and y.test(reading)]
            assert tile_yaku(reading) == every_row
            assert tile_yakuman(reading) == [(y.id, y.count) for y in TILE_YAKUMAN if y.test(reading)]
            checked += 1
