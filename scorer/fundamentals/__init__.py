"""Mahjong Fundamentals (rule text 004): the 20-point game.

Any complete hand of four sets (pon or chi) and a pair wins; there are no hand values. The
only claims are pon and ron: a chi is made from the wall, and there are no kans.
Tsumo: a dealer takes 2 from each player; a non-dealer 2 from the dealer and 1 from each
other player. Ron: the discarder pays 6 to a dealer, 4 to anyone else. The winner also
takes the draw pool: 1 point from each player not ready at every draw since the last win.
"""
from __future__ import annotations

from ..errors import HandError
from ..hand import WinningHand
from ..reading import splits
from ..tiles import WIND_LETTERS, counts, format_tiles
from ..unplayed_fields import refuse_unplayed

STARTING_POINTS = 20
TSUMO_FROM_DEALER = 2       # the dealer pays (or, winning, takes from each) 2
TSUMO_FROM_OTHER = 1
RON_TO_DEALER = 6
RON_TO_OTHER = 4
NOT_READY_PAYS = 1          # into the pool at a draw
CLAIMS = ("pon",)           # the melds a player may call; "Ron" wins, and chi are made from the wall


def win_transfers(winner: str, tsumo: bool, discarder: str, seats: tuple[str, ...], pool: int = 0) -> list[dict]:
    """Every payment of a win, keyed by seat wind ("E" the dealer); the pool comes from "pot"."""
    if tsumo:
        result = [{"from": s, "to": winner,
                   "points": TSUMO_FROM_DEALER if "E" in (s, winner) else TSUMO_FROM_OTHER}
                  for s in seats if s != winner]
    else:
        result = [{"from": discarder, "to": winner, "points": RON_TO_DEALER if winner == "E" else RON_TO_OTHER}]
    if pool:
        result.append({"from": "pot", "to": winner, "points": pool})
    return result


def score_hand(hand: WinningHand, options: dict | None = None) -> dict:
    """The contract response for a `fundamentals` request."""
    if options:
        raise HandError("unknown_option", f"the Fundamentals rules have no options (got {', '.join(map(str, options))})")
    refuse_unplayed(hand, "fundamentals")
    if hand.flowers:
        raise HandError("bad_tile", "flowers and seasons are set aside in the Fundamentals rules")
    for meld in hand.melds:
        # The text's "Valid claims are: Pon ... Ron": a chi is made from the wall only, and
        # there are no kans at all.
        if meld.is_kan:
            raise HandError("bad_meld", "the Fundamentals rules have no kans: the only claims are pon and ron")
        if meld.kind not in CLAIMS:
            raise HandError("bad_meld", f"a chi cannot be claimed in the Fundamentals rules (the only claims "
                                        f"are pon and ron): {format_tiles(meld.tiles)} must be drawn from the "
                                        "wall, and belongs in concealed")
    need = 4 - len(hand.melds)
    if not any(len(s.sets) == need for s in splits(counts(hand.concealed))):
        raise HandError("not_a_winning_hand",
                        "a complete hand is four sets (pon or chi) and a pair; these tiles are not")
    pool = hand.extra.get("pool", 0)
    if isinstance(pool, bool) or not isinstance(pool, int) or pool < 0:
        raise HandError("bad_option", f"pool is the number of points in the draw pool, not {pool!r}")
    seats = WIND_LETTERS[:hand.players]
    transfers = win_transfers(hand.seat_wind, hand.tsumo, hand.discarder, tuple(seats), pool)
    points = sum(t["points"] for t in transfers if t["from"] != "pot")
    return {"ok": True, "points": points, "transfers": transfers,
            "fundamentals": {"pool": pool, "dealer": hand.is_dealer}}
