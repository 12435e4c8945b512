"""Live updates across every server on one PostgreSQL database, through LISTEN/NOTIFY.

Each server process keeps one connection that LISTENs on `CHANNEL` and hands what it hears to
its own clients, through the in-process `Broker` fan-out (so a slow client, the stream cap and
the keep-alives behave as with SQLite). Two kinds of notice travel:

- a session's id, sent by the store inside the transaction that changed the session
  (`db.announce`): PostgreSQL delivers it only if that transaction commits, and in commit order,
  so a server killed after its commit still has every other server told. A server with clients
  of that session reads its state from the database (one replay per server, not per client),
  so what they show is never older than the newest commit (a burst of notices for one session
  costs two reads, not one each);
- anything else published here (the automatic table's view) as JSON with its data, which
  PostgreSQL carries up to 8000 bytes.

After the listening connection is lost and found again, every followed session is read afresh:
a notice sent meanwhile was never heard.
"""
from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import sqlalchemy as sa

from webui.storage.broker import Broker, Subscription
from webui.storage.db import CHANNEL

# PostgreSQL refuses a notice of 8000 bytes or more; the JSON around the data takes a little.
NOTIFY_BYTES = 7900
# Seconds between looks at whether the broker is closing, while nothing is heard.
LISTEN_WAIT = 1.0
# Seconds before listening again after the connection was lost, doubling up to the second.
RECONNECT = (0.5, 10.0)
# Threads reading sessions' states for their pages at once (each takes a database connection).
READERS = 4

log = logging.getLogger("tenbou.live")

# Reads a session's state now: (event, data) for its clients, or None when there is none.
Refresh = Callable[[str], "tuple[str, str] | None"]


class NotifyBroker(Broker):
    def __init__(self, engine: sa.Engine, refresh: Refresh) -> None:
        super().__init__()
        self._engine = engine
        self._refresh = refresh
        self._started = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.listening = threading.Event()      # set while the LISTEN connection is up
        # sessions being read for their pages -> whether a notice came meanwhile
        self._reading: dict[str, bool] = {}
        self._reading_lock = threading.Lock()
        self._readers = ThreadPoolExecutor(READERS, thread_name_prefix="tenbou-live-read")

    def subscribe(self, *topics: str) -> Subscription:
        self._start()            # a server nobody watches keeps no listening connection
        return super().subscribe(*topics)

    def publish(self, topic: str, event: str, data: str) -> int:
        """Send `data` to the clients of `topic` on every server. A session's state is not sent:
        the transaction that changed the session announced it, and each server reads it."""
        if event == "state":
            return self.count(topic)
        message = json.dumps({"topic": topic, "event": event, "data": data}, separators=(",", ":"))
        if len(message.encode()) > NOTIFY_BYTES:
            log.warning("live update for %s too large to send between servers (%d bytes)", topic, len(message))
            return self.deliver(topic, event, data)
        try:
            with self._engine.connect() as conn:
                conn.execute(sa.select(sa.func.pg_notify(CHANNEL, message)))
                conn.commit()
        except sa.exc.SQLAlchemyError:
            # the update is lost for other servers' pages until their next one; never the caller's error
            log.exception("could not send a live update for %s", topic)
            return self.deliver(topic, event, data)
        return self.count(topic)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=LISTEN_WAIT + 5)
        self._readers.shutdown(wait=True, cancel_futures=True)

    def _start(self) -> None:
        with self._started:
            if self._thread is None and not self._stop.is_set():
                self._thread = threading.Thread(target=self._listen, name="tenbou-listen", daemon=True)
                self._thread.start()

    def _listen(self) -> None:
        delay = RECONNECT[0]
        while not self._stop.is_set():
            conn = None
            try:
                raw = self._engine.raw_connection()
                conn = raw.driver_connection
                raw.detach()                    # this connection is the thread's, not the pool's
                conn.autocommit = True
                conn.execute(f"LISTEN {CHANNEL}")
                self.listening.set()
                delay = RECONNECT[0]
                for topic in self.topics():     # what changed while nobody listened
                    self._changed(topic)
                while not self._stop.is_set():
                    for notice in conn.notifies(timeout=LISTEN_WAIT):
                        self._heard(notice.payload)
            except Exception:
                if self._stop.is_set():
                    break
                log.warning("live updates between servers: listening again in %.1f s", delay, exc_info=True)
            finally:
                self.listening.clear()
                if conn is not None:
                    conn.close()
            self._stop.wait(delay)
            delay = min(delay * 2, RECONNECT[1])

    def _heard(self, payload: str) -> None:
        if not payload.startswith("{"):
            self._changed(payload)
            return
        message = json.loads(payload)
        if "data" in message:
            self.deliver(message["topic"], message["event"], message["data"])

    def _changed(self, topic: str) -> None:
        """Have `topic` read afresh for its pages, off the listening thread. One read per topic
        runs at a time; notices that come during it make one more read after it, so the last
        state delivered is never older than the last notice, and a burst costs two reads."""
        if self.count(topic) == 0:
            return
        with self._reading_lock:
            if topic in self._reading:
                self._reading[topic] = True
                return
            self._reading[topic] = False
        self._readers.submit(self._read, topic)

    def _read(self, topic: str) -> None:
        while True:
            try:
                state = self._refresh(topic)
                if state is not None:
                    self.deliver(topic, *state)
            except Exception:
                log.exception("could not read %s for its live pages", topic)
            with self._reading_lock:
                if not self._reading.pop(topic):
                    return
                self._reading[topic] = False        # changed again meanwhile: once more
