"""The ledgers of the Fundamentals rules (text 004) and the classical Chinese rules (text 003):
wins and draws, the deal, and the end of the game as each text says."""
from __future__ import annotations

from dataclasses import replace

from .. import fundamentals
from ..chinese.payments import hand_transfers
from ..limits import MOST_CHINESE_POINTS, MOST_HONBA, MOST_RIICHI_STICKS, MOST_SCORE
from ..tiles import WIND_LETTERS
from .config import GameConfig
from .errors import LedgerError, shown
from .hands import by_seat, finish, next_deal, pay, record, seat, seats
from .state import GameState


def _winner_and_discarder(config: GameConfig, event: dict) -> tuple[int, int | None]:
    if "winners" in event:
        raise LedgerError("bad_event", f"{config.rules} has one winner a hand: the first in turn from the discarder")
    winner = seat(config, event.get("winner"), "winner")
    discarder = event.get("discarder")
    if discarder is not None:
        discarder = seat(config, discarder, "discarder")
        if discarder == winner:
            raise LedgerError("bad_event", "a player cannot win on their own discard; leave out the discarder for a tsumo")
    return winner, discarder


def fundamentals_win(config: GameConfig, state: GameState, event: dict) -> GameState:
    winner, discarder = _winner_and_discarder(config, event)
    winds = state.seat_winds
    transfers = by_seat(state, fundamentals.win_transfers(
        winds[winner], discarder is None, winds[discarder] if discarder is not None else "",
        winds, state.pool))
    state = pay(state, transfers)
    state = record(state, "win", transfers, {"winner": winner, "discarder": discarder, "tsumo": discarder is None})
    return _fundamentals_next(state, winner == state.dealer)


def fundamentals_draw(config: GameConfig, state: GameState, event: dict) -> GameState:
    """Each player not ready puts 1 point into the pool, which the next winner takes."""
    ready = seats(config, event.get("tenpai", []), "tenpai")
    transfers = [{"from": s, "to": "pot", "points": fundamentals.NOT_READY_PAYS}
                 for s in range(config.n) if s not in ready]
    state = pay(state, transfers)
    state = record(state, "draw", transfers, {"tenpai": list(ready)})
    return _fundamentals_next(state, state.dealer in ready)


def _fundamentals_next(state: GameState, dealer_keeps: bool) -> GameState:
    moved = next_deal(state, dealer_keeps, 0)
    if not dealer_keeps and moved.hand == 0:
        return finish(moved, "the deal returned to the first dealer")
    return moved


def chinese_win(config: GameConfig, state: GameState, event: dict) -> GameState:
    """The winner's score (from `points` or the scorer's `result`), paid by each loser less
    the loser's own count (`other_counts`, by seat), East paying and taking double."""
    winner, discarder = _winner_and_discarder(config, event)
    result = event.get("result")
    if result is not None and (not isinstance(result, dict) or not result.get("ok", True)):
        raise LedgerError("bad_event", "result must be the scorer's response for a valid hand")
    points = (result or event).get("points")
    if isinstance(points, bool) or not isinstance(points, int) or not 0 < points <= MOST_CHINESE_POINTS:
        raise LedgerError("bad_event", "a classical Chinese win needs the winner's score as points (or the scored result)")
    counts = _other_counts(config, state, event, result, winner)
    opts = config.chinese_options()
    scored_limit = (result or {}).get("chinese", {}).get("limit", opts.limit)
    if scored_limit != opts.limit:
        raise LedgerError("bad_event", f"the hand was scored with a limit of {scored_limit}, but this game's "
                                       f"limit is {opts.limit}: score it again with the game's limit")
    _check_held_to_limit(points, opts.limit)
    transfers = by_seat(state, hand_transfers(points, state.seat_winds[winner], counts, opts.settlement, opts.limit))
    state = pay(state, transfers)
    state = record(state, "win", transfers, {"winner": winner, "discarder": discarder, "points": points,
                                             "other_counts": counts, "tsumo": discarder is None})
    return _chinese_next(config, state, winner == state.dealer)


