"""How often a wrong join code may be tried: token buckets per client address and per session.

A join code is six characters from 31 (about 30 bits). Unthrottled, 300 guesses a second find
one in weeks; at one guess every two seconds per session it takes decades. Only a wrong code
spends a token, so a phone that types its code right is never slowed, and players already
joined (by cookie) never meet the throttle at all. With one server (SQLite) the buckets live in
memory: a restart forgets them, which costs a guesser nothing they could not get by waiting.
Servers sharing one PostgreSQL keep them in its `throttle` table (`SharedBuckets`), so a
guesser spread over them is slowed as if there were one.
"""
from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from webui.storage.schema.tables import throttle as throttle_t


def refilled(capacity: float, refill_s: float, tokens: float, elapsed: float) -> float:
    """A bucket's tokens `elapsed` seconds after it held `tokens` (a clock that stepped back
    refills nothing)."""
    return min(capacity, tokens + max(0.0, elapsed) / refill_s)


def seconds_to_wait(level: float, refill_s: float) -> float:
    """Until a bucket at `level` holds a token again; 0 while it has one."""
    return 0.0 if level >= 1 else (1 - level) * refill_s


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
        return refilled(self.capacity, self.refill_s, tokens, now - then)

    def wait(self, key: str) -> float:
        """Seconds until `key` may try again; 0 while it has a token."""
        with self._lock:
            level = self._level(key, self.clock())
        return seconds_to_wait(level, self.refill_s)

    def take(self, key: str) -> None:
        """Spend one of `key`'s tokens (never below none)."""
        with self._lock:
            now = self.clock()
            self._tokens[key] = (max(0.0, self._level(key, now) - 1), now)
            self._tokens.move_to_end(key)
            while len(self._tokens) > self.most_keys:
                self._tokens.popitem(last=False)


@dataclass
class SharedBuckets:
    """`TokenBuckets` kept in the database's `throttle` table, for every server on it. A key is
    stored with `prefix`, one row a key; rows of buckets full again are deleted as others are
    spent, so the table holds the keys of the last few minutes' wrong codes."""
    engine: sa.Engine
    capacity: float
    refill_s: float
    prefix: str
    clock: Callable[[], float] = time.time          # wall time: the servers may be several machines

    def wait(self, key: str) -> float:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(throttle_t.c.tokens, throttle_t.c.at)
                               .where(throttle_t.c.key == self.prefix + key)).first()
        level = (self.capacity if row is None
                 else refilled(self.capacity, self.refill_s, row.tokens, self.clock() - row.at))
        return seconds_to_wait(level, self.refill_s)

    def take(self, key: str) -> None:
        now = self.clock()
        insert = (postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert)(throttle_t)
        refilled = sa.func.min if self.engine.dialect.name == "sqlite" else sa.func.least
        floor = sa.func.max if self.engine.dialect.name == "sqlite" else sa.func.greatest
        # one statement: servers spending the same key at once each take a token
        level = refilled(self.capacity, throttle_t.c.tokens + (now - throttle_t.c.at) / self.refill_s)
        statement = insert.values(key=self.prefix + key, tokens=self.capacity - 1, at=now).on_conflict_do_update(
            index_elements=[throttle_t.c.key], set_={"tokens": floor(0.0, level - 1), "at": now})
        with self.engine.begin() as conn:
            conn.execute(statement)
            conn.execute(throttle_t.delete().where(throttle_t.c.key.startswith(self.prefix),
                                                   throttle_t.c.at < now - self.capacity * self.refill_s))


@dataclass
class JoinThrottle:
    """Wrong join codes: ten in a row from one address, then one every six seconds; thirty in a
    row at one session from anywhere, then one every two seconds."""
    per_client: TokenBuckets | SharedBuckets = field(default_factory=lambda: TokenBuckets(10, 6.0))
    per_session: TokenBuckets | SharedBuckets = field(default_factory=lambda: TokenBuckets(30, 2.0))

    @classmethod
    def shared(cls, engine: sa.Engine) -> "JoinThrottle":
        """The same limits, counted in the database for every server on it."""
        return cls(SharedBuckets(engine, 10, 6.0, "client:"), SharedBuckets(engine, 30, 2.0, "target:"))

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
