"""The riichi ledger, event by event: deposits, wins, double and triple ron, draws,
abortive draws, chombo, pao, the deal, the end of the game, undo."""
from __future__ import annotations

import pytest

from scorer.game import GameConfig, LedgerError, apply, new_game, replay, request_context, undo

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def game(preset="tenhou", players=PLAYERS, **extra):
    return GameConfig.from_json({"rules": "riichi", "preset": preset, "players": players, **extra})


def run(config, *events):
    return replay(config, list(events))


def ron(winner, discarder, han, fu=30, **more):
    return {"type": "win", "winner": winner, "discarder": discarder, "han": han, "fu": fu, **more}


def tsumo(winner, han, fu=30, **more):
    return {"type": "win", "winner": winner, "han": han, "fu": fu, **more}


def at(config, scores, **position):
    return apply(config, new_game(config), {"type": "correction", "scores": scores, **position})


def test_riichi_puts_1000_in_the_pot_and_the_winner_takes_it():
    state = run(game(), {"type": "riichi", "seat": 1}, ron(1, 0, 3))
    assert state.scores == (21100, 28900, 25000, 25000)
    assert state.riichi_sticks == 0 and state.honba == 0
    assert state.dealer == 1 and state.round_label == "East 2"
    assert state.hands[0].riichi == (1,) and state.hands[0].deltas == (-3900, 3900, 0, 0)


def test_riichi_refused_below_1000_where_the_preset_says_and_twice_in_a_hand():
    config = game()
    low = at(config, [500, 33000, 33500, 33000])
    with pytest.raises(LedgerError) as error:
        apply(config, low, {"type": "riichi", "seat": 0})
    assert error.value.code == "riichi_refused" and "Ann has 500 points" in error.value.message
    allowed = game(options={"riichi_needs_1000": False})
    assert apply(allowed, at(allowed, [500, 33000, 33500, 33000]), {"type": "riichi", "seat": 0}).scores[0] == -500
    with pytest.raises(LedgerError, match="already in riichi"):
        run(config, {"type": "riichi", "seat": 2}, {"type": "riichi", "seat": 2})


def test_dealer_win_keeps_the_deal_and_adds_a_honba():
    state = run(game(), tsumo(0, 2))
    assert state.scores == (28000, 24000, 24000, 24000)
    assert (state.dealer, state.honba) == (0, 1)
    state = apply(game(), state, ron(2, 1, 1))          # 1000 + 300 for the honba
    assert state.scores == (28000, 22700, 25300, 24000)
    assert (state.dealer, state.honba) == (1, 0)


def test_double_ron_both_paid_the_first_in_turn_takes_honba_and_sticks():
    config = game()
    state = at(config, [25000, 25000, 25000, 24000], honba=1, riichi_sticks=1)
    state = apply(config, state, {"type": "win", "discarder": 0,
                                  "winners": [{"winner": 3, "han": 2, "fu": 30}, {"winner": 2, "han": 1, "fu": 30}]})
    assert state.hands[-1].deltas == (-3300, 0, 2300, 2000)
    assert state.riichi_sticks == 0
    assert [w["winner"] for w in state.hands[-1].detail["wins"]] == [2, 3]


def test_head_bump_where_the_preset_has_no_double_ron():
    state = run(game("wrc"), {"type": "win", "discarder": 0,
                              "winners": [{"winner": 3, "han": 2, "fu": 30}, {"winner": 2, "han": 1, "fu": 30}]})
    assert state.scores == (29000, 30000, 31000, 30000)
    assert "head bump" in state.hands[-1].detail["note"]


def test_triple_ron_aborts_or_all_pay_per_preset():
    three = {"type": "win", "discarder": 0, "winners": [{"winner": s, "han": 1, "fu": 30} for s in (1, 2, 3)]}
    aborted = run(game(), three)
    assert aborted.hands[-1].kind == "abortive_draw" and aborted.hands[-1].detail["reason"] == "triple_ron"
    assert aborted.scores == (25000,) * 4 and (aborted.dealer, aborted.honba) == (0, 1)
    paid = run(game(options={"triple_ron": "all"}), three)
    assert paid.scores == (22000, 26000, 26000, 26000)


