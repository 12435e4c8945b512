"""A loser's own count: "The other players also calculate their scores, though they never
get any doubles". Their hands are not complete, so only what scores counts: the pungs and
kongs (exposed, or three alike still in the hand, which count as concealed), one scoring
pair ("Each player may count only one pair"), and flowers and seasons."""
from __future__ import annotations

from ..errors import HandError
from ..tiles import EAST, WIND_LETTERS, counts, parse_tiles
from . import table
from .table import Group, Situation

_MELD_SHAPES = {"pon": "pung", "minkan": "kong", "kakan": "kong", "ankan": "kong", "chi": "chow"}


def loser_count(hand: dict, seat_wind: str, round_wind: str) -> int:
    """`hand`: {"concealed": "...", "melds": [{"kind", "tiles"}], "flowers": "..."}."""
    if not isinstance(hand, dict):
        raise HandError("bad_option", f"the hand of {seat_wind} is an object with concealed, melds and flowers")
    where = f"the hand of {seat_wind}"
    groups = [_meld(m, where) for m in hand.get("melds", []) or []]
    in_hand = counts(parse_tiles(hand.get("concealed", ""), field=f"{where}: concealed"))
    groups += [Group("pung", k, True) for k, c in enumerate(in_hand) if c >= 3]
    situation = Situation(EAST + WIND_LETTERS.index(seat_wind), EAST + WIND_LETTERS.index(round_wind),
                          False, False, False, False, False)
    pairs = [sum(i.value for i in table.pair_items(k, situation)) for k, c in enumerate(in_hand) if c == 2]
    flowers = [t.kind for t in parse_tiles(hand.get("flowers", ""), field=f"{where}: flowers")]
    if any(k < 34 for k in flowers):
        raise HandError("bad_tile", f"{where}: flowers holds only flowers and seasons (1f-8f)")
    return (sum(table.set_points(g) for g in groups) + max(pairs, default=0)
            + sum(i.value for i in table.flower_items(flowers)))


def _meld(meld, where: str) -> Group:
    if not isinstance(meld, dict) or meld.get("kind") not in _MELD_SHAPES:
        raise HandError("bad_meld", f"{where}: a meld is {{\"kind\": pon|chi|minkan|ankan|kakan, \"tiles\": ...}}")
    tiles = parse_tiles(meld.get("tiles", ""), field=f"{where}: meld tiles")
    if not tiles:
        raise HandError("bad_meld", f"{where}: a meld has no tiles")
    return Group(_MELD_SHAPES[meld["kind"]], min(t.kind for t in tiles), meld["kind"] == "ankan")
