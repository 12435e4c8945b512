"""The web app's view of a game: the ledger (`scorer.game`) over the stored events.

Nothing here keeps state between requests: every call replays the session's live events,
so what a page shows is always what the database holds.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask, current_app

from scorer import game as ledger
from scorer.chinese.options import SETTLEMENTS
from scorer.game.config import DEFAULT_LENGTH, LENGTHS as GAME_LENGTHS
from scorer.game.hand_request import hand_fields, situation
from scorer.game.table_rules import preset_scoring
from scorer import score as score_request   # the hand contract: request in, response out
from scorer.tiles import WIND_LETTERS

from webui.guard import limits
from webui.play import all_last, kept_boards
from webui.storage import store
from webui.storage.db import get_db
from webui.guard.errors import PlayerError
from webui.guard.forms import choice, integer, integer_list, number, person_name

PRESETS = {"riichi": ("tenhou", "mahjongsoul", "wrc", "ema", "mleague", "book"),
           "fundamentals": ("",), "chinese-classical": ("",)}
LENGTHS = tuple(GAME_LENGTHS)
# Classical Chinese is a four-player game (text 003); riichi and Fundamentals take three too.
PLAYERS_BY_RULES = {"riichi": [3, 4], "fundamentals": [3, 4], "chinese-classical": [4]}


@dataclass(frozen=True)
class Game:
    session: store.Session
    config: object
    state: object
    events: list[store.StoredEvent]

    @property
    def state_json(self) -> dict:
        return self.state.to_json()

    @property
    def through_event(self) -> int:
        """The newest live event's id (0: none): which events this replay was of."""
        return self.events[-1].id if self.events else 0


def _ledger_error(err: Exception) -> PlayerError:
    code = getattr(err, "code", "bad_event")
    return PlayerError(422, "bad_event", getattr(err, "message", str(err)), code=code)


def _config(game_session: store.Session):
    try:
        return ledger.GameConfig.from_json(game_session.config)
    except ledger.LedgerError as err:   # a set-up stored before a bound it breaks (issue 25): said, not a 500
        raise _ledger_error(err) from None


def load(game_session: store.Session) -> Game:
    config = _config(game_session)
    live = store.events(game_session.id)
    try:
        state = ledger.replay(config, [e.body for e in live])
    except ledger.LedgerError as err:   # stored events always replayed once; a newer ledger may differ
        raise _ledger_error(err) from None
    return Game(game_session, config, state, live)


def checker(game_session: store.Session):
    """The check `store.append_event` runs inside its transaction. It answers the ledger's state
    after the events, so whoever records an event needs no second replay to show it."""
    config = _config(game_session)

    def check(bodies: list[dict]):
        if len(bodies) > limits.MOST_EVENTS:
            raise PlayerError(422, "bad_event", f"a session holds at most {limits.MOST_EVENTS:,} events: "
                                                "start a new session for the next game", code="too_many_events")
        try:
            return ledger.replay(config, bodies)
        except (ledger.LedgerError, ValueError) as err:
            raise _ledger_error(err) from None
    return check


def ended(ledger_state) -> bool:
    """Whether the game of a replayed state is over (its join code then opens it no more)."""
    return bool(ledger_state.finished)


def has_ended(game_session: store.Session) -> bool:
    """Whether the session's game is over: stored with its last event, or found by a replay
    (sessions stored before that was kept, and after an undo) and stored for next time."""
    if game_session.ended is not None:
        return game_session.ended
    try:
        current = load(game_session)
    except PlayerError:       # events a newer ledger refuses: the players can still undo them
        return False
    finished = ended(current.state)
    if not store.set_ended(game_session.id, finished, current.through_event):
        # an event was recorded or undone since this replay, and said itself (an `end` stores
        # "ended"): its answer, not this stale one
        now = store.get_session(game_session.id)
        if now is not None and now.ended is not None:
            return now.ended
    return finished


