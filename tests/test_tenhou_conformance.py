"""Every recorded Tenhou win scores as Tenhou scored it, through the public contract.

Compares han, fu, points, the yaku (ids with han) and the winner's score change (hand, honba and
riichi sticks; in a double ron only the first winner takes honba and sticks). Odd rows of the
data set (chip lobbies, special lobbies) are read as FORMAT.md says; see `tests/tenhou_data.py`.
"""
from __future__ import annotations

import pytest

from tests import tenhou_data
from tests.tenhou_data import TenhouWin, compare, request_of, tile_str

ROWS = 2043


@pytest.fixture(scope="module")
def wins(shared) -> list[TenhouWin]:
    return tenhou_data.load(shared / "data/tenhou/agari-dev.jsonl")


def test_every_recorded_hand_is_read(wins):
    assert len(wins) == ROWS
    notes = [win for win in wins if win.note]
    # 12 chip-lobby rows, all from the special lobbies (GO types 553 and 1569).
    assert sum("chip lobby" in win.note for win in notes) == 12
    assert all(win.row["go_type"] in tenhou_data.SPECIAL_LOBBIES for win in notes)
    # FORMAT.md: three rows follow other payment rules, two of them kiriage mangan.
    assert sum(win.request["options"].get("kiriage", False) for win in wins) == 2
    assert sum(win.expected.winner_change is None for win in wins) == 1


def test_every_recorded_hand_scores_as_tenhou_did(wins):
    results = [(win, compare(win, _score(win.request))) for win in wins]
    bad = [win for win, problems in results if problems]
    assert not bad, tenhou_data.report(results)


def _score(request: dict) -> dict:
    from scorer import score
    return score(request)


# The converter itself, on a hand written out by hand: it must not depend on the data set.
ROW = {
    "go_type": 169, "num_players": 4, "aka": True, "kuitan": True, "round_wind": 1, "oya": 2,
    "who": 0, "from_who": 1, "is_tsumo": False, "seat_wind": 2, "is_dealer": False, "honba": 2,
    "riichi_sticks": 1, "hai": [16, 20, 24, 36, 40, 44, 124, 125], "machi": 24,
    "melds": [{"type": "chi", "tiles": [52, 56, 60], "called": 52, "from_rel": 3, "opened": True},
              {"type": "ankan", "tiles": [72, 73, 74, 75], "called": 72, "from_rel": 0, "opened": False}],
    "dora_indicators": [0], "ura_indicators": [4], "fu": 70, "points": 7700, "limit": 0,
    "yaku": [[1, 1], [52, 0], [54, 2], [53, 0]], "yakuman": [], "han": 3,
    "sc": [250, 107, 250, -87, 250, 0, 250, -10], "pao_who": None, "agari_index_in_kyoku": 2,
}


def test_converter_reads_tiles_seats_melds_and_flags():
    request = request_of(ROW)
    assert tile_str(16, aka=True) == "0m" and tile_str(16, aka=False) == "5m"
    assert request["concealed"] == "067m123p55z"
    assert request["win_tile"] == "7m"
    assert request["melds"] == [{"kind": "chi", "tiles": "067p", "from": "left"},
                                {"kind": "ankan", "tiles": "1111s"}]
    # Seat 0 with seat 2 dealing sits West; seat 1, who dealt in, sits North.
    assert (request["seat_wind"], request["discarder"], request["round_wind"]) == ("W", "N", "S")
    assert request["riichi"] and request["ura_indicators"] == "2m"
    assert request["takes_pot"] is False


def test_converter_expectation_drops_empty_ura_and_counts_score_change():
    expected = tenhou_data.expected_of(ROW)
    assert expected.yaku == {"riichi": 1, "aka_dora": 2}
    assert expected.winner_change == 10700


def test_compare_names_each_difference():
    win = tenhou_data.win_of(1, ROW)
    response = {"ok": True, "han": 3, "fu": 40, "yakuman": 0, "limit": None,
                "yaku": [{"id": "riichi", "han": 1}, {"id": "aka_dora", "han": 1}, {"id": "dora", "han": 1}],
                "fu_breakdown": [{"reason": "base", "fu": 20}], "points": 5200,
                "transfers": [{"from": "N", "to": "W", "points": 5200}]}
    causes = [cause for cause, _ in compare(win, response)]
    assert causes == ["yaku: missing [aka_dora 2] extra [aka_dora 1, dora 1]", "fu 40 instead of 70",
                      "points", "winner's score change"]
    assert compare(win, {"ok": False, "error": {"code": "no_yaku", "message": "m"}}) == [("error no_yaku", "m")]


def test_report_groups_differences_by_cause_biggest_first():
    win = tenhou_data.win_of(1, ROW)
    results = [(win, [("fu 40 instead of 70", "base 20")]), (win, [("fu 40 instead of 70", "base 20"),
                                                                ("points", "got 1, Tenhou 2")]), (win, [])]
    text = tenhou_data.report(results, examples=1)
    assert text.startswith("2 of 3 recorded hands differ")
    assert text.index("[2] fu 40 instead of 70") < text.index("[1] points")
    assert text.count("line 1:") == 2
