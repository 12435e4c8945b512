"""Pages: start a session, join it, its scoreboard (phone and TV), record a hand, declare
riichi, draws and chombo, undo. Every change goes through `record()`: checked against the
ledger, committed, then broadcast."""
from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for

from webui.play import club_rules, clubs, ledger, named_yaku, seat_draw, wins
from webui.storage import store
from webui.guard.errors import PlayerError, in_page_language, summary, wants_json
from webui.guard.forms import seat, text
from webui.play.recording import ABORTIVE_REASONS, draw_event, last_entry, record, undo
from webui.words.i18n import current_language, t
from webui.printing.qr import qr_svg
from webui.printing.tile_art import picker_kinds
from webui.words.chinese_names import chinese_names_for
from webui.words.yaku_names import names_for
from webui.play.automatic_table import panel_view, refuse_table_for
from webui.guard.headers import NOT_KEPT
from webui.play.security import (admit_code, check_creation, check_csrf, form_token, grant, may_change, may_manage,
                                  require_change, same_site_path)

bp = Blueprint("sessions", __name__)

@bp.get("/")
def index():
    sessions = store.list_sessions()
    # a code opens only the session it belongs to: the join form names one still being played
    joinable = [s for s in sessions if not ledger.has_ended(s)]
    return render_template("index.html", sessions=sessions, joinable=joinable)


@bp.get("/favicon.ico")
def favicon():
    """The tab's icon where a browser asks for it by its old name: the page's own SVG icon
    (base.html links it), so no page load ends in a 404."""
    return current_app.send_static_file("favicon.svg"), 200, {"Content-Type": "image/svg+xml",
                                                               "Cache-Control": "public, max-age=86400"}


@bp.post("/lang")
def set_language():
    check_csrf()
    chosen = request.form.get("lang", "en")
    response = redirect(same_site_path(request.form.get("next")) or url_for("sessions.index"))
    if chosen in ("en", "ja"):
        response.set_cookie("lang", chosen, max_age=365 * 86400, samesite="Lax")
    return response


@bp.route("/new", methods=["GET", "POST"])
def new_session():
    """A new session; `club` makes it one of a club's games, its seats taken by the members of
    the names typed (picked from the club's list) and guests."""
    club = _club_of(request.values.get("club"))
    if request.method == "GET":
        return _new_form(club)
    check_csrf()
    if club is not None and not may_manage(club):
        raise PlayerError(403, "club_join_required")
    try:
        form, draw = seat_draw.drawn_form(request.form)
        config = ledger.config_from_form(form)
        title = text(request.form.get("title"), "title", 60)
        uses_table = request.form.get("uses_table") == "on"
        refuse_table_for(config, uses_table)
        members = clubs.seats_from_names(club.id, config["players"]) if club else None
    except PlayerError as refused:
        if wants_json() or refused.status not in (400, 409, 422):
            raise
        return _new_form(club, refused)
    if members:
        config["players"] = clubs.as_members_write_them(club.id, config["players"], members)
    check_creation("sessions")
    created = store.create_session(config, title, uses_table=uses_table,
                                   club_id=club.id if club else None, members=members)
    seat_draw.keep(created.id, draw)
    grant(created.id)
    return redirect(url_for("sessions.share", session_id=created.id))


# The new-session fields a refused form is filled in again with (the players and title besides).
_REFILLED = ("rules", "preset", "length", "starting_points", "return_points", "uma", "chip_value", "rate",
             "limit", "settlement")


def _new_form(club: clubs.Club | None, refused: PlayerError | None = None):
    """The new-session form; after a refusal, filled in with what was sent and the reason said
    beside the field it is about (the detail's "field: ..." names it), not on a page of its own."""
    kept = club_rules.read(club.id) if club else None
    extra: dict = {}
    if refused is not None:
        sent = {name: request.form.get(name) for name in _REFILLED if (request.form.get(name) or "").strip()}
        kept = {**(kept or {}), **sent}
        field = refused.detail.split(":", 1)[0].strip() if ":" in refused.detail else ""
        extra = {"sent": request.form, "form_error_field": "players" if field.startswith("player") else field,
                 "form_error": in_page_language(refused.detail) or summary(refused.code, refused.key)}
    page = render_template("new.html", presets=ledger.PRESETS, defaults=ledger.form_defaults(),
                           club=club, members=clubs.members(club.id) if club else [],
                           kept=kept, seat_draws=seat_draw.DRAWS, **extra)
    return page if refused is None else (page, refused.status)