def _check_held_to_limit(points: int, limit: int) -> None:
    """The text: "Set a limit to the maximum number of points that one player may have to pay
    to another on any given round". A hand is worth the limit at most, or twice it fully
    concealed (a limit hand won from the wall, a hand from heaven): any other score above the
    limit is a count not yet held to it. Refused, not held here: held, a count of 3000 would be
    paid less than a concealed limit hand's 2000, and the player knows which the hand was."""
    if limit < points != 2 * limit:
        raise LedgerError("bad_event", f"{points} points is over the limit of {limit}: a hand is paid "
                                       f"{limit} at most ({2 * limit} for a fully concealed limit hand or a "
                                       f"hand from heaven); record the score held to the limit")


def _other_counts(config, state, event, result, winner) -> dict[str, int]:
    """Losers' own counts by seat wind; the event names seats by number, a result by wind."""
    if "other_counts" in event:
        raw = event["other_counts"]
        if not isinstance(raw, dict):
            raise LedgerError("bad_event", "other_counts is an object of seat number and count, like {\"2\": 8}")
        counts = {}
        for key, value in raw.items():
            s = seat(config, int(key) if key in ("0", "1", "2", "3") else key, "other_counts seat")
            if s == winner or isinstance(value, bool) or not isinstance(value, int) \
                    or not 0 <= value <= MOST_CHINESE_POINTS:
                raise LedgerError("bad_event", "other_counts gives each loser's own count, a whole number")
            counts[state.seat_winds[s]] = value
        return counts
    if result:
        return dict(result.get("chinese", {}).get("other_counts", {}))
    return {}


def chinese_draw(config: GameConfig, state: GameState, event: dict) -> GameState:
    """Nobody pays. East did not win, so the winds move on (the text: "If East won ...
    he is East again next round. If not, then all the wind assignments rotate")."""
    state = record(state, "draw", [], {})
    return _chinese_next(config, state, False)


def _chinese_next(config: GameConfig, state: GameState, dealer_keeps: bool) -> GameState:
    moved = next_deal(state, dealer_keeps, 0)
    if moved.round_wind >= config.rounds:
        return finish(moved, "the prevailing wind has come round to East again" if config.rounds == 4
                      else "the last round has been played")
    return moved


# What a correction may set besides the scores, and the most of each a real table shows.
_CORRECTION_MOST = {"riichi_sticks": MOST_RIICHI_STICKS, "honba": MOST_HONBA, "pool": MOST_SCORE}


def correction(config: GameConfig, state: GameState, event: dict) -> GameState:
    """Set the scores (and optionally pot, honba) by hand, e.g. to take over a game mid-way."""
    scores = event.get("scores")
    if not isinstance(scores, list) or len(scores) != config.n or not all(
            isinstance(s, int) and not isinstance(s, bool) and abs(s) <= MOST_SCORE for s in scores):
        raise LedgerError("bad_event", f"a correction gives the scores of all {config.n} players, in seat order, "
                                       f"each a whole number from -{MOST_SCORE:,} to {MOST_SCORE:,}")
    changes = {"scores": tuple(scores)}
    for name in ("riichi_sticks", "honba", "pool"):
        if name in event:
            value = event[name]
            most = _CORRECTION_MOST[name]
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
                raise LedgerError("bad_event", f"{name} is a whole number from 0 to {most:,}, not {shown(value)}")
            changes[name] = value
    if "round_wind" in event:
        if event["round_wind"] not in ("E", "S", "W", "N"):
            raise LedgerError("bad_event", f"round_wind is E, S, W or N, not {shown(event['round_wind'])}")
        changes["round_wind"] = WIND_LETTERS.index(event["round_wind"])
    if "dealer" in event:
        changes["hand"] = seat(config, event["dealer"], "dealer")
    before = state.scores
    state = replace(state, **changes)
    entry_state = replace(state, hand_start=before)
    state = record(entry_state, "correction", [], {"note": str(event.get("note", ""))})
    return replace(state, hand_start=tuple(scores))
