"""`score(request) -> response`: the one entry point of the hand JSON contract.

The CLI, the web API and the camera pipeline all call this. It reads and checks the request
(`scorer/request.py`, `scorer/hand_checks.py`), hands the `WinningHand` to the rule set the request
names, and renders the result exactly as `shared/spec/hand-json.md` says. It never raises: a
request Tenbou cannot score comes back as `{"ok": false, "error": {"code", "message"}}`.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable, Final

from .errors import HandError
from .tally import tally_tiles
from .hand_checks import check_hand
from .request import Request, read_request
from .riichi import rules_for, score_hand
from .riichi.memo import Table
from .riichi.rules import red_fives_per_suit

# Dora-like yaku are one entry whose han is the count (the contract), however an engine lists them.
COUNTED_YAKU: Final = ("dora", "aka_dora", "ura_dora", "nukidora")


def score(request: object) -> dict:
    try:
        return _score(read_request(request))
    except HandError as error:
        return error.to_json()
    except Exception as error:  # noqa: BLE001 — the contract promises an answer, never a crash
        return HandError("internal_error", "Tenbou could not score this hand: this is a bug in Tenbou, "
                                           f"please report it with the hand ({type(error).__name__}: {error})"
                         ).to_json()


def _score(request: Request) -> dict:
    tally = tally_tiles(request.hand)       # counted once, for the checks and the riichi engine
    check_hand(request.hand, request.rules, tally,
               red_fives_per_suit(request.preset) if request.rules == "riichi" else 1)
    if request.rules == "riichi":
        return render_riichi(score_hand(request.hand, _riichi_rules(request), tally))
    entry = _rule_set_entry(request.rules)
    response = dict(entry(request.hand, request.options))
    response.setdefault("ok", True)
    return response


_RULES_SEEN: Final[dict] = Table()


def _riichi_rules(request: Request):
    """`rules_for`, remembered: a table scores hand after hand under the same few rule sets."""
    options = request.options
    # The values' types are part of the key: 1 == True, but only true is an option's value,
    # so {"kiriage": 1} must not find the rules of {"kiriage": true}.
    key = (request.preset, tuple(options.items()), tuple(map(type, options.values())), request.hand.players)
    try:
        rules = _RULES_SEEN.get(key)
    except TypeError:       # an option value that is a list or object: rules_for says what is wrong
        return rules_for(request.preset, options, request.hand.players)
    if rules is None:
        rules = rules_for(request.preset, request.options, request.hand.players)
        if len(_RULES_SEEN) < 4096:
            _RULES_SEEN[key] = rules
    return rules


def _rule_set_entry(rules: str) -> Callable[..., dict]:
    module_name = {"fundamentals": "fundamentals", "chinese-classical": "chinese"}[rules]
    try:
        module = importlib.import_module(f"{__package__}.{module_name}")
    except ModuleNotFoundError:
        module = None
    entry = getattr(module, "score_hand", None)
    if entry is None:
        raise HandError("unknown_rules", f"scoring by the {rules} rules is not available in this "
                                         "version of Tenbou yet")
    return entry


def render_riichi(result: Any) -> dict:
    """The contract's response for a riichi `Result` (see `scorer.riichi.score_hand`)."""
    return {
        "ok": True,
        "han": result.han,
        "fu": result.fu,
        "yakuman": result.yakuman,
        "yaku": [{"id": name, "han": han} for name, han in merge_counted(result.yaku)],
        "limit": result.limit,
        "fu_breakdown": [{"reason": reason, "fu": fu} for reason, fu in result.fu_breakdown],
        "points": result.points,
        "transfers": [t for t in result.transfers if t["points"]],    # made for this answer: not copied
    }


def merge_counted(yaku: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """One entry per dora kind with its count, in the place of its first entry; none at zero."""
    by_name = dict(yaku)
    if len(by_name) == len(yaku) and 0 not in by_name.values():
        return list(yaku)       # each yaku once and none at zero (the riichi engine's): as it is
    merged: list[list] = []
    place: dict[str, list] = {}
    for name, han in yaku:
        if name in COUNTED_YAKU and name in place:
            place[name][1] += han
            continue
        entry = [name, han]
        merged.append(entry)
        if name in COUNTED_YAKU:
            place[name] = entry
    return [(name, han) for name, han in merged if han or name not in COUNTED_YAKU]