@pytest.mark.parametrize("tenpai, deltas", [
    ([2], (-1000, -1000, 3000, -1000)),
    ([0, 2], (1500, -1500, 1500, -1500)),
    ([0, 1, 3], (1000, 1000, -3000, 1000)),
    ([], (0, 0, 0, 0)),
    ([0, 1, 2, 3], (0, 0, 0, 0)),
])
def test_exhaustive_draw_noten_payments(tenpai, deltas):
    state = run(game(), {"type": "draw", "tenpai": tenpai})
    assert state.hands[-1].deltas == deltas
    assert state.honba == 1
    assert state.dealer == (0 if 0 in tenpai else 1)


def test_three_player_game_noten_payments_and_seat_winds():
    config = game(players=["Ann", "Bo", "Cy"])
    assert config.starting_points == 35000 and config.return_points == 40000
    state = run(config, {"type": "draw", "tenpai": [1]})
    assert state.hands[-1].deltas == (-1000, 2000, -1000)
    assert state.seat_winds == ("W", "E", "S")
    state = apply(config, state, tsumo(2, 3))   # 1000/2000, 100 a honba each; no North share (tsumo loss)
    assert state.hands[-1].deltas == (-1100, -2100, 3200)


def test_a_riichi_player_must_be_ready_at_the_draw():
    with pytest.raises(LedgerError, match="Cy declared riichi"):
        run(game(), {"type": "riichi", "seat": 2}, {"type": "draw", "tenpai": [0]})


def test_nagashi_mangan_is_paid_as_a_mangan_tsumo_without_noten_payments():
    state = run(game(), {"type": "draw", "tenpai": [0], "nagashi_mangan": [2]})
    assert state.hands[-1].deltas == (-4000, -2000, 8000, -2000)
    assert state.dealer == 0 and state.honba == 1
    with pytest.raises(LedgerError, match="no nagashi mangan"):
        run(game("wrc"), {"type": "draw", "tenpai": [], "nagashi_mangan": [2]})


def test_abortive_draws_keep_the_deal_and_the_sticks():
    state = run(game(), {"type": "riichi", "seat": 3}, {"type": "abortive_draw", "reason": "four_winds"})
    assert state.riichi_sticks == 1 and state.honba == 1 and state.dealer == 0
    with pytest.raises(LedgerError, match="all four players in riichi"):
        run(game(), {"type": "abortive_draw", "reason": "four_riichi"})
    riichi = [{"type": "riichi", "seat": s} for s in range(4)]
    assert run(game(), *riichi, {"type": "abortive_draw", "reason": "four_riichi"}).riichi_sticks == 4
    with pytest.raises(LedgerError) as error:
        run(game("wrc"), {"type": "abortive_draw", "reason": "nine_terminals"})
    assert error.value.code == "no_abortive_draws"
    with pytest.raises(LedgerError, match="reason is one of"):
        run(game(), {"type": "abortive_draw", "reason": "boredom"})


def test_chombo_reverse_mangan_returns_riichi_deposits_and_replays_the_hand():
    state = run(game(), {"type": "riichi", "seat": 1}, {"type": "chombo", "seat": 2})
    assert state.scores == (29000, 27000, 17000, 27000)
    assert state.riichi_sticks == 0 and state.dealer == 0 and state.honba == 0
    dealer = run(game(), {"type": "chombo", "seat": 0})
    assert dealer.scores == (13000, 29000, 29000, 29000)


def test_chombo_as_a_penalty_leaves_the_table_points_alone():
    state = run(game("wrc"), {"type": "chombo", "seat": 2})
    assert state.scores == (30000,) * 4 and state.penalties == (0, 0, 20000, 0)


def test_pao_on_tsumo_the_liable_player_pays_the_yakuman():
    state = run(game(), {"type": "win", "winner": 2, "yakuman": 1, "pao": 0})
    assert state.hands[-1].deltas == (-32000, 0, 32000, 0)
    state = run(game(), {"type": "win", "winner": 2, "discarder": 1, "yakuman": 1, "pao": 0})
    assert state.hands[-1].deltas == (-16000, -16000, 32000, 0)
    with pytest.raises(LedgerError, match="pao covers a yakuman"):
        run(game(), ron(2, 1, 3, pao=0))


