"""The ledger where a rule text says what happens: the classical Chinese limit (text 003),
the book's late-pon penalty and starting points (text 001). Each test quotes its line."""
from __future__ import annotations

import pytest

from scorer.game import GameConfig, LedgerError, replay
from scorer.settlement import settle

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
LIMIT = ("Set a limit to the maximum number of points that one player may have to pay to another on "
         "any given round")
LATE_PON = ("If the player to your right discards a tile you want to pon, but you don't declare it until "
            "it comes around to your turn, everyone will think you're dumb and you'll have to pay 1,000 "
            "points to the pot for not paying attention!")
STARTING_POINTS = ("Each player starts with 30,000 points. The bones should be distributed like this: one "
                   "10,000-point, two 5,000-point, nine 1,000-point and ten 100-point sticks. If you want to "
                   "have a bonus for the winner of the game (like an ante), start with 25,000 points.")


def test_the_quoted_lines_are_the_texts(shared):
    def text(name):
        return " ".join((shared / "rules" / name).read_text().replace("’", "'").split())
    assert LIMIT in text("003_b28eaabf32ee467f.txt")
    assert LATE_PON in text("001_a7805ec1974ea50c.txt")
    assert STARTING_POINTS in text("001_a7805ec1974ea50c.txt")


def chinese(limit=1000):
    return GameConfig.from_json({"rules": "chinese-classical", "players": PLAYERS, "options": {"limit": limit}})


def test_a_chinese_win_recorded_over_the_limit_is_refused_in_words():
    # LIMIT: a hand is paid the limit at most (twice it for a fully concealed limit hand).
    with pytest.raises(LedgerError) as error:
        replay(chinese(), [{"type": "win", "winner": 1, "discarder": 2, "points": 3000}])
    assert error.value.code == "bad_event"
    assert "over the limit of 1000" in error.value.message and "held to the limit" in error.value.message
    for points in (1001, 1500, 2001):
        with pytest.raises(LedgerError):
            replay(chinese(), [{"type": "win", "winner": 1, "points": points}])


def test_the_limit_and_a_fully_concealed_limit_hand_are_paid():
    state = replay(chinese(), [{"type": "win", "winner": 1, "discarder": 2, "points": 1000}])
    assert state.hands[0].deltas == (-2000, 4000, -1000, -1000)       # East (Ann) pays double
    state = replay(chinese(500), [{"type": "win", "winner": 2, "points": 1000}])   # twice the limit of 500
    assert state.hands[0].deltas == (-2000, -1000, 4000, -1000)


def test_a_result_scored_with_another_limit_is_refused():
    from scorer import score
    result = score({"rules": "chinese-classical", "concealed": "12344567z19m19p19s", "win_tile": "3z",
                    "tsumo": True, "seat_wind": "S"})          # scored at the default limit: 2000
    with pytest.raises(LedgerError) as error:
        replay(chinese(500), [{"type": "win", "winner": 1, "result": result}])
    assert "limit of 1000" in error.value.message and "500" in error.value.message
    state = replay(chinese(), [{"type": "win", "winner": 1, "result": result}])
    assert state.hands[0].deltas == (-4000, 8000, -2000, -2000)


def book(**extra):
    return GameConfig.from_json({"rules": "riichi", "preset": "book", "players": PLAYERS, **extra})


def test_the_book_late_pon_pays_1000_to_the_pot_for_the_next_winner():
    # LATE_PON: 1000 to the pot; the pot's sticks go to the next winner.
    state = replay(book(), [{"type": "late_pon", "seat": 2}])
    assert state.scores == (30000, 30000, 29000, 30000) and state.riichi_sticks == 1
    state = replay(book(), [{"type": "late_pon", "seat": 2},
                            {"type": "win", "winner": 1, "discarder": 0, "han": 3, "fu": 30}])
    assert state.scores == (26100, 34900, 29000, 30000) and state.riichi_sticks == 0
    assert state.hands[0].detail["late_pon"] == [2] and state.hands[0].deltas == (-3900, 4900, -1000, 0)
    assert state.total == 4 * 30000
    with pytest.raises(LedgerError) as error:      # a closed hand in riichi calls nothing
        replay(book(), [{"type": "riichi", "seat": 2}, {"type": "late_pon", "seat": 2}])
    assert "in riichi" in error.value.message


def test_a_late_pon_is_refused_where_the_rules_have_no_penalty_and_a_table_may_set_one():
    tenhou = GameConfig.from_json({"rules": "riichi", "players": PLAYERS})
    with pytest.raises(LedgerError) as error:
        replay(tenhou, [{"type": "late_pon", "seat": 0}])
    assert "no penalty for a late pon" in error.value.message
    home = GameConfig.from_json({"rules": "riichi", "players": PLAYERS, "options": {"late_pon_penalty": 2000}})
    assert replay(home, [{"type": "late_pon", "seat": 0}]).riichi_sticks == 2
    with pytest.raises(LedgerError):
        GameConfig.from_json({"rules": "riichi", "players": PLAYERS, "options": {"late_pon_penalty": 500}})
    with pytest.raises(LedgerError):
        replay(chinese(), [{"type": "late_pon", "seat": 0}])


def test_the_book_starts_at_30000_and_the_ante_at_25000_is_the_winners_bonus():
    # STARTING_POINTS: 30000 each; 25000 each "for a bonus for the winner" (the oka, to first place).
    plain, ante = book(), book(starting_points=25000)
    assert (plain.starting_points, plain.return_points, plain.oka) == (30000, 30000, 0)
    assert (ante.starting_points, ante.return_points, ante.oka) == (25000, 30000, 20000)
    state = replay(ante, [{"type": "end"}])
    first = settle(ante, [state]).to_json()["games"][0]["standings"][0]
    assert first["name"] == "Ann" and first["oka"] == 20000
