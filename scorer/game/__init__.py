"""The game ledger: a game is an append-only list of events; its state is their replay.

    config = GameConfig.from_json({...})
    state = replay(config, events)          # or apply(config, state, event) one at a time
    sheet = settle(config, [state, ...])    # scorer.settlement

See docs/ledger.md for the config, the events and the state.
"""
from .config import Chips, GameConfig
from .errors import LedgerError
from .replay import EVENT_TYPES, apply, new_game, replay, request_context, undo
from .state import GameState, HandRecord
from .table_rules import TABLE_PRESETS, TableRules

__all__ = ["Chips", "GameConfig", "LedgerError", "EVENT_TYPES", "apply", "new_game", "replay",
           "request_context", "undo", "GameState", "HandRecord", "TABLE_PRESETS", "TableRules"]
