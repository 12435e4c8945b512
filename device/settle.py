"""Settled states and the payments between them, as pure code (timestamps are arguments).

A snapshot is *settled* once the same snapshot has held for `hold` seconds and its points add
up to the total (all drawers plus 1000 a riichi stick on the table). Payments are inferred only
from one settled snapshot to the next, so sticks caught half-way between drawers never count,
and never into the layout of a new game set out (`set_out`).
"""
from __future__ import annotations

from dataclasses import dataclass

from device.frames import Snapshot

RIICHI_STICK = 1000
POT = "pot"
Party = int | str  # a seat 1..n, or POT for the riichi sticks on the table


@dataclass(frozen=True)
class Transfer:
    payer: Party
    payee: Party
    points: int

    def to_json(self) -> dict:
        return {"from": self.payer, "to": self.payee, "points": self.points}


@dataclass(frozen=True)
class Payment:
    """What changed hands between two settled snapshots."""
    before: Snapshot
    after: Snapshot
    transfers: tuple[Transfer, ...]

    def net(self) -> dict[Party, int]:
        return net_of(self.transfers)


def table_points(snap: Snapshot) -> int | None:
    """All drawers plus the riichi sticks on the table, or None when the sticks are unknown."""
    if snap.sticks is None:
        return None
    return sum(snap.points) + RIICHI_STICK * snap.sticks


def pot_points(snap: Snapshot, total: int) -> int | None:
    """Points lying on the table as riichi sticks; inferred from the total when the table cannot tell."""
    if snap.sticks is not None:
        return RIICHI_STICK * snap.sticks
    rest = total - sum(snap.points)
    return rest if rest >= 0 and rest % RIICHI_STICK == 0 else None


def adds_up(snap: Snapshot, total: int) -> bool:
    pot = pot_points(snap, total)
    return pot is not None and sum(snap.points) + pot == total


def set_out(snap: Snapshot) -> bool:
    """The sticks set out for a new game, not paid: nothing on the table, no honba, East 1 (or a
    table that cannot tell), every seat in play even and any seat nobody plays empty (three
    players at a four-seat table). Whatever the starting points: 25000, 30000, 35000 or a club's.
    No hand ends like this: a win or a draw moves the round on or adds a honba."""
    if snap.honba or snap.sticks or snap.round not in (None, "E1"):
        return False
    in_play = [points for points in snap.points if points]
    return len(in_play) >= 2 and len(set(in_play)) == 1 and in_play[0] > 0


class Settler:
    """Watches snapshots; says when one settles and what was paid since the last settled one."""

    def __init__(self, total: int | None = None, hold: float = 1.0) -> None:
        self.total = total                 # from --total or the hello; else the first steady sum
        self.hold = hold
        self.settled: Snapshot | None = None
        self._candidate: Snapshot | None = None
        self._since = 0.0

    def observe(self, snap: Snapshot, now: float) -> bool:
        """Record a reading; True when it differs from the previous reading."""
        if snap == self._candidate:
            return False
        self._candidate, self._since = snap, now
        return True

    def forget(self) -> None:
        """After a device restart the next settled state is a fresh start, not a payment."""
        self.settled = None
        self._candidate = None

    def tick(self, now: float) -> tuple[Snapshot, Payment | None] | None:
        """(newly settled snapshot, payment from the previous settled one or None), or None."""
        snap = self._candidate
        if snap is None or snap == self.settled or now - self._since < self.hold:
            return None
        if self.total is None:
            steady = table_points(snap)
            if steady is None:
                return None
            self.total = steady
        if not adds_up(snap, self.total):
            return None
        before, self.settled = self.settled, snap
        if before is None or set_out(snap):     # a table reset to a new game pays nobody
            return snap, None
        transfers = infer_transfers(before, snap, self.total)
        return snap, (Payment(before, snap, transfers) if transfers else None)


def deltas(before: Snapshot, after: Snapshot, total: int) -> dict[Party, int]:
    """Each party's gain (negative: paid), the pot included; empty when seats differ."""
    if before.seats != after.seats:
        return {}
    change: dict[Party, int] = {seat: a - b for seat, (b, a) in enumerate(zip(before.points, after.points), start=1)}
    pot_before, pot_after = pot_points(before, total), pot_points(after, total)
    change[POT] = (pot_after or 0) - (pot_before or 0)
    return change


def infer_transfers(before: Snapshot, after: Snapshot, total: int) -> tuple[Transfer, ...]:
    """Who paid whom how much between two settled snapshots.

    One receiver (a ron, a tsumo, a riichi deposit, the pot to a winner): every payer pays it.
    One payer (a double ron): it pays each receiver. Otherwise (noten payments) the largest
    payer pays the largest receiver first: the net per seat, which is what a ledger checks,
    is exact either way.
    """
    change = deltas(before, after, total)
    payers = [[p, -d] for p, d in change.items() if d < 0]
    payees = [[p, d] for p, d in change.items() if d > 0]
    if len(payees) == 1:
        return tuple(Transfer(p, payees[0][0], owed) for p, owed in payers)
    if len(payers) == 1:
        return tuple(Transfer(payers[0][0], p, due) for p, due in payees)
    payers.sort(key=lambda item: -item[1])
    payees.sort(key=lambda item: -item[1])
    transfers: list[Transfer] = []
    i = j = 0
    while i < len(payers) and j < len(payees):
        amount = min(payers[i][1], payees[j][1])
        transfers.append(Transfer(payers[i][0], payees[j][0], amount))
        payers[i][1] -= amount
        payees[j][1] -= amount
        i += payers[i][1] == 0
        j += payees[j][1] == 0
    return tuple(transfers)


def net_of(transfers) -> dict[Party, int]:
    """Net gain per party of a list of transfers (split or merged entries sum up)."""
    net: dict[Party, int] = {}
    for t in transfers:
        net[t.payer] = net.get(t.payer, 0) - t.points
        net[t.payee] = net.get(t.payee, 0) + t.points
    return {party: value for party, value in net.items() if value}
