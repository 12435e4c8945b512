"""All-last conditions (オーラス条件) for the scoreboard and the TV: in the last hand of a riichi
game, what each player needs to move up a place, worked out by `scorer.all_last` with the
scorer's own payments, as plain JSON the scoreboard's script words in the viewer's language.

Only the next place up is shown for each seat (what a player at the table asks), with:
a ron off each other player (the smallest hand, or none when even a yakuman does not), a tsumo,
and what an exhaustive draw does for them (`draw`: "ready" — being ready moves them up whoever
else is; "maybe" — some draws move them up, depending on who is ready; "no").
"""
from __future__ import annotations

from scorer.all_last import Hand, conditions, is_all_last
from scorer.game import GameConfig, LedgerError
from scorer.game.state import GameState


def view(config_json: dict, state: GameState) -> dict | None:
    """The seats' conditions when `state` is at the game's last hand (riichi); else None."""
    try:
        config = GameConfig.from_json(config_json)
    except (ValueError, KeyError, TypeError):
        return None
    if not is_all_last(config, state):
        return None
    try:
        found = conditions(config, state)
    except (LedgerError, ValueError, KeyError, IndexError):
        return None             # a table the conditions cannot read: the scoreboard shows none
    seats = []
    for seat in found.seats:
        need = seat.next_place
        ready = [d for d in found.draws if seat.seat in d.tenpai]
        up = set(seat.draw_up)
        if ready and all(d.tenpai in up for d in ready):
            draw = "ready"
        elif up:
            draw = "maybe"
        else:
            draw = "no"
        seats.append({"place": seat.place, "draw": draw, "next": None if need is None else {
            "place": need.place,
            "ron": [{"from": discarder, "hand": _hand(hand), "points": points}
                    for (discarder, hand), (_, points) in zip(need.ron, need.ron_points)],
            "tsumo": _hand(need.tsumo), "tsumo_points": need.tsumo_points}})
    return {"seats": seats}


def _hand(hand: Hand | None) -> dict | None:
    if hand is None:
        return None
    return {"han": hand.han, "fu": hand.fu, "yakuman": hand.yakuman, "limit": hand.label if hand.limit or hand.yakuman else None}
