"""A simulated automatic table: a game played on its drawers, told as MJ1 frames.

`SimulatedTable.step(now, incoming)` is the whole bridge without a port: given the time and
what the host sent, it returns the bytes to send. It sends a state on every change and at least
once a second, a hello at start, every 10 s and in answer to a `?` line, diagnostics now and
then, and the faults asked for, one every `fault_every` seconds, in turn.
"""
from __future__ import annotations

import queue
import random
from collections import deque
from dataclasses import dataclass

from device import faults
from device.frames import Snapshot, encode_frame, hello_fields, snapshot_fields
from device.game import SETTLE_PAUSE, START_POINTS, Hand, Reading, follow_hand, game_over, new_game, play_hand
from device.settle import table_points

HELLO_EVERY = 10.0
STATE_EVERY = 1.0
FW_VERSION = "1.0.0"
MODEL = "Tenbou-Sim"


@dataclass
class SimOptions:
    seats: int = 4
    seed: int | None = None
    pace: float = 6.0                  # seconds a hand takes, roughly
    faults: tuple[str, ...] = ()       # names from faults.FAULTS
    fault_every: float = 8.0
    silence: float = 5.0               # seconds the "silence" fault lasts
    flood: int = 2000                  # frames the "flood" fault sends at once
    follow: bool = False               # show states told by follow() instead of playing a game


class Bridge:
    """Frame numbering and uptime, as the bridge's firmware keeps them."""

    def __init__(self, now: float) -> None:
        self.restart(now)

    def restart(self, now: float) -> None:
        self.seq = 0
        self.boot = now - 0.8  # firmware takes a moment before the first frame

    def frame(self, type_: str, fields: list[str], now: float) -> bytes:
        out = encode_frame(self.seq, int((now - self.boot) * 1000), type_, fields)
        self.seq = (self.seq + 1) % 65536
        return out

    def skip(self, now: float) -> tuple[int, int]:
        """A seq number and uptime for a frame that will not arrive whole (the host counts it lost)."""
        seq, dev_ms = self.seq, int((now - self.boot) * 1000)
        self.seq = (self.seq + 1) % 65536
        return seq, dev_ms


