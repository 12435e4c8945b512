"""Settlement: placement, return points and oka, uma, penalties, chips, money, sessions,
the fewest payments; and `tenbou settle` on the documented example logs."""
from __future__ import annotations

import itertools
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.game import GameConfig, replay
from scorer.settlement import HOUSE, fewest_payments, settle, settle_session
from webui.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def riichi(**extra):
    return GameConfig.from_json({"rules": "riichi", "players": PLAYERS, **extra})


def standings(config, events):
    sheet = settle(config, [replay(config, events)]).to_json()["games"][0]["standings"]
    return [(s["name"], s["result"]) for s in sheet]


def test_uma_and_oka_by_placement():
    config = riichi(uma="5-15", rate=1)
    rows = standings(config, [{"type": "win", "winner": 1, "discarder": 0, "han": 5}])
    # 33000 +3000 +15000 uma +20000 oka; ties at 25000 go by seat order (Cy before Di).
    assert rows == [("Bo", 38000), ("Cy", 0), ("Di", -10000), ("Ann", -28000)]


def test_chombo_penalty_is_shared_out_among_the_others():
    config = riichi(preset="wrc")
    rows = dict(standings(config, [{"type": "chombo", "seat": 2}]))
    # 30000/30000, no oka; uma 15/5/-5/-15 by seat order; Cy -20000, the others +6667/+6667/+6666.
    assert rows == {"Ann": 15000 + 6667, "Bo": 5000 + 6667, "Cy": -5000 - 20000, "Di": -15000 + 6666}
    assert sum(rows.values()) == 0


def test_three_player_uma():
    config = GameConfig.from_json({"rules": "riichi", "players": ["Ann", "Bo", "Cy"], "uma": [20, 0, -20]})
    rows = standings(config, [{"type": "win", "winner": 2, "discarder": 0, "han": 5}])
    assert rows == [("Cy", 43000 - 40000 + 20000 + 15000), ("Bo", -5000), ("Ann", 27000 - 40000 - 20000)]


def test_money_chips_and_a_session_over_games_with_different_seats():
    first = riichi(rate=0.1, chips={"value": 0.5})
    second = GameConfig.from_json({"rules": "riichi", "players": ["Di", "Cy", "Bo", "Ann"], "rate": 0.1,
                                   "chips": {"value": 0.5}})
    game1 = replay(first, [{"type": "win", "winner": 0, "discarder": 1, "han": 5, "chips": 3}])
    game2 = replay(second, [{"type": "win", "winner": 0, "discarder": 3, "han": 5}])
    result = settle_session([(first, game1), (second, game2)]).to_json()
    totals = result["totals"]
    assert totals["Ann"]["chips"] == 3 and totals["Bo"]["chips"] == -3
    # Ann: game 1 first, 33000 - 30000 + 20000 uma + 20000 oka = 43000 -> 4.30, and 3 chips 1.50;
    # game 2 last, 17000 - 30000 - 20000 = -33000 -> -3.30.
    assert totals["Ann"]["money"] == round(4.3 + 1.5 - 3.3, 2)
    assert sum(t["money"] for t in totals.values()) == 0
    assert abs(sum(p["amount"] for p in result["payments"] if p["to"] == "Di")
               - sum(p["amount"] for p in result["payments"] if p["from"] == "Di")
               - totals["Di"]["money"]) < 1e-9


def test_lost_riichi_sticks_leave_a_balance_with_the_table():
    config = riichi(rate=1, options={"leftover_sticks": "lost"})
    state = replay(config, [{"type": "riichi", "seat": 0}, {"type": "end"}])
    payments = settle(config, [state]).to_json()["payments"]
    # The results add up to -1000 (the stick): someone pays the table 1.00 so the sheet balances.
    assert [p["amount"] for p in payments if p["to"] == HOUSE] == [1.0]


def test_fewest_payments_finds_groups_that_settle_among_themselves():
    payments = fewest_payments({"a": 500, "b": -500, "c": 300, "d": -200, "e": -100})
    assert len(payments) == 3
    assert {(p.payer, p.payee, p.cents) for p in payments} == {("b", "a", 500), ("d", "c", 200), ("e", "c", 100)}


def _fewest_by_brute_force(amounts):
    people = [a for a in amounts if a]
    best = 0
    for order in itertools.permutations(range(len(people))):
        groups, running = 0, 0
        for i in order:
            running += people[i]
            groups += running == 0
        best = max(best, groups)
    return len(people) - best


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=6))
def test_fewest_payments_settle_exactly_and_are_fewest(values):
    balances = {f"p{i}": v for i, v in enumerate(values)}
    balances["last"] = -sum(values)
    payments = fewest_payments(balances)
    left = dict(balances)
    for p in payments:
        assert p.cents > 0
        left[p.payer] += p.cents
        left[p.payee] -= p.cents
    assert not any(left.values())
    assert len(payments) == _fewest_by_brute_force(list(balances.values()))


def test_cli_prints_standings_and_payments(capsys):
    assert main(["settle", str(EXAMPLES / "riichi-game.json")]) == 0
    out = capsys.readouterr().out
    assert "stopped in the lead" in out and "Ann pays Di 4.04 EUR" in out
    assert "1     Di" in out


def test_cli_json_for_tools(capsys):
    assert main(["settle", str(EXAMPLES / "riichi-session.json"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["games"]) == 2 and data["currency"] == "EUR"
    assert round(sum(t["money"] for t in data["totals"].values()), 2) == 0


def test_every_example_log_settles(capsys):
    for path in sorted(EXAMPLES.glob("*-game.json")) + sorted(EXAMPLES.glob("*-session.json")):
        assert main(["settle", str(path)]) == 0, path
    assert "Payments" in capsys.readouterr().out


def test_cli_bad_logs_say_why(tmp_path, capsys):
    cases = {
        "missing.json": None,
        "broken.json": "{\"config\": ",
        "no_events.json": json.dumps({"config": {"rules": "riichi", "players": PLAYERS}}),
        "bad_event.json": json.dumps({"config": {"rules": "riichi", "players": PLAYERS},
                                      "events": [{"type": "riichi", "seat": 7}]}),
    }
    messages = {}
    for name, text in cases.items():
        path = tmp_path / name
        if text is not None:
            path.write_text(text)
        assert main(["settle", str(path)]) == 2
        messages[name] = capsys.readouterr().err
    assert "cannot read" in messages["missing.json"]
    assert "not valid JSON (line 1" in messages["broken.json"]
    assert "neither \"events\"" in messages["no_events.json"]
    assert "event 1: seat is a seat number from 0 to 3" in messages["bad_event.json"]
