"""The one way a change reaches a session: checked by the ledger, committed, then broadcast."""
from __future__ import annotations

from . import game, store
from .live import publish


def record(game_session: store.Session, body: dict, token: str | None) -> tuple[store.StoredEvent, bool]:
    """Store one event after the ledger accepts it, then tell every open scoreboard."""
    stored, created = store.append_event(game_session.id, body, token, game.checker(game_session))
    if created:
        publish(game_session.id, "state", game.snapshot(game_session))
    return stored, created


def undo(game_session: store.Session, token: str | None) -> store.StoredEvent | None:
    undone = store.undo_last(game_session.id, token)
    if undone is not None:
        publish(game_session.id, "state", game.snapshot(game_session))
    return undone
