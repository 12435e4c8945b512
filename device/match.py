"""Does what moved on the table match the hand that was scored?

The table numbers seats 1..n in table order; a scored hand (hand JSON `transfers`) names players
by seat wind, with "pot" for the riichi sticks. The dealer's seat joins the two: the dealer is
East and the winds follow in table order. Only the net per party is compared, because a hand's
transfers may be split (hand, honba) or merged.
"""
from __future__ import annotations

from dataclasses import dataclass

from device.settle import POT, Party, Transfer, net_of
from scorer.tiles import WIND_LETTERS, WIND_NAMES



@dataclass(frozen=True)
class Difference:
    party: Party              # seat 1..n or "pot"
    wind: str | None          # the seat's wind this hand, None for the pot
    expected: int             # net gain the scored hand says
    observed: int             # net gain the sticks show

    def to_json(self) -> dict:
        return {"seat": self.party, "wind": self.wind, "expected": self.expected, "observed": self.observed}

    def message(self) -> str:
        who = "the riichi sticks on the table" if self.party == POT else f"seat {self.party} ({WIND_NAMES[self.wind]})"
        return f"{who}: the hand says {_signed(self.expected)}, the sticks moved {_signed(self.observed)}"


@dataclass(frozen=True)
class PaymentMatch:
    matched: bool
    differences: tuple[Difference, ...] = ()

    def to_json(self) -> dict:
        return {"matched": self.matched, "differences": [d.to_json() for d in self.differences]}


def seat_winds(dealer_seat: int, seats: int) -> dict[int, str]:
    """Seat number -> seat wind this hand."""
    if not 1 <= dealer_seat <= seats or seats not in (3, 4):
        raise ValueError(f"dealer seat {dealer_seat} is not one of the {seats} seats")
    return {seat: WIND_LETTERS[(seat - dealer_seat) % seats] for seat in range(1, seats + 1)}


def match_payment(observed: list[Transfer] | tuple[Transfer, ...], scored: list[dict],
                  dealer_seat: int, seats: int) -> PaymentMatch:
    """Compare the transfers inferred from the sticks with a scored hand's `transfers`."""
    winds = seat_winds(dealer_seat, seats)
    seat_of = {wind: seat for seat, wind in winds.items()}
    expected_transfers = []
    for entry in scored:
        payer, payee = _party(entry["from"], seat_of), _party(entry["to"], seat_of)
        expected_transfers.append(Transfer(payer, payee, int(entry["points"])))
    expected, seen = net_of(expected_transfers), net_of(observed)
    parties = sorted(set(expected) | set(seen), key=lambda p: (p == POT, p if p != POT else 0))
    differences = tuple(
        Difference(p, None if p == POT else winds[p], expected.get(p, 0), seen.get(p, 0))
        for p in parties if expected.get(p, 0) != seen.get(p, 0))
    return PaymentMatch(not differences, differences)


def _party(name: str, seat_of: dict[str, int]) -> Party:
    if name == POT:
        return POT
    if name not in seat_of:
        raise ValueError(f"{name!r} is not a seat wind at this table")
    return seat_of[name]


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)
