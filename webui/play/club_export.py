"""A season's standings as CSV (one row a player and rule set, for a spreadsheet) and as JSON
(the standings and every counted game, for other tools)."""
from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

from scorer.club import PlayerStanding

from webui.play import clubs
from webui.storage.kept_results import ClubGame

COLUMNS = ("rules", "name", "games", "result", "money", "average_place", "firsts", "lasts",
           "hands", "wins", "deal_ins", "riichi", "win_rate", "deal_in_rate", "riichi_rate", "result_points")


def spreadsheet_safe(value):
    """A cell a spreadsheet will not run: text starting = + - @ (or a tab or carriage return)
    is read as a formula, so such a name gets a leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def season_csv(table: dict[str, list[PlayerStanding]], totals: dict[tuple[str, str], Decimal] | None = None) -> str:
    """`result` as the standings page writes it (riichi: thousands, rounded the club's way game
    by game, `totals` from `standings.written_totals`); `result_points` the exact points."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for rows in table.values():
        for row in rows:
            data = row.to_json()
            data["result_points"] = row.result
            written = (totals or {}).get((row.rules, row.player))
            if written is not None:
                data["result"] = written
            writer.writerow(["" if data[c] is None else spreadsheet_safe(data[c]) for c in COLUMNS])
    return out.getvalue()


def season_json(club: clubs.Club, season: clubs.Season | None, played: list[ClubGame],
                table: dict[str, list[PlayerStanding]]) -> str:
    return json.dumps({
        "club": {"id": club.id, "name": club.name},
        "season": None if season is None else {"id": season.id, "name": season.name,
                                               "starts": season.starts, "ends": season.ends},
        "standings": {rules: [r.to_json() for r in rows] for rules, rows in table.items()},
        "games": [{"session": g.session_id, "title": g.title, "played": g.played,
                   "imported": g.imported, "rules": g.summary.rules, "hands": g.summary.hands,
                   "seats": [{**line.to_json(), "money": line.money / 100, "member": g.members.get(line.seat)}
                             for line in g.summary.seats]}
                  for g in played],
    }, ensure_ascii=False, indent=1)
