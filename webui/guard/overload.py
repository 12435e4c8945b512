"""Limits that keep the server answering under load: a fixed number of slots for a costly kind
of request (live streams, photo decodes), and the 503 "busy, try again" for the rest.

Waitress has a fixed pool of threads. Work that holds a thread for long (a live stream) or
holds much memory (a photo being decoded) gets slots fewer than the threads, so pages and
hand posts always find a thread free; a request that finds no slot is told at once, with
`Retry-After`, instead of queueing behind the others.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

from flask import Flask, Response, g

from webui.guard.errors import PlayerError


@dataclass
class Slots:
    """At most `size` holders at once; `take` says whether one was free (waiting up to `wait` s)."""
    size: int
    refused: int = field(default=0, init=False)    # how many found no slot, for tests and logs
    _held: int = field(default=0, init=False)
    _free: threading.BoundedSemaphore = field(init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def __post_init__(self) -> None:
        self._free = threading.BoundedSemaphore(max(0, self.size))

    def take(self, wait: float = 0.0) -> bool:
        got = self._free.acquire(timeout=wait) if wait > 0 else self._free.acquire(blocking=False)
        with self._lock:
            if got:
                self._held += 1
            else:
                self.refused += 1
        return got

    def give_back(self) -> None:
        with self._lock:
            self._held -= 1
        self._free.release()

    @property
    def held(self) -> int:
        with self._lock:
            return self._held


def busy(retry_after: int, code: str) -> PlayerError:
    """The 503 for a request that found no slot; `Retry-After` says when to come back."""
    g.retry_after = retry_after
    return PlayerError(503, "busy", code=code)


def init_app(app: Flask) -> None:
    @app.after_request
    def say_when_to_retry(response: Response) -> Response:
        retry_after = g.pop("retry_after", None)
        if retry_after is not None and response.status_code == 503:
            response.headers["Retry-After"] = str(retry_after)
        return response