class SimulatedTable:
    def __init__(self, options: SimOptions, now: float) -> None:
        unknown = set(options.faults) - set(faults.FAULTS)
        if unknown:
            raise ValueError(f"unknown fault {sorted(unknown)[0]!r}; choose from {', '.join(faults.FAULTS)}")
        self.options = options
        self.rng = random.Random(options.seed)
        # faults draw from their own generator, so a game replays the same with or without them
        self.fault_rng = random.Random(None if options.seed is None else options.seed + 1)
        self.bridge = Bridge(now)
        self.table = new_game(options.seats)
        self.shown = self.table
        self.hands: list[Hand] = []          # what was played, for tests to compare with the host
        self._readings: deque[Reading] = deque()
        self._next_reading = now
        self._last_state = -STATE_EVERY
        self._last_hello = now - HELLO_EVERY
        self._silent_until = now
        self._fault_turn = 0
        self._next_fault = now + options.fault_every
        self._diagnostic_at: float | None = None
        self._input = bytearray()
        self._targets: queue.SimpleQueue[Snapshot] = queue.SimpleQueue()
        self._power_cycles: queue.SimpleQueue[tuple[Snapshot, bool]] = queue.SimpleQueue()
        self._switched_on = not options.follow

    def follow(self, target: Snapshot) -> None:
        """Have the drawers reach `target` next (thread-safe); the first call switches the table on."""
        if not self.options.follow:
            raise ValueError("this simulated table plays its own game; make it with SimOptions(follow=True)")
        if len(target.points) != self.options.seats or table_points(target) is None:
            raise ValueError(f"a followed state needs {self.options.seats} seats' points and the sticks on the table")
        self._targets.put(target)

    def power_cycle(self, showing: Snapshot, bridge_restarts: bool = True) -> None:
        """Switch the table off and on (thread-safe): its drawers show `showing` at once, with
        no hand-over (a new game set out, or sticks moved while it was off). A bridge the table
        powers restarts with it; one powered by the host's USB keeps counting."""
        if len(showing.points) != self.options.seats:
            raise ValueError(f"the table has {self.options.seats} seats")
        self._power_cycles.put((showing, bridge_restarts))

    def step(self, now: float, incoming: bytes = b"") -> bytes:
        if now < self._silent_until:
            return b""  # the bridge is hung: it neither sends nor hears
        if not self._switched_on and not self._switch_on(now):
            return b""
        self._power_cycle(now)
        out = bytearray()
        if self._hello_asked(incoming) or now - self._last_hello >= HELLO_EVERY:
            out += self._hello(now)
        changed = self._advance(now)
        if changed or now - self._last_state >= STATE_EVERY:
            out += self._state(now)
        if self._diagnostic_at is not None and now >= self._diagnostic_at:
            seat = self.rng.randint(1, self.options.seats)
            out += self.bridge.frame("D", ["STICK_ERR", f"seat={seat}"], now)
            self._diagnostic_at = None
        if self.options.faults and now >= self._next_fault:
            out += self._fault(now)
        return bytes(out)

    def next_due(self) -> float:
        """When step() next has something to send, at the latest."""
        if not self._switched_on:
            return float("inf")  # nothing until follow() is called; the run loop still polls
        reading_due = self._next_reading if self._readings or not self.options.follow else float("inf")
        due = min(reading_due, self._last_state + STATE_EVERY, self._last_hello + HELLO_EVERY)
        if self.options.faults:
            due = min(due, self._next_fault)
        return max(due, self._silent_until)

    def _hello_asked(self, incoming: bytes) -> bool:
        self._input += incoming
        lines = self._input.split(b"\n")
        self._input = bytearray(lines.pop()[-64:])
        return any(line.strip() == b"?" for line in lines)

    def _hello(self, now: float) -> bytes:
        self._last_hello = now
        # the sticks in the box, not a reading
        total = table_points(self.table) if self.options.follow else START_POINTS[self.options.seats] * self.options.seats
        return self.bridge.frame("H", hello_fields(FW_VERSION, MODEL, self.options.seats, total), now)

    def _state(self, now: float) -> bytes:
        self._last_state = now
        return self.bridge.frame("S", snapshot_fields(self.shown), now)

    def _switch_on(self, now: float) -> bool:
        """A following table comes on when it is first told what to show."""
        try:
            self.table = self.shown = self._targets.get_nowait()
        except queue.Empty:
            return False
        self._switched_on = True
        self._next_reading = now
        self.bridge.restart(now)
        self._last_hello = now - HELLO_EVERY
        self._last_state = now - STATE_EVERY
        return True

    def _power_cycle(self, now: float) -> None:
        try:
            showing, bridge_restarts = self._power_cycles.get_nowait()
        except queue.Empty:
            return
        self.table = self.shown = showing
        self._readings.clear()
        self._last_state = now - STATE_EVERY        # the new drawers go out at once
        if bridge_restarts:
            self._restart_bridge(now)

    def _restart_bridge(self, now: float) -> None:
        self.bridge.restart(now)
        self._last_hello = now - HELLO_EVERY        # a bridge says hello as it comes up

    def _advance(self, now: float) -> bool:
        """Show the next planned reading when its time has come; plan a hand when none is left."""
        if self.options.follow:
            if self._plan_followed(now):
                return True
        elif not self._readings:
            if game_over(self.table):
                return self._new_game(now)
            hand = play_hand(self.table, self.rng, self.options.pace)
            self.hands.append(hand)
            self.table = hand.next_table
            self._readings.extend(hand.readings)
            self._next_reading = now + self._readings[0].pause
            if self.rng.random() < 0.25:
                self._diagnostic_at = now + self.rng.uniform(0, self.options.pace)
        if not self._readings or now < self._next_reading:
            return False
        reading = self._readings.popleft()
        if self._readings:
            self._next_reading += self._readings[0].pause
        changed = reading.snapshot != self.shown
        self.shown = reading.snapshot
        return changed

    def _plan_followed(self, now: float) -> bool:
        """Plan the hand-over to the next state told; True when the table was restarted instead."""
        # one hand-over at a time: a state told meanwhile waits until the last one has settled
        if self._readings or now < self._next_reading + SETTLE_PAUSE:
            return False
        try:
            target = self._targets.get_nowait()
        except queue.Empty:
            return False
        if table_points(target) != table_points(self.table):
            # other sticks in play (a correction): recounted with the table switched off and on
            self.table = self.shown = target
            self._restart_bridge(now)
            return True
        readings = follow_hand(self.table, target, self.rng, self.options.pace)
        self.table = target
        self._readings.extend(readings)
        self._next_reading = now + readings[0].pause
        return False

    def _new_game(self, now: float) -> bool:
        # between games the table is switched off and on: the host sees a restart, not a payment
        self.table = self.shown = new_game(self.options.seats)
        self._restart_bridge(now)
        return True

    def _fault(self, now: float) -> bytes:
        opts = self.options
        name = opts.faults[self._fault_turn % len(opts.faults)]
        self._fault_turn += 1
        self._next_fault = now + opts.fault_every * self.fault_rng.uniform(0.7, 1.3)
        if name == "garbage":
            return faults.garbage(self.fault_rng)
        if name == "badcrc":
            wrong = faults.wrong_points(self.shown, self.fault_rng)
            return faults.bad_crc(encode_frame(*self.bridge.skip(now), "S", snapshot_fields(wrong)))
        if name == "cut":
            return faults.cut(encode_frame(*self.bridge.skip(now), "S", snapshot_fields(self.shown)), self.fault_rng)
        if name == "overlong":
            return faults.overlong(*self.bridge.skip(now), self.shown)
        if name == "flood":
            fields = snapshot_fields(self.shown)
            return b"".join(self.bridge.frame("S", fields, now) for _ in range(opts.flood))
        if name == "silence":
            self._silent_until = now + opts.silence
            return b""
        self.bridge.restart(now)  # "restart"
        return self._hello(now)
