"""Han and fu typed without tiles: the pairs no hand reaches are refused in words, and no hand
the scorer scores is ever refused (generated hands under every option, and every recorded
Tenhou win)."""
from __future__ import annotations

import random

import pytest

from scorer import score
from scorer.riichi import rules_for
from scorer.riichi.han_fu import MOST_COUNTED_HAN, impossible
from tests.hand_strategies import random_hand

TENHOU = rules_for("tenhou", {}, 4)
WRC = rules_for("wrc", {}, 4)
RON, TSUMO = False, True


def test_the_contract_states_the_fu_rules_the_check_rests_on(shared):
    """The facts quoted in scorer/riichi/han_fu.py, as the shared texts word them."""
    spec = (shared / "spec/hand-json.md").read_text(encoding="utf-8")
    assert "fu rounded up to 10; seven pairs is 25" in spec
    assert "an open hand with no fu is raised to 30" in spec
    assert "pinfu tsumo earns the\n  2 tsumo fu" in spec
    tenhou = (shared / "data/tenhou/FORMAT.md").read_text(encoding="utf-8")
    assert "counted yakuman at" in tenhou and "13 han" in tenhou


@pytest.mark.parametrize("han, fu, tsumo, words", [
    (1, 20, RON, "a ron is at least 30 fu"),
    (3, 20, RON, "a ron is at least 30 fu"),
    (1, 25, RON, "1 han 25 fu cannot be"),
    (1, 25, TSUMO, "1 han 25 fu cannot be"),
    (2, 25, TSUMO, "at least 3 han"),
    (1, 20, TSUMO, "pinfu and menzen tsumo: at least 2 han"),
    (2, 120, RON, "fu go up to 110, not 120"),
    (4, 170, TSUMO, "fu go up to 110, not 170"),
    (2, 35, RON, "rounded up to 10"),
    (99, 30, RON, "more than 60 han"),
    (2, 0, RON, "needs its fu"),
    (0, 30, RON, "at least 1 han"),
])
def test_hands_that_cannot_exist_are_refused_in_words(han, fu, tsumo, words):
    said = impossible(han, fu, tsumo, TENHOU)
    assert said is not None and words in said


def test_99_han_names_what_13_or_more_is_paid_under_the_rules():
    assert "paid as a counted yakuman (kazoe yakuman)" in impossible(99, 30, RON, TENHOU)
    assert "paid as sanbaiman" in impossible(99, 30, RON, WRC)          # wrc: "reduced to sanbaiman"
    assert impossible(MOST_COUNTED_HAN, 40, RON, TENHOU) is None
    assert impossible(MOST_COUNTED_HAN + 1, 40, RON, TENHOU) is not None


@pytest.mark.parametrize("han, fu, tsumo", [
    (1, 30, RON), (1, 30, TSUMO), (2, 20, TSUMO), (2, 25, RON), (3, 25, TSUMO), (1, 110, RON),
    (4, 40, RON), (5, 0, RON), (13, 0, TSUMO), (6, 20, TSUMO), (22, 130, RON),
])
def test_hands_that_exist_pass(han, fu, tsumo):
    assert impossible(han, fu, tsumo, TENHOU) is None


def test_the_options_move_the_lines():
    no_open_pinfu = rules_for("tenhou", {"open_pinfu_fu": False}, 4)
    assert impossible(1, 20, RON, no_open_pinfu) is None            # an open all-runs ron, raised to nothing
    pinfu_tsumo_fu = rules_for("tenhou", {"pinfu_tsumo_fu": True}, 4)
    said = impossible(2, 20, TSUMO, pinfu_tsumo_fu)
    assert said and "no tsumo is 20 fu" in said


def _never_refused(request: dict, result: dict) -> str | None:
    if not result.get("ok") or result.get("yakuman"):
        return None
    rules = rules_for(request.get("preset"), request.get("options"), request.get("players", 4))
    why = impossible(result["han"], result["fu"], bool(request.get("tsumo")), rules)
    return None if why is None else f"{request} scored {result['han']} han {result['fu']} fu, refused: {why}"


def test_no_generated_hand_the_scorer_scores_is_refused():
    """Hands of every shape, open and closed, tsumo and ron, three and four players, under
    random options (pinfu_tsumo_fu and open_pinfu_fu among them): none is refused."""
    rng = random.Random(24)
    seen, refused = set(), []
    for _ in range(10000):
        request = random_hand(rng)
        result = score(request)
        if result.get("ok") and not result.get("yakuman"):
            seen.add((result["fu"], bool(request.get("tsumo")), result["han"] >= 2))
        problem = _never_refused(request, result)
        if problem:
            refused.append(problem)
    assert not refused, refused[:3]
    # the lines that refuse were approached from the side that passes
    assert {(20, True, True), (25, False, True), (30, False, False)} <= seen


def test_no_recorded_tenhou_win_is_refused(shared):
    from tests import tenhou_data

    wins = tenhou_data.load(shared / "data/tenhou/agari-dev.jsonl")
    refused = [p for p in (_never_refused(w.request, score(w.request)) for w in wins) if p]
    assert not refused, refused[:3]
