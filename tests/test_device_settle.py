"""Settled snapshots, inferred payments, and matching them to a scored hand."""
from __future__ import annotations

import pytest

from device.frames import Snapshot
from device.match import match_payment, seat_winds
from device.settle import POT, Settler, Transfer, infer_transfers, net_of, set_out

TOTAL = 100_000


def snap(*points: int, sticks: int | None = 0, round_: str = "E1", honba: int = 0, dealer: int = 1) -> Snapshot:
    return Snapshot(tuple(points), round_, honba, sticks, dealer, (False,) * len(points))


START = snap(25000, 25000, 25000, 25000)


def settle(settler: Settler, snapshot: Snapshot, at: float):
    settler.observe(snapshot, at)
    return settler.tick(at + settler.hold)


def test_a_snapshot_settles_after_holding_one_second():
    settler = Settler(TOTAL)
    settler.observe(START, 10.0)
    assert settler.tick(10.9) is None
    assert settler.tick(11.0) == (START, None)
    assert settler.tick(12.0) is None  # once only


def test_a_changing_reading_restarts_the_hold():
    settler = Settler(TOTAL)
    settler.observe(START, 0.0)
    settler.observe(snap(25000, 25000, 24000, 26000), 0.8)
    assert settler.tick(1.5) is None
    assert settler.tick(1.8) is not None


def test_a_half_counted_reading_never_settles():
    settler = Settler(TOTAL)
    settle(settler, START, 0.0)
    half = snap(25000, 25000, 21100, 25000)  # 3900 left West's drawer, not yet in South's
    assert settle(settler, half, 5.0) is None
    assert settler.tick(60.0) is None


def test_payment_between_settled_states_ignores_the_half_way_readings():
    settler = Settler(TOTAL)
    settle(settler, START, 0.0)
    settler.observe(snap(25000, 25000, 21100, 25000), 5.0)
    settler.observe(snap(25000, 27000, 21100, 25000), 5.2)
    settled, payment = settle(settler, snap(25000, 28900, 21100, 25000), 5.4)
    assert payment.transfers == (Transfer(3, 2, 3900),)


def test_the_total_comes_from_the_first_steady_state_when_nobody_says():
    settler = Settler(None)
    assert settle(settler, snap(30000, 30000, 30000, 30000), 0.0) is not None
    assert settler.total == 120_000
    assert settle(settler, snap(30000, 30000, 30000, 29000), 5.0) is None  # a stick missing


def test_a_state_whose_sticks_are_unknown_settles_when_the_rest_is_whole_riichi_sticks():
    settler = Settler(TOTAL)
    assert settle(settler, snap(25000, 24000, 25000, 25000, sticks=None), 0.0) is not None
    assert settle(settler, snap(25000, 24000, 25000, 24500, sticks=None), 5.0) is None


def test_going_back_to_the_settled_state_is_no_payment():
    settler = Settler(TOTAL)
    settle(settler, START, 0.0)
    settler.observe(snap(25000, 25000, 24000, 25000), 3.0)
    assert settle(settler, START, 3.2) is None


@pytest.mark.parametrize("layout, is_new", [
    (START, True),
    (snap(30000, 30000, 30000, 30000), True),                       # a club's starting points
    (snap(35000, 35000, 35000, 0), True),                           # three players at a four-seat table
    (snap(35000, 35000, 35000, sticks=None, round_=None, honba=None), True),   # a table that cannot tell
    (snap(25000, 25000, 25000, 25000, honba=1), False),            # a draw was played
    (snap(25000, 25000, 25000, 25000, round_="E2"), False),
    (snap(24000, 25000, 25000, 25000, sticks=1), False),           # a riichi stick is down
    (snap(26000, 24000, 25000, 25000), False),
    (snap(0, 0, 0, 0), False),                                      # a table switched off
])
def test_a_new_game_set_out_is_told_by_its_layout(layout, is_new):
    assert set_out(layout) is is_new


def test_a_table_reset_to_a_new_game_is_no_payment():
    """The table switched off and on between games while its bridge kept counting: the sticks
    went back to the box and out again, nobody paid anybody."""
    settler = Settler(TOTAL)
    settle(settler, snap(33000, 19000, 24000, 24000, round_="S4", honba=2), 0.0)
    assert settle(settler, START, 5.0) == (START, None)
    assert settler.settled == START
    _, payment = settle(settler, snap(25000, 27000, 25000, 23000, round_="E2", dealer=2), 10.0)
    assert payment.transfers == (Transfer(4, 2, 2000),)                # the game goes on as usual


