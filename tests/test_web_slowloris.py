"""Slow clients cannot shut the door (issue 25): a request's headers must all arrive within
`HEADER_DEADLINE`, however slowly they trickle, and one address holds at most half the
connections, a newcomer taking the place of the connection waiting longest
(webui/guard/connections.py). Against a real `tenbou serve`: 520 connections from 127.0.0.1
trickling one header line every two seconds while pages still load. Bounded loops that stop by
themselves; the only times are generous guards."""
from __future__ import annotations

import resource
import socket
import threading
import time
import urllib.request
from types import SimpleNamespace

import pytest

from webui.commands.serve import CLEANUP_INTERVAL
from webui.guard.connections import HEADER_DEADLINE, closable, place_for

from tests.test_web_serve import start_server

GUARD = 20              # seconds: a page that takes longer fails the test
ATTACK_S = 30           # how long the attack lasts: three header deadlines and more
TRICKLERS = 520         # past waitress's 500 connections, as in the issue


def channel(address: str, *, running: bool = False, waiting_since: float | None = None,
            partial: bool = False, last_activity: float = 0.0):
    """What `place_for` reads of a waitress connection."""
    return SimpleNamespace(address_key=address, requests=[object()] if running else [],
                           request=object() if partial or waiting_since is not None else None,
                           waiting_since=waiting_since, last_activity=last_activity)


# --- who makes way for a newcomer ---------------------------------------------------------------

def test_room_to_spare_closes_nothing():
    assert place_for("10.0.0.1", [channel("10.0.0.2")], limit=10, per_address=5) == (True, None)


def test_an_address_at_its_share_loses_its_own_longest_waiting_connection():
    slow = channel("10.0.0.1", waiting_since=5.0)
    slower = channel("10.0.0.1", waiting_since=1.0)
    idle = channel("10.0.0.1", last_activity=0.5)
    mine = [slow, slower, idle, channel("10.0.0.1", running=True)]
    others = [channel("10.0.0.2", waiting_since=0.1)]
    assert place_for("10.0.0.1", mine + others, limit=100, per_address=4) == (True, slower)
    # headers first, then idle kept-alive connections, then bodies being sent; never a running request
    assert sorted(mine + others, key=lambda c: closable(c) or (9, 0))[:3] == [others[0], slower, slow]
    assert closable(channel("10.0.0.1", running=True)) is None


def test_an_address_whose_connections_are_all_busy_is_refused_and_nobody_else_pays():
    mine = [channel("10.0.0.1", running=True) for _ in range(4)]
    assert place_for("10.0.0.1", mine + [channel("10.0.0.2", waiting_since=0.0)], limit=100, per_address=4) \
        == (False, None)


def test_a_full_server_closes_the_longest_waiting_connection_of_anyone():
    waiting = channel("10.0.0.3", waiting_since=2.0)
    crowd = [channel("10.0.0.2", running=True), waiting, channel("10.0.0.4", last_activity=1.0)]
    assert place_for("10.0.0.1", crowd, limit=3, per_address=2) == (True, waiting)
    assert place_for("10.0.0.1", [channel("10.0.0.2", running=True)] * 3, limit=3, per_address=2) == (False, None)


def test_no_share_is_kept_for_a_trusted_proxy():
    mine = [channel("10.0.0.9", running=True) for _ in range(4)]
    assert place_for("10.0.0.9", mine, limit=100, per_address=None) == (True, None)
    assert place_for("10.0.0.9", mine, limit=100, per_address=4) == (False, None)


# --- against a real server --------------------------------------------------------------------

class Trickler:
    """Connections from 127.0.0.1 that each send one header line every `every` s and never end
    their headers; one the server closes is opened again at once, until `stop`."""

    def __init__(self, host: str, port: int, count: int, every: float = 2.0):
        self.host, self.port, self.count, self.every = host, port, count, every
        self.stop = threading.Event()
        self.closed_by_server = 0
        self.longest_life = 0.0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self):
        sock = socket.create_connection((self.host, self.port), timeout=GUARD)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: tenbou\r\n")
        sock.setblocking(False)
        return [sock, time.monotonic()]

    def _run(self) -> None:
        conns = [self._open() for _ in range(self.count)]
        while not self.stop.wait(self.every):
            for entry in conns:
                sock, born = entry
                try:
                    sock.send(b"X-Slow: 1\r\n")
                    if sock.recv(4096) == b"":
                        raise ConnectionResetError
                except BlockingIOError:
                    continue                    # still open, nothing to read: as wanted
                except OSError:
                    self.closed_by_server += 1
                    self.longest_life = max(self.longest_life, time.monotonic() - born)
                    sock.close()
                    try:
                        entry[:] = self._open()
                    except OSError:
                        entry[:] = [socket.socket(), time.monotonic()]   # counted closed next round
        for sock, born in conns:
            self.longest_life = max(self.longest_life, time.monotonic() - born)
            sock.close()


def test_hundreds_of_trickling_connections_do_not_stop_pages_loading(tmp_path):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < TRICKLERS + 200:
        pytest.skip(f"the open-file limit ({hard}) is below {TRICKLERS + 200} connections")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)) if hard != resource.RLIM_INFINITY
                                                else max(soft, 4096), hard))
    proc, base = start_server(tmp_path)
    host, port = base.removeprefix("http://").split(":")
    attack = Trickler(host, int(port), TRICKLERS)
    loaded = tried = 0
    try:
        attack.thread.start()
        started = time.monotonic()
        while time.monotonic() - started < ATTACK_S:
            tried += 1
            with urllib.request.urlopen(base + "/lobby", timeout=GUARD) as page:
                loaded += page.status == 200
            time.sleep(1.0)
    finally:
        attack.stop.set()
        attack.thread.join(GUARD)
        proc.terminate()
        proc.wait(5)
        proc.stdout.close()
    assert tried >= 10 and loaded == tried
    # the server cut trickling connections: by the header deadline, or to make way
    assert attack.closed_by_server >= TRICKLERS // 2
    assert attack.longest_life < HEADER_DEADLINE + CLEANUP_INTERVAL + 2 * attack.every + 5