def test_bad_events_are_refused_in_a_players_words():
    config = game()
    cases = [
        ({"type": "win", "winner": 4, "han": 1, "fu": 30}, "seat number from 0 to 3"),
        (ron(1, 1, 2), "own discard"),
        ({"type": "win", "winner": 1}, "needs its han"),
        (ron(1, 0, 2, fu=33), "needs fu"),
        ({"type": "dance"}, "no event 'dance'"),
        ({"type": "draw", "tenpai": [1, 1]}, "twice"),
        ("win", "an event is an object"),
    ]
    for event, words in cases:
        with pytest.raises(LedgerError, match=words):
            apply(config, new_game(config), event)


def east_game(**extra):
    return game(length="east", **extra)


def test_east_game_ends_after_east_4_when_someone_reached_30000():
    events = [ron(1, 0, 5), ron(2, 3, 1), ron(3, 0, 1), ron(0, 2, 1)]
    state = run(east_game(), *events)
    assert state.finished and state.end_reason == "the last hand has been played"
    assert state.scores == (17000, 33000, 25000, 25000)
    with pytest.raises(LedgerError) as error:
        apply(east_game(), state, ron(1, 0, 1))
    assert error.value.code == "game_over"


def test_sudden_death_extension_until_someone_reaches_the_return_points():
    events = [ron(1, 0, 1), ron(2, 3, 1), ron(3, 0, 1), ron(0, 2, 1)]
    state = run(east_game(), *events)
    assert not state.finished and state.round_label == "South 1"
    state = apply(east_game(), state, ron(2, 1, 4))    # 8000: Cy reaches 30000 or more
    assert state.finished and "reached 30000 in the extension" in state.end_reason
    no_extension = run(east_game(options={"sudden_death": False}), *events)
    assert no_extension.finished


def test_the_last_dealer_stops_in_the_lead_agari_yame():
    first = [ron(1, 0, 5), ron(2, 3, 1), ron(3, 0, 1)]   # Di deals East 4
    state = run(east_game(), *first, tsumo(3, 6))           # haneman tsumo: Di on top
    assert state.finished and "Di, stopped in the lead" in state.end_reason
    behind = run(east_game(), *first, tsumo(3, 1))          # still behind Bo: plays on
    assert not behind.finished and behind.dealer == 3 and behind.honba == 1
    keeps_going = run(east_game(options={"agari_yame": False}), *first, tsumo(3, 6))
    assert not keeps_going.finished


def test_bust_ends_the_game_where_the_preset_says():
    config = game()
    state = apply(config, at(config, [3000, 33000, 32000, 32000]), ron(1, 0, 3))
    assert state.finished and state.end_reason == "Ann went below zero" and state.scores[0] == -900
    lenient = game("wrc")
    assert not apply(lenient, at(lenient, [3000, 39000, 39000, 39000]), ron(1, 0, 3)).finished


def test_leftover_sticks_go_to_first_place_or_are_lost():
    state = run(game(), {"type": "riichi", "seat": 3}, {"type": "end"})
    assert state.finished and state.end_reason == "stopped by the players"
    assert state.scores == (26000, 25000, 25000, 24000) and state.riichi_sticks == 0
    assert state.hands[-1].kind == "leftover_sticks"
    lost = run(game(options={"leftover_sticks": "lost"}), {"type": "riichi", "seat": 3}, {"type": "end"})
    assert lost.scores == (25000, 25000, 25000, 24000) and lost.riichi_sticks == 1


def test_placement_ties_go_to_the_seat_nearer_the_first_dealer():
    state = run(game(), ron(3, 0, 1), ron(2, 1, 1))
    assert state.scores == (24000, 24000, 26000, 26000)
    assert state.placement() == (2, 3, 0, 1)


def test_undo_is_the_replay_without_the_last_event():
    config = game()
    events = [{"type": "riichi", "seat": 0}, ron(0, 1, 2), {"type": "draw", "tenpai": [1]}]
    shorter, state = undo(config, events)
    assert shorter == events[:2] and state == replay(config, events[:2])
    assert state.events == 2


