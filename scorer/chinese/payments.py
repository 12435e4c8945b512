"""Who pays whom after a classical Chinese hand.

The text: "The other players also calculate their scores, though they never get any
doubles, and pay the difference to the one who went out. The current East player always
pays and receives twice the appropriate amount."

Left open by the text, resolved here (docs/chinese-classical.md):
- a loser whose own count reaches or passes the winner's score pays nothing, and the
  winner pays nothing back: only the one who went out is paid;
- the limit caps the winner's score and each loser's count before East doubles it.
The common variant ("full"): every loser pays the winner's full score, and each pair of
losers settles the difference of their counts, East paying and receiving double there too.
"""
from __future__ import annotations

SEATS = ("E", "S", "W", "N")


def _times(a: str, b: str) -> int:
    return 2 if "E" in (a, b) else 1


def hand_transfers(score: int, winner: str, counts: dict[str, int], settlement: str,
                   limit: int) -> list[dict]:
    """Transfers `{"from", "to", "points"}` keyed by seat wind. `score` is the winner's
    score (limits already applied), `counts` each loser's own count without doubles."""
    losers = [s for s in SEATS if s != winner]
    own = {s: min(max(0, counts.get(s, 0)), limit) for s in losers}
    result = []
    for loser in losers:
        owed = score if settlement == "full" else score - own[loser]
        if owed > 0:
            result.append({"from": loser, "to": winner, "points": owed * _times(loser, winner)})
    if settlement == "full":
        for i, a in enumerate(losers):
            for b in losers[i + 1:]:
                if own[a] != own[b]:
                    high, low = (a, b) if own[a] > own[b] else (b, a)
                    result.append({"from": low, "to": high, "points": (own[high] - own[low]) * _times(a, b)})
    return result
