"""A won hand given by its tiles, as the scorer reads it: the tiles and flags the players gave,
the situation (winds, honba, riichi sticks, who declared riichi) from the ledger's state.

The web app's record page and the log check (`log_check`) both build a win's request here, so
a hand typed on a phone and a hand in an imported log are scored alike, never trusted.
"""
from __future__ import annotations

from ..contract import score
from ..riichi.yaku import PAO_YAKUMAN
from .config import GameConfig
from .replay import request_context
from .state import GameState

# What a player says about a hand; the rest of a request (winds, honba, sticks, rules) is the
# ledger's to say.
HAND_FIELDS = ("concealed", "win_tile", "melds", "dora_indicators", "ura_indicators", "riichi",
               "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei", "tenhou",
               "chiihou", "renhou", "nagashi_mangan", "nukidora", "flowers", "pao")
# Classical Chinese: the losers' own counts, typed (by seat wind) or counted from their tiles.
CHINESE_FIELDS = ("other_counts", "other_hands")


def hand_fields(config: GameConfig) -> tuple[str, ...]:
    """The fields a player gives about a hand under the game's rules."""
    return HAND_FIELDS + CHINESE_FIELDS if config.rules == "chinese-classical" else HAND_FIELDS


def situation(config: GameConfig, state: GameState, winner: int, discarder: int | None) -> dict:
    """The parts of a scorer request the ledger knows: rules, winds, honba, sticks, riichi."""
    context = request_context(config, state, winner, discarder)
    if not context.get("options"):
        context.pop("options", None)
    if not context.get("riichi"):
        context.pop("riichi", None)
    context.pop("pool", None)        # the ledger's own bookkeeping, not a scorer field
    return context


def hand_request(config: GameConfig, state: GameState, hand: dict, winner: int, discarder: int | None,
                 takes_pot: bool = True, pao: int | None = None) -> dict:
    """A full scorer request for `winner`'s hand (`discarder` None: a tsumo). `pao` is the liable
    seat, written as its seat wind; `takes_pot` is false for a later winner of a double ron (no
    honba, no sticks)."""
    fields = hand_fields(config)
    request = {k: v for k, v in hand.items() if k in fields and k != "pao"}
    if pao is not None:
        request["pao"] = state.seat_winds[pao]
    request.update(situation(config, state, winner, discarder))
    if not takes_pot:
        request["takes_pot"] = False
    return request


def score_hand(config: GameConfig, state: GameState, hand: dict, winner: int, discarder: int | None,
               takes_pot: bool = True, pao: int | None = None) -> tuple[dict, dict]:
    """(the request, the scorer's answer) for a hand given by its tiles."""
    request = hand_request(config, state, hand, winner, discarder, takes_pot, pao)
    return request, score(request)


def covered_yakuman(result: dict) -> int:
    """How many of a scored hand's yakuman the liability covers (big three dragons, big four winds)."""
    return max(1, sum(y.get("han", 0) // 13 for y in result.get("yaku", []) if y.get("id") in PAO_YAKUMAN))
