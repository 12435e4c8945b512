"""What every rule set does at the end of a hand: move the points, log the hand, pass or
keep the deal. Transfers here are by seat index; the pot is "pot"."""
from __future__ import annotations

from dataclasses import replace

from .config import GameConfig
from .errors import LedgerError, shown
from ..tiles import WIND_LETTERS
from .state import RIICHI_STICK, GameState, HandRecord


def seat(config: GameConfig, value, what: str) -> int:
    """A seat index from an event, or a clear error naming the field."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < config.n:
        raise LedgerError("bad_event", f"{what} is a seat number from 0 to {config.n - 1} "
                                       f"(0 is {config.players[0]}), not {shown(value)}")
    return value


def seats(config: GameConfig, values, what: str) -> tuple[int, ...]:
    if values is None:
        return ()
    if not isinstance(values, list):
        raise LedgerError("bad_event", f"{what} is a list of seat numbers, like [0, 2]")
    found = tuple(seat(config, v, what) for v in values)
    if len(set(found)) != len(found):
        raise LedgerError("bad_event", f"{what} names a seat twice")
    return tuple(sorted(found))


def by_seat(state: GameState, transfers: list[dict]) -> list[dict]:
    """Seat-wind transfers (the scorer's) to seat-index transfers (the ledger's)."""
    def to_seat(name: str):
        return name if name == "pot" else state.seat_of(name)
    return [{"from": to_seat(t["from"]), "to": to_seat(t["to"]), "points": t["points"]} for t in transfers]


def pay(state: GameState, transfers: list[dict]) -> GameState:
    """Move points; from "pot" empties riichi sticks (1000 each) and then the pool."""
    scores = list(state.scores)
    sticks, pool = state.riichi_sticks, state.pool
    for t in transfers:
        if t["from"] == "pot":
            taken_sticks = min(sticks, t["points"] // RIICHI_STICK)
            sticks -= taken_sticks
            pool -= t["points"] - taken_sticks * RIICHI_STICK
        else:
            scores[t["from"]] -= t["points"]
        if t["to"] == "pot":
            pool += t["points"]
        else:
            scores[t["to"]] += t["points"]
    if pool < 0:
        raise LedgerError("bad_event", "the pot does not hold that many points")
    return replace(state, scores=tuple(scores), riichi_sticks=sticks, pool=pool)


def record(state: GameState, kind: str, transfers: list[dict], detail: dict) -> GameState:
    """Append this hand to the log, with its deltas since the hand began."""
    entry = HandRecord(
        number=len(state.hands) + 1, round_wind=WIND_LETTERS[state.round_wind % 4], hand=state.hand + 1,
        dealer=state.dealer, honba=state.honba, kind=kind,
        riichi=tuple(s for s, r in enumerate(state.riichi) if r),
        deltas=tuple(a - b for a, b in zip(state.scores, state.hand_start)),
        scores=state.scores, transfers=tuple(transfers),
        # the fines of the hand explain its deltas, as `riichi` explains the deposits
        detail={**detail, "late_pon": list(state.late_pons)} if state.late_pons else detail)
    return replace(state, hands=state.hands + (entry,))


def next_deal(state: GameState, dealer_keeps: bool, honba: int) -> GameState:
    """The next hand: the dealer stays (renchan) or the deal passes to the right; after the
    last seat has dealt, the prevailing wind moves on."""
    hand, round_wind = state.hand, state.round_wind
    if not dealer_keeps:
        hand += 1
        if hand == state.players:
            hand, round_wind = 0, round_wind + 1
    return replace(state, hand=hand, round_wind=round_wind, honba=honba,
                   riichi=(False,) * state.players, late_pons=(), hand_start=state.scores)


def finish(state: GameState, reason: str) -> GameState:
    return replace(state, finished=True, end_reason=reason, riichi=(False,) * state.players)
