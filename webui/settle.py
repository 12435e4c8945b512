"""The settlement: final table, uma/oka, chips, money, who pays whom, the hand-by-hand log
and the score chart — as a page that prints on one A4 sheet, and as the same sheet in PDF."""
from __future__ import annotations

from flask import Blueprint, Response, render_template

from . import game, store
from .chart import score_chart
from .i18n import current_language, round_name, t
from .settle_pdf import settlement_pdf

bp = Blueprint("settle", __name__)


def _load(session_id: str) -> tuple[store.Session, dict]:
    found = store.session_or_404(session_id)
    return found, game.settlement(found)


def hand_text(hand: dict, players: list[str]) -> str:
    """One line of the log in the player's language."""
    detail = hand.get("detail") or {}
    kind = hand.get("kind")
    if kind == "win":
        parts = []
        for w in detail.get("wins", []):
            who = players[w["winner"]]
            if detail.get("tsumo"):
                line = t("log.win_tsumo", winner=who)
            else:
                line = t("log.win_ron", winner=who, discarder=players[detail["discarder"]])
            if w.get("yakuman"):
                line += f" · {t('record.yakuman')}×{w['yakuman']}"
            elif w.get("han"):
                line += " · " + t("record.han_fu", han=w["han"], fu=w.get("fu", 0))
            if isinstance(w.get("pao"), int):
                line += " · " + t("log.pao", seat=players[w["pao"]])
            parts.append(line)
        if detail.get("note"):           # the ledger's head bump: only the first winner was paid
            parts.append(t("log.head_bump"))
        return " / ".join(parts)
    if kind == "chombo":
        seat = detail.get("seat")
        return t("log.chombo", seat=players[seat] if isinstance(seat, int) else "?")
    if kind == "abortive_draw":
        return f"{t('log.abortive')} · {t('abortive.' + str(detail.get('reason')))}"
    if kind == "draw":
        nagashi = [players[s] for s in detail.get("nagashi_mangan") or [] if isinstance(s, int)]
        return t("log.draw") + (" · " + t("log.nagashi", seats=", ".join(nagashi)) if nagashi else "")
    if kind == "leftover_sticks":
        return t("log.leftover")
    return t("log.correction")


def _chart_hands(hands: list[dict]) -> list[dict]:
    """The log's hands with their labels in the player's language, for the chart's axis."""
    return [{**h, "label": round_name(h["round_wind"], h["hand"])} for h in hands]


def house(name: str) -> str:
    """The settlement's balancing party (riichi sticks lost at the end) in the player's words."""
    from scorer.settlement import HOUSE
    return t("settle.house") if name == HOUSE else name


@bp.get("/s/<session_id>/settle")
def page(session_id: str):
    found, data = _load(session_id)
    chart = score_chart(data["start"], _chart_hands(data["hands"]))
    return render_template("settle.html", s=found, data=data, chart=chart, house=house,
                           log=[(h, hand_text(h, data["players"])) for h in data["hands"]])


@bp.get("/s/<session_id>/settle.pdf")
def pdf(session_id: str):
    found, data = _load(session_id)
    log = [(h, hand_text(h, data["players"])) for h in data["hands"]]
    body = settlement_pdf(found, data, log, score_chart(data["start"], _chart_hands(data["hands"]), width=515, height=170), t)
    name = f"tenbou-{found.id}.pdf"
    return Response(body, mimetype="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{name}"',
                             "Content-Language": current_language()})
