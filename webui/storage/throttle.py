"""How often a wrong join code may be tried, and how often one address may start sessions and
clubs: token buckets, in memory for one server (SQLite) or in the database's `throttle` table
for every server sharing one PostgreSQL (`SharedBuckets`), so a guesser spread over them is
slowed as if there were one.

A join code is six characters from 31 (about 30 bits). Only a wrong code spends a token, and a
guesser's wrong codes are counted against the one target (session or club) they guess at, so
they never slow a phone with the right code for another, nor one arriving with the right code
for the same (`JoinThrottle`; docs/web.md has the arithmetic). A restart of a single server
forgets the buckets, which costs a guesser nothing they could not get by waiting.
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

    def level(self, key: str) -> float:
        """The tokens `key` holds now (`capacity` when it never spent one)."""
        with self._lock:
            return self._level(key, self.clock())

    def wait(self, key: str) -> float:
        """Seconds until `key` may try again; 0 while it has a token."""
        return seconds_to_wait(self.level(key), self.refill_s)

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

    def level(self, key: str) -> float:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(throttle_t.c.tokens, throttle_t.c.at)
                               .where(throttle_t.c.key == self.prefix + key)).first()
        return (self.capacity if row is None
                else refilled(self.capacity, self.refill_s, row.tokens, self.clock() - row.at))

    def wait(self, key: str) -> float:
        return seconds_to_wait(self.level(key), self.refill_s)

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


Buckets = TokenBuckets | SharedBuckets
# Every id that names no session or club is one target: guessing at nothing finds nothing.
NO_TARGET = "-"


@dataclass
class JoinThrottle:
    """Wrong join codes, counted per guesser at one target and per target from anywhere.

    - A guesser (an address, at one session or club) has ten wrong codes there, then one a
      minute. Its wrong codes slow nobody else (but phones sharing its address, at that target
      only), and itself at no other target.
    - A target takes thirty wrong codes from anywhere, then one every two seconds. While it has
      none left, only an address with no wrong code there in the last minute (its own bucket
      full: a phone arriving with the code) is answered; the others wait their turn.

    So a phone with the right code for a target it has not guessed at is never refused, however
    many addresses guess there, and k addresses guessing at a target all day are answered at
    most k x (10 + 1,440) times: 5,796 for four, of 887 million codes.
    """
    per_guesser: Buckets = field(default_factory=lambda: TokenBuckets(10, 60.0, most_keys=65536))
    per_target: Buckets = field(default_factory=lambda: TokenBuckets(30, 2.0, most_keys=65536))

    @classmethod
    def shared(cls, engine: sa.Engine) -> "JoinThrottle":
        """The same limits, counted in the database for every server on it."""
        return cls(SharedBuckets(engine, 10, 60.0, "client:"), SharedBuckets(engine, 30, 2.0, "target:"))

    def retry_after(self, client: str, target: str | None) -> int:
        """Whole seconds to wait before `client` may try a code at `target` (a session or club
        id; None: no such one); 0: now."""
        target = target or NO_TARGET
        own = self.per_guesser.level(f"{client} {target}")
        if own < 1:
            return math.ceil(seconds_to_wait(own, self.per_guesser.refill_s))
        if own < self.per_guesser.capacity:         # it guessed wrong here lately: the target's turn
            return math.ceil(self.per_target.wait(target))
        return 0

    def wrong(self, client: str, target: str | None) -> None:
        target = target or NO_TARGET
        self.per_guesser.take(f"{client} {target}")
        self.per_target.take(target)


@dataclass
class CreationThrottle:
    """New sessions and clubs from one address: twenty sessions, then one a minute (a club's
    evening starts a few dozen from one laptop at most); five clubs, then one every ten minutes.
    A flood of either would push real tables off the lobby and fill the list of clubs."""
    sessions: Buckets = field(default_factory=lambda: TokenBuckets(20, 60.0))
    clubs: Buckets = field(default_factory=lambda: TokenBuckets(5, 600.0))

    @classmethod
    def shared(cls, engine: sa.Engine) -> "CreationThrottle":
        return cls(SharedBuckets(engine, 20, 60.0, "new-session:"), SharedBuckets(engine, 5, 600.0, "new-club:"))

    def retry_after(self, kind: str, client: str) -> int:
        """Whole seconds before `client` may start another of `kind` ("sessions" or "clubs")."""
        return math.ceil(getattr(self, kind).wait(client))

    def made(self, kind: str, client: str) -> None:
        getattr(self, kind).take(client)
