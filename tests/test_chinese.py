"""Classical Chinese scoring (rule text 003) through the contract: the worked examples of
the text, the table's points and doubles, the limit hands, the limit and the payments."""
from __future__ import annotations

import pytest

from scorer import score
from scorer.chinese.limit_hands import limit_hand
from scorer.tiles import counts, parse_tiles


def chinese(concealed, win, melds=(), tsumo=False, discarder="N", seat="S", round_wind="E", **more):
    request = {"rules": "chinese-classical", "concealed": concealed, "win_tile": win, "melds": list(melds),
               "tsumo": tsumo, "seat_wind": seat, "round_wind": round_wind, **more}
    if not tsumo:
        request["discarder"] = discarder
    response = score(request)
    assert response["ok"], response
    return response


def items(response):
    return {(i["reason"], i.get("tile", "")): i["points"] for i in response["chinese"]["items"]}


def doubles(response):
    return {(d["reason"], d.get("tile", "")): d["doubles"] for d in response["chinese"]["doubles_items"]}


def paid(response):
    total = {}
    for t in response["transfers"]:
        total[t["from"]] = total.get(t["from"], 0) + t["points"]
    return total


def test_text_example_exposed_pung_of_winds_is_4():
    r = chinese("234m567p345s22z", "2z", melds=[{"kind": "pon", "tiles": "333z", "from": "left"}])
    assert items(r)[("exposed_pung", "3z")] == 4


def test_text_example_concealed_kong_of_three_bamboo_is_16():
    r = chinese("123m456m789p55p", "5p", melds=[{"kind": "ankan", "tiles": "3333s"}], tsumo=True,
                seat="W", round_wind="S", flowers="1f2f")
    assert items(r)[("concealed_kong", "3s")] == 16
    # 16 + two flowers 8 + winning 20 + self-drawn 2 + only tile 2 = 48; fully concealed x4,
    # South's flower (orchid) in the South round x2: 48 x 8 = 384. West pays East double.
    assert r["chinese"]["base"] == 48 and r["chinese"]["doubles"] == 3 and r["points"] == 384
    assert doubles(r) == {("fully_concealed", ""): 2, ("prevailing_flower", "2f"): 1}
    assert paid(r) == {"E": 768, "S": 384, "N": 384}


def test_text_example_limit_hand_worth_1000_or_2000():
    hand = dict(concealed="12344567z19m19p19s")
    exposed = chinese(**hand, win="3z", discarder="E")
    concealed = chinese(**hand, win="3z", tsumo=True)
    assert exposed["points"] == 1000 and concealed["points"] == 2000
    assert exposed["chinese"]["limit_hand"] == ["each_terminal", "each_wind_and_dragon"]
    assert paid(concealed) == {"E": 4000, "W": 2000, "N": 2000}
    assert chinese(**hand, win="3z", tsumo=True, options={"limit": 500})["points"] == 1000


def test_ordinary_hand_points_and_doubles():
    # Exposed pung of East (major) 4, pair of own wind (South) 2, winning 20, only tile 2 = 28;
    # a pung of the prevailing wind doubles it: 56. East pays double.
    r = chinese("234m567p345s22z", "2z", melds=[{"kind": "pon", "tiles": "111z", "from": "left"}])
    assert r["chinese"]["base"] == 28 and r["points"] == 56
    assert paid(r) == {"E": 112, "W": 56, "N": 56}


def test_a_pung_completed_by_the_discard_counts_as_exposed():
    r = chinese("234m567p555s88s", "5s", melds=[{"kind": "pon", "tiles": "666z", "from": "right"}])
    assert items(r)[("exposed_pung", "5s")] == 2
    assert ("only_tile", "") not in items(r)
    assert r["points"] == (2 + 4 + 20) * 2


def test_fully_concealed_no_chows_dragon_pung_and_the_limit():
    r = chinese("222m444p666s777z55m", "5m", tsumo=True)
    # concealed pungs 4+4+4, concealed dragon pung 8, winning 20, self-drawn 2, only tile 2 = 44;
    # dragon pung x2, fully concealed x4, no chows x2 = 16 times: 704.
    assert r["chinese"]["base"] == 44 and r["chinese"]["doubles"] == 4 and r["points"] == 704
    capped = chinese("222m444p666s777z55m", "5m", tsumo=True, options={"limit": 500})
    assert capped["points"] == 500 and capped["chinese"]["capped"]


def test_suit_and_tile_doubles():
    assert ("one_suit", "") in doubles(chinese("123456789m23455m", "5m", discarder="W"))
    assert ("one_suit_and_honors", "") in doubles(chinese("123456789m55z", "5z", melds=[{"kind": "pon", "tiles": "111m", "from": "left"}]))
    minor = chinese("234m567p345s66s", "6s", melds=[{"kind": "chi", "tiles": "345m", "from": "left"}])
    assert ("only_minor", "") in doubles(minor)
    assert items(minor)[("no_scoring_combinations", "")] == 10
    major = doubles(chinese("111m999p22z", "2z", melds=[{"kind": "pon", "tiles": "777z", "from": "left"},
                                                              {"kind": "pon", "tiles": "999s", "from": "across"}]))
    assert ("only_major", "") in major and ("one_suit", "") not in major