def test_request_context_fills_what_the_ledger_knows():
    config = game()
    state = run(config, {"type": "draw", "tenpai": [0]}, {"type": "riichi", "seat": 2})
    context = request_context(config, state, winner=2, discarder=3)
    assert context == {"rules": "riichi", "preset": "tenhou", "players": 4, "seat_wind": "W", "round_wind": "E",
                       "tsumo": False, "discarder": "N", "honba": 1, "riichi_sticks": 1, "riichi": True,
                       "options": {}}


def test_a_win_can_carry_the_scorers_result_and_earn_chips():
    config = game(chips={"value": 0.5})
    result = {"ok": True, "han": 4, "fu": 30, "yakuman": 0,
              "yaku": [{"id": "riichi", "han": 1}, {"id": "ippatsu", "han": 1}, {"id": "ura_dora", "han": 2}]}
    state = run(config, {"type": "win", "winner": 1, "result": result})
    assert state.hands[-1].deltas == (-3900, 7900, -2000, -2000)
    assert state.chips == (-3, 9, -3, -3)


def test_config_errors_name_the_field():
    bad = [
        ({"rules": "poker", "players": PLAYERS}, "rules is one of"),
        ({"rules": "riichi", "players": ["Ann", "Bo"]}, "3 or 4 players"),
        ({"rules": "riichi", "players": ["Ann", "Ann", "Bo", "Cy"]}, "same name"),
        ({"rules": "riichi", "preset": "vegas", "players": PLAYERS}, "no riichi preset"),
        ({"rules": "riichi", "players": PLAYERS, "options": {"bust": "yes"}}, "bust is true or false"),
        ({"rules": "riichi", "players": PLAYERS, "options": {"kiriage": 1}}, "kiriage"),
        ({"rules": "riichi", "players": PLAYERS, "options": {"flying": True}}, "no riichi option"),
        ({"rules": "riichi", "players": PLAYERS, "uma": [10, 10, 0, 0]}, "add up to zero"),
        ({"rules": "riichi", "players": PLAYERS, "length": "forever"}, "length is one of"),
        ({"rules": "chinese-classical", "players": ["A", "B", "C"]}, "4 players"),
        ({"rules": "chinese-classical", "players": PLAYERS, "options": {"limit": 0}}, "limit"),
    ]
    for raw, words in bad:
        with pytest.raises(LedgerError, match=words):
            GameConfig.from_json(raw)


def test_config_round_trips_through_json():
    config = game("mleague", uma="10-30", rate=0.5, currency="EUR", chips={"value": 1})
    again = GameConfig.from_json(config.to_json())
    assert again == config
    assert config.uma == (30000, 10000, -10000, -30000) and config.oka == 20000


def test_three_player_east_game_goes_round_three_seats():
    config = game(players=["Ann", "Bo", "Cy"], length="east")
    state = run(config, ron(1, 0, 5), ron(2, 1, 1), ron(0, 2, 1))
    assert state.finished and state.end_reason == "the last hand has been played"
    assert [h.label for h in state.hands] == ["East 1", "East 2", "East 3"]
    assert state.scores == (28000, 42000, 35000) and state.total == 105000


def test_other_rule_sets_configs_and_context():
    fundamentals = GameConfig.from_json({"rules": "fundamentals", "players": PLAYERS})
    assert (fundamentals.starting_points, fundamentals.rate_per, fundamentals.length) == (20, 1, "east")
    assert GameConfig.from_json(fundamentals.to_json()) == fundamentals
    with pytest.raises(LedgerError, match="returns to the first dealer"):
        GameConfig.from_json({"rules": "fundamentals", "players": PLAYERS, "length": "south"})
    state = run(fundamentals, {"type": "draw", "tenpai": [0]})
    assert request_context(fundamentals, state, 1)["pool"] == 3
    chinese = GameConfig.from_json({"rules": "chinese-classical", "players": PLAYERS, "options": {"limit": 500}})
    assert GameConfig.from_json(chinese.to_json()) == chinese and chinese.chinese_options().limit == 500
