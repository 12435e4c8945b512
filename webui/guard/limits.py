"""What a real game can hold: the bounds of every number and name a player can type.

A value outside them is refused in words before it reaches the ledger, the database or the
settlement, so nothing stored can make a page, the chart or the PDF cost more than a real
table's session does (issue 16: a correction of 10^10 points drew a 7 MB chart).
"""
from __future__ import annotations

from typing import Final

PLAYERS: Final = (3, 4)
NAME_LENGTH: Final = 24                 # a name fits a seat's card on a phone
TITLE_LENGTH: Final = 60

# Starting and return points: the largest club starts are 100,000; a tenfold margin.
MOST_START: Final = 1_000_000
# A seat's score in a correction, either sign: every player's starting points at the largest
# start (4 x 1,000,000) with room for the riichi sticks and a deep debt.
MOST_SCORE: Final = 10_000_000
# Uma, in thousands of points for riichi: real tables use 5..90.
MOST_UMA: Final = 1_000
# Money per 1000 points and per chip, in the table's currency: high stakes are a few thousand.
MOST_RATE: Final = 1_000_000.0
MOST_CHIP_VALUE: Final = 1_000_000.0
# The classical Chinese limit on what one player pays another in a hand: the text names 500,
# 1000 and 1500; a hundredfold margin.
MOST_CHINESE_LIMIT: Final = 100_000

# Counts of a hand sent to `POST /api/score` (the session routes take them from the ledger).
# Honba and riichi sticks pass 20 only in a game that never ends; nukidora is one North per tile.
MOST_HONBA: Final = 99
MOST_RIICHI_STICKS: Final = 99
MOST_NUKIDORA: Final = 4
# Yakuman in one hand, counted as the scorer counts them (a sextuple is the most seen).
MOST_YAKUMAN: Final = 6

# A club's members and seasons: the largest clubs have a few hundred players.
MOST_MEMBERS: Final = 500
MOST_SEASONS: Final = 200
# Games one imported `tenbou settle` log may add: a long evening is a dozen.
MOST_IMPORTED_GAMES: Final = 50

# Events in one session: a long game with every riichi and correction stays under 300; the
# log, the chart and every replay grow with them.
MOST_EVENTS: Final = 2_000

# JSON a player sends: a hand is four levels deep at most (request, melds, meld, tiles).
MOST_JSON_DEPTH: Final = 16