def config_from_form(form) -> dict:
    """The ledger's set-up from the new-session form (or a JSON body read the same way), every
    number within what a real game holds (`limits`). Each rule set reads its own fields; a
    points or uma field left empty takes the rules' own value (the preset's, for three players
    its three-player one), so leaving seat 4 empty needs nothing else changed."""
    names = [person_name(form.get(f"player{i}"), f"player {i + 1}") for i in range(max(limits.PLAYERS))]
    names = [n for n in names if n]
    if len(names) not in limits.PLAYERS:
        raise PlayerError(400, "bad_field", "players: three or four names are needed")
    rules = choice(form.get("rules"), "rules", tuple(PRESETS), "riichi")
    raw = {"rules": rules, "players": names,
           "rate": number(form.get("rate", 0) or 0, "rate", 0, limits.MOST_RATE)}
    if rules == "riichi":
        raw.update(_riichi_fields(form, len(names)))
    elif rules == "chinese-classical":
        # the text plays all four winds and names its limit; Fundamentals fixes everything
        raw.update({
            "length": choice(form.get("length"), "length", LENGTHS, DEFAULT_LENGTH[rules]),
            "options": {"limit": integer(form.get("limit") or 1000, "limit", 1, limits.MOST_CHINESE_LIMIT),
                        "settlement": choice(form.get("settlement"), "settlement", SETTLEMENTS, "difference")},
        })
    try:
        return ledger.GameConfig.from_json(raw).to_json()
    except (ValueError, TypeError, KeyError) as err:
        raise PlayerError(400, "bad_config", getattr(err, "message", str(err)),
                          code=getattr(err, "code", "bad_config")) from None