def test_flowers_own_prevailing_and_all_four():
    r = chinese("234m567p345s66s", "6s", melds=[{"kind": "chi", "tiles": "345m", "from": "left"}],
                flowers="1234f6f", seat="S")
    assert doubles(r) == {("all_four_flowers", ""): 4, ("own_season", "6f"): 1, ("only_minor", ""): 1}
    assert sum(p for (reason, _), p in items(r).items() if reason in ("flower", "season")) == 20


def test_situation_doubles():
    kong = [{"kind": "minkan", "tiles": "9999m", "from": "left"}]
    assert ("loose_tile", "") in doubles(chinese("234m567p345s66s", "6s", melds=kong, tsumo=True, rinshan=True))
    assert ("last_tile", "") in doubles(chinese("234m567p345s66s", "6s", melds=kong, tsumo=True, haitei=True))
    assert ("last_tile", "") in doubles(chinese("234m567p345s66s", "6s", melds=kong, houtei=True))
    assert ("robbing_kong", "") in doubles(chinese("234m567p345s66s", "6s", melds=kong, chankan=True))


def test_seven_pairs_is_half_the_limit_and_a_hand_from_heaven_the_most():
    assert chinese("1133557799m2244p", "2p", discarder="W")["points"] == 500
    assert chinese("1133557799m2244p", "2p", tsumo=True)["points"] == 1000
    assert chinese("1199m1199p1199s11z", "1z", discarder="W")["points"] == 1000   # seven major pairs
    heaven = chinese("123m456m789p55p111z", "5p", tsumo=True, seat="E", tenhou=True)
    assert heaven["points"] == 2000 and heaven["chinese"]["limit_hand"] == ["hand_from_heaven"]


@pytest.mark.parametrize("tiles, groups", [
    ("11123456789m99m22z", None),       # 1,1-9,9 needs exactly 11 tiles of the suit: 12 is not a group
    ("11234567899m111z", ["one_one_to_nine_nine", "pung_of_major_tiles"]),
    ("123123123123m11z", ["four_identical_chows", "pair_of_major_tiles"]),
    ("123m123p123s1234z1z", ["each_wind", "three_chows_same_sequence"]),
    ("11223344z555z666z", ["pair_of_each_wind", "pung_of_major_tiles", "pung_of_major_tiles"]),
    ("11223344z555z66z7z", ["each_dragon", "pair_of_each_wind", "pair_of_major_tiles"]),  # * one repeat
    ("11223344z567z55m", None),         # a pair of fives is no group of the table
])
def test_limit_hand_groups(tiles, groups):
    found = limit_hand(tuple(counts(parse_tiles(tiles))))
    assert (list(found[0]) if found else None) == groups


def test_settlement_the_text_and_the_common_variant():
    hand = dict(concealed="234m567p345s22z", win="2z", melds=[{"kind": "pon", "tiles": "111z", "from": "left"}])
    text = chinese(**hand, other_counts={"E": 10, "W": 4, "N": 80})
    assert paid(text) == {"E": 92, "W": 52}                 # North's own 80 passes the winner's 56: pays nothing
    full = chinese(**hand, other_counts={"E": 10, "W": 4}, options={"settlement": "full"})
    assert full["transfers"] == [
        {"from": "E", "to": "S", "points": 112}, {"from": "W", "to": "S", "points": 56},
        {"from": "N", "to": "S", "points": 56}, {"from": "W", "to": "E", "points": 12},
        {"from": "N", "to": "E", "points": 20}, {"from": "N", "to": "W", "points": 4}]


@pytest.mark.parametrize("request_fields, code", [
    ({"concealed": "123m456p789s13577z", "win_tile": "7z"}, "not_a_winning_hand"),
    ({"concealed": "234m567p345s22z", "win_tile": "2z", "riichi": True, "melds": [
        {"kind": "pon", "tiles": "111z", "from": "left"}]}, "bad_flag_combination"),
    ({"concealed": "234m567p345s22z111z", "win_tile": "2z", "options": {"limit": -5}}, "bad_option"),
    ({"concealed": "234m567p345s22z111z", "win_tile": "2z", "options": {"jokers": True}}, "unknown_option"),
    ({"concealed": "234m567p345s22z111z", "win_tile": "2z", "other_counts": {"S": 4}}, "bad_option"),
])
def test_errors(request_fields, code):
    response = score({"rules": "chinese-classical", "discarder": "N", "seat_wind": "S", **request_fields})
    assert not response["ok"] and response["error"]["code"] == code, response


