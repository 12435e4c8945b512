"""What the reader reports, and its one-line JSON form (`tenbou table watch --json`)."""
from __future__ import annotations

from dataclasses import dataclass

from device.frames import Diagnostic, Hello, Snapshot
from device.settle import Payment


@dataclass(frozen=True)
class LinkEvent:
    state: str                 # live, stale, garbled, disconnected
    reason: str | None = None  # why the port is gone, in a player's words


@dataclass(frozen=True)
class StateEvent:
    snapshot: Snapshot
    settled: bool


@dataclass(frozen=True)
class PaymentEvent:
    payment: Payment


@dataclass(frozen=True)
class HelloEvent:
    hello: Hello


@dataclass(frozen=True)
class DiagnosticEvent:
    diagnostic: Diagnostic


@dataclass(frozen=True)
class NewGameEvent:
    """The drawers were set out for a new game (device.settle.set_out): not a payment."""
    snapshot: Snapshot


@dataclass(frozen=True)
class RestartEvent:
    """The table's bridge started again (seq and uptime went back)."""


@dataclass(frozen=True)
class StatsEvent:
    counts: dict[str, int]


Event = (LinkEvent | StateEvent | PaymentEvent | NewGameEvent | HelloEvent | DiagnosticEvent | RestartEvent
         | StatsEvent)


def snapshot_json(snap: Snapshot) -> dict:
    return {"points": list(snap.points), "round": snap.round, "honba": snap.honba, "sticks": snap.sticks,
            "dealer": snap.dealer,
            "riichi": None if snap.riichi is None else [seat for seat, r in enumerate(snap.riichi, 1) if r]}


def to_json(event: Event) -> dict:
    if isinstance(event, LinkEvent):
        out = {"event": "link", "state": event.state}
        if event.reason:
            out["reason"] = event.reason
        return out
    if isinstance(event, StateEvent):
        return {"event": "state", **snapshot_json(event.snapshot), "settled": event.settled}
    if isinstance(event, PaymentEvent):
        p = event.payment
        return {"event": "payment", "transfers": [t.to_json() for t in p.transfers],
                "round": p.before.round, "honba": p.before.honba, "dealer": p.before.dealer,
                "points_before": list(p.before.points), "points_after": list(p.after.points)}
    if isinstance(event, HelloEvent):
        h = event.hello
        return {"event": "hello", "fw": h.fw, "model": h.model, "seats": h.seats, "total": h.total}
    if isinstance(event, DiagnosticEvent):
        return {"event": "diagnostic", "code": event.diagnostic.code, "fields": dict(event.diagnostic.fields)}
    if isinstance(event, NewGameEvent):
        return {"event": "new_game", **snapshot_json(event.snapshot)}
    if isinstance(event, RestartEvent):
        return {"event": "restart"}
    return {"event": "stats", **event.counts}
