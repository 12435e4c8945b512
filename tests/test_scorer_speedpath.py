"""The riichi engine's memo of what a hand's tiles are worth (`engine._tile_scores`): one table
per rule set, entries the garbage collector can stop tracking, and the same answers whichever
rules or order the hands come in."""
from __future__ import annotations

import gc

from scorer import score
from scorer.riichi import engine

# A closed hand that scores differently under Tenhou's rules (red five counts, 4 fu for the
# double-wind pair) and the WRC's (no red fives, 2 fu): one tile shape, two rule sets.
HAND = {"rules": "riichi", "concealed": "234m406p345678s11z", "win_tile": "8s", "tsumo": False,
        "discarder": "S", "seat_wind": "E", "round_wind": "E", "dora_indicators": "9m", "riichi": True}
OTHER = {**HAND, "concealed": "234m406p55678s111z", "win_tile": "6s"}


def _scored(preset: str, request: dict) -> dict:
    return score({**request, "preset": preset})


def test_each_rule_set_gets_its_own_answer_whichever_is_scored_first():
    engine._SCORES.cache_clear()
    fresh = {preset: _scored(preset, HAND) for preset in ("tenhou", "wrc")}
    assert fresh["tenhou"] != fresh["wrc"]      # the hand really reads differently under them
    for order in (("tenhou", "wrc"), ("wrc", "tenhou")):
        engine._SCORES.cache_clear()
        for preset in order:
            assert _scored(preset, HAND) == fresh[preset]
            assert _scored(preset, HAND) == fresh[preset]       # now from the memo
    assert len(engine._SCORES) == 2


def test_remembered_tile_scores_are_left_untracked_by_the_garbage_collector():
    # A server meeting new hands adds an entry per hand; if the collector kept tracking them,
    # every full collection would walk all of them (see docs/scoring.md, Speed).
    engine._SCORES.cache_clear()
    for request in (HAND, OTHER):
        assert score(request)["ok"]
    # A tuple is untracked once its items are; an item that outlived a younger collection can
    # be met after its tuple in a full one, so each collection may untrack only one more level
    # of the nesting (scores, a score, its fu breakdown, a fu entry): four cover it.
    for _ in range(4):
        gc.collect()
    (table,) = engine._SCORES.values()
    assert len(table) == 2
    for key, scores in table.items():
        assert not gc.is_tracked(key)
        assert not gc.is_tracked(scores)


def test_a_hand_that_does_not_win_is_not_remembered():
    engine._SCORES.cache_clear()
    response = score({**HAND, "concealed": "234m406p345679s11z", "win_tile": "9s"})
    assert response["error"]["code"] == "not_a_winning_hand"
    assert all(not table for table in engine._SCORES.values())


def test_a_hand_is_closed_when_every_meld_is_a_concealed_kan():
    from scorer.hand import Meld, WinningHand
    from scorer.tiles import parse_tiles
    kan, pon = tuple(parse_tiles("1111m")), tuple(parse_tiles("777z"))
    hand = WinningHand(concealed=tuple(parse_tiles("22p")), win_tile=pon[0])
    assert hand.is_closed
    assert WinningHand(hand.concealed, hand.win_tile, melds=(Meld("ankan", kan),)).is_closed
    for melds in ((Meld("ankan", kan), Meld("pon", pon, "left")), (Meld("minkan", kan, "right"),),
                  (Meld("kakan", kan, "across"),)):
        assert not WinningHand(hand.concealed, hand.win_tile, melds=melds).is_closed