def test_losers_count_their_own_hands_without_doubles_one_pair_only():
    hand = dict(concealed="234m567p345s22z", win="2z", melds=[{"kind": "pon", "tiles": "111z", "from": "left"}])
    r = chinese(**hand, other_hands={
        # concealed pung of 1m 8, concealed kong of 9s 32, pair of White 2, a flower 4: 46 (no doubles)
        "E": {"concealed": "111m55z67p", "melds": [{"kind": "ankan", "tiles": "9999s"}], "flowers": "1f"},
        # West's own wind pair 2; the North pair scores nothing, and only one pair counts anyway
        "W": {"concealed": "3344z"}})
    assert r["chinese"]["other_counts"] == {"E": 46, "W": 2}
    assert paid(r) == {"E": (56 - 46) * 2, "W": 54, "N": 56}
    bad = score({"rules": "chinese-classical", "concealed": "234m567p345s22z111z", "win_tile": "2z",
                 "discarder": "N", "seat_wind": "S", "other_hands": {"E": {"concealed": "11x"}}})
    assert bad["error"]["code"] == "bad_tile" and "the hand of E" in bad["error"]["message"]


# The lines of text 003 the tests below check, word for word (`test_the_quoted_lines_are_the_text`).
ALL_BUT_LAST = "All but last tile concealed x 2"
FULLY_CONCEALED = "Fully concealed x 4"
HEAVEN = ('If they somehow have four melds and a pair, this termed a "Hand from Heaven", and East '
          'instantly wins the round, scoring the maximum number of points possible.')
LIMIT = ("Set a limit to the maximum number of points that one player may have to pay to another on "
         "any given round")
QUOTED_003 = (ALL_BUT_LAST, FULLY_CONCEALED, HEAVEN, LIMIT)


def test_the_quoted_lines_are_the_text(shared):
    text = " ".join((shared / "rules" / "003_b28eaabf32ee467f.txt").read_text().split())
    for line in QUOTED_003:
        assert line in text


@pytest.mark.parametrize("concealed, win, base, completes", [
    ("123m456m789p234s88s", "3s", 32, "a chow"),    # winning 20, only tile 2, no scoring combinations 10
    ("123m456m789p555s77z", "5s", 24, "a pung"),    # the pung, exposed by the discard 2, Red pair 2, winning 20
    ("123m456m789p234s88s", "8s", 32, "the pair"),  # 8s waits alone too: only tile 2
])
def test_all_but_last_tile_concealed_whatever_the_discard_completes(concealed, win, base, completes):
    # ALL_BUT_LAST: every tile but the winning discard came from the wall, whichever set it finishes.
    r = chinese(concealed, win, discarder="N")
    assert doubles(r)[("all_but_last_concealed", "")] == 1, completes
    assert r["chinese"]["base"] == base and r["points"] == 2 * base


def test_all_but_last_is_not_for_a_hand_with_an_exposed_set_and_self_drawn_is_fully_concealed():
    chow = [{"kind": "chi", "tiles": "123m", "from": "left"}]
    assert ("all_but_last_concealed", "") not in doubles(chinese("456m789p234s88s", "3s", melds=chow))
    # FULLY_CONCEALED: the same hand drawn from the wall takes x4 instead, never both.
    drawn = doubles(chinese("123m456m789p234s88s", "3s", tsumo=True))
    assert drawn[("fully_concealed", "")] == 2 and ("all_but_last_concealed", "") not in drawn


def test_a_hand_from_heaven_is_four_melds_and_a_pair():
    # HEAVEN: "four melds and a pair" wins as the most a hand can score, twice the limit.
    assert chinese("123m456m789p55p111z", "5p", tsumo=True, seat="E", tenhou=True)["points"] == 2000
    # Any other fourteen tiles with the flag are refused in words, not paid twice the limit.
    for tiles, win, code in (("1133557799m2244p", "2p", "bad_flag_combination"),    # seven pairs: a limit hand
                             ("12344567z19m19p19s", "3z", "bad_flag_combination"),  # the text's limit hand example
                             ("123m456m789p55p137z", "7z", "not_a_winning_hand")):
        r = score({"rules": "chinese-classical", "concealed": tiles, "win_tile": win,
                   "tsumo": True, "seat_wind": "E", "tenhou": True})
        assert not r["ok"] and r["error"]["code"] == code, (tiles, r)
        assert "four melds and a pair" in r["error"]["message"]
    # Without the flag, East's dealt seven pairs scores what the table says: half the limit, doubled fully concealed.
    assert chinese("1133557799m2244p", "1m", tsumo=True, seat="E")["points"] == 1000


@pytest.mark.parametrize("field, value", [
    ("honba", 2), ("riichi_sticks", 1), ("dora_indicators", "3m"), ("ura_indicators", "3m"),
    ("riichi", True), ("ippatsu", True), ("takes_pot", False), ("pao", "W"),
])
def test_riichi_fields_are_refused_in_words(field, value):
    request = {"rules": "chinese-classical", "concealed": "234m567p345s22z111z", "win_tile": "2z",
               "discarder": "N", "seat_wind": "S", field: value}
    if field in ("ippatsu", "ura_indicators"):
        request["riichi"] = True        # so that the contract's own flag checks pass first
    r = score(request)
    assert not r["ok"] and r["error"]["code"] == "bad_flag_combination", r
    assert "classical Chinese" in r["error"]["message"]
