"""The JSON API behind the pages. `POST /api/score` takes the hand contract as it is; the
session routes fill a hand's situation (winds, honba, riichi sticks) from the ledger."""
from __future__ import annotations

from flask import Blueprint, jsonify, request, url_for

from webui.play import ledger, wins
from webui.guard import limits
from webui.storage import store
from webui.guard.errors import PlayerError, in_page_language, summary
from webui.words.i18n import t
from webui.guard.forms import correction_scores, hand_counts, json_body, seat, text
from webui.play.automatic_table import refuse_table_for
from webui.play.photos import scan_photo
from webui.play.recording import ABORTIVE_REASONS, draw_event, record, undo
from webui.guard.headers import NOT_KEPT
from webui.guard.request_text import unkeepable
from webui.play.security import check_creation, check_csrf, csrf_token, grant, require_change

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.post("/score")
def score():
    result = ledger.score_request(hand_counts(json_body()))
    return jsonify(result), (200 if result.get("ok") else 422)


@bp.get("/csrf")
def csrf():
    return jsonify({"csrf_token": csrf_token()})


@bp.post("/sessions")
def create_session():
    check_csrf()        # always: a join code names a session, and none exists yet
    body = json_body()
    players = body.get("players")
    if not isinstance(players, list) or len(players) not in limits.PLAYERS:
        raise PlayerError(400, "bad_field", "players: a list of three or four names")
    form = {k: v for k, v in body.items() if not k.startswith("player")}
    form.update({f"player{i}": name for i, name in enumerate(players)})
    if isinstance(body.get("uma"), list):
        form["uma"] = ",".join(str(u) for u in body["uma"])
    config = ledger.config_from_form(_Form(form))
    title = text(body.get("title"), "title", limits.TITLE_LENGTH)
    uses_table = body.get("uses_table", False)
    if not isinstance(uses_table, bool):
        raise PlayerError(400, "bad_field", "uses_table: true or false")
    refuse_table_for(config, uses_table)
    check_creation("sessions")
    created = store.create_session(config, title, uses_table)
    grant(created.id)
    return jsonify({"ok": True, "id": created.id, "join_code": created.join_code,
                    "url": url_for("sessions.scoreboard", session_id=created.id, _external=True)}), 201, NOT_KEPT


@bp.get("/sessions/<session_id>")
def session_state(session_id: str):
    return jsonify(ledger.snapshot(store.session_or_404(session_id)))


@bp.get("/sessions/<session_id>/events")
def session_events(session_id: str):
    found = store.session_or_404(session_id)
    return jsonify([{"id": e.id, "event": e.body, "at": e.created_at, "undone": e.undone}
                    for e in store.events(found.id, include_undone=True) if e.body.get("type") != "_undo"])


@bp.post("/sessions/<session_id>/events")
def add_event(session_id: str):
    found = store.get_session(session_id)
    require_change(found)
    body = json_body()
    event = body.get("event")
    if not isinstance(event, dict):
        raise PlayerError(400, "bad_field", "event: an object with a type is needed")
    recorded = record(found, event_from_json(found, event), _token(body))
    snap = recorded.snapshot if recorded.created else ledger.snapshot(found)
    return jsonify({"ok": True, "id": recorded.event.id, "created": recorded.created, "state": snap}), \
        (201 if recorded.created else 200)


@bp.post("/sessions/<session_id>/undo")
def undo_last(session_id: str):
    found = store.get_session(session_id)
    require_change(found)
    body = json_body() if request.is_json else {}
    undone = undo(found, _token(body))
    return jsonify({"ok": True, "undone": undone.id if undone else None, "state": ledger.snapshot(found)})


@bp.post("/sessions/<session_id>/preview")
def preview(session_id: str):
    """Score a hand for the record page without storing it; a hand that does not score yet
    is a normal answer here (200 with the contract's ok: false), not a request error."""
    found = store.session_or_404(session_id)
    request_json, result = wins.preview(ledger.load(found), json_body())
    error = result.get("error")
    if isinstance(error, dict):     # the contract's answer stays as it is; the page reads the summary first,
        # then `said`: the scorer's own message in the page's language (none where it has no translation)
        said = in_page_language(str(error.get("message") or ""))
        result = {**result, "error": {**error, "summary": summary(error.get("code"), "bad_hand"), "said": said}}
    return jsonify({"request": request_json, "result": result})


@bp.post("/sessions/<session_id>/scan")
def scan(session_id: str):
    found = store.get_session(session_id)
    require_change(found)
    photo = request.files.get("photo")
    if photo is None or not photo.filename and not photo.content_length:
        raise PlayerError(400, "no_image")
    return jsonify(_doubts_said(scan_photo(photo.read, found.config.get("rules", "riichi"))))


def _doubts_said(scan: dict) -> dict:
    """The scan's answer with `doubts_said`: what the camera doubted and why, in the page's
    language (the doubts themselves stay the camera's words, as `tenbou scan --json` has them)."""
    doubts = [d for d in scan.get("doubts") or [] if isinstance(d, str)]
    return {**scan, "doubts_said": [in_page_language(d) or t("record.doubt_unknown") for d in doubts]}


@bp.post("/sessions/<session_id>/webcam")
def webcam(session_id: str):
    """Read the hand from the host's webcam (`tenbou serve --webcam N`)."""
    from flask import current_app
    from webui.play.webcam import grab_jpeg

    found = store.get_session(session_id)
    require_change(found)
    device = current_app.config.get("WEBCAM")
    if device is None:
        raise PlayerError(409, "webcam_unavailable", "start the server with --webcam N to use a camera on it")
    return jsonify(_doubts_said(scan_photo(grab_jpeg(int(device)), found.config.get("rules", "riichi"))))


def _token(body: dict) -> str | None:
    token = body.get("form_token")
    if token is not None and (not isinstance(token, str) or not 8 <= len(token) <= 80 or unkeepable(token)):
        raise PlayerError(400, "bad_field", "form_token: 8 to 80 characters")
    return token


def event_from_json(found: store.Session, event: dict) -> dict:
    seats = len(found.config["players"])
    kind = event.get("type")
    if kind in ("riichi", "chombo", "late_pon"):
        return {"type": kind, "seat": seat(event.get("seat"), "seat", seats)}
    if kind == "draw":
        return draw_event(_seat_list(event, "tenpai", seats), _seat_list(event, "nagashi_mangan", seats))
    if kind == "abortive_draw":
        if event.get("reason") not in ABORTIVE_REASONS:
            raise PlayerError(400, "bad_field", f"reason: one of {', '.join(ABORTIVE_REASONS)}")
        return {"type": "abortive_draw", "reason": event["reason"]}
    if kind == "correction":
        return {"type": "correction", "scores": correction_scores(event.get("scores"), seats)}
    if kind == "win":
        return wins.win_event(found, event)
    if kind == "end":
        return {"type": "end", "reason": "stopped by the players"}
    raise PlayerError(400, "bad_field", "type: riichi, win, draw, abortive_draw, chombo, late_pon, correction or end")


def _seat_list(event: dict, name: str, seats: int) -> list[int]:
    values = event.get(name, [])
    if not isinstance(values, list):
        raise PlayerError(400, "bad_field", f"{name}: a list of seats")
    return [seat(v, name, seats) for v in values]


class _Form(dict):
    """A JSON body read through the same code as the HTML form."""

    def getlist(self, key: str) -> list:
        value = self.get(key)
        return value if isinstance(value, list) else [] if value is None else [value]


