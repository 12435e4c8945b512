"""Dora from indicators (wrapping 9 -> 1, North -> East, Red -> White, three-player 1m -> 9m),
red fives, ura dora for a riichi winner, north tiles set aside (nukidora)."""
from __future__ import annotations

import pytest

from scorer.errors import HandError
from tests.test_riichi_yaku import score

# Riichi, 123m 456p 789s 234s + pair 11z (East, the round wind); won on 4s.
HAND = ("123m456p789s234s11z", "4s")


def dora(result) -> dict:
    return {k: v for k, v in result.yaku if k in ("dora", "aka_dora", "ura_dora", "nukidora")}


@pytest.mark.parametrize("indicator, count", [
    ("9m", 1),    # -> 1m
    ("3m", 0),    # -> 4m, not in the hand
    ("8s", 1),    # -> 9s
    ("4z", 2),    # North -> East: the pair
    ("7z", 0),    # Red -> White
    ("3s", 1),    # -> 4s, the winning tile
])
def test_indicators(indicator, count):
    result = score(*HAND, riichi=True, dora_indicators=indicator)
    assert dora(result).get("dora", 0) == count


def test_two_indicators_and_a_kan_count_every_tile():
    result = score("123m789s234s11z", "4s", [("ankan", "5555p")], riichi=True, dora_indicators="4p4p")
    assert dora(result)["dora"] == 8


def test_red_fives_count_with_aka_only():
    result = score("123m406p789s234s11z", "4s", riichi=True)
    assert dora(result) == {"aka_dora": 1} and result.han == 2
    result = score("123m406p789s234s11z", "4s", riichi=True, options={"aka": False})
    assert dora(result) == {}


def test_ura_dora_only_for_riichi():
    result = score(*HAND, riichi=True, ura_indicators="9m")
    assert dora(result) == {"ura_dora": 1}
    result = score("123m456p789s11z", "1z", [("pon", "555z")], ura_indicators="9m")
    assert "ura_dora" not in dora(result)


def test_dora_are_not_yaku():
    with pytest.raises(HandError) as error:
        score("234m456p789s23s11z4s", "4s", dora_indicators="1m")
    assert error.value.code == "no_yaku"


def test_three_player_one_m_points_at_nine_m():
    result = score("111m999m234p567s55p", "5p", riichi=True, players=3, seat_wind="W", discarder="E",
                   dora_indicators="1m")
    assert dora(result)["dora"] == 3


def test_nukidora_and_indicators_pointing_at_north():
    result = score(*HAND, riichi=True, players=3, nukidora=2)
    assert dora(result) == {"nukidora": 2}
    # West points at North: each north set aside is one more dora.
    result = score(*HAND, riichi=True, players=3, nukidora=2, dora_indicators="3z")
    assert dora(result) == {"nukidora": 2, "dora": 2}


def test_north_tiles_aside_in_four_player_is_an_error():
    with pytest.raises(HandError) as error:
        score(*HAND, riichi=True, nukidora=1)
    assert error.value.code == "bad_flag_combination"


def test_three_player_tsumo_loss_in_a_scored_hand():
    # Riichi tsumo + nukidora 3: 5 han mangan, non-dealer: 4000 + 2000.
    result = score(*HAND, riichi=True, tsumo=True, players=3, nukidora=3)
    assert result.limit == "mangan" and result.points == 6000


# The book (text 001): "If you want to use the red 5s, replace 3 or 4 normal 5's with them."
FOUR_RED_FIVES = "If you want to use the red 5s, replace 3 or 4 normal 5's with them."


def test_the_quoted_line_is_the_book(shared):
    text = " ".join((shared / "rules" / "001_a7805ec1974ea50c.txt").read_text().split())
    assert FOUR_RED_FIVES in text


def test_the_book_with_four_red_fives_holds_two_of_one_suit():
    from scorer import score as contract_score
    # FOUR_RED_FIVES: four red fives in three suits put two in one; with aka both are dora.
    hand = {"preset": "book", "options": {"aka": True}, "concealed": "234m055p678s22s", "win_tile": "2s",
            "melds": [{"kind": "chi", "tiles": "406p", "from": "left"}], "discarder": "N", "seat_wind": "S"}
    both = contract_score(hand)         # 0p in the hand and in the chi
    assert both["ok"] and {"id": "aka_dora", "han": 2} in both["yaku"], both
    # Three of a suit is more than any such set has; other presets keep one red five a suit.
    three = contract_score({**hand, "concealed": "234m000p678s22s", "melds": [
        {"kind": "chi", "tiles": "456p", "from": "left"}]})
    assert three["error"]["code"] == "too_many_copies" and "at most two red fives" in three["error"]["message"]
    tenhou = contract_score({**hand, "preset": "tenhou"})
    assert tenhou["error"]["code"] == "too_many_copies" and "one red five of each suit" in tenhou["error"]["message"]
