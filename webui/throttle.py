"""How often a wrong join code may be tried: token buckets per client address and per session.

A join code is six characters from 31 (about 30 bits). Unthrottled, 300 guesses a second find
one in weeks; at one guess every two seconds per session it takes decades. Only a wrong code
spends a token, so a phone that types its code right is never slowed, and players already
joined (by cookie) never meet the throttle at all. The buckets live in memory: a restart
forgets them, which costs a guesser nothing they could not get by waiting.
"""
from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class TokenBuckets:
    """One bucket of `capacity` tokens per key, refilled one token every `refill_s` seconds.

    Buckets are kept for the `most_keys` keys touched last: a full bucket is the same as no
    bucket, so forgetting the oldest bounds memory and at worst forgives an old guesser.
    """
    capacity: float
    refill_s: float
    most_keys: int = 4096
    clock: Callable[[], float] = time.monotonic
    _tokens: OrderedDict = field(default_factory=OrderedDict)     # key -> (tokens, as of when)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _level(self, key: str, now: float) -> float:
        tokens, then = self._tokens.get(key, (self.capacity, now))
        return min(self.capacity, tokens + (now - then) / self.refill_s)

    def wait(self, key: str) -> float:
        """Seconds until `key` may try again; 0 while it has a token."""
        with self._lock:
            level = self._level(key, self.clock())
        return 0.0 if level >= 1 else (1 - level) * self.refill_s

    def take(self, key: str) -> None:
        """Spend one of `key`'s tokens (never below none)."""
        with self._lock:
            now = self.clock()
            self._tokens[key] = (max(0.0, self._level(key, now) - 1), now)
            self._tokens.move_to_end(key)
            while len(self._tokens) > self.most_keys:
                self._tokens.popitem(last=False)


@dataclass
class JoinThrottle:
    """Wrong join codes: ten in a row from one address, then one every six seconds; thirty in a
    row at one session from anywhere, then one every two seconds."""
    per_client: TokenBuckets = field(default_factory=lambda: TokenBuckets(10, 6.0))
    per_session: TokenBuckets = field(default_factory=lambda: TokenBuckets(30, 2.0))

    def retry_after(self, client: str, session_id: str | None) -> int:
        """Whole seconds to wait before this client may try a code at this session; 0: now."""
        waits = [self.per_client.wait(client)]
        if session_id is not None:
            waits.append(self.per_session.wait(session_id))
        return math.ceil(max(waits))

    def wrong(self, client: str, session_id: str | None) -> None:
        self.per_client.take(client)
        if session_id is not None:
            self.per_session.take(session_id)
