"""Classical Chinese scoring (rule text 003): the scoring table, doubles, limit hands,
and the payments of a hand. Entry point: `score_hand(hand, options) -> response dict`."""
from .options import ChineseOptions, chinese_options
from .payments import hand_transfers
from .score import score_hand

__all__ = ["ChineseOptions", "chinese_options", "hand_transfers", "score_hand"]
