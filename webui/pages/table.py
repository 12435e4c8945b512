"""The automatic table's panel: its state as JSON, and taking its numbers as a correction once
the players have seen, seat by seat, what that changes."""
from __future__ import annotations

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for

from webui.storage import store
from webui.guard.errors import PlayerError
from webui.guard.forms import correction_scores
from webui.play.recording import record
from webui.play.automatic_table import follows_table, view
from webui.play.ledger import snapshot
from webui.play.security import form_token, may_change, require_change

bp = Blueprint("table", __name__)


@bp.get("/api/table")
def table_state():
    return jsonify(view() or {"configured": False})


@bp.get("/s/<session_id>/table/accept")
def confirm(session_id: str):
    """What taking the table's numbers will change, seat by seat, asked before anything is
    recorded (a page of its own: it needs no script, and the numbers asked about are the ones
    the confirming form sends back)."""
    game_session = store.session_or_404(session_id)
    if not may_change(game_session):
        raise PlayerError(403, "join_required")
    return _confirm_page(game_session, _table_points(game_session), changed=False)


@bp.post("/s/<session_id>/table/accept")
def accept(session_id: str):
    """Take the table's numbers as a correction, once the player confirmed these very numbers;
    without them, the confirmation is shown first."""
    game_session = store.get_session(session_id)
    require_change(game_session)
    points = _table_points(game_session)
    asked = request.form.get("points")
    if asked is None:
        return redirect(url_for("table.confirm", session_id=session_id), code=303)
    if asked != _points_field(points):      # the sticks moved while the player read the page
        return _confirm_page(game_session, points, changed=True), 409
    scores = correction_scores(list(points), len(points))     # what a real table can show
    recorded = record(game_session, {"type": "correction", "scores": scores},
                      request.form.get("form_token"))
    flash("session.recorded" if recorded.created else "session.already")
    return redirect(url_for("sessions.scoreboard", session_id=session_id))


def _table_points(game_session: store.Session) -> list[int]:
    """The table's settled numbers, for the session that follows it."""
    if not follows_table(game_session):
        raise PlayerError(409, "not_table_session")
    current = view()
    if current is None:
        raise PlayerError(409, "no_table")
    points = current.get("points")
    if not current.get("settled") or not points:
        raise PlayerError(409, "table_unsettled")
    if len(points) != len(game_session.config["players"]):
        raise PlayerError(409, "bad_event", f"the table has {len(points)} seats")
    return list(points)


def _points_field(points: list[int]) -> str:
    return ",".join(str(p) for p in points)


def _confirm_page(game_session: store.Session, points: list[int], changed: bool) -> str:
    snap = snapshot(game_session)
    seats = [{"name": name, "now": now, "table": table, "change": table - now}
             for name, now, table in zip(snap["players"], snap["scores"], points)]
    return render_template("table_confirm.html", s=game_session, snap=snap, seats=seats, changed=changed,
                           points=_points_field(points), token=form_token())
