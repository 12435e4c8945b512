"""Base points and limits: fu x 2^(2+han) up to mangan, the limit table, counted yakuman,
multiple yakuman and kiriage mangan."""
from __future__ import annotations

import pytest

from scorer.riichi import base_points, rules_for

TENHOU = rules_for("tenhou", {}, 4)


@pytest.mark.parametrize("han, fu, base, limit", [
    (1, 30, 240, None),          # 30 x 2^3
    (2, 25, 400, None),          # seven pairs
    (3, 30, 960, None),
    (3, 60, 1920, None),         # no kiriage on Tenhou
    (4, 30, 1920, None),
    (4, 40, 2000, "mangan"),     # 2560 capped
    (3, 70, 2000, "mangan"),     # 2240 capped
    (5, 30, 2000, "mangan"),
    (6, 30, 3000, "haneman"),
    (7, 110, 3000, "haneman"),
    (8, 30, 4000, "baiman"),
    (10, 30, 4000, "baiman"),
    (11, 30, 6000, "sanbaiman"),
    (12, 30, 6000, "sanbaiman"),
    (13, 30, 8000, "kazoe_yakuman"),
    (20, 30, 8000, "kazoe_yakuman"),   # counted han never reach double yakuman
])
def test_limit_table(han, fu, base, limit):
    assert base_points(han, fu, 0, TENHOU) == (base, limit)


def test_kazoe_as_sanbaiman():
    assert base_points(13, 30, 0, rules_for("tenhou", {"kazoe": "sanbaiman"}, 4)) == (6000, "sanbaiman")
    assert base_points(14, 40, 0, rules_for("wrc", {}, 4)) == (6000, "sanbaiman")


def test_kiriage_mangan():
    rules = rules_for("tenhou", {"kiriage": True}, 4)
    assert base_points(4, 30, 0, rules) == (2000, "kiriage_mangan")
    assert base_points(3, 60, 0, rules) == (2000, "kiriage_mangan")
    assert base_points(3, 50, 0, rules) == (1600, None)
    assert base_points(2, 110, 0, rules) == (1760, None)


@pytest.mark.parametrize("count, name", [(1, "yakuman"), (2, "double_yakuman"), (3, "triple_yakuman"),
                                         (4, "quadruple_yakuman")])
def test_multiple_yakuman(count, name):
    assert base_points(13 * count, 0, count, TENHOU) == (8000 * count, name)


def test_limit_hands_end_to_end():
    from tests.test_riichi_yaku import score
    # Riichi ippatsu tsumo pinfu + 2 dora (indicator 1m points at 2m; 234m has one, so use 2 indicators).
    result = score("234m456p789s23s55p4s", "4s", riichi=True, ippatsu=True, tsumo=True,
                   dora_indicators="1m3p")
    # riichi, ippatsu, menzen_tsumo, pinfu = 4, dora 2m + 4p = 2: 6 han haneman, 3000 / 6000.
    assert result.han == 6 and result.limit == "haneman" and result.points == 12000


def test_counted_yakuman_end_to_end():
    from tests.test_riichi_yaku import score
    # 123 123 456 789m + 55m won on 5m by tsumo: riichi, tsumo, chinitsu 6, ittsu 2, iipeikou 1
    # = 11 han (no pinfu: the 5m is a single or closed wait); 8m indicators make 9m a dora.
    hand = ("123456789m12355m", "5m")
    assert dict(score(*hand, riichi=True, tsumo=True).yaku) == {
        "riichi": 1, "menzen_tsumo": 1, "chinitsu": 6, "ittsu": 2, "iipeikou": 1}
    result = score(*hand, riichi=True, tsumo=True, dora_indicators="8m8m")
    assert result.han == 13 and result.limit == "kazoe_yakuman" and result.points == 32000
    result = score(*hand, riichi=True, tsumo=True, dora_indicators="8m8m", options={"kazoe": "sanbaiman"})
    assert result.limit == "sanbaiman" and result.points == 24000


def test_kiriage_end_to_end():
    from tests.test_riichi_yaku import score
    # Riichi + menzen tsumo + 2 dora (3m, 4p), 30 fu: 4 han 30 fu = 7900 (2000 / 3900),
    # or a mangan with kiriage.
    hand = ("123m456p789s234s11z", "4s")
    assert score(*hand, riichi=True, tsumo=True, dora_indicators="2m3p").points == 7900
    result = score(*hand, riichi=True, tsumo=True, dora_indicators="2m3p", options={"kiriage": True})
    assert result.limit == "kiriage_mangan" and result.points == 8000
