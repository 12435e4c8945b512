"""Fan-out of live updates: one publisher, many server-sent-event clients per session.

This broker serves one server process (SQLite's case); `notifier.NotifyBroker` extends it
to every server on one PostgreSQL database. Each client owns a small queue. A client too slow to drain its queue loses the oldest
messages, never blocks the publisher: every message is a whole state, so only the newest
one matters.
"""
from __future__ import annotations

import queue
import threading
from collections import defaultdict

CLIENT_QUEUE = 8


class Subscription:
    def __init__(self, broker: "Broker", topics: tuple[str, ...]) -> None:
        self.broker = broker
        self.topics = topics
        self.queue: queue.Queue[tuple[str, str]] = queue.Queue(CLIENT_QUEUE)

    def get(self, timeout: float) -> tuple[str, str] | None:
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def put(self, message: tuple[str, str]) -> None:
        while True:
            try:
                self.queue.put_nowait(message)
                return
            except queue.Full:
                try:
                    self.queue.get_nowait()
                except queue.Empty:
                    pass

    def close(self) -> None:
        self.broker.unsubscribe(self)

    def __enter__(self) -> "Subscription":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Broker:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._topics: dict[str, set[Subscription]] = defaultdict(set)

    def subscribe(self, *topics: str) -> Subscription:
        """One client's queue, fed by every topic named (a session and the table, say)."""
        sub = Subscription(self, topics)
        with self._lock:
            for topic in topics:
                self._topics[topic].add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            for topic in sub.topics:
                subs = self._topics.get(topic)
                if subs is not None:
                    subs.discard(sub)
                    if not subs:
                        del self._topics[topic]

    def publish(self, topic: str, event: str, data: str) -> int:
        """Queue `data` (one line of JSON) for every client of `topic`; return how many."""
        return self.deliver(topic, event, data)

    def deliver(self, topic: str, event: str, data: str) -> int:
        """Queue `data` for this process's clients of `topic`; return how many."""
        with self._lock:
            subs = list(self._topics.get(topic, ()))
        for sub in subs:
            sub.put((event, data))
        return len(subs)

    def topics(self) -> list[str]:
        """The topics someone here follows."""
        with self._lock:
            return list(self._topics)

    def close(self) -> None:
        """Let go of what the broker holds beyond its clients (nothing, in one process)."""

    def count(self, topic: str | None = None) -> int:
        with self._lock:
            if topic is None:
                return sum(len(s) for s in self._topics.values())
            return len(self._topics.get(topic, ()))
