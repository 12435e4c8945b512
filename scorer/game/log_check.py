"""A game log from outside the app (`tenbou settle`, a club's import), checked as thoroughly as
a hand typed on a phone, so what it leaves stored can always be shown.

    checked = check_game(config_json, events)     # CheckedGame(config, state, events), or LedgerError

Each game's set-up and every event are held to `scorer.limits` (no 10**400 chips, no
chombo penalty of a googol points, names people can read), every event is rebuilt from the
fields its type has (nothing else of it is kept) and replayed through the ledger, and every win
given by its tiles is scored again from those tiles and the ledger's own situation: a log's
`result` and `request` are never kept as given. A win given by a `result` alone keeps its
numbers (han, fu, yakuman, the chips its yaku earn; a classical Chinese score and the losers'
counts), as if the players had typed them. `events` are the bodies to store. A whole log's games
are checked by `scorer.game.log.check_log`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .. import limits
from ..names import clean_name
from ..tiles import WIND_LETTERS
from .config import GameConfig
from .errors import LedgerError, shown
from .hand_request import covered_yakuman, hand_fields, score_hand
from .hands import seat
from .replay import HANDLERS, apply, new_game
from .riichi_hands import chips_of_result
from .state import GameState

# The fields each event type has besides its `type` (a win's are read apart, below).
_FIELDS = {"riichi": ("seat",), "late_pon": ("seat",), "chombo": ("seat",), "abortive_draw": ("reason",),
           "draw": ("tenpai", "nagashi_mangan"), "end": ("reason",),
           "correction": ("scores", "riichi_sticks", "honba", "pool", "round_wind", "dealer", "note")}
# The bound of each whole number an event may carry; a correction's scores go either way.
_MOST = {"riichi_sticks": limits.MOST_RIICHI_STICKS, "honba": limits.MOST_HONBA, "pool": limits.MOST_SCORE,
         "han": limits.MOST_HAN, "fu": limits.MOST_FU, "yakuman": limits.MOST_YAKUMAN,
         "pao_yakuman": limits.MOST_YAKUMAN, "chips": limits.MOST_CHIPS,
         "points": limits.MOST_CHINESE_POINTS, "nukidora": limits.MOST_NUKIDORA}
_TEXT_FIELDS = ("reason", "note")
# What a value of the wrong kind deep in a log makes the ledger or the scorer raise: said in
# words as the event's fault, never a traceback.
_WRONG_KIND = (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError, RecursionError)


@dataclass(frozen=True)
class CheckedGame:
    config: GameConfig
    state: GameState
    events: list[dict]      # rebuilt from what the log says happened: the bodies to store


def check_game(raw: object, events: list) -> CheckedGame:
    config = check_config(raw)
    if len(events) > limits.MOST_EVENTS:
        raise LedgerError("too_many_events", f"a game holds at most {limits.MOST_EVENTS:,} events")
    state = new_game(config)
    stored = []
    for number, event in enumerate(events, start=1):
        try:
            body = clean_event(config, state, event)
            state = apply(config, state, body)
            _check_state(state)
        except LedgerError as error:
            raise LedgerError(error.code, f"event {number}: {error.message}") from None
        except _WRONG_KIND:
            raise LedgerError("bad_event", f"event {number}: a value of the wrong kind "
                                           f"(see docs/ledger.md for each event's fields)") from None
        stored.append(body)
    return CheckedGame(config, state, stored)


# --- the set-up ----------------------------------------------------------------------------

def check_config(raw: object) -> GameConfig:
    """The game's set-up as the ledger reads it, held to what the new-session form allows."""
    try:
        config = GameConfig.from_json(raw)
    except LedgerError:
        raise
    except _WRONG_KIND:
        raise LedgerError("bad_config", "the set-up holds a value of the wrong kind "
                                        "(see docs/ledger.md for the config's fields)") from None
    for name in config.players:
        _, why = clean_name(name, limits.NAME_LENGTH)
        if why:
            raise LedgerError("bad_config", f"player {shown(name)}: {why}")
    unit = 1000 if config.rules == "riichi" else 1
    chips = config.chips
    checks = [("starting points", config.starting_points, limits.MOST_START),
              ("return points", config.return_points, limits.MOST_START),
              ("rate", config.rate, limits.MOST_RATE),
              ("rate_per", config.rate_per, limits.MOST_START),
              ("uma", max(abs(u) for u in config.uma), limits.MOST_UMA * unit),
              ("chip value", chips.value if chips else 0, limits.MOST_CHIP_VALUE),
              ("chips per yaku", max(chips.ippatsu, chips.ura, chips.aka, chips.yakuman) if chips else 0,
               limits.MOST_CHIP_SETTING)]
    if config.rules == "riichi":
        table = config.table
        checks += [("chombo_penalty", table.chombo_penalty, limits.MOST_TABLE_POINTS),
                   ("noten_total", table.noten_total, limits.MOST_TABLE_POINTS),
                   ("late_pon_penalty", table.late_pon_penalty, limits.MOST_TABLE_POINTS)]
    if config.rules == "chinese-classical":
        checks.append(("limit", config.chinese_options().limit, limits.MOST_CHINESE_LIMIT))
    for name, value, most in checks:
        if not isinstance(value, (int, float)) or not -math.inf < value < math.inf or abs(value) > most:
            raise LedgerError("bad_config", f"{name}: at most {most:,}")
    if len(config.currency) > limits.CURRENCY_LENGTH or isinstance(raw, dict) and not isinstance(
            raw.get("currency", ""), str):
        raise LedgerError("bad_config", f"currency: text of at most {limits.CURRENCY_LENGTH} characters, like \"EUR\"")
    return config


