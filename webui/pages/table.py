"""The automatic table's panel: its state as JSON, and accepting its numbers as a correction."""
from __future__ import annotations

from flask import Blueprint, flash, jsonify, redirect, request, url_for

from webui.storage import store
from webui.guard.errors import PlayerError
from webui.guard.forms import correction_scores
from webui.play.recording import record
from webui.play.security import require_change
from webui.play.automatic_table import view

bp = Blueprint("table", __name__)


@bp.get("/api/table")
def table_state():
    return jsonify(view() or {"configured": False})


@bp.post("/s/<session_id>/table/accept")
def accept(session_id: str):
    game_session = store.get_session(session_id)
    require_change(game_session)
    current = view()
    if current is None:
        raise PlayerError(409, "no_table")
    points = current.get("points")
    if not current.get("settled") or not points:
        raise PlayerError(409, "table_unsettled")
    if len(points) != len(game_session.config["players"]):
        raise PlayerError(409, "bad_event", f"the table has {len(points)} seats")
    scores = correction_scores(list(points), len(points))     # what a real table can show
    recorded = record(game_session, {"type": "correction", "scores": scores},
                      request.form.get("form_token"))
    flash("session.recorded" if recorded.created else "session.already")
    return redirect(url_for("sessions.scoreboard", session_id=session_id))

