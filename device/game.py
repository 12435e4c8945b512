"""A plausible riichi game as the table's drawers see it, for the simulated table.

Pure: a random generator in, readings out. Each hand is planned as the readings the table would
show, in order, with the pause before each: riichi sticks put down, then the hand-over of sticks
after a win, one drawer at a time, so the readings in between do not add up.
Hand values come from han and fu by the usual formula (base = fu x 2^(han+2), with limits).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace

from device.frames import ROUNDS, Snapshot
from device.settle import POT, RIICHI_STICK, Party, Transfer, infer_transfers, table_points

START_POINTS = {4: 25000, 3: 35000}

# (han, fu, weight): what home games mostly see.
COMMON_HANDS = ((1, 30, 10), (1, 40, 6), (2, 30, 10), (2, 40, 6), (1, 50, 2), (3, 30, 7), (3, 40, 5),
                (2, 25, 3), (4, 30, 5), (5, 30, 4), (6, 30, 2), (7, 30, 1), (8, 30, 1), (11, 30, 0.3),
                (13, 30, 0.1))

SETTLE_PAUSE = 1.6  # longer than the host's 1 s hold, so each finished hand-over settles


@dataclass(frozen=True)
class Reading:
    pause: float        # seconds after the previous reading
    snapshot: Snapshot


@dataclass(frozen=True)
class Hand:
    """One hand: how it ended, what it paid (seats 1..n, "pot"), and the readings it makes."""
    outcome: str                    # "ron", "tsumo" or "draw"
    winner: int | None
    loser: int | None
    han: int
    fu: int
    riichi: tuple[int, ...]
    transfers: tuple[Transfer, ...]  # the hand's payments (riichi deposits not included)
    readings: tuple[Reading, ...]
    next_table: Snapshot             # the table as the next hand starts


def base_points(han: int, fu: int) -> int:
    if han >= 13:
        return 8000
    if han >= 11:
        return 6000
    if han >= 8:
        return 4000
    if han >= 6:
        return 3000
    return min(fu * 2 ** (han + 2), 2000)


def _up100(points: float) -> int:
    return -(-int(points) // 100) * 100


def win_payments(outcome: str, winner: int, loser: int | None, dealer: int, seats: int,
                 han: int, fu: int, honba: int, pot: int) -> tuple[Transfer, ...]:
    base = base_points(han, fu)
    out: list[Transfer] = []
    if outcome == "ron":
        out.append(Transfer(loser, winner, _up100(base * (6 if winner == dealer else 4)) + 300 * honba))
    else:
        for seat in range(1, seats + 1):
            if seat != winner:
                share = 2 if winner == dealer or seat == dealer else 1
                out.append(Transfer(seat, winner, _up100(base * share) + 100 * honba))
    if pot:
        out.append(Transfer(POT, winner, pot))
    return tuple(out)


def noten_payments(tenpai: set[int], seats: int) -> tuple[Transfer, ...]:
    if not 0 < len(tenpai) < seats:
        return ()
    noten = [s for s in range(1, seats + 1) if s not in tenpai]
    pool = 3000 if seats == 4 else 2000
    each = pool // (len(noten) * len(tenpai))  # every noten player pays every tenpai player
    return tuple(Transfer(n, t, each) for n in noten for t in sorted(tenpai))


def new_game(seats: int) -> Snapshot:
    return Snapshot((START_POINTS[seats],) * seats, "E1", 0, 0, 1, (False,) * seats)


def game_over(table: Snapshot) -> bool:
    return table.round is None or any(p < 0 for p in table.points)


def play_hand(table: Snapshot, rng: random.Random, pace: float = 6.0) -> Hand:
    """Plan one hand from a table at the start of a hand."""
    seats, dealer = table.seats, table.dealer or 1
    readings: list[Reading] = [Reading(SETTLE_PAUSE, table)]
    current = table

    riichi = [s for s in range(1, seats + 1) if current.points[s - 1] >= RIICHI_STICK and rng.random() < 0.22][:2]
    for seat in riichi:
        current = _riichi_deposit(current, seat, rng.uniform(0.3, 0.6) * pace, readings)

    roll = rng.random()
    han, fu = rng.choices([(h, f) for h, f, _ in COMMON_HANDS], weights=[w for *_, w in COMMON_HANDS])[0]
    pot = RIICHI_STICK * (current.sticks or 0)
    winner = loser = None
    if roll < 0.12:
        outcome = "draw"
        tenpai = {s for s in range(1, seats + 1) if s in riichi or rng.random() < 0.4}
        transfers = noten_payments(tenpai, seats)
        dealer_keeps, honba = dealer in tenpai, (current.honba or 0) + 1
    else:
        outcome = "ron" if roll < 0.72 else "tsumo"
        winner = rng.choice(riichi) if riichi and rng.random() < 0.5 else rng.randint(1, seats)
        loser = rng.choice([s for s in range(1, seats + 1) if s != winner]) if outcome == "ron" else None
        han += len([s for s in riichi if s == winner])
        transfers = win_payments(outcome, winner, loser, dealer, seats, han, fu, current.honba or 0, pot)
        dealer_keeps = winner == dealer
        honba = (current.honba or 0) + 1 if dealer_keeps else 0

    current = _hand_over(current, transfers, rng, pace * rng.uniform(0.2, 0.4), readings)
    next_table = _next_hand(current, dealer_keeps, honba)
    readings.append(Reading(SETTLE_PAUSE, next_table))
    return Hand(outcome, winner, loser, han, fu, tuple(riichi), transfers, tuple(readings), next_table)


def follow_hand(table: Snapshot, target: Snapshot, rng: random.Random, pace: float = 6.0) -> tuple[Reading, ...]:
    """The readings of the players handing sticks over until the drawers show `target`.

    For a table that follows a game kept elsewhere: what moved is whatever makes the drawers and
    the pot reach the target (a win, a riichi deposit, an undo). Sticks leave and land one drawer
    at a time, then the target (with its round, dealer and riichi lamps) shows and settles.
    """
    total = table_points(table)
    if total is None or table_points(target) != total or target.seats != table.seats:
        raise ValueError("the target does not have the same sticks in play as the table")
    readings: list[Reading] = []
    transfers = infer_transfers(table, target, total)
    _hand_over(table, transfers, rng, pace * rng.uniform(0.05, 0.1), readings)
    readings.append(Reading(rng.uniform(0.2, 0.4) if transfers else 0.0, target))
    return tuple(readings)


def _riichi_deposit(table: Snapshot, seat: int, pause: float, readings: list[Reading]) -> Snapshot:
    # the stick leaves the drawer before the table counts it on the felt: a reading short 1000
    mask = tuple(r or s == seat for s, r in enumerate(table.riichi or (False,) * table.seats, start=1))
    lifted = replace(table, points=_add(table.points, seat, -RIICHI_STICK), riichi=mask)
    placed = replace(lifted, sticks=(table.sticks or 0) + 1)
    readings += [Reading(pause, lifted), Reading(0.25, placed), Reading(SETTLE_PAUSE, placed)]
    return placed


def _hand_over(table: Snapshot, transfers: tuple[Transfer, ...], rng: random.Random, pause: float,
               readings: list[Reading]) -> Snapshot:
    """Sticks leave each payer's drawer (in one or two grabs), then land in the payee's."""
    current, first = table, True
    for t in transfers:
        for part in _grabs(t.points, rng):
            current = _take(current, t.payer, part)
            readings.append(Reading(pause if first else rng.uniform(0.1, 0.3), current))
            first = False
        for part in _grabs(t.points, rng):
            current = _take(current, t.payee, -part)
            readings.append(Reading(rng.uniform(0.1, 0.3), current))
    return current


def _grabs(points: int, rng: random.Random) -> list[int]:
    if points < 2000 or rng.random() < 0.5:
        return [points]
    first = rng.randint(1, points // 1000 - 1) * 1000
    return [first, points - first]


def _take(table: Snapshot, party: Party, points: int) -> Snapshot:
    if party == POT:
        return replace(table, sticks=(table.sticks or 0) - points // RIICHI_STICK)
    return replace(table, points=_add(table.points, party, -points))


def _add(points: tuple[int, ...], seat: int, amount: int) -> tuple[int, ...]:
    return tuple(p + amount if s == seat else p for s, p in enumerate(points, start=1))


def _next_hand(table: Snapshot, dealer_keeps: bool, honba: int) -> Snapshot:
    seats, dealer = table.seats, table.dealer or 1
    round_index = ROUNDS.index(table.round) if table.round in ROUNDS else 0
    if not dealer_keeps:
        dealer = dealer % seats + 1
        round_index += 1
        if round_index % 4 == seats:  # three-player rounds have three hands
            round_index += 4 - seats
    # the game ends after the South round (hanchan)
    round_ = ROUNDS[round_index] if round_index < 8 else None
    return replace(table, round=round_, honba=honba, dealer=dealer, riichi=(False,) * seats)
