"""A recorded event in the player's words, for what an undo will take back: "Ben's ron from Dan
(East 2)", "Chiyo's riichi"."""
from __future__ import annotations

from webui.words.i18n import t


def entry_words(body: dict, players: list[str], hand: str | None = None) -> str:
    """`body` is a stored event (docs/ledger.md); `hand` names the hand a win, draw or chombo
    ended ("East 2, 1 honba"), said after it."""
    kind = body.get("type")

    def name(seat) -> str:
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"

    if kind == "riichi":
        return t("undo.riichi", name=name(body.get("seat")))
    if kind == "late_pon":
        return t("undo.late_pon", name=name(body.get("seat")))
    if kind == "end":
        return t("undo.end")
    if kind == "win" and "winners" in body:
        said = t("undo.wins", names=t("undo.and").join(name(w.get("winner")) for w in body["winners"]))
    elif kind == "win" and body.get("discarder") is not None:
        said = t("undo.ron", name=name(body.get("winner")), other=name(body.get("discarder")))
    elif kind == "win":
        said = t("undo.tsumo", name=name(body.get("winner")))
    elif kind == "draw":
        said = t("undo.draw")
    elif kind == "abortive_draw":
        said = t("undo.abortive")
    elif kind == "chombo":
        said = t("undo.chombo", name=name(body.get("seat")))
    else:
        return t("undo.other")
    return t("undo.in_hand", what=said, hand=hand) if hand else said
