"""The game log that `tenbou settle` reads: one game or a session of games as JSON.

    {"config": {...}, "events": [...]}                          one game
    {"config": {...}, "games": [[...events...], [...]]}         a session, one set-up
    {"games": [{"config": {...}, "events": [...]}, ...]}        a session, a set-up per game

A game inside "games" may be a list of events or an object with "events" and its own
"config" (which then replaces the shared one). See docs/ledger.md. A log comes from outside
the app, so it is checked as a typed hand is (`log_check`) before anything is replayed from it.
"""
from __future__ import annotations

from .config import GameConfig
from .errors import LedgerError
from .log_check import CheckedGame, check_game
from .state import GameState


def read_log(log: dict) -> list[tuple[GameConfig, GameState]]:
    """Every game of the log, checked and replayed. Errors name the game and the event."""
    return [(game.config, game.state) for game in check_log(log)]


def check_log(log: object) -> list[CheckedGame]:
    """Every game of the log checked as a typed hand is (`log_check`): bounded, its hands scored
    again, replayed; with the events to store. Errors name the game and the event."""
    games = log_games(log)
    checked = []
    for number, (raw, events) in enumerate(games, start=1):
        where = f"game {number}: " if len(games) > 1 else ""
        try:
            checked.append(check_game(raw, events))
        except LedgerError as error:
            raise LedgerError(error.code, _one_line(where + error.message)) from None
    return checked


def _one_line(message: str, longest: int = 300) -> str:
    """A refusal as one short line, whatever value of the log a rule's message quotes."""
    message = " ".join(message.split())
    return message if len(message) <= longest else message[:longest - 1] + "…"


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
