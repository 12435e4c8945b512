"""A game is its list of events; its state is their replay. `apply` takes one more event
(or raises LedgerError and changes nothing); undo is replaying all but the last."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ..errors import HandError
from ..tiles import WIND_LETTERS
from . import riichi_hands, simple_hands
from .config import GameConfig
from .errors import LedgerError, shown
from .riichi_end import end_game
from .state import GameState

Handler = Callable[[GameConfig, GameState, dict], GameState]


def _stop(config: GameConfig, state: GameState, event: dict) -> GameState:
    return end_game(config, state, str(event.get("reason") or "stopped by the players"))


_COMMON: dict[str, Handler] = {"correction": simple_hands.correction, "end": _stop}
HANDLERS: dict[str, dict[str, Handler]] = {
    "riichi": {"riichi": riichi_hands.declare_riichi, "win": riichi_hands.win, "draw": riichi_hands.draw,
               "abortive_draw": riichi_hands.abortive, "chombo": riichi_hands.chombo,
               "late_pon": riichi_hands.late_pon, **_COMMON},
    "fundamentals": {"win": simple_hands.fundamentals_win, "draw": simple_hands.fundamentals_draw, **_COMMON},
    "chinese-classical": {"win": simple_hands.chinese_win, "draw": simple_hands.chinese_draw, **_COMMON},
}
EVENT_TYPES = tuple(sorted({t for h in HANDLERS.values() for t in h}))


def new_game(config: GameConfig) -> GameState:
    return GameState.start(config.n, config.starting_points)


def apply(config: GameConfig, state: GameState, event: dict) -> GameState:
    """The state after one more event. Raises LedgerError for an event that cannot happen now."""
    if not isinstance(event, dict):
        raise LedgerError("bad_event", "an event is an object with a type, like {\"type\": \"riichi\", \"seat\": 2}")
    kind = event.get("type")
    handlers = HANDLERS[config.rules]
    if not isinstance(kind, str) or kind not in handlers:     # {} as a type is no key to look up
        known = ", ".join(handlers)
        raise LedgerError("bad_event", f"{config.rules} games have no event {shown(kind)}; the events are {known}")
    if state.finished:
        raise LedgerError("game_over", f"the game is over ({state.end_reason}); start a new one")
    try:
        after = handlers[kind](config, state, event)
    except LedgerError:
        raise
    except HandError as error:        # a scoring rule refused the values
        raise LedgerError(error.code, error.message) from None
    return replace(after, events=state.events + 1)


def replay(config: GameConfig, events: list[dict]) -> GameState:
    """The state after all events, from the first deal. An error names the event by number."""
    state = new_game(config)
    for number, event in enumerate(events, start=1):
        try:
            state = apply(config, state, event)
        except LedgerError as error:
            raise LedgerError(error.code, f"event {number}: {error.message}") from None
    return state


def undo(config: GameConfig, events: list[dict]) -> tuple[list[dict], GameState]:
    """Drop the last event: the shorter log and its state."""
    shorter = list(events[:-1])
    return shorter, replay(config, shorter)


def request_context(config: GameConfig, state: GameState, winner: int, discarder: int | None = None) -> dict:
    """The fields of a scorer request the ledger knows, for the hand `winner` just won."""
    winds = state.seat_winds
    context = {"rules": config.rules, "players": config.n, "seat_wind": winds[winner],
               "round_wind": WIND_LETTERS[state.round_wind % 4], "tsumo": discarder is None,
               "options": dict(config.options)}
    if discarder is not None:
        context["discarder"] = winds[discarder]
    if config.rules == "riichi":
        context.update(preset=config.preset, honba=state.honba, riichi_sticks=state.riichi_sticks,
                       riichi=state.riichi[winner])
    elif config.rules == "fundamentals":
        context["pool"] = state.pool
    return context