# --- events --------------------------------------------------------------------------------

def clean_event(config: GameConfig, state: GameState, event: object) -> dict:
    """The event rebuilt from the fields its type has, each number within bounds; a win's hands
    scored again. The ledger then replays it and says what else is wrong."""
    if not isinstance(event, dict):
        return event            # the ledger says what an event is
    kind = event.get("type")
    if not isinstance(kind, str) or kind not in HANDLERS[config.rules]:
        return {"type": kind}   # the ledger names the events there are
    if kind == "win":
        return _clean_win(config, state, event)
    body = {"type": kind}
    for name in _FIELDS[kind]:
        if name in event:
            body[name] = _bounded(name, event[name])
    if kind == "correction" and isinstance(body.get("scores"), list):
        for value in body["scores"]:
            _whole(value, "scores", limits.MOST_SCORE, least=-limits.MOST_SCORE)
    return body


def _clean_win(config: GameConfig, state: GameState, event: dict) -> dict:
    body: dict = {"type": "win"}
    discarder = event.get("discarder")
    if discarder is not None:
        discarder = seat(config, discarder, "discarder")
    body["discarder"] = discarder
    if "winners" not in event:
        body.update(_clean_entry(config, state, event, discarder, takes_pot=True))
        return body
    entries = event["winners"]
    if config.rules != "riichi":
        raise LedgerError("bad_event", f"{config.rules} has one winner a hand: the first in turn from the discarder")
    if not isinstance(entries, list) or not 1 <= len(entries) < config.n:
        raise LedgerError("bad_event", f"winners is a list of 1 to {config.n - 1} wins, like "
                                       "[{\"winner\": 1, \"han\": 2, \"fu\": 30}]")
    winners = [seat(config, e.get("winner") if isinstance(e, dict) else None, "winner") for e in entries]
    first = min(winners, key=lambda w: (w - (discarder or 0)) % config.n)
    body["winners"] = [_clean_entry(config, state, e, discarder, takes_pot=w == first)
                       for w, e in zip(winners, entries)]
    return body


def _clean_entry(config: GameConfig, state: GameState, e: dict, discarder: int | None, takes_pot: bool) -> dict:
    """One winner's fields: the hand scored again from its tiles, or the numbers given."""
    winner = seat(config, e.get("winner"), "winner")
    entry: dict = {"winner": winner}
    if config.rules == "fundamentals":
        return entry            # every Fundamentals win pays alike
    request, result = e.get("request"), e.get("result")
    if request is not None:
        entry.update(_rescored(config, state, e, request, winner, discarder, takes_pot))
    elif result is not None:
        entry.update(_numbers_of_result(config, state, result, winner))
    names = ("han", "fu", "yakuman", "pao", "pao_yakuman", "chips") if config.rules == "riichi" \
        else ("points", "other_counts")
    for name in names:
        if name in e and name not in entry and not (request is not None and name in ("han", "fu", "yakuman")):
            entry[name] = _bounded(name, e[name])
    if config.rules == "chinese-classical" and isinstance(entry.get("other_counts"), dict):
        for count in entry["other_counts"].values():
            _whole(count, "other_counts", limits.MOST_CHINESE_POINTS)
    return entry


