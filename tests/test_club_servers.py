"""A club's set-up: two `tenbou serve` processes on one PostgreSQL. A hand recorded through one
reaches a scoreboard connected to the other; a player joined through one is joined through
both; killing either process (SIGKILL, no clean shutdown) loses nothing."""
from __future__ import annotations

import http.client
import json
import queue
import signal
import threading
import time
import urllib.parse

from tests.test_web_serve import Browser, start_server

WIN = {"type": "win", "winner": 0, "tsumo": True, "hand": {"concealed": "234m456p678s22z555z", "win_tile": "5z"}}


class Scoreboard:
    """One live page: reads the server-sent events of `/live/<session>` on its own thread."""

    def __init__(self, base: str, session_id: str) -> None:
        address = urllib.parse.urlsplit(base)
        self.conn = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
        self.conn.request("GET", f"/live/{session_id}")
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        self.states: queue.Queue[dict] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event = None
        try:
            for raw in iter(self.response.readline, b""):
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "state":
                    self.states.put(json.loads(line[6:]))
        except (OSError, ValueError):
            pass                            # the server went away, or the page was closed

    def until(self, events: int, seconds: float = 15.0) -> dict:
        """The first state the page is sent with `events` events, else fail."""
        ends = time.monotonic() + seconds
        while (left := ends - time.monotonic()) > 0:
            try:
                shown = self.states.get(timeout=left)
            except queue.Empty:
                break
            if shown["events"] == events:
                return shown
        raise AssertionError(f"the scoreboard never showed {events} events")

    def close(self) -> None:
        self.conn.close()


def _stop(proc, kill: bool = False) -> None:
    proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
    proc.wait(10)
    proc.stdout.close()


def test_two_servers_on_one_postgresql_share_hands_pages_and_players(tmp_path, postgres):
    url = postgres.new_database()
    one, base_one = start_server(tmp_path / "one", "--database", url)
    two, base_two = start_server(tmp_path / "two", "--database", url)
    running = [one, two]
    try:
        phone = Browser(base_one)
        created = phone.json("POST", "/api/sessions", {"players": ["A", "B", "C", "D"]})
        session_id = created["id"]
        board = Scoreboard(base_two, session_id)
        assert board.until(0)["events"] == 0
        # no wait for the second server's listening connection, which its first page starts:
        # once up, it reads afresh what its pages follow, so a hand sent meanwhile is seen too

        phone.json("POST", f"/api/sessions/{session_id}/events", {"event": {"type": "riichi", "seat": 0}})
        assert board.until(1)["riichi"] == [True, False, False, False]         # recorded through one, seen on two

        phone.base = base_two   # the same phone (cookie) through the other server: still joined
        phone.json("POST", f"/api/sessions/{session_id}/events", {"event": WIN})
        won = board.until(2)
        assert won["scores"][0] > 25000

        # a hand recorded through one, then one killed at once: two has it and says so
        phone.base = base_one
        phone.json("POST", f"/api/sessions/{session_id}/events", {"event": {"type": "riichi", "seat": 1}})
        _stop(one, kill=True)
        running.remove(one)
        assert board.until(3)["riichi"][1] is True
        assert Browser(base_two).json("GET", f"/api/sessions/{session_id}")["events"] == 3

        # then two killed after a hand recorded through it: a fresh server has all of it
        phone.base = base_two
        phone.json("POST", f"/api/sessions/{session_id}/events", {"event": {"type": "draw", "tenpai": [1]}})
        before = phone.json("GET", f"/api/sessions/{session_id}")
        board.close()
        _stop(two, kill=True)
        running.remove(two)
        three, base_three = start_server(tmp_path / "three", "--database", url)
        running.append(three)
        after = Browser(base_three).json("GET", f"/api/sessions/{session_id}")
        assert after == before and after["events"] == 4
        assert len(Browser(base_three).json("GET", f"/api/sessions/{session_id}/events")) == 4
    finally:
        for proc in running:
            _stop(proc)
        postgres.drop(url)
