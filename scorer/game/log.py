"""The game log that `tenbou settle` reads: one game or a session of games as JSON.

    {"config": {...}, "events": [...]}                          one game
    {"config": {...}, "games": [[...events...], [...]]}         a session, one set-up
    {"games": [{"config": {...}, "events": [...]}, ...]}        a session, a set-up per game

A game inside "games" may be a list of events or an object with "events" and its own
"config" (which then replaces the shared one). See docs/ledger.md.
"""
from __future__ import annotations

from .config import GameConfig
from .errors import LedgerError
from .replay import replay
from .state import GameState


def read_log(log: dict) -> list[tuple[GameConfig, GameState]]:
    """Every game of the log, replayed. Errors name the game and the event."""
    games = log_games(log)
    played = []
    for number, (raw, events) in enumerate(games, start=1):
        where = f"game {number}: " if len(games) > 1 else ""
        try:
            config = GameConfig.from_json(raw)
            played.append((config, replay(config, events)))
        except LedgerError as error:
            raise LedgerError(error.code, where + error.message) from None
    return played


def log_games(log: dict) -> list[tuple[object, list]]:
    """Every game of the log as written: (its set-up, its events), the log's shape checked."""
    if not isinstance(log, dict):
        raise LedgerError("bad_log", "a game log is an object with \"config\" and \"events\" (or \"games\")")
    shared = log.get("config")
    if "games" in log:
        games = log["games"]
        if not isinstance(games, list) or not games:
            raise LedgerError("bad_log", "\"games\" is a list of games, each a list of events or "
                                         "an object with \"events\"")
    elif "events" in log:
        games = [{"events": log["events"]}]
    else:
        raise LedgerError("bad_log", "the log has neither \"events\" (one game) nor \"games\" (a session)")
    found = []
    for number, game in enumerate(games, start=1):
        where = f"game {number}: " if len(games) > 1 else ""
        if isinstance(game, list):
            game = {"events": game}
        if not isinstance(game, dict) or not isinstance(game.get("events"), list):
            raise LedgerError("bad_log", f"{where}a game is a list of events or an object with \"events\"")
        raw = game.get("config", shared)
        if raw is None:
            raise LedgerError("bad_log", f"{where}there is no \"config\" saying the rules and the players")
        found.append((raw, game["events"]))
    return found