def _rescored(config: GameConfig, state: GameState, e: dict, request: object, winner: int,
              discarder: int | None, takes_pot: bool) -> dict:
    """A hand given by its tiles, scored again as the record page scores a typed one."""
    if not isinstance(request, dict):
        raise LedgerError("bad_event", "request is the hand as the scorer reads it: an object with "
                                       "concealed, win_tile, melds, ...")
    hand = {k: v for k, v in request.items() if k in hand_fields(config)}
    if "nukidora" in hand:
        _whole(hand["nukidora"], "nukidora", limits.MOST_NUKIDORA)
    counts = hand.get("other_counts")
    if isinstance(counts, dict):
        if len(counts) > 4:
            raise LedgerError("bad_event", "other_counts gives each loser's own count")
        for count in counts.values():
            _whole(count, "other_counts", limits.MOST_CHINESE_POINTS)
    pao = e.get("pao")
    if pao is None and hand.get("pao") not in (None, ""):       # the request names a seat wind
        wind = hand["pao"]
        if wind not in tuple(WIND_LETTERS[:config.n]):      # a letter, not "SW" of "ESWN"
            raise LedgerError("bad_event", f"pao is a seat wind ({', '.join(WIND_LETTERS[:config.n])}), "
                                           f"not {shown(wind)}")
        pao = state.seat_of(wind)
    if pao is not None and config.rules == "riichi":
        pao = seat(config, pao, "pao")
    else:
        pao = None
    request, result = score_hand(config, state, hand, winner, discarder, takes_pot, pao)
    if not result.get("ok"):
        error = result.get("error") or {}
        raise LedgerError(error.get("code", "bad_hand"), f"{config.players[winner]}'s hand: "
                                                         f"{error.get('message', 'the hand does not score')}")
    entry = {"result": result, "request": request}
    if pao is not None:
        entry.update(pao=pao, pao_yakuman=covered_yakuman(result))
    return entry


def _numbers_of_result(config: GameConfig, state: GameState, result: object, winner: int) -> dict:
    """A win given by the scorer's response alone: its numbers, as if typed."""
    if not isinstance(result, dict) or result.get("ok", True) is not True:
        raise LedgerError("bad_event", "result must be the scorer's response for a valid hand")
    if config.rules == "chinese-classical":
        entry = {"points": _whole(result.get("points"), "points", limits.MOST_CHINESE_POINTS, least=1)}
        chinese = result.get("chinese", {})
        if not isinstance(chinese, dict):
            raise LedgerError("bad_event", "result must be the scorer's response for a valid hand")
        limit = chinese.get("limit", config.chinese_options().limit)
        if limit != config.chinese_options().limit:
            raise LedgerError("bad_event", f"the hand was scored with a limit of {shown(limit)}, but this "
                                           f"game's limit is {config.chinese_options().limit}: score it again "
                                           "with the game's limit")
        counts = chinese.get("other_counts", {})
        if not isinstance(counts, dict):
            raise LedgerError("bad_event", "other_counts is an object of seat wind and count")
        by_seat = {}
        for wind, count in counts.items():
            if wind not in tuple(WIND_LETTERS[:config.n]):
                raise LedgerError("bad_event", f"other_counts names the losers by seat wind, not {shown(wind)}")
            by_seat[str(state.seat_of(wind))] = _whole(count, "other_counts", limits.MOST_CHINESE_POINTS)
        if by_seat:
            entry["other_counts"] = by_seat
        return entry
    entry = {name: _whole(result.get(name, 0), name, _MOST[name]) for name in ("han", "fu", "yakuman")}
    if config.chips is not None:
        entry["chips"] = _whole(chips_of_result(config, result), "chips", limits.MOST_CHIPS)
    return entry


# --- numbers and text ----------------------------------------------------------------------

def _bounded(name: str, value: object) -> object:
    """A field's value with its bound held; a value of another kind is left for the ledger to
    refuse in its words (a seat, a list of seats, a wind)."""
    if name in _MOST and isinstance(value, int) and not isinstance(value, bool):
        _whole(value, name, _MOST[name])
    if name in _TEXT_FIELDS and not (isinstance(value, str) and len(value) <= limits.NOTE_LENGTH):
        raise LedgerError("bad_event", f"{name}: text of at most {limits.NOTE_LENGTH} characters")
    if name == "other_counts" and isinstance(value, dict) and len(value) > 4:
        raise LedgerError("bad_event", "other_counts gives each loser's own count")
    return value


def _whole(value: object, name: str, most: int, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        where = f"from {least:,} to {most:,}" if least else f"from 0 to {most:,}"
        raise LedgerError("bad_event", f"{name} is a whole number {where}, not {shown(value)}")
    return value


def _check_state(state: GameState) -> None:
    """The game after an event stays what a real table can show (a deep debt, not a googol)."""
    if any(abs(s) > limits.MOST_SCORE for s in state.scores) or state.pool > limits.MOST_SCORE:
        raise LedgerError("bad_event", f"a score past {limits.MOST_SCORE:,} points is no real game's")
