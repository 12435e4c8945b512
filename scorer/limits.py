"""What a real game can hold: the bounds of every number and name a game's set-up or events
carry, whoever typed them (a phone's form, the JSON API, a `tenbou settle` log).

A value outside them is refused in words before it reaches the ledger's stored events, so
nothing kept can make a page, the chart, the standings or the PDF cost more than a real
table's session does (issue 16: a correction of 10^10 points drew a 7 MB chart; issue 25: an
imported log with 10^400 chips broke a club's standings). Pure constants: the web app takes
them from here (`webui` re-exports them), the log check (`scorer.game.log_check`) too.
"""
from __future__ import annotations

from typing import Final

PLAYERS: Final = (3, 4)
NAME_LENGTH: Final = 24                 # a name fits a seat's card on a phone
TITLE_LENGTH: Final = 60
# Free text an event carries (a correction's note, why a game was stopped): a sentence.
NOTE_LENGTH: Final = 200
# A currency as the settlement prints it after each amount: "EUR", "¥", "points".
CURRENCY_LENGTH: Final = 12

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
# A classical Chinese winner's score, and a loser's own count: held to the limit (twice it for
# a concealed limit hand), so never above twice the largest limit.
MOST_CHINESE_POINTS: Final = 2 * MOST_CHINESE_LIMIT
# A table rule's points (a chombo penalty, the noten payments, a late pon's fine): a start's worth.
MOST_TABLE_POINTS: Final = MOST_START

# Counts of a hand sent to `POST /api/score` (the session routes take them from the ledger).
# Honba and riichi sticks pass 20 only in a game that never ends; nukidora is one North per tile.
MOST_HONBA: Final = 99
MOST_RIICHI_STICKS: Final = 99
MOST_NUKIDORA: Final = 4
# Yakuman in one hand, counted as the scorer counts them (a sextuple is the most seen).
MOST_YAKUMAN: Final = 6
# A win entered by its numbers: han (counted yakuman reach 13 and more; every dora of a hand
# stays far below 130) and fu (the most a hand can hold is 110; 170 leaves room).
MOST_HAN: Final = 130
MOST_FU: Final = 170
# Chips: each of a chip rule's settings (chips per ippatsu, ura dora, red five, yakuman), and
# what one win moves (a sextuple yakuman at 5 chips each is 30; a hundred is generous).
MOST_CHIP_SETTING: Final = 100
MOST_CHIPS: Final = 1_000

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
