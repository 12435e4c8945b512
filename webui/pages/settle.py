"""The settlement: final table, uma/oka, chips, money, who pays whom, the hand-by-hand log
and the score chart — as a page that prints on one A4 sheet, and as the same sheet in PDF."""
from __future__ import annotations

from flask import Blueprint, Response, render_template

from webui.play import kept_boards, ledger
from webui.storage import store
from webui.storage.db import get_db
from webui.printing.chart import RIICHI_LEAST_STEP, score_chart
from webui.words.i18n import current_language, hand_name, house, t
from webui.printing.settlement_pdf import settlement_pdf

bp = Blueprint("settle", __name__)


def _load(session_id: str) -> tuple[store.Session, dict]:
    found = store.session_or_404(session_id)
    return found, ledger.settlement(found)


def hand_text(hand: dict, players: list[str]) -> str:
    """One line of the log in the player's language: what happened, and who declared riichi
    or was fined for a late pon during the hand."""
    detail = hand.get("detail") or {}

    def names(seats) -> str:
        return ", ".join(players[s] for s in seats or [] if isinstance(s, int))

    text = _what_happened(hand, detail, players, names)
    if hand.get("riichi"):
        text += " · " + t("log.riichi", seats=names(hand["riichi"]))
    if detail.get("late_pon"):
        text += " · " + t("log.late_pon", seats=names(detail["late_pon"]))
    return text


def _what_happened(hand: dict, detail: dict, players: list[str], names) -> str:
    kind = hand.get("kind")
    if kind == "win":
        # riichi lists its winners (a double ron has two); the other rule sets have one
        wins = detail.get("wins") or [detail]
        parts = [_win_text(w, detail, players) for w in wins if isinstance(w.get("winner"), int)]
        pool = sum(p["points"] for p in hand.get("transfers", []) if p.get("from") == "pot")
        if pool and "wins" not in detail:        # Fundamentals: the winner took the draw pool
            parts[-1] += " · " + t("log.from_pool", points=pool)
        if detail.get("other_counts") and isinstance(hand.get("dealer"), int):   # classical Chinese: paid less
            parts[-1] += " · " + t("log.own_counts", counts=_own_counts(detail["other_counts"], hand["dealer"], players))
        if detail.get("note"):           # the ledger's head bump: only the first winner was paid
            parts.append(t("log.head_bump"))
        return " / ".join(parts)
    if kind == "chombo":
        seat = detail.get("seat")
        return t("log.chombo", seat=players[seat] if isinstance(seat, int) else "?")
    if kind == "abortive_draw":
        return f"{t('log.abortive')} · {t('abortive.' + str(detail.get('reason')))}"
    if kind == "draw":
        text = t("log.draw")
        nagashi = names(detail.get("nagashi_mangan"))
        if nagashi:
            return text + " · " + t("log.nagashi", seats=nagashi)
        if "tenpai" in detail:
            ready = names(detail["tenpai"])
            text += " · " + (t("log.ready", seats=ready) if ready else t("log.nobody_ready"))
        pooled = sum(p["points"] for p in hand.get("transfers", []) if p.get("to") == "pot")
        if pooled:
            text += " · " + t("log.to_pool", points=pooled)
        return text
    if kind == "leftover_sticks":
        return t("log.leftover")
    return t("log.correction")


def _own_counts(by_wind: dict, dealer: int, players: list[str]) -> str:
    """"Ben 8, Dan 4": the losers' own counts of a classical Chinese hand, by the seat of each wind."""
    seat = {wind: (dealer + i) % len(players) for i, wind in enumerate("ESWN"[:len(players)])}
    return ", ".join(f"{players[seat[w]]} {n}" for w, n in sorted(by_wind.items(), key=lambda i: seat.get(i[0], 9))
                     if w in seat)


def _win_text(win: dict, detail: dict, players: list[str]) -> str:
    who = players[win["winner"]]
    if detail.get("tsumo") or not isinstance(detail.get("discarder"), int):
        line = t("log.win_tsumo", winner=who)
    else:
        line = t("log.win_ron", winner=who, discarder=players[detail["discarder"]])
    if win.get("yakuman"):
        line += f" · {t('record.yakuman')}×{win['yakuman']}"
    elif win.get("han"):
        line += " · " + t("record.han_fu", han=win["han"], fu=win.get("fu", 0))
    elif win.get("points"):                      # classical Chinese: the winner's score
        line += " · " + t("log.points", points=f"{win['points']:,}")
    if isinstance(win.get("pao"), int):
        line += " · " + t("log.pao", seat=players[win["pao"]])
    return line


def _chart_hands(hands: list[dict]) -> list[dict]:
    """The log's hands with their labels in the player's language, for the chart's axis."""
    return [{**h, "label": hand_name(h["round_wind"], h["hand"], h.get("honba", 0))} for h in hands]


def _least_step(data: dict) -> int:
    """The chart's least y step: riichi's thousands, or single points in the other rules."""
    return RIICHI_LEAST_STEP if data["config"].get("rules", "riichi") == "riichi" else 1


@bp.get("/s/<session_id>/settle")
def page(session_id: str):
    found, data = _load(session_id)
    chart = score_chart(data["start"], _chart_hands(data["hands"]), least_step=_least_step(data))
    return render_template("settle.html", s=found, data=data, chart=chart, house=house,
                           log=[(h, hand_text(h, data["players"])) for h in data["hands"]])


@bp.get("/s/<session_id>/settle.pdf")
def pdf(session_id: str):
    found = store.session_or_404(session_id)
    language = current_language()
    # an ended game's sheet no longer changes: drawn once per version of its events and language
    kept = kept_boards.pdfs().find(found.id, kept_boards.version_key(
        found, store.live_version(get_db(), found.id)[0], language)) if kept_boards.on() else None
    body = kept if kept is not None else _drawn_pdf(found)
    name = f"tenbou-{found.id}.pdf"
    return Response(body, mimetype="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{name}"',
                             "Content-Language": language})


def _drawn_pdf(found: store.Session) -> bytes:
    data = ledger.settlement(found)
    log = [(h, hand_text(h, data["players"])) for h in data["hands"]]
    body = settlement_pdf(found, data, log, score_chart(data["start"], _chart_hands(data["hands"]), width=515, height=170,
                                                            least_step=_least_step(data)), t)
    if data["finished"] and kept_boards.on():
        kept_boards.pdfs().keep(found.id, kept_boards.version_key(found, data["through_event"], current_language()),
                                body)
    return body