def test_ron_with_honba_and_the_pot():
    before = snap(25000, 24000, 25000, 25000, sticks=1)
    after = snap(25000, 29500, 21100, 25000, sticks=0, honba=1)
    assert infer_transfers(before, after, TOTAL) == (Transfer(3, 2, 3900), Transfer(POT, 2, 1000))


def test_tsumo():
    after = snap(22900, 27700, 24700, 24700)
    assert infer_transfers(START, after, TOTAL) == (Transfer(1, 2, 2100), Transfer(3, 2, 300), Transfer(4, 2, 300))


def test_riichi_deposit_goes_to_the_pot():
    after = snap(25000, 25000, 24000, 25000, sticks=1)
    assert infer_transfers(START, after, TOTAL) == (Transfer(3, POT, 1000),)


def test_double_ron():
    after = snap(33000, 25000, 14600, 27400)
    assert infer_transfers(START, after, TOTAL) == (Transfer(3, 1, 8000), Transfer(3, 4, 2400))


def test_noten_payments_net_out_exactly():
    after = snap(26500, 23500, 26500, 23500)
    transfers = infer_transfers(START, after, TOTAL)
    assert net_of(transfers) == {1: 1500, 2: -1500, 3: 1500, 4: -1500}


def test_three_players():
    before = snap(35000, 35000, 35000)
    after = snap(31000, 43000, 31000)
    assert infer_transfers(before, after, 105_000) == (Transfer(1, 2, 4000), Transfer(3, 2, 4000))


# ---- matching the sticks with the scored hand (dealer seat 2: seat 2 is East, seat 3 South...)

def test_seat_winds_follow_the_dealer():
    assert seat_winds(2, 4) == {1: "N", 2: "E", 3: "S", 4: "W"}
    assert seat_winds(3, 3) == {1: "S", 2: "W", 3: "E"}


def test_a_matching_payment_is_confirmed():
    observed = (Transfer(4, 3, 3900), Transfer(POT, 3, 1000))
    scored = [{"from": "W", "to": "S", "points": 3600}, {"from": "W", "to": "S", "points": 300},
              {"from": "pot", "to": "S", "points": 1000}]
    result = match_payment(observed, scored, dealer_seat=2, seats=4)
    assert result.matched and result.differences == ()


def test_a_different_payment_names_the_seats_that_differ():
    observed = (Transfer(4, 3, 2900),)
    scored = [{"from": "W", "to": "S", "points": 3900}]
    result = match_payment(observed, scored, dealer_seat=2, seats=4)
    assert not result.matched
    assert [(d.party, d.wind, d.expected, d.observed) for d in result.differences] == [
        (3, "S", 3900, 2900), (4, "W", -3900, -2900)]
    assert result.differences[0].message() == "seat 3 (South): the hand says +3900, the sticks moved +2900"
    assert result.to_json()["matched"] is False


def test_a_forgotten_pot_is_a_difference():
    result = match_payment((Transfer(1, 2, 1000),), [{"from": "E", "to": "S", "points": 1000},
                                                     {"from": "pot", "to": "S", "points": 1000}], 1, 4)
    assert [(d.party, d.expected, d.observed) for d in result.differences] == [(2, 2000, 1000), (POT, -1000, 0)]


def test_a_wind_that_is_not_at_the_table_is_refused():
    with pytest.raises(ValueError, match="not a seat wind"):
        match_payment((), [{"from": "N", "to": "E", "points": 1000}], 1, 3)


def test_the_tracker_tells_a_new_game_set_out_not_a_payment():
    from device.display import describe
    from device.events import NewGameEvent, PaymentEvent, to_json
    from device.frames import encode_frame, snapshot_fields
    from device.tracker import TableTracker

    tracker = TableTracker(TOTAL)
    events = []
    readings = [START, snap(25000, 27000, 25000, 23000, round_="E2", dealer=2), START]
    for seq, reading in enumerate(readings):
        now = 5.0 * seq
        events += tracker.feed(encode_frame(seq, int(now * 1000), "S", snapshot_fields(reading)), now)
        events += tracker.tick(now + 1.5)
    assert [e.payment.transfers for e in events if isinstance(e, PaymentEvent)] == [(Transfer(4, 2, 2000),)]
    assert [e for e in events if isinstance(e, NewGameEvent)] == [NewGameEvent(START)]   # not at switch-on
    assert to_json(NewGameEvent(START))["event"] == "new_game"
    assert "new game set out: 25000 each (not a payment)" in describe(NewGameEvent(START))
