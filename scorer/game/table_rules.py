"""Table rules of a riichi game that are not hand scoring: what a double ron pays, when
riichi is refused, when the game ends, what a chombo costs. One named preset per riichi
preset; single options override them (docs/ledger.md gives the reasons for each value).
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace

from ..limits import MOST_TABLE_POINTS
from .errors import LedgerError, shown
from .state import RIICHI_STICK


@dataclass(frozen=True)
class TableRules:
    double_ron: bool = True             # two winners on one discard both win; false: head bump
    triple_ron: str = "abort"           # "abort" (abortive draw), "all" win, or "head_bump"
    riichi_needs_1000: bool = True      # riichi is refused to a player below 1000 points
    bust: bool = True                   # the game ends when a player goes below zero
    agari_yame: bool = True             # the last dealer winning in the lead ends the game
    tenpai_yame: bool = False           # ... and so does the last dealer ready at a draw
    sudden_death: bool = True           # nobody at the return points after the last hand: play on
    leftover_sticks: str = "winner"     # riichi sticks left at the end: "winner" (first place) or "lost"
    abortive_draws: bool = True         # nine terminals, four winds, four riichi, four kans
    chombo: str = "reverse_mangan"      # "reverse_mangan" paid at the table, or "penalty" at the settlement
    chombo_penalty: int = 20000         # points off the final score where chombo is "penalty"
    noten_total: int = 0                # noten payments at a draw; 0: 3000 (4 players), 2000 (3)
    late_pon_penalty: int = 0           # points to the pot for a pon declared too late; 0: no such event


_CHOICES: dict[str, tuple | type] = {
    "double_ron": bool, "triple_ron": ("abort", "all", "head_bump"), "riichi_needs_1000": bool,
    "bust": bool, "agari_yame": bool, "tenpai_yame": bool, "sudden_death": bool,
    "leftover_sticks": ("winner", "lost"), "abortive_draws": bool,
    "chombo": ("reverse_mangan", "penalty"), "chombo_penalty": int, "noten_total": int,
    "late_pon_penalty": int,
}
TABLE_OPTIONS = tuple(_CHOICES)
_IN_STICKS = ("late_pon_penalty",)      # paid to the pot, which holds 1000-point sticks

_TOURNAMENT = {"double_ron": False, "triple_ron": "head_bump", "bust": False, "agari_yame": False,
               "sudden_death": False, "abortive_draws": False, "chombo": "penalty"}
_PRESET_CHANGES: dict[str, dict] = {
    "tenhou": {},
    "mahjongsoul": {"tenpai_yame": True},
    "wrc": dict(_TOURNAMENT),
    "ema": dict(_TOURNAMENT),
    "mleague": dict(_TOURNAMENT, abortive_draws=True),
    # The book: "you don't declare it until it comes around to your turn ... you'll have to pay
    # 1,000 points to the pot for not paying attention!"
    "book": {"sudden_death": False, "late_pon_penalty": 1000},
}
TABLE_PRESETS = {name: replace(TableRules(), **changes) for name, changes in _PRESET_CHANGES.items()}

# Starting points, return points and uma (in points, by placement) per preset, 4 players.
_SCORING = {
    "tenhou": (25000, 30000, (20000, 10000, -10000, -20000)),
    "mahjongsoul": (25000, 30000, (15000, 5000, -5000, -15000)),
    "wrc": (30000, 30000, (15000, 5000, -5000, -15000)),
    "ema": (30000, 30000, (15000, 5000, -5000, -15000)),
    "mleague": (25000, 30000, (30000, 10000, -10000, -30000)),
    # The book: "Each player starts with 30,000 points ... If you want to have a bonus for the
    # winner of the game (like an ante), start with 25,000 points": return points 30000 either
    # way, so the ante (starting_points 25000) is the oka. Its uma is not in our copy: Tenbou's.
    "book": (30000, 30000, (20000, 10000, -10000, -20000)),
}
THREE_PLAYER_SCORING = (35000, 40000, (15000, 0, -15000))


def preset_scoring(preset: str, players: int) -> tuple[int, int, tuple[int, ...]]:
    return THREE_PLAYER_SCORING if players == 3 else _SCORING[preset]


def table_rules(preset: str, overrides: dict) -> TableRules:
    changes = {}
    for name, value in overrides.items():
        kind = _CHOICES[name]
        if kind is bool and not isinstance(value, bool):
            raise LedgerError("bad_option", f"the option {name} is true or false, not {shown(value)}")
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)
                            or not 0 <= value <= MOST_TABLE_POINTS):
            raise LedgerError("bad_option", f"the option {name} is a number of points from 0 to "
                                            f"{MOST_TABLE_POINTS:,}, not {shown(value)}")
        if name in _IN_STICKS and value % RIICHI_STICK:
            raise LedgerError("bad_option", f"the option {name} goes on the table in 1000-point sticks, "
                                            f"so it is a multiple of 1000, not {shown(value)}")
        if isinstance(kind, tuple) and value not in kind:
            raise LedgerError("bad_option", f"the option {name} is one of {', '.join(kind)}, not {shown(value)}")
        changes[name] = value
    return replace(TABLE_PRESETS[preset], **changes)


def describe(rules: TableRules) -> dict:
    return {f.name: getattr(rules, f.name) for f in fields(rules)}