@bp.post("/join")
def join_by_code():
    """A typed code, for the session the form names (never any session that has this code)."""
    check_csrf()
    session_id = request.form.get("session") or ""
    if not session_id:
        raise PlayerError(400, "bad_field", "session: choose the session to join")
    found = store.get_session(session_id)
    admit_code(found, request.form.get("code") or "")
    grant(found.id)
    # back to the page that asked for the code (join_first.html), when it is this session's
    wanted = same_site_path(request.form.get("next"))
    if wanted and wanted.startswith(f"/s/{found.id}/"):
        return redirect(wanted)
    return redirect(url_for("sessions.scoreboard", session_id=found.id))


@bp.get("/s/<session_id>/join")
def join_link(session_id: str):
    game_session = store.session_or_404(session_id)
    admit_code(game_session, request.args.get("code") or "")
    grant(game_session.id)
    return redirect(url_for("sessions.scoreboard", session_id=game_session.id))


@bp.get("/s/<session_id>")
def scoreboard(session_id: str):
    game_session = store.session_or_404(session_id)
    return render_template("scoreboard.html", s=game_session, snap=ledger.snapshot(game_session),
                           can_change=may_change(game_session), token=form_token(),
                           abortive_reasons=ABORTIVE_REASONS, table=panel_view(game_session),
                           nagashi_mangan=ledger.plays_nagashi_mangan(game_session),
                           seat_draw=seat_draw.of_session(game_session.id),
                           late_pon=ledger.late_pon_penalty(game_session),
                           undo_what=last_entry(game_session) if may_change(game_session) else None)


@bp.get("/s/<session_id>/last-entry")
def last_entry_said(session_id: str):
    """What the undo button would take back now, for its confirmation (another phone may have
    recorded since the page was drawn)."""
    game_session = store.session_or_404(session_id)
    if not may_change(game_session):
        raise PlayerError(403, "join_required")
    what = last_entry(game_session)
    return {"what": what, "ask": t("session.undo_confirm_what", what=what) if what else t("session.undo_confirm")}


@bp.get("/s/<session_id>/tv")
def tv(session_id: str):
    game_session = store.session_or_404(session_id)
    return render_template("tv.html", s=game_session, snap=ledger.snapshot(game_session),
                           side=_side(request.args.get("side"), len(game_session.config["players"])))


def _side(wanted: str | None, seats: int) -> int:
    """The seat whose side of the table the TV stands at (drawn at the bottom): `?side=N`, else seat 0."""
    return int(wanted) if wanted and wanted.isdigit() and int(wanted) < seats else 0


def _club_of(club_id: str | None) -> clubs.Club | None:
    if not club_id:
        return None
    return clubs.club_or_404(club_id)


def join_url(game_session: store.Session) -> str:
    """The join link for the other phones. A page opened on the host itself (127.0.0.1) would
    give them a link to their own phone, so the server's network address is used instead."""
    path = url_for("sessions.join_link", session_id=game_session.id, code=game_session.join_code)
    public = current_app.config.get("PUBLIC_URL")
    if public and _loopback(request.host):
        return public.rstrip("/") + path
    return request.host_url.rstrip("/") + path


def _loopback(host: str) -> bool:
    name = host.rsplit(":", 1)[0] if not host.startswith("[") else host.split("]")[0] + "]"
    return name in ("localhost", "[::1]") or name.startswith("127.")


def _join_first(game_session: store.Session):
    """A page that changes the session, asked for before joining: the join code is asked for
    here (403, the page is not shown), and once given, the page asked for opens."""
    if wants_json():
        raise PlayerError(403, "join_required")
    return render_template("join_first.html", s=game_session, next=request.path), 403


