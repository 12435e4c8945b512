"""What a real game can hold: the bounds of every number and name a player can type.

A value outside them is refused in words before it reaches the ledger, the database or the
settlement, so nothing stored can make a page, the chart or the PDF cost more than a real
table's session does (issue 16: a correction of 10^10 points drew a 7 MB chart).

The bounds live in `scorer.limits`, where the ledger's log check (a `tenbou settle` log, a
club's import) holds a log to the same ones as a phone's form (issue 25); they are named here
for the web app. Bounds of the web app alone go below.
"""
from __future__ import annotations

from scorer.limits import (  # noqa: F401 — re-exported: the web app's modules read them here
    CURRENCY_LENGTH, MOST_CHINESE_LIMIT, MOST_CHINESE_POINTS, MOST_CHIP_SETTING, MOST_CHIP_VALUE, MOST_CHIPS,
    MOST_EVENTS, MOST_FU, MOST_HAN, MOST_HONBA, MOST_IMPORTED_GAMES, MOST_JSON_DEPTH, MOST_MEMBERS,
    MOST_NUKIDORA, MOST_RATE, MOST_RIICHI_STICKS, MOST_SCORE, MOST_SEASONS, MOST_START, MOST_TABLE_POINTS,
    MOST_UMA, MOST_YAKUMAN, NAME_LENGTH, NOTE_LENGTH, PLAYERS, TITLE_LENGTH)
