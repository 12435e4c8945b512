"""Riichi (Japanese) mahjong scoring: yaku, fu, dora, limits, payments, rule presets.

`score_hand(hand, rules)` scores a checked `WinningHand`; `rules_for(preset, options, players)`
builds the `Rules`. The game ledger uses `base_points` and `transfers` directly.
"""
from .engine import Result, score_hand
from .payments import base_points, hand_value, transfers
from .rules import PRESETS, Rules, rules_for

__all__ = ["PRESETS", "Result", "Rules", "base_points", "hand_value", "rules_for", "score_hand",
           "transfers"]
