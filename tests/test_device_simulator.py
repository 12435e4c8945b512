"""The simulated table's game and faults, read back by the host's tracker on fake time."""
from __future__ import annotations

import random

import pytest

from device.events import HelloEvent, LinkEvent, PaymentEvent, RestartEvent, StateEvent
from device.game import base_points, new_game, noten_payments, play_hand, win_payments
from device.settle import POT, RIICHI_STICK, Transfer, net_of
from device.simulator import SimOptions, SimulatedTable
from device.tracker import TableTracker


def run(options: SimOptions, seconds: float, tracker: TableTracker | None = None, step: float = 0.05):
    tracker = tracker or TableTracker()
    table = SimulatedTable(options, 0.0)
    tracker.connected(0.0)
    events, now = [], 0.0
    while now < seconds:
        events += tracker.feed(table.step(now), now)
        now += step
    return table, tracker, events


def expected_payments(hands) -> list[dict]:
    """Net per party of every payment the table made: riichi deposits, then the hand itself."""
    out = []
    for hand in hands:
        out += [{seat: -RIICHI_STICK, POT: RIICHI_STICK} for seat in hand.riichi]
        if net_of(hand.transfers):
            out.append(net_of(hand.transfers))
    return out


@pytest.mark.parametrize("seats", [4, 3])
def test_every_payment_of_the_simulated_game_is_inferred_from_the_sticks(seats):
    table, tracker, events = run(SimOptions(seats=seats, seed=11, pace=2.0), 240.0)
    inferred = [net_of(e.payment.transfers) for e in events if isinstance(e, PaymentEvent)]
    assert len(table.hands) > 20
    assert inferred == expected_payments(table.hands)[:len(inferred)]
    assert len(inferred) >= len(expected_payments(table.hands[:-1]))  # all but the hand under way
    assert tracker.stats()["seq_gaps"] == 0


def test_wire_faults_never_change_what_the_host_infers():
    clean_table, _, clean = run(SimOptions(seed=5, pace=2.0), 120.0)
    faulty_table, tracker, faulty = run(SimOptions(seed=5, pace=2.0, faults=("garbage", "badcrc", "cut", "overlong"),
                                                   fault_every=1.0), 120.0)
    def payments(events):
        return [e.payment.transfers for e in events if isinstance(e, PaymentEvent)]
    assert payments(faulty) == payments(clean)
    shown = [p for e in faulty if isinstance(e, StateEvent) for p in e.snapshot.points]
    assert 99900 not in shown
    stats = tracker.stats()
    assert stats["bad_crc"] >= 20 and stats["malformed"] >= 20 and stats["overlong"] >= 20
    assert stats["garbage_bytes"] > 0


def test_a_flood_loses_no_frame():
    _, tracker, _ = run(SimOptions(seed=1, faults=("flood",), fault_every=3.0), 5.0)
    stats = tracker.stats()
    assert stats["frames"] > 2000 and stats["seq_gaps"] == 0


def test_silence_makes_the_link_stale_then_live_again():
    _, _, events = run(SimOptions(seed=1, faults=("silence",), fault_every=2.0, silence=4.0), 8.0)
    states = [e.state for e in events if isinstance(e, LinkEvent)]
    assert states[:3] == ["live", "stale", "live"]


def test_a_restart_is_reported_and_is_neither_a_gap_nor_a_payment():
    _, tracker, events = run(SimOptions(seed=2, faults=("restart",), fault_every=3.0), 5.0)
    kinds = [type(e) for e in events]
    assert RestartEvent in kinds
    assert isinstance(events[kinds.index(RestartEvent) + 1], HelloEvent)
    assert tracker.stats()["restarts"] == 1 and tracker.stats()["seq_gaps"] == 0


def test_the_table_answers_a_question_mark_with_a_hello():
    table = SimulatedTable(SimOptions(seed=1), 0.0)
    table.step(0.0)
    assert b",H," not in table.step(0.5)
    assert b",H," in table.step(0.6, b"?\r\n")


def test_every_hand_keeps_the_points_in_play_and_each_hand_over_is_half_counted_on_the_way():
    rng = random.Random(4)
    table = new_game(4)
    half_counted = 0
    for _ in range(30):
        hand = play_hand(table, rng)
        for reading in hand.readings:
            total = sum(reading.snapshot.points) + RIICHI_STICK * reading.snapshot.sticks
            assert total <= 100_000
            half_counted += total < 100_000
        end = hand.readings[-1].snapshot
        assert sum(end.points) + RIICHI_STICK * end.sticks == 100_000
        table = hand.next_table
        if table.round is None:
            table = new_game(4)
    assert half_counted > 30


def test_hand_values_follow_the_payment_table():
    assert base_points(3, 30) == 960 and base_points(4, 40) == 2000 and base_points(13, 30) == 8000
    # non-dealer 3 han 30 fu ron 3900; dealer 5800; non-dealer tsumo 1000/2000; honba 1
    assert win_payments("ron", 2, 3, 1, 4, 3, 30, 0, 0) == (Transfer(3, 2, 3900),)
    assert win_payments("ron", 1, 3, 1, 4, 3, 30, 1, 2000) == (Transfer(3, 1, 6100), Transfer(POT, 1, 2000))
    assert net_of(win_payments("tsumo", 2, None, 1, 4, 3, 30, 0, 0)) == {1: -2000, 2: 4000, 3: -1000, 4: -1000}


def test_noten_payments_pool_3000():
    assert net_of(noten_payments({1}, 4)) == {1: 3000, 2: -1000, 3: -1000, 4: -1000}
    assert net_of(noten_payments({1, 3}, 4)) == {1: 1500, 2: -1500, 3: 1500, 4: -1500}
    assert noten_payments(set(), 4) == () and noten_payments({1, 2, 3, 4}, 4) == ()


def test_an_unknown_fault_is_refused_in_words():
    with pytest.raises(ValueError, match="unknown fault 'fire'"):
        SimulatedTable(SimOptions(faults=("fire",)), 0.0)
