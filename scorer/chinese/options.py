"""The choices a classical Chinese table makes before it starts (rule text 003)."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import HandError

SETTLEMENTS = ("difference", "full")


@dataclass(frozen=True)
class ChineseOptions:
    # What one player may have to pay another in a hand is capped by this limit; the text
    # names 1000 as typical and 500 and 1500 as common.
    limit: int = 1000
    # "difference": the text — each loser pays the winner the winner's score less the
    # loser's own count. "full": the common variant — every loser pays the full score and
    # the losers settle their differences among themselves.
    settlement: str = "difference"


def chinese_options(options: dict | None) -> ChineseOptions:
    """Read the request's `options`; unknown names and bad values are errors for a player."""
    options = options or {}
    if not isinstance(options, dict):
        raise HandError("bad_option", "options must be an object, like {\"limit\": 500}")
    for name in options:
        if name not in ("limit", "settlement"):
            raise HandError("unknown_option", f"classical Chinese scoring has no option {name!r}; "
                                              "the options are limit and settlement")
    limit = options.get("limit", 1000)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0:
        raise HandError("bad_option", f"the limit is a whole number of points above 0 "
                                      f"(1000 is usual, 500 and 1500 common), not {limit!r}")
    settlement = options.get("settlement", "difference")
    if settlement not in SETTLEMENTS:
        raise HandError("bad_option", f"settlement is \"difference\" (each loser pays the winner "
                                      f"the difference) or \"full\", not {settlement!r}")
    return ChineseOptions(limit=limit, settlement=settlement)
