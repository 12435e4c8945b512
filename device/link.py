"""Link health as pure rules over timestamps: sequence gaps and restarts, and the link state.

No clock inside: every call takes `now` (seconds, any monotonic origin), so each rule is a unit
test with fake time.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from device.frames import DEV_MS_MODULUS, SEQ_MODULUS


class LinkState(str, Enum):
    LIVE = "live"                  # valid frames arriving
    STALE = "stale"                # no bytes at all for a while
    GARBLED = "garbled"            # bytes arriving, but no valid frame among them
    DISCONNECTED = "disconnected"  # the port is gone


@dataclass(frozen=True)
class SeqResult:
    missed: int = 0        # frames lost just before this one
    restart: bool = False  # the device started again (seq back, uptime back)


class SeqTracker:
    """Counts frames lost on the wire from `seq`, telling a restart and a wrap from a gap."""

    def __init__(self) -> None:
        self._last: tuple[int, int] | None = None
        self.missed = 0
        self.restarts = 0

    def forget(self) -> None:
        """After a reconnect the next frame starts afresh (what was lost while unplugged is unknown)."""
        self._last = None

    def observe(self, seq: int, dev_ms: int) -> SeqResult:
        last = self._last
        self._last = (seq, dev_ms)
        if last is None:
            return SeqResult()
        last_seq, last_ms = last
        uptime_step = (dev_ms - last_ms) % DEV_MS_MODULUS
        if uptime_step >= DEV_MS_MODULUS // 2:  # uptime went back: the device restarted
            self.restarts += 1
            return SeqResult(restart=True)
        step = (seq - last_seq) % SEQ_MODULUS
        if step == 0 or step > SEQ_MODULUS // 2:
            return SeqResult()  # a repeat or a step back in time: nothing was lost
        self.missed += step - 1
        return SeqResult(missed=step - 1)


@dataclass(frozen=True)
class LinkTimings:
    stale_after: float = 3.0    # seconds without a byte
    garbled_after: float = 3.0  # seconds of bytes without a valid frame


class LinkMonitor:
    """The link state machine. `state` is None between opening a port and the first verdict."""

    def __init__(self, timings: LinkTimings = LinkTimings()) -> None:
        self.timings = timings
        self.state: LinkState | None = LinkState.DISCONNECTED
        self._last_byte = 0.0
        self._unframed_since: float | None = None  # first byte not yet followed by a valid frame

    def connected(self, now: float) -> LinkState | None:
        self._last_byte = now
        self._unframed_since = None
        return self._set(None)

    def disconnected(self, now: float) -> LinkState | None:
        return self._set(LinkState.DISCONNECTED)

    def bytes_seen(self, now: float) -> LinkState | None:
        self._last_byte = now
        if self._unframed_since is None:
            self._unframed_since = now
        return self.tick(now)

    def frame_seen(self, now: float) -> LinkState | None:
        self._last_byte = now
        self._unframed_since = None
        return self._set(LinkState.LIVE)

    def tick(self, now: float) -> LinkState | None:
        """The new state if time alone changed it, else None."""
        if self.state is LinkState.DISCONNECTED:
            return None
        if now - self._last_byte >= self.timings.stale_after:
            self._unframed_since = None
            return self._set(LinkState.STALE)
        if self._unframed_since is not None and now - self._unframed_since >= self.timings.garbled_after:
            return self._set(LinkState.GARBLED)
        return None

    def _set(self, state: LinkState | None) -> LinkState | None:
        if state is self.state:
            return None
        self.state = state
        return state
