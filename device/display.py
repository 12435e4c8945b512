"""The watch output for a person: one short line or two an event, in players' words."""
from __future__ import annotations

import time

from device.events import (DiagnosticEvent, Event, HelloEvent, LinkEvent, NewGameEvent, PaymentEvent,
                           RestartEvent, StateEvent, StatsEvent)
from device.frames import Snapshot
from device.settle import POT

LINK_WORDS = {
    "live": "table connected, reading points",
    "stale": "the table has gone quiet (no data for 3 s)",
    "garbled": "data arriving but none of it readable (wrong baud rate or a loose wire?)",
    "disconnected": "table not connected",
}
STAT_WORDS = (("frames", "frames"), ("bad_crc", "bad checksums"), ("malformed", "unreadable"),
              ("overlong", "overlong lines"), ("garbage_bytes", "noise bytes"), ("seq_gaps", "frames lost"),
              ("restarts", "table restarts"), ("reconnects", "reconnects"))


def describe(event: Event, clock=time.localtime) -> str:
    stamp = time.strftime("%H:%M:%S", clock())
    return f"{stamp}  {_body(event)}".replace("\n", "\n" + " " * (len(stamp) + 2))


def _body(event: Event) -> str:
    if isinstance(event, LinkEvent):
        words = LINK_WORDS.get(event.state, event.state)
        return f"link {event.state}: {words}" + (f" — {event.reason}" if event.reason else "")
    if isinstance(event, StateEvent):
        return _snapshot(event.snapshot, event.settled)
    if isinstance(event, PaymentEvent):
        moves = ", ".join(f"{_party(t.payer)} → {_party(t.payee)} {t.points}" for t in event.payment.transfers)
        return f"paid: {moves}"
    if isinstance(event, NewGameEvent):
        return f"new game set out: {max(event.snapshot.points)} each (not a payment)"
    if isinstance(event, HelloEvent):
        h = event.hello
        return f"table {h.model or '?'} (firmware {h.fw or '?'}), {h.seats or '?'} seats, {h.total or '?'} points in play"
    if isinstance(event, DiagnosticEvent):
        d = event.diagnostic
        details = " ".join(f"{k}={v}" for k, v in d.fields.items())
        return f"table reports {d.code} {details}".rstrip()
    if isinstance(event, RestartEvent):
        return "the table restarted"
    if isinstance(event, StatsEvent):
        return "link stats: " + ", ".join(f"{words} {event.counts.get(key, 0)}" for key, words in STAT_WORDS)
    return repr(event)


def _snapshot(snap: Snapshot, settled: bool) -> str:
    sticks = "?" if snap.sticks is None else snap.sticks
    head = f"{snap.round or 'round ?'}, honba {'?' if snap.honba is None else snap.honba}, riichi sticks {sticks}"
    seats = []
    for seat, points in enumerate(snap.points, start=1):
        marks = [m for m, on in (("dealer", snap.dealer == seat),
                                 ("riichi", bool(snap.riichi and snap.riichi[seat - 1]))) if on]
        seats.append(f"seat {seat}{' (' + ', '.join(marks) + ')' if marks else ''} {points}")
    status = "settled" if settled else "counting…"
    return f"{head}  [{status}]\n" + " · ".join(seats)


def _party(party) -> str:
    return "the table (riichi sticks)" if party == POT else f"seat {party}"
