"""When a riichi game ends: a player below zero (bust), the last hand played, the last
dealer stopping in the lead (agari-yame, tenpai-yame), the sudden-death extension; and what
happens to riichi sticks still on the table."""
from __future__ import annotations

from dataclasses import replace

from .config import GameConfig
from .hands import finish, next_deal, pay, record
from .state import RIICHI_STICK, GameState


def after_hand(config: GameConfig, state: GameState, kind: str, dealer_keeps: bool, honba: int) -> GameState:
    """Move to the next hand, or end the game if the hand just played ends it."""
    moved = next_deal(state, dealer_keeps, honba)
    reason = _end_reason(config, state, moved, kind, dealer_keeps)
    return end_game(config, moved, reason) if reason else moved


def _end_reason(config: GameConfig, played: GameState, moved: GameState, kind: str, dealer_keeps: bool) -> str:
    names, scores, table = config.players, played.scores, config.table
    if table.bust and min(scores) < 0:
        return f"{names[scores.index(min(scores))]} went below zero"
    if kind in ("chombo", "abortive_draw"):
        return ""
    last_round = config.rounds - 1
    extension = played.round_wind > last_round
    all_last = extension or (played.round_wind == last_round and played.hand == config.n - 1)
    target = config.return_points
    dealer = played.dealer
    if dealer_keeps:
        if not all_last:
            return ""
        stops = (kind == "win" and table.agari_yame) or (kind == "draw" and table.tenpai_yame)
        leading = played.placement()[0] == dealer
        if stops and leading and (not table.sudden_death or scores[dealer] >= target):
            return f"the last dealer, {names[dealer]}, stopped in the lead"
        return ""
    if extension:
        if max(scores) >= target:
            return f"{names[played.placement()[0]]} reached {target} in the extension"
        if moved.round_wind > last_round + 1:
            return "the extension round is over"
        return ""
    if moved.round_wind > last_round:
        if table.sudden_death and max(scores) < target:
            return ""          # nobody at the return points: sudden death in the next wind
        return "the last hand has been played"
    return ""


def end_game(config: GameConfig, state: GameState, reason: str) -> GameState:
    """Finish the game; riichi sticks left on the table go to first place where the rules say."""
    if state.riichi_sticks and config.table.leftover_sticks == "winner" and config.rules == "riichi":
        top = state.placement()[0]
        transfers = [{"from": "pot", "to": top, "points": state.riichi_sticks * RIICHI_STICK}]
        state = replace(state, hand_start=state.scores)
        state = pay(state, transfers)
        state = record(state, "leftover_sticks", transfers, {"to": top})
    return finish(state, reason)
