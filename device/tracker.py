"""Everything the host makes of the wire, without the wire: bytes and timestamps in, events out.

The reader thread owns the port and the clock and feeds this; tests and the benchmark feed it
directly.
"""
from __future__ import annotations

from device.decoder import FrameDecoder
from device.events import (DiagnosticEvent, Event, HelloEvent, LinkEvent, NewGameEvent, PaymentEvent,
                           RestartEvent, StateEvent)
from device.frames import Diagnostic, Hello, State
from device.link import LinkMonitor, LinkState, LinkTimings, SeqTracker
from device.settle import Settler, set_out


class TableTracker:
    def __init__(self, total: int | None = None, timings: LinkTimings = LinkTimings(), hold: float = 1.0) -> None:
        self.decoder = FrameDecoder()
        self.seq = SeqTracker()
        self.link = LinkMonitor(timings)
        self.settler = Settler(total, hold)
        self._total_fixed = total is not None  # --total beats the hello
        self.hello: Hello | None = None
        self.reconnects = 0

    @property
    def needs_hello(self) -> bool:
        return self.hello is None

    def connected(self, now: float) -> list[Event]:
        self.link.connected(now)
        self.seq.forget()
        return []

    def disconnected(self, now: float, reason: str | None = None) -> list[Event]:
        was_open = self.link.state is not LinkState.DISCONNECTED
        self.decoder.reset()
        self.reconnects += was_open
        changed = self.link.disconnected(now)
        return [LinkEvent(changed.value, reason)] if changed else []

    def announce_disconnected(self, reason: str) -> list[Event]:
        """The port could not be opened at all (yet): say so once."""
        return [LinkEvent(LinkState.DISCONNECTED.value, reason)]

    def feed(self, data: bytes, now: float) -> list[Event]:
        events: list[Event] = []
        if not data:
            return self.tick(now)
        self._link_event(self.link.bytes_seen(now), events)
        for frame in self.decoder.feed(data):
            self._link_event(self.link.frame_seen(now), events)
            self._frame(frame, now, events)
        events.extend(self._settle(now))
        return events

    def tick(self, now: float) -> list[Event]:
        events: list[Event] = []
        self._link_event(self.link.tick(now), events)
        events.extend(self._settle(now))
        return events

    def stats(self) -> dict[str, int]:
        return {**self.decoder.stats.to_dict(), "seq_gaps": self.seq.missed,
                "restarts": self.seq.restarts, "reconnects": self.reconnects}

    def _frame(self, frame, now: float, events: list[Event]) -> None:
        if self.seq.observe(frame.seq, frame.dev_ms).restart:
            self.hello = None
            self.settler.forget()
            events.append(RestartEvent())
        if isinstance(frame, Hello):
            self.hello = frame
            if frame.total is not None and not self._total_fixed:
                self.settler.total = frame.total
            events.append(HelloEvent(frame))
        elif isinstance(frame, State):
            if self.settler.observe(frame.snapshot, now):
                # back to the settled reading after a transient one: it is still settled
                events.append(StateEvent(frame.snapshot, settled=frame.snapshot == self.settler.settled))
        elif isinstance(frame, Diagnostic):
            events.append(DiagnosticEvent(frame))

    def _settle(self, now: float) -> list[Event]:
        before = self.settler.settled
        done = self.settler.tick(now)
        if done is None:
            return []
        snap, payment = done
        events: list[Event] = [StateEvent(snap, settled=True)]
        if payment is not None:
            events.append(PaymentEvent(payment))
        elif before is not None and set_out(snap):
            events.append(NewGameEvent(snap))
        return events

    @staticmethod
    def _link_event(changed: LinkState | None, events: list[Event]) -> None:
        if changed is not None:
            events.append(LinkEvent(changed.value))