def _riichi_fields(form, players: int) -> dict:
    preset = choice(form.get("preset"), "preset", PRESETS["riichi"], "tenhou")
    start, back, uma = preset_scoring(preset, players)
    fields = {
        "preset": preset,
        "length": choice(form.get("length"), "length", LENGTHS, DEFAULT_LENGTH["riichi"]),
        "starting_points": integer(_given(form, "starting_points", start), "starting points", 0, limits.MOST_START),
        "return_points": integer(_given(form, "return_points", back), "return points", 0, limits.MOST_START),
        "uma": _uma_field(_given(form, "uma", ",".join(str(u // 1000) for u in uma)), players),
    }
    if fields["return_points"] < fields["starting_points"]:
        # the oka (return less start, from each player) goes to the winner; below the start it
        # would be taken from the winner, which no table plays
        raise PlayerError(400, "bad_field", f"return points: {fields['return_points']:,} is below the starting "
                                            f"points ({fields['starting_points']:,}); return points are at least "
                                            "the starting points (equal: no oka)")
    # chips pay riichi's ippatsu, ura dora, red fives and yakuman: the other rules have none
    chip_value = number(form.get("chip_value", 0) or 0, "chip value", 0, limits.MOST_CHIP_VALUE)
    if chip_value:
        fields["chips"] = {"value": chip_value}
    return fields


def _uma_field(text, players: int) -> list[int]:
    """Uma in thousands by placement, "20,10,-10,-20", or by the name logs use for it ("10-20":
    +20, +10, -10, -20), for four players."""
    named = ledger.config.UMA_NAMES.get(str(text).strip().replace(" ", ""))
    if named is not None:
        if players != 4:
            raise PlayerError(400, "bad_field", f"uma: {str(text).strip()} names four players' uma; "
                                                f"give {players} numbers, like 15,0,-15")
        return list(named)
    return [integer(u, "uma", -limits.MOST_UMA, limits.MOST_UMA) for u in integer_list(text, "uma", players)]


def _given(form, name: str, default):
    """A field's value, or `default` when it is absent or left empty."""
    value = form.get(name)
    return default if value is None or str(value).strip() == "" else value


def form_defaults() -> dict:
    """What the new-session form fills in for each rule set and preset, by player count: the
    page's script reads it (a JSON block) to follow the player's choices."""
    riichi = {preset: {str(n): dict(zip(("starting_points", "return_points", "uma"),
                                        (*preset_scoring(preset, n)[:2],
                                         ",".join(str(u // 1000) for u in preset_scoring(preset, n)[2]))))
                       for n in limits.PLAYERS}
              for preset in PRESETS["riichi"]}
    return {"riichi": riichi, "length": dict(DEFAULT_LENGTH), "players": dict(PLAYERS_BY_RULES)}


def snapshot(game_session: store.Session, through_event: int | None = None) -> dict:
    """Everything a scoreboard draws, as plain JSON (the SSE payload and the API's state): kept
    per version of the live events (`kept_boards`), replayed only when they changed.
    `through_event`: the newest live event's id, where the caller has read it already."""
    if not kept_boards.on():
        return snapshot_of(game_session, load(game_session).state)
    if through_event is None:
        through_event = store.live_version(get_db(), game_session.id)[0]
    kept = kept_boards.boards().find(game_session.id, kept_boards.version_key(game_session, through_event))
    if kept is not None:
        return dict(kept)
    current = load(game_session)
    snap = snapshot_of(game_session, current.state)
    keep_board(game_session, current.through_event, snap)
    return snap


def keep_board(game_session: store.Session, through_event: int, snap: dict) -> None:
    """Keep a scoreboard worked out from the live events up to `through_event` (a replay's, or
    the one the recording of that event checked)."""
    if kept_boards.on():
        kept_boards.boards().keep(game_session.id, kept_boards.version_key(game_session, through_event), dict(snap))


def snapshot_of(game_session: store.Session, ledger_state) -> dict:
    """The scoreboard's JSON of a ledger state already replayed (its `events` is how many)."""
    state = ledger_state.to_json()
    players = list(game_session.config["players"])
    hands = state.get("hands", [])
    return {
        "id": game_session.id,
        "title": game_session.title,
        "rules": game_session.config.get("rules", "riichi"),
        "players": players,
        "scores": state["scores"],
        "round_wind": state.get("round_wind", "E"),
        "hand_number": state.get("hand", 1),
        "dealer": state.get("dealer", 0),
        "seat_winds": state.get("seat_winds", list(WIND_LETTERS[:len(players)])),
        "honba": state.get("honba", 0),
        "riichi_sticks": state.get("riichi_sticks", 0),
        "pool": state.get("pool", 0),              # Fundamentals: the points of the draws, for the next winner
        "riichi": state.get("riichi", [False] * len(players)),
        "finished": bool(state.get("finished", False)),
        "events": ledger_state.events,
        "last": hands[-1] if hands else None,
        "hands": len(hands),
        # a correction is logged like a hand but deals none: what is being entered still applies
        "hands_dealt": sum(1 for h in hands if h.get("kind") != "correction"),
        # the last hand of a riichi game: what each player needs (webui/play/all_last.py)
        "all_last": all_last.view(game_session.config, ledger_state),
    }


def hand_request(current: Game, hand: dict, winner: int, discarder: int | None, tsumo: bool,
                 takes_pot: bool = True) -> dict:
    """A full scorer request: the tiles and flags the player gave (the fields and the situation
    as scorer/game/hand_request.py has them; `pao` as the player gave it, a seat wind).
    `takes_pot` is false for a later winner of a double ron (no honba, no sticks)."""
    allowed = hand_fields(current.config)
    request = {k: v for k, v in hand.items() if k in allowed}
    request.update(situation(current.config, current.state, winner, None if tsumo else discarder))
    if not takes_pot:
        request["takes_pot"] = False
    return request


def score_hand(current: Game, hand: dict, winner: int, discarder: int | None, tsumo: bool,
               takes_pot: bool = True) -> tuple[dict, dict]:
    request = hand_request(current, hand, winner, discarder, tsumo, takes_pot)
    return request, score_request(request)


def late_pon_penalty(game_session: store.Session) -> int:
    """Points a late pon puts in the pot where the table rules fine it (the book: 1000), else 0."""
    config = _config(game_session)
    return config.table.late_pon_penalty if config.rules == "riichi" else 0


def plays_nagashi_mangan(game_session: store.Session) -> bool:
    """Whether the draw form offers nagashi mangan: riichi rules whose preset plays it."""
    config = _config(game_session)
    return config.rules == "riichi" and bool(config.riichi_rules().nagashi_mangan)


def settlement(game_session: store.Session) -> dict:
    """The ledger's settlement sheet, plus the log and start scores the page draws."""
    from scorer.settlement import settle

    current = load(game_session)
    sheet = settle(current.config, [current.state]).to_json()
    state = current.state_json
    config = current.config
    return {"sheet": sheet, "game": sheet["games"][0], "hands": state["hands"],
            "start": [config.starting_points] * config.n,
            "players": list(config.players), "finished": state["finished"],
            "config": game_session.config,
            # the columns the page and the PDF draw: uma and oka only where the rules (or the
            # players' settings) have them; Fundamentals and classical Chinese settle points alone
            "columns": {"uma": any(config.uma), "oka": config.return_points != config.starting_points,
                        "chips": bool(config.chips)},
            "through_event": current.through_event}


def scan_available() -> bool:
    """Whether the record page offers the photo path: a recogniser is configured, or the
    camera pipeline and its model file are installed."""
    if current_app.config.get("SCAN") is not None:
        return True
    try:
        from vision import scan  # noqa: F401 — importable is part of "installed"
        from vision.classify import MODEL_NAME
        from models import model_path
    except ImportError:
        return False
    return model_path(MODEL_NAME).exists()


def state_reader(app: Flask) -> Callable[[str], tuple[str, str] | None]:
    """A session's scoreboard state now as a live frame, for the pages another server's change
    reaches here (PostgreSQL: webui/storage/notifier.py)."""
    def read(topic: str) -> tuple[str, str] | None:
        with app.app_context():
            found = store.get_session(topic)
            return None if found is None else ("state", json.dumps(snapshot(found), separators=(",", ":")))
    return read
