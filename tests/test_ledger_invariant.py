"""Generated event sequences: points in play plus the pot never change except by riichi
deposits (which move points from a player to the pot), and the state is always the replay
of the events accepted so far (so undo — dropping the last event — gives the state before)."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.game import GameConfig, LedgerError, apply, new_game, replay

FU = [20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110]


def _event(n: int):
    seat = st.integers(0, n - 1)
    hand = st.fixed_dictionaries({"winner": seat, "han": st.integers(1, 13), "fu": st.sampled_from(FU)})
    return st.one_of(
        st.builds(lambda s: {"type": "riichi", "seat": s}, seat),
        st.builds(lambda w, d: {"type": "win", **w, **({"discarder": d} if d is not None else {})},
                  hand, st.one_of(st.none(), seat)),
        st.builds(lambda ws, d: {"type": "win", "discarder": d, "winners": ws},
                  st.lists(hand, min_size=2, max_size=n - 1), seat),
        st.builds(lambda t, g: {"type": "draw", "tenpai": sorted(set(t)), **({"nagashi_mangan": [g]} if g is not None else {})},
                  st.lists(seat, max_size=n), st.one_of(st.none(), seat)),
        st.builds(lambda r: {"type": "abortive_draw", "reason": r},
                  st.sampled_from(["nine_terminals", "four_winds", "four_riichi", "four_kans"])),
        st.builds(lambda s: {"type": "chombo", "seat": s}, seat),
    )


CONFIGS = [
    {"rules": "riichi", "preset": "tenhou", "players": ["A", "B", "C", "D"]},
    {"rules": "riichi", "preset": "wrc", "players": ["A", "B", "C", "D"]},
    {"rules": "riichi", "preset": "mahjongsoul", "players": ["A", "B", "C"], "length": "east"},
    {"rules": "riichi", "preset": "tenhou", "players": ["A", "B", "C", "D"],
     "options": {"leftover_sticks": "lost", "triple_ron": "all", "bust": False}},
]


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CONFIGS).flatmap(
    lambda c: st.tuples(st.just(c), st.lists(_event(len(c["players"])), max_size=40))))
def test_points_and_pot_only_move_by_riichi_deposits(case):
    raw, events = case
    config = GameConfig.from_json(raw)
    state = new_game(config)
    total = state.total
    accepted = []
    for event in events:
        try:
            after = apply(config, state, event)
        except LedgerError:
            continue             # refused: nothing changed
        accepted.append(event)
        assert after.total == total
        if event["type"] == "riichi":
            assert after.riichi_sticks == state.riichi_sticks + 1
            assert sum(after.scores) == sum(state.scores) - 1000
        # Each hand's log entry says exactly how the scores moved.
        for record in after.hands[len(state.hands):]:
            net = [-1000 * (s in record.riichi) for s in range(config.n)]
            for t in record.transfers:
                net[t["to"]] += t["points"]
                if t["from"] != "pot":
                    net[t["from"]] -= t["points"]
            assert list(record.deltas) == net
        state = after
    assert replay(config, accepted) == state
    if accepted:
        assert replay(config, accepted[:-1]).events == len(accepted) - 1
