"""Payments: ron and tsumo, dealer and non-dealer, rounding up to 100 per payer, honba,
riichi sticks, double ron, three players (tsumo loss, north bisection) and pao."""
from __future__ import annotations

from scorer.riichi import rules_for, transfers
from scorer.riichi.payments import hand_value

TENHOU = rules_for("tenhou", {}, 4)
SANMA = rules_for("tenhou", {}, 3)


def paid(entries) -> dict:
    total: dict[str, int] = {}
    for entry in entries:
        total[entry["from"]] = total.get(entry["from"], 0) + entry["points"]
    return total


def test_non_dealer_ron_rounds_up_to_100():
    # 3 han 30 fu: 960 x 4 = 3840 -> 3900.
    assert transfers(base=960, winner="S", tsumo=False, discarder="N", rules=TENHOU) == [
        {"from": "N", "to": "S", "points": 3900}]


def test_dealer_ron_is_six_times_base():
    # 960 x 6 = 5760 -> 5800; 1 han 30 fu 240 x 6 = 1440 -> 1500.
    assert paid(transfers(base=960, winner="E", tsumo=False, discarder="W", rules=TENHOU)) == {"W": 5800}
    assert paid(transfers(base=240, winner="E", tsumo=False, discarder="W", rules=TENHOU)) == {"W": 1500}


def test_non_dealer_tsumo_dealer_pays_double():
    # 1 han 30 fu: 240 -> 300 each, the dealer 480 -> 500.
    assert paid(transfers(base=240, winner="W", tsumo=True, rules=TENHOU)) == {"E": 500, "S": 300, "N": 300}
    # 3 han 30 fu: 1000 / 2000 (960 -> 1000, 1920 -> 2000).
    assert paid(transfers(base=960, winner="W", tsumo=True, rules=TENHOU)) == {"E": 2000, "S": 1000, "N": 1000}


def test_dealer_tsumo_all_pay_double():
    assert paid(transfers(base=960, winner="E", tsumo=True, rules=TENHOU)) == {"S": 2000, "W": 2000, "N": 2000}
    assert paid(transfers(base=2000, winner="E", tsumo=True, rules=TENHOU)) == {"S": 4000, "W": 4000, "N": 4000}


def test_hand_value():
    assert hand_value(960, "S", False, 4, TENHOU) == 3900
    assert hand_value(960, "S", True, 4, TENHOU) == 4000
    assert hand_value(2000, "S", True, 3, SANMA) == 6000      # tsumo loss


def test_honba_300_a_ron_and_100_a_payer_on_tsumo():
    entries = transfers(base=240, winner="S", tsumo=False, discarder="E", honba=2, rules=TENHOU)
    assert paid(entries) == {"E": 1000 + 600}
    entries = transfers(base=240, winner="S", tsumo=True, honba=2, rules=TENHOU)
    assert paid(entries) == {"E": 500 + 200, "W": 300 + 200, "N": 300 + 200}


def test_riichi_sticks_come_from_the_pot():
    entries = transfers(base=240, winner="S", tsumo=False, discarder="E", riichi_sticks=3, rules=TENHOU)
    assert {"from": "pot", "to": "S", "points": 3000} in entries


def test_second_winner_of_a_double_ron_takes_no_honba_or_sticks():
    entries = transfers(base=240, winner="S", tsumo=False, discarder="E", honba=1, riichi_sticks=2,
                        takes_pot=False, rules=TENHOU)
    assert entries == [{"from": "E", "to": "S", "points": 1000}]


def test_three_player_tsumo_loss():
    # Non-dealer mangan: 4000 + 2000 (North's 2000 is not paid).
    assert paid(transfers(base=2000, winner="S", tsumo=True, players=3, rules=SANMA)) == {"E": 4000, "W": 2000}
    # Dealer mangan: 4000 from each of the two.
    assert paid(transfers(base=2000, winner="E", tsumo=True, players=3, rules=SANMA)) == {"S": 4000, "W": 4000}
    # Ron is as in four-player.
    assert paid(transfers(base=2000, winner="S", tsumo=False, discarder="W", players=3, rules=SANMA)) == {"W": 8000}


def test_three_player_honba_on_tsumo():
    entries = transfers(base=2000, winner="S", tsumo=True, players=3, honba=1, rules=SANMA)
    assert paid(entries) == {"E": 4100, "W": 2100}


def test_three_player_north_bisection():
    rules = rules_for("tenhou", {"tsumo_loss": False}, 3)
    assert paid(transfers(base=2000, winner="S", tsumo=True, players=3, rules=rules)) == {"E": 5000, "W": 3000}
    # 1 han 30 fu: North's 300 split as 150 -> 200 each.
    assert paid(transfers(base=240, winner="S", tsumo=True, players=3, rules=rules)) == {"E": 700, "W": 500}


