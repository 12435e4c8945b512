"""All-last conditions (scorer/all_last.py): the smallest hand that moves each player up, off
each other player and by tsumo, and what a draw does; checked through the ledger on the
last hands of recorded Tenhou games."""
from __future__ import annotations

import json

import pytest

from scorer.all_last import candidate_hands, conditions, draw_outcomes, is_all_last, places_of
from scorer.game import GameConfig, apply, new_game
from scorer.riichi.han_fu import FU_VALUES, impossible
from scorer.riichi.limits import base_points

SPECIAL_LOBBIES = {553, 1569}       # payments by other rules (FORMAT.md)


def _config(length: str = "south", **options) -> GameConfig:
    return GameConfig.from_json({"rules": "riichi", "players": ["A", "B", "C", "D"], "length": length,
                                 "options": options})


def _position(config, scores, honba=0, sticks=0, dealer=3, kyoku=7):
    event = {"type": "correction", "scores": list(scores), "honba": honba, "riichi_sticks": sticks,
             "dealer": dealer, "round_wind": "ESWN"[kyoku // 4]}
    return apply(config, new_game(config), event)


def _win(config, state, winner, discarder, numbers):
    event = {"type": "win", "winner": winner, **numbers}
    if discarder is not None:
        event["discarder"] = discarder
    return apply(config, state, event)


def _smaller(rules, tsumo: bool, base: int) -> dict | None:
    """The hand paying most below `base`, enumerated here from the limit table and the han/fu
    that exist (not from all_last's own list): a win event's numbers, or None."""
    found = {}
    for han in range(1, 14):
        for fu in (FU_VALUES if han < 5 else (0,)):
            if impossible(han, fu, tsumo, rules) is None:
                value, _ = base_points(han, fu, 0, rules)
                if value < base:
                    found.setdefault(value, {"han": han, "fu": fu})
    return found[max(found)] if found else None


def _check_need(config, state, rules, seat, need, checked):
    """The stated hands move `seat` to `need.place` through the ledger; the next smaller does not."""
    options = [(d, h) for d, h in need.ron] + [(None, need.tsumo)]
    for discarder, hand in options:
        tsumo = discarder is None
        if hand is None:
            # no hand does it: not even a yakuman
            after = _win(config, state, seat, discarder, {"yakuman": 1})
            assert places_of(after.scores)[seat] > need.place
            continue
        after = _win(config, state, seat, discarder, hand.event())
        assert places_of(after.scores)[seat] <= need.place, (state.scores, seat, discarder, hand)
        paid = after.hands[-1].detail["wins"][0]["points"]
        stated = dict(need.ron_points)[discarder] if not tsumo else need.tsumo_points
        assert paid == stated
        smaller = _smaller(rules, tsumo, hand.base)
        if smaller is not None:
            before = _win(config, state, seat, discarder, smaller)
            assert places_of(before.scores)[seat] > need.place, (state.scores, seat, discarder, hand, smaller)
        checked[0] += 1


def test_hands_are_smallest_first_and_end_at_a_yakuman():
    hands = candidate_hands(_config().riichi_rules(), False)
    bases = [h.base for h in hands]
    assert bases == sorted(set(bases)) and bases[0] == 240 and hands[-1].yakuman == 1
    labels = [h.label for h in hands]
    assert "2 han 40 fu" in labels and "1 han 80 fu" not in labels    # paid alike: the plainer name
    assert labels[-5:] == ["mangan", "haneman", "baiman", "sanbaiman", "yakuman"]
    # kiriage: 4 han 30 fu is paid as mangan, so no hand pays 1920
    kiriage = candidate_hands(_config(kiriage=True).riichi_rules(), False)
    assert 1920 not in [h.base for h in kiriage]


def test_a_worked_south_four():
    # South 4, dealer D; 1 honba, 1 riichi stick on the table
    config = _config()
    state = _position(config, [32000, 28000, 22000, 17000], honba=1, sticks=1)
    assert is_all_last(config, state)
    found = conditions(config, state)
    a, b, c, d = found.seats
    assert (a.place, a.needs) == (1, ())
    # B, 4000 behind A: a ron off A of 1300 (1 han 40 fu) with the honba and the stick leaves B
    # 30600 to A's 30400; 1000 (1 han 30 fu) would leave them 30300 to 30700
    need = b.next_place
    assert need.place == 1 and need.ron_off(0).label == "1 han 40 fu" and dict(need.ron_points)[0] == 1300
    # off C or D only B gains: 2900 (1 han 90 fu) makes 32200 to A's 32000
    assert need.ron_off(2).label == "1 han 90 fu" and dict(need.ron_points)[2] == 2900
    assert need.tsumo.label == "1 han 70 fu" and need.tsumo_points == 2400
    # D, the dealer, to first by tsumo: 3600 all (2 han 110 fu) makes 29100 to A's 28300
    assert [n.place for n in d.needs] == [3, 2, 1]
    assert d.needs[-1].tsumo.label == "2 han 110 fu" and d.needs[-1].tsumo_points == 10800
    assert d.needs[-1].ron_off(1).label == "haneman"
    # a draw: noten payments, then (dealer not ready: the game ends) the stick to first place
    alone_b = next(o for o in found.draws if o.tenpai == (1,))
    assert alone_b.scores[1] == 28000 + 3000 and alone_b.ends
    assert alone_b.places[0] == 1 and alone_b.scores[0] == 32000 - 1000 + 1000     # the stick went to A
    dealer_ready = next(o for o in found.draws if o.tenpai == (3,))
    assert not dealer_ready.ends                                                   # D deals again
    json.dumps(found.to_json())


def test_a_tie_goes_to_the_seat_nearer_the_first_dealer():
    config = _config()
    state = _position(config, [30000, 26000, 24000, 20000])
    found = conditions(config, state)
    # 2000 off A (2 han 30 fu) leaves B level with A at 28000, and a tie is A's: B needs 2300
    need = found.seats[1].next_place
    assert need.ron_off(0).label == "1 han 70 fu" and dict(need.ron_points)[0] == 2300
    after = _win(config, state, 1, 0, need.ron_off(0).event())
    assert after.scores[1] > after.scores[0]
    level = _win(config, state, 1, 0, {"han": 2, "fu": 30})
    assert level.scores[0] == level.scores[1] and places_of(level.scores)[1] == 2
    # a draw with only B ready: 29000 to 29000, A keeps first
    assert (1,) not in found.seats[1].draw_up


def test_riichi_players_are_ready_in_every_draw():
    config = _config()
    state = apply(config, _position(config, [30000, 26000, 24000, 20000]), {"type": "riichi", "seat": 2})
    assert all(2 in o.tenpai for o in draw_outcomes(config, state))


def _last_hands(shared) -> list[dict]:
    """The last hand of recorded games (South 4 or later in a hanchan, East 4 or later in an
    East-only game), one position per hand, from the wins and the draws."""
    found, seen = [], set()
    for name in ("agari-dev.jsonl", "ryuukyoku-dev.jsonl"):
        path = shared / "data" / "tenhou" / name
        if not path.exists():
            pytest.skip(f"{name} is not in the shared data")
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if row["num_players"] != 4 or row["go_type"] in SPECIAL_LOBBIES:
                continue
            hanchan = bool(row["go_type"] & 0x08)
            if row["kyoku"] < (7 if hanchan else 3):
                continue
            if "sc" in row:
                scores, honba, sticks = [v * 100 for v in row["sc"][0:8:2]], row["honba"], row["riichi_sticks"]
            else:
                scores, (honba, sticks) = [v * 100 for v in row["scores_before"]], row["ba"]
            # some logs number the seats from the log's owner: turn them so the first dealer is
            # seat 0, as ties between places are broken from the first dealer
            first = (row["oya"] - row["kyoku"]) % 4
            scores = scores[first:] + scores[:first]
            key = (row["source"], row["kyoku"], honba, tuple(scores))
            if key not in seen:
                seen.add(key)
                found.append({"scores": scores, "honba": honba, "sticks": sticks, "kyoku": row["kyoku"],
                              "length": "south" if hanchan else "east", "aka": row.get("aka", True)})
    return found


def test_stated_hands_move_players_up_in_recorded_last_hands(shared):
    positions = _last_hands(shared)
    assert len(positions) >= 200
    checked = [0]
    for p in positions:
        config = _config(p["length"], aka=p["aka"])
        rules = config.riichi_rules()
        state = _position(config, p["scores"], p["honba"], p["sticks"], p["kyoku"] % 4, p["kyoku"])
        assert is_all_last(config, state)
        found = conditions(config, state)
        for seat in found.seats:
            for need in seat.needs:
                _check_need(config, state, rules, seat.seat, need, checked)
            for tenpai in seat.draw_up:
                outcome = next(o for o in found.draws if o.tenpai == tenpai)
                assert outcome.places[seat.seat] < seat.place
    # every seat but first has a need a place; each need is a ron off three and a tsumo
    assert checked[0] >= 3 * len(positions) * 3


def test_three_player_conditions_are_the_ledgers():
    # three players: no North, tsumo loss on the tsumo (the absent seat's share is not paid)
    config = GameConfig.from_json({"rules": "riichi", "players": ["A", "B", "C"], "length": "south"})
    state = _position(config, [41000, 35000, 29000], honba=2, sticks=1, dealer=2, kyoku=6)
    assert is_all_last(config, state)
    found = conditions(config, state)
    rules = config.riichi_rules()
    checked = [0]
    for seat in found.seats:
        for need in seat.needs:
            assert len(need.ron) == 2
            _check_need(config, state, rules, seat.seat, need, checked)
    assert checked[0] == 3 * 3                   # B to first; C to second and to first
    assert {o.tenpai for o in found.draws} == {(), (0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2)}
