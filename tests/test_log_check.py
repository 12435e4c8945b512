"""A game log from outside the app is checked as a typed hand is (issue 25): every number
bounded, every event rebuilt, every hand given by tiles scored again, the hostile logs of the
attack run refused in words, by `tenbou settle` in one line with exit 2."""
from __future__ import annotations

import copy
import json

import pytest

from scorer import limits, score
from scorer.game import LedgerError, replay
from scorer.game.errors import shown
from scorer.game.log import check_log, read_log
from scorer.names import clean_name
from webui.cli import main

CONFIG = {"rules": "riichi", "preset": "tenhou", "players": ["Ann", "Bo", "Cy", "Di"], "length": "east",
          "chips": {"value": 0.5}}
HAKU_TSUMO = {"concealed": "234m456p678s22z555z", "win_tile": "5z"}


def log_with(win: dict | None = None, config: dict | None = None, events: list | None = None) -> dict:
    """A one-game log: Ann's riichi, then `win` (Ann's haku tsumo by default)."""
    body = win if win is not None else {"type": "win", "winner": 0, "han": 2, "fu": 30}
    return {"config": {**CONFIG, **(config or {})},
            "events": events if events is not None else [{"type": "riichi", "seat": 0}, body]}


# The attack run's hostile logs (issue 25, High 2): each must be refused, in words.
HOSTILE = {
    "result yaku of numbers": log_with({"type": "win", "winner": 0, "result": {"yaku": [1]}}),
    "request a string": log_with({"type": "win", "winner": 0, "request": "concealed"}),
    "chips 10**400": log_with({"type": "win", "winner": 0, "han": 2, "fu": 30, "chips": 10 ** 400}),
    "chombo_penalty 10**400": log_with(config={"options": {"chombo": "penalty", "chombo_penalty": 10 ** 400}},
                                       events=[{"type": "chombo", "seat": 1}]),
    "chip setting 10**400": log_with(config={"chips": {"value": 0.5, "ura": 10 ** 400}}),
    "hand 9z9z9z": log_with({"type": "win", "winner": 0, "tsumo": True,
                             "request": {"concealed": "9z9z9z", "win_tile": "9z"}}),
    "melds 5": log_with({"type": "win", "winner": 0, "request": {**HAKU_TSUMO, "melds": 5}}),
    "hand {id: 7}": log_with({"type": "win", "winner": 0, "request": {"id": 7}}),
    "length {}": log_with(config={"length": {}}),
    "type {}": log_with(events=[{"type": {}}]),
    "rules {}": log_with(config={"rules": {}}),
    "preset []": log_with(config={"preset": ["tenhou"]}),
    "uma Infinity": log_with(config={"uma": [float("inf"), 0, 0, float("-inf")]}),
    "rate NaN": log_with(config={"rate": float("nan")}),
    "correction 10**400": log_with(events=[{"type": "correction", "scores": [10 ** 400, 0, 0, 0]}]),
    "correction past the bound": log_with(events=[{"type": "correction", "scores": [10 ** 8, 0, 0, 0]}]),
    "han 10**400": log_with({"type": "win", "winner": 0, "han": 10 ** 400, "fu": 30}),
    "honba 10**6": log_with(events=[{"type": "correction", "scores": [25000] * 4, "honba": 10 ** 6}]),
    "a page of reason": log_with(events=[{"type": "end", "reason": "x" * 100_000}]),
    "reason an object": log_with(events=[{"type": "end", "reason": {"a": 1}}]),
    "result yakuman a string": log_with({"type": "win", "winner": 0, "result": {"han": 1, "fu": 30, "yakuman": "1"}}),
    "pao wind SW": log_with({"type": "win", "winner": 0, "request": {**HAKU_TSUMO, "pao": "SW"}}),
    "other_counts key ²": {"config": {"rules": "chinese-classical", "players": ["A", "B", "C", "D"]},
                           "events": [{"type": "win", "winner": 1, "points": 50, "other_counts": {"²": 4}}]},
    "chinese points 10**400": {"config": {"rules": "chinese-classical", "players": ["A", "B", "C", "D"]},
                               "events": [{"type": "win", "winner": 1, "points": 10 ** 400}]},
    "currency a page": log_with(config={"currency": "E" * 5000}),
    "a zero-width name": log_with(config={"players": ["Ann", "Bo\u200b", "Cy", "Di"]}),
    "an invisible name": log_with(config={"players": ["Ann", "\u3164", "Cy", "Di"]}),
    "a look-alike name": log_with(config={"players": ["Ann", "B\u043e", "Cy", "Di"]}),     # Cyrillic о
    "one member in two seats": log_with(config={"players": ["Bea", "bea", "BEA", "Di"]}),
    "several winners, Fundamentals": {"config": {"rules": "fundamentals", "players": ["A", "B", "C", "D"]},
                                      "events": [{"type": "win", "discarder": 0, "winners": [{"winner": 1}]}]},
    "four winners of four": log_with({"type": "win", "discarder": 0, "winners": [{"winner": s, "han": 1, "fu": 30}
                                                                                 for s in range(4)]}),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_log_is_refused_in_words(name):
    with pytest.raises(LedgerError) as refused:
        check_log(copy.deepcopy(HOSTILE[name]))
    message = refused.value.message
    assert message and len(message) < 300 and "Traceback" not in message, message


@pytest.mark.parametrize("name", ["chips 10**400", "hand 9z9z9z", "length {}", "type {}", "request a string"])
def test_tenbou_settle_refuses_a_hostile_log_in_one_line(name, tmp_path, capsys):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(HOSTILE[name]))
    assert main(["settle", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tenbou settle: ") and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_tenbou_settle_refuses_a_number_of_a_thousand_digits_in_one_line(tmp_path, capsys):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log_with()).replace('"han": 2', '"han": 1' + "0" * 5000))
    assert main(["settle", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_hand_given_by_tiles_is_scored_again_and_its_result_never_kept_as_given():
    forged = {"ok": True, "han": 13, "fu": 0, "yakuman": 1, "yaku": [{"id": 7}, {"id": "kokushi", "han": 13}],
              "points": 48000}
    request = {**HAKU_TSUMO, "honba": 40, "seat_wind": "N", "riichi_sticks": 9, "rules": "riichi", "junk": "x" * 99}
    game, = check_log(log_with({"type": "win", "winner": 0, "result": forged, "request": request}))
    stored = game.events[1]
    assert set(stored) == {"type", "discarder", "winner", "result", "request"}
    # the situation is the ledger's (Ann is East, in riichi, no honba), the tiles the log's
    assert stored["request"]["seat_wind"] == "E" and stored["request"]["riichi"] is True
    assert "honba" not in stored["request"] or stored["request"]["honba"] == 0
    assert "junk" not in stored["request"]
    assert stored["result"] == score(stored["request"]) and stored["result"]["yakuman"] == 0
    assert {y["id"] for y in stored["result"]["yaku"]} >= {"riichi", "yakuhai_haku"}
    # what the ledger paid is what the real hand is worth
    assert game.state.scores == replay(game.config, game.events).scores
    assert max(game.state.scores) < 25000 + 48000


def test_a_win_given_by_its_result_alone_keeps_its_numbers_and_chips():
    result = {"ok": True, "han": 3, "fu": 30, "yakuman": 0,
              "yaku": [{"id": "riichi", "han": 1}, {"id": "ippatsu", "han": 1}, {"id": "ura_dora", "han": 1}]}
    game, = check_log(log_with({"type": "win", "winner": 0, "discarder": 2, "result": result}))
    assert game.events[1] == {"type": "win", "discarder": 2, "winner": 0, "han": 3, "fu": 30, "yakuman": 0,
                              "chips": 2}
    assert game.state.chips[0] == 2 and game.state.chips[2] == -2


def test_only_the_fields_of_an_event_are_kept():
    events = [{"type": "riichi", "seat": 0, "extra": "x" * 1000},
              {"type": "draw", "tenpai": [0], "result": {"yaku": [1]}}, {"type": "end", "reason": "closing"}]
    game, = check_log(log_with(events=events))
    assert game.events == [{"type": "riichi", "seat": 0}, {"type": "draw", "tenpai": [0]},
                           {"type": "end", "reason": "closing"}]


def test_the_examples_still_settle_as_before():
    from pathlib import Path
    examples = Path(__file__).resolve().parents[1] / "docs" / "examples"
    for name in ("riichi-game", "riichi-session", "chinese-game", "fundamentals-game"):
        log = json.loads((examples / f"{name}.json").read_text())
        for (config, state), game in zip(read_log(log), check_log(log)):
            assert state.scores == replay(config, game.events).scores


def test_a_double_ron_by_tiles_rescores_the_later_winner_without_the_pot():
    tile = {"concealed": "234m456p678s234s55p", "win_tile": "5p"}      # tanyao
    win = {"type": "win", "discarder": 0, "winners": [{"winner": 2, "request": dict(tile)},
                                                      {"winner": 1, "request": dict(tile)}]}
    game, = check_log(log_with(win, events=[{"type": "riichi", "seat": 3}, win]))
    first, later = game.events[1]["winners"]
    assert first["winner"] == 2 or later["winner"] == 2
    by_winner = {w["winner"]: w for w in game.events[1]["winners"]}
    assert by_winner[1]["request"].get("takes_pot", True) is True          # seat 1 is next from seat 0
    assert by_winner[2]["request"]["takes_pot"] is False


def test_every_bound_is_the_web_apps():
    from webui.guard import limits as web_limits     # the web app re-exports the scorer's bounds
    for name in ("MOST_START", "MOST_SCORE", "MOST_EVENTS", "NAME_LENGTH", "MOST_YAKUMAN"):
        assert getattr(web_limits, name) == getattr(limits, name)


@pytest.mark.parametrize("name, refused", [
    ("Aki", None), ("  Ann   Lee ", None), ("明 Aki", None), ("Ivan Иван", None), ("Zoë", None),
    ("\u200b", "invisible"), ("A\u200dB", "invisible"), ("\u202eAki", "invisible"), ("\u3164\u3164", "blank"),
    ("\u0410ki", "look alike"), ("Ann\u0301", None), ("\u00a0", None), ("x" * 25, "at most"),
])
def test_a_name_people_can_read(name, refused):
    cleaned, why = clean_name(name, limits.NAME_LENGTH)
    if refused is None:
        assert why is None, why
    else:
        assert why is not None and refused.split()[0] in why, why


def test_names_are_normalised_so_one_name_is_one_person():
    from scorer.game import GameConfig
    config = GameConfig.from_json({"players": ["Zoe\u0308", "Bo", "Cy", "Di"]})
    assert config.players[0] == "Zo\u00eb"
    with pytest.raises(LedgerError, match="same name"):
        GameConfig.from_json({"players": ["Zo\u00eb", "zoe\u0308", "Cy", "Di"]})


def test_a_shown_value_is_short_whatever_it_is():
    assert shown(10 ** 400) == "a number too large" and len(shown("x" * 10_000)) <= 40 and shown("E") == "'E'"


HOSTILE_VALUES = ({}, [], [1], {"id": 7}, 10 ** 400, -10 ** 400, "x" * 300, None, -1, 1.5, float("nan"),
                  float("inf"), "SW", True, "9z9z9z", [{"kind": "pon"}], "\u200b", {"E": 10 ** 400})


def _paths(value, path=()):
    """Every place in a JSON value: (path to it)."""
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, path + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, path + (index,))


def _with(value, path, new):
    if not path:
        return new
    value = copy.deepcopy(value)
    holder = value
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = new
    return value


def test_any_value_anywhere_in_a_log_is_refused_in_words_or_read():
    """Every place of each example log (and a log with tiles), given each hostile value: the
    check answers a game or a LedgerError, never another exception."""
    import random
    from pathlib import Path
    examples = Path(__file__).resolve().parents[1] / "docs" / "examples"
    logs = [json.loads((examples / f"{n}.json").read_text())
            for n in ("riichi-game", "riichi-session", "chinese-game", "fundamentals-game")]
    big_three_dragons = {"type": "win", "winner": 0, "discarder": 2, "pao": 1,
                         "request": {"concealed": "123m55p", "win_tile": "5p", "melds": [
                             {"kind": "pon", "tiles": "555z", "from": "left"},
                             {"kind": "pon", "tiles": "666z", "from": "across"},
                             {"kind": "pon", "tiles": "777z", "from": "across"}]},
                         "result": {"ok": True, "yaku": [{"id": "daisangen", "han": 13}]}}
    logs.append(log_with(events=[{"type": "riichi", "seat": 3}, big_three_dragons]))
    check_log(logs[-1])                         # the tiles log itself is good
    rng = random.Random(25)
    tried = 0
    for log in logs:
        places = list(_paths(log))
        for path in places:
            for new in rng.sample(HOSTILE_VALUES, 6):
                try:
                    check_log(_with(log, path, new))
                except LedgerError as error:
                    assert len(error.message) < 400
                tried += 1
    assert tried > 1000
