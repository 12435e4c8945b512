"""The one way a change reaches a session: checked by the ledger, committed, then broadcast."""
from __future__ import annotations

from dataclasses import dataclass

from webui.play import ledger
from webui.storage import store
from webui.play.live_updates import publish


@dataclass(frozen=True)
class Recorded:
    event: store.StoredEvent
    created: bool
    # the scoreboard state after the event, from the one replay that checked it; None when the
    # form was sent before (nothing new was recorded)
    snapshot: dict | None


def record(game_session: store.Session, body: dict, token: str | None) -> Recorded:
    """Store one event after the ledger accepts it, then tell every open scoreboard."""
    appended = store.append_event(game_session.id, body, token, ledger.checker(game_session), ledger.ended)
    if not appended.created:
        return Recorded(appended.event, False, None)
    snap = ledger.snapshot_of(game_session, appended.checked)
    ledger.keep_board(game_session, appended.event.id, snap)     # the lobby and the next page replay nothing
    publish(game_session.id, "state", snap)
    return Recorded(appended.event, True, snap)


def last_entry(game_session: store.Session) -> str | None:
    """What an undo would take back, in the player's words; None when nothing is recorded."""
    from webui.words.entries import entry_words
    from webui.words.i18n import hand_name

    live = store.events(game_session.id)
    if not live:
        return None
    last = ledger.snapshot(game_session).get("last")
    hand = hand_name(last["round_wind"], last["hand"], last.get("honba", 0)) if last else None
    return entry_words(live[-1].body, game_session.config["players"],
                       hand if live[-1].body.get("type") in ("win", "draw", "abortive_draw", "chombo") else None)


def undo(game_session: store.Session, token: str | None) -> store.StoredEvent | None:
    undone = store.undo_last(game_session.id, token)
    if undone is not None:
        publish(game_session.id, "state", ledger.snapshot(game_session))
    return undone


# A draw the table calls before any wall is played out; its reason names the rule.
ABORTIVE_REASONS = ("nine_terminals", "four_winds", "four_kans", "four_riichi", "triple_ron")


def draw_event(tenpai: list[int], nagashi_mangan: list[int]) -> dict:
    """An exhaustive draw; nagashi mangan only when someone made it, so plain draws read as before."""
    body = {"type": "draw", "tenpai": sorted(set(tenpai))}
    if nagashi_mangan:
        body["nagashi_mangan"] = sorted(set(nagashi_mangan))
    return body
