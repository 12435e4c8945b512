"""What a game's hands tell about each seat beyond places and points, for a member's
statistics (scorer/club_stats.py): wins by tsumo, what wins were worth and what deal-ins cost,
riichi that won, wins with calls, dora, yaku.

Read from the replayed hands and the win events as kept. A win entered by tiles (or read by
the camera) carries the scorer's response and request, so its yaku, dora and calls are known;
one entered as han and fu says only what the players gave (`yaku`, `dora`, `open` where the form
asked), so each of those counts says how many wins it was known for. Events kept before logs
were checked may hold anything: what is not the expected shape counts as not known.
"""
from __future__ import annotations

from .game.state import GameState

# The scorer's dora entries: counted as dora per win, not as yaku.
DORA_IDS = ("dora", "aka_dora", "ura_dora", "nukidora")
# The counts `seat_details` gives each seat (SeatLine's, all 0 in a game without hands), and
# `yaku` beside them ({id: wins}); a member's statistics add them up game by game.
COUNTS = ("tsumo_wins", "win_points", "deal_in_points", "riichi_wins", "open_wins", "told_open", "dora",
          "told_dora")


def add_detail(total, line) -> None:
    """Add a seat line's hand detail (its `COUNTS` and yaku) into `total`, field by field."""
    for name in COUNTS:
        setattr(total, name, getattr(total, name) + getattr(line, name))
    for name, count in line.yaku.items():
        total.yaku[name] = total.yaku.get(name, 0) + count


def seat_details(players: int, state: GameState, bodies: list) -> list[dict]:
    """Per seat: tsumo_wins, win_points (the hands' values, before honba and sticks),
    deal_in_points (the values of the hands a seat dealt into), riichi_wins, open_wins of
    told_open (wins whose calls are known), dora over told_dora wins, and yaku {id: wins}."""
    seats = [{name: 0 for name in COUNTS} | {"yaku": {}} for _ in range(players)]
    win_bodies = iter([b for b in bodies if isinstance(b, dict) and b.get("type") == "win"])
    for hand in state.hands:
        if hand.kind != "win":
            continue
        body = next(win_bodies, {})
        detail = hand.detail
        tsumo = bool(detail.get("tsumo"))
        discarder = detail.get("discarder")
        for paid in paid_winners(hand):
            winner, points = paid["winner"], int(paid.get("points") or 0)
            line = seats[winner]
            line["tsumo_wins"] += tsumo
            line["win_points"] += points
            line["riichi_wins"] += winner in hand.riichi
            if discarder is not None and not tsumo:
                seats[discarder]["deal_in_points"] += points
            entry = _entry_of(body, winner)
            opened = _opened(entry)
            if opened is not None:
                line["told_open"] += 1
                line["open_wins"] += opened
            dora = _dora(entry)
            if dora is not None:
                line["told_dora"] += 1
                line["dora"] += dora
            for name in _yaku(entry):
                line["yaku"][name] = line["yaku"].get(name, 0) + 1
    return seats


def paid_winners(hand) -> list[dict]:
    """Each winner of a win hand with what they were paid: riichi lists them under `wins`; the
    other rule sets have one winner, paid what the hand moved to them where no points are named."""
    detail = hand.detail
    if "wins" in detail:
        return list(detail["wins"])
    winner = detail["winner"]
    return [{"winner": winner, "points": detail.get("points", hand.deltas[winner])}]


def _entry_of(body: dict, winner: int) -> dict:
    winners = body.get("winners")
    if isinstance(winners, list):
        for entry in winners:
            if isinstance(entry, dict) and entry.get("winner") == winner:
                return entry
        return {}
    return body


def _object(value) -> dict:
    return value if isinstance(value, dict) else {}


def _opened(entry: dict) -> bool | None:
    """Whether the hand was won with calls (an open hand): the request's melds (a closed kan is
    no call), or the players' `open` tick; None where neither says."""
    request = _object(entry.get("request"))
    melds = request.get("melds", [])
    if isinstance(request.get("concealed"), str) and isinstance(melds, list):
        kinds = [m.get("kind") if isinstance(m, dict) else None for m in melds]
        if all(isinstance(k, str) for k in kinds):
            return any(k != "ankan" for k in kinds)
        return None
    told = entry.get("open")
    return told if isinstance(told, bool) else None


def _dora(entry: dict) -> int | None:
    """Dora, red fives, ura dora and north tiles of the hand, where the scorer listed them (a
    scored riichi hand lists each kind it has, so none listed is none); else the players' `dora`."""
    result = _object(entry.get("result"))
    yaku = result.get("yaku")
    if isinstance(yaku, list) and "chinese" not in result:
        return sum(_han(y) for y in yaku if isinstance(y, dict) and y.get("id") in DORA_IDS)
    told = entry.get("dora")
    return told if isinstance(told, int) and not isinstance(told, bool) and 0 <= told <= 100 else None


def _han(item: dict) -> int:
    han = item.get("han")
    return han if isinstance(han, int) and not isinstance(han, bool) and 0 <= han <= 100 else 0


def _yaku(entry: dict) -> list[str]:
    """The hand's yaku ids (no dora), each once: the scorer's, or those the players named."""
    result = _object(entry.get("result"))
    listed = result.get("yaku")
    if not isinstance(listed, list):
        listed = entry.get("yaku")
    if not isinstance(listed, list):
        return []
    names = [y.get("id") if isinstance(y, dict) else y for y in listed]
    return list(dict.fromkeys(n for n in names if isinstance(n, str) and n and n not in DORA_IDS))