@bp.get("/s/<session_id>/share")
def share(session_id: str):
    game_session = store.session_or_404(session_id)
    if not may_change(game_session):
        return _join_first(game_session)
    link = join_url(game_session)
    only_here = _loopback(link.split("//", 1)[1].split("/", 1)[0])
    return (render_template("share.html", s=game_session, link=link, qr=qr_svg(link), only_here=only_here),
            200, NOT_KEPT)


@bp.get("/s/<session_id>/record")
def record_page(session_id: str):
    game_session = store.session_or_404(session_id)
    if not may_change(game_session):
        return _join_first(game_session)
    snap = ledger.snapshot(game_session)
    config = game_session.config
    return render_template("record.html", s=game_session, snap=snap, token=form_token(),
                           picker=picker_kinds(config["rules"], len(config["players"])),
                           chips=bool(config.get("chips")),
                           scan_available=ledger.scan_available(),
                           yaku_names={**names_for(current_language()), "chinese": chinese_names_for(current_language())},
                           yaku_groups=named_yaku.groups() if config["rules"] == "riichi" else [],
                           webcam=current_app.config.get("WEBCAM") is not None)


@bp.post("/s/<session_id>/hand")
def record_hand(session_id: str):
    return _record_from_form(session_id, wins.win_event)


@bp.post("/s/<session_id>/event")
def record_event(session_id: str):
    return _record_from_form(session_id, event_from_form)


def _record_from_form(session_id: str, event_of):
    """Record the event a form describes, once per form token, and go back to the scoreboard."""
    game_session = store.get_session(session_id)
    require_change(game_session)
    body = event_of(game_session, request.form)
    recorded = record(game_session, body, request.form.get("form_token"))
    flash("session.recorded" if recorded.created else "session.already")
    if recorded.created and "winners" in body:
        note = _several_winners_note(recorded.snapshot)
        if note:
            flash(note)
    return redirect(url_for("sessions.scoreboard", session_id=session_id))


def _several_winners_note(snap: dict) -> str | None:
    """What the table rules made of several winners on one discard, when not all were paid:
    read from the scoreboard state the recording already replayed."""
    last = snap["last"] or {}
    if last.get("kind") == "abortive_draw" and (last.get("detail") or {}).get("reason") == "triple_ron":
        return "session.triple_ron_aborts"
    if (last.get("detail") or {}).get("note"):
        return "session.head_bump"
    return None


@bp.post("/s/<session_id>/undo")
def undo_last(session_id: str):
    game_session = store.get_session(session_id)
    require_change(game_session)
    undone = undo(game_session, request.form.get("form_token"))
    flash("session.undone" if undone else "session.nothing_to_undo")
    return redirect(url_for("sessions.scoreboard", session_id=session_id))


def event_from_form(game_session: store.Session, form) -> dict:
    """riichi, draw, abortive draw, chombo, late pon or the end from the scoreboard's small forms."""
    seats = len(game_session.config["players"])
    kind = form.get("type")
    if kind == "riichi":
        return {"type": "riichi", "seat": seat(form.get("seat"), "seat", seats)}
    if kind in ("chombo", "late_pon"):
        return {"type": kind, "seat": seat(form.get("seat"), "seat", seats)}
    if kind == "draw":
        return draw_event([seat(v, "tenpai", seats) for v in form.getlist("tenpai")],
                          [seat(v, "nagashi mangan", seats) for v in form.getlist("nagashi_mangan")])
    if kind == "abortive_draw":
        reason = form.get("reason", "")
        if reason not in ABORTIVE_REASONS:
            raise PlayerError(400, "bad_field", f"reason: one of {', '.join(ABORTIVE_REASONS)}")
        return {"type": "abortive_draw", "reason": reason}
    if kind == "end":
        return {"type": "end", "reason": "stopped by the players"}
    raise PlayerError(400, "bad_field", "type: riichi, draw, abortive_draw, chombo, late_pon or end")


@bp.get("/s/<session_id>/qr.svg")
def qr(session_id: str):
    game_session = store.session_or_404(session_id)
    if not may_change(game_session):
        raise PlayerError(403, "join_required")
    return qr_svg(join_url(game_session)), 200, {"Content-Type": "image/svg+xml", **NOT_KEPT}


