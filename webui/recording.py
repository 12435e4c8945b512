"""The one way a change reaches a session: checked by the ledger, committed, then broadcast."""
from __future__ import annotations

from dataclasses import dataclass

from . import game, store
from .live import publish


@dataclass(frozen=True)
class Recorded:
    event: store.StoredEvent
    created: bool
    # the scoreboard state after the event, from the one replay that checked it; None when the
    # form was sent before (nothing new was recorded)
    snapshot: dict | None


def record(game_session: store.Session, body: dict, token: str | None) -> Recorded:
    """Store one event after the ledger accepts it, then tell every open scoreboard."""
    appended = store.append_event(game_session.id, body, token, game.checker(game_session), game.ended)
    if not appended.created:
        return Recorded(appended.event, False, None)
    snap = game.snapshot_of(game_session, appended.checked)
    publish(game_session.id, "state", snap)
    return Recorded(appended.event, True, snap)


def undo(game_session: store.Session, token: str | None) -> store.StoredEvent | None:
    undone = store.undo_last(game_session.id, token)
    if undone is not None:
        publish(game_session.id, "state", game.snapshot(game_session))
    return undone