def test_pao_on_tsumo_the_liable_player_pays_all_and_the_honba():
    entries = transfers(base=8000, winner="S", tsumo=True, honba=1, pao="W", pao_base=8000, rules=TENHOU)
    assert paid(entries) == {"W": 32000 + 300}


def test_pao_on_ron_split_in_half_liable_pays_honba():
    entries = transfers(base=8000, winner="S", tsumo=False, discarder="N", honba=2, pao="W", pao_base=8000,
                        rules=TENHOU)
    assert paid(entries) == {"N": 16000, "W": 16000 + 600}


def test_pao_when_the_liable_player_deals_in_is_an_ordinary_ron():
    entries = transfers(base=8000, winner="E", tsumo=False, discarder="N", honba=1, pao="N", pao_base=8000,
                        rules=TENHOU)
    assert paid(entries) == {"N": 48000 + 300}


def test_pao_covers_only_its_yakuman():
    # Daisangen (liable W) + tsuuiisou on a dealer tsumo: W pays 48000 for daisangen; the
    # tsuuiisou is paid 16000 by each of the three.
    entries = transfers(base=16000, winner="E", tsumo=True, pao="W", pao_base=8000, rules=TENHOU)
    assert paid(entries) == {"S": 16000, "W": 48000 + 16000, "N": 16000}


# --- the same rules through score_hand ------------------------------------------------

def test_scored_daisangen_with_pao_on_tsumo():
    from tests.test_riichi_yaku import score
    result = score("777z234m11p", "1p", [("pon", "555z"), ("pon", "666z")], tsumo=True, pao="E", honba=1)
    assert result.points == 32000
    assert paid(result.transfers) == {"E": 32000 + 300}


def test_scored_daisangen_with_pao_on_ron():
    from tests.test_riichi_yaku import score
    result = score("777z234m11p", "1p", [("pon", "555z"), ("pon", "666z")], discarder="N", pao="E")
    assert paid(result.transfers) == {"E": 16000, "N": 16000}


def test_pao_without_its_yakuman_is_refused():
    import pytest
    from scorer.errors import HandError
    from tests.test_riichi_yaku import PLAIN, score
    with pytest.raises(HandError) as error:
        score(*PLAIN, riichi=True, pao="E")
    assert error.value.code == "bad_flag_combination"


def test_scored_hand_pays_honba_and_sticks():
    from tests.test_riichi_yaku import PLAIN, score
    result = score(*PLAIN, riichi=True, honba=2, riichi_sticks=3)
    assert result.points == 1300
    assert paid(result.transfers) == {"W": 1300 + 600, "pot": 3000}


# --- invariants over every hand value, seat and table state -----------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

from scorer.riichi import base_points  # noqa: E402

HAN_FU = st.tuples(st.integers(1, 13), st.sampled_from([20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110]))


@settings(max_examples=400, derandomize=True, deadline=None)
@given(han_fu=HAN_FU, yakuman=st.integers(0, 3), winner=st.sampled_from("ESWN"),
       discarder=st.sampled_from("ESWN"), tsumo=st.booleans(), three=st.booleans(),
       honba=st.integers(0, 5), sticks=st.integers(0, 4), kiriage=st.booleans())
def test_payments_add_up(han_fu, yakuman, winner, discarder, tsumo, three, honba, sticks, kiriage):
    rules = rules_for("tenhou", {"kiriage": kiriage}, 3 if three else 4)
    seats = "ESW" if three else "ESWN"
    if winner not in seats or (not tsumo and (discarder == winner or discarder not in seats)):
        return
    base, _ = base_points(*han_fu, yakuman, rules)
    entries = transfers(base=base, winner=winner, tsumo=tsumo, discarder="" if tsumo else discarder,
                        players=len(seats), honba=honba, riichi_sticks=sticks, rules=rules)
    payers = len(seats) - 1 if tsumo else 1
    value = hand_value(base, winner, tsumo, len(seats), rules)
    assert sum(e["points"] for e in entries) == value + honba * (100 * payers if tsumo else 300) + 1000 * sticks
    assert all(e["to"] == winner and e["from"] != winner and e["points"] % 100 == 0 for e in entries)
    if not tsumo:
        assert value == -(-base * (6 if winner == "E" else 4) // 100) * 100
    else:
        shares = paid(transfers(base=base, winner=winner, tsumo=True, players=len(seats), rules=rules))
        dealer_share = -(-2 * base // 100) * 100
        if winner == "E":
            assert set(shares.values()) == {dealer_share}
        else:
            assert shares["E"] == dealer_share
            assert {v for k, v in shares.items() if k != "E"} == {-(-base // 100) * 100}


def test_no_north_seat_in_three_player():
    import pytest
    from scorer.errors import HandError
    with pytest.raises(HandError) as error:
        transfers(base=2000, winner="N", tsumo=True, players=3, rules=SANMA)
    assert "North" in error.value.message or "'N'" in error.value.message
