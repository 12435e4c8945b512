"""Live scoreboards under load: 200 pages on one server, and 50 of them reconnecting at once.

    python bench/live.py [--scoreboards 200] [--reconnect 50] [--clients 60] [--hands 10] [--blips 3]

Starts `tenbou serve --clients N` on 127.0.0.1 (a fresh data folder) and opens the scoreboards
as the page does (webui/static/live.js): each asks for a live stream (`/live/<session>`); one
the server refuses (503, over its `--clients` streams) polls the state
(`GET /api/sessions/<id>`) every `--poll` seconds and asks for a stream again 15-30 s later.
Then, while every page stays open:

1. Steady: confirms `--hands` hands through the JSON API (a tsumo scored from its tiles, undone
   after each, so the game never ends) and times, per hand, when the last page has the new
   state, for the streamed pages and for all of them; the polled pages are the peer.
2. Wi-Fi blip, `--blips` times: `--reconnect` streamed pages lose their connection at once and
   reconnect. With `--blip vanish` (the default) the old connections stay open but unread, as
   a phone gone from the Wi-Fi leaves them, so the server cannot tell and keeps their streams
   until their lifetime ends; with `--blip close` they are closed. During the storm it confirms
   a hand and loads a page, and prints how long each took, how long until the last page had
   the hand, how long until every reconnected page had the state again, and how many
   reconnections were refused and fell back to polling.

Every loop is bounded and the server is stopped at the end.
"""
from __future__ import annotations

import argparse
import http.client
import json
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.serving import Phone, start_server  # noqa: E402
HAND = {"concealed": "234m456p678s22z555z", "win_tile": "5z"}
STREAM_AGAIN = (15.0, 30.0)     # seconds a refused page polls before asking for a stream again (live.js)
WAIT = 30.0                     # seconds to wait for every page to have a state before giving up on it


class Page(threading.Thread):
    """One scoreboard, as live.js runs it: a stream when the server has one, else polling."""

    def __init__(self, host: str, port: int, session_id: str, poll: float, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.host, self.port, self.session_id, self.poll, self.stop = host, port, session_id, poll, stop
        self.changes: list[tuple[float, int]] = []   # (when, events) each time the state changed
        self.refused = 0                  # streams the server refused
        self.streamed = False             # now on a stream (not polling)
        self.reconnected_at: float | None = None
        self.state_again_at: float | None = None     # first state after the last reconnection
        self._abandoned: list[socket.socket] = []
        self._drop: str | None = None
        self._retry = 2.0                 # seconds, as the stream's `retry:` says

    def _saw(self, events: int) -> None:
        now = time.perf_counter()
        if self.reconnected_at is not None and self.state_again_at is None:
            self.state_again_at = now
        if not self.changes or self.changes[-1][1] != events:
            self.changes.append((now, events))

    def run(self) -> None:
        next_stream = 0.0
        poller: http.client.HTTPConnection | None = None
        while not self.stop.is_set():
            if time.monotonic() >= next_stream:
                refused_for = self._stream()
                if refused_for is None:
                    continue                      # the stream ended or was dropped: ask again
                next_stream = time.monotonic() + refused_for
            poller = self._poll_once(poller)
            self.stop.wait(self.poll + random.random() * 0.5)

    def _stream(self) -> float | None:
        """Follow a stream until it ends (None), or the seconds to poll when refused. Read from
        the bare socket, a quarter second at a time, so a blip can take it away mid-read."""
        try:
            sock = socket.create_connection((self.host, self.port), timeout=30)
            sock.sendall(f"GET /live/{self.session_id} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                         "Accept: text/event-stream\r\n\r\n".encode())
            buffer = b""
            while b"\r\n\r\n" not in buffer:
                data = sock.recv(65536)
                if not data:
                    raise ConnectionError("closed before the answer")
                buffer += data
        except OSError:
            self.stop.wait(1.0)
            return None
        head, buffer = buffer.split(b"\r\n\r\n", 1)
        if int(head.split(b" ", 2)[1]) != 200:
            sock.close()
            self.refused += 1
            return random.uniform(*STREAM_AGAIN)
        self.streamed = True
        sock.settimeout(0.25)
        try:
            while not self.stop.is_set() and self._drop is None:
                *lines, buffer = buffer.split(b"\n")   # whole lines; the chunk sizes between are skipped
                for line in lines:
                    if line.startswith(b"data: "):
                        self._saw(json.loads(line[6:])["events"])
                    elif line.startswith(b"retry: "):
                        self._retry = int(line[7:]) / 1000
                try:
                    data = sock.recv(65536)
                except TimeoutError:
                    continue
                if not data:
                    break                             # the server ended the stream
                buffer += data
        except (OSError, ValueError):
            pass
        self.streamed = False
        if self._drop == "vanish":
            self._abandoned.append(sock)          # left open, never read again: the server cannot tell
        else:
            sock.close()
        if self._drop is not None:
            self._drop = None
            self.reconnected_at, self.state_again_at = time.perf_counter(), None
        self.stop.wait(self._retry)               # the browser waits as long before reconnecting
        return None

    def _poll_once(self, conn: http.client.HTTPConnection | None) -> http.client.HTTPConnection | None:
        """One poll, on the kept-alive connection; as a browser does, once more on a new one when
        the server had closed the old (it closes connections idle for 15 s)."""
        for attempt in (conn, None) if conn is not None else (None,):
            fresh = attempt or http.client.HTTPConnection(self.host, self.port, timeout=30)
            try:
                fresh.request("GET", f"/api/sessions/{self.session_id}", headers={"Accept": "application/json"})
                response = fresh.getresponse()
                body = response.read()
            except (OSError, http.client.HTTPException):
                fresh.close()
                continue
            if response.status == 200:
                self._saw(json.loads(body)["events"])
            return fresh
        return None

    def drop(self, how: str) -> bool:
        """Lose the stream's connection now (a Wi-Fi blip); False when not streaming."""
        if not self.streamed:
            return False
        self._drop = how
        return True


def wait_all(pages: list[Page], events: int, after: float, timeout: float = WAIT) -> tuple[float | None, int]:
    """(When the last page first had `events` after `after`, or None; how many never did)."""
    deadline = time.perf_counter() + timeout
    while True:
        times = [next((t for t, e in list(p.changes) if t >= after and e == events), None) for p in pages]
        missing = sum(t is None for t in times)
        if not missing:
            return max(times), 0
        if time.perf_counter() > deadline:
            return None, missing
        # the times are the pages' own, noted as each state arrived: checking seldom costs
        # no precision and leaves the pages' threads the CPU
        time.sleep(0.05)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


def line(name: str, delays: list[float]) -> str:
    if not delays:
        return f"{name:<40} no measurement"
    return (f"{name:<40} p50 {percentile(delays, 50) * 1000:8.1f} ms   p99 {percentile(delays, 99) * 1000:8.1f} ms"
            f"   max {max(delays) * 1000:8.1f} ms")


def timed(action) -> tuple[float | None, str]:
    start = time.perf_counter()
    try:
        action()
    except Exception as error:   # the bench reports what failed rather than stopping
        return None, f"{type(error).__name__}: {error}"
    return time.perf_counter() - start, ""


def confirm_hand(phone: Phone, session_id: str) -> None:
    phone.call("POST", f"/api/sessions/{session_id}/events",
               {"event": {"type": "win", "winner": 0, "tsumo": True, "hand": HAND}})


def undo(phone: Phone, session_id: str) -> None:
    phone.call("POST", f"/api/sessions/{session_id}/undo", {})


def steady(phone: Phone, sid: str, pages: list[Page], hands: int) -> None:
    streamed = [p for p in pages if p.streamed]
    polled = [p for p in pages if not p.streamed]
    to_streamed, to_polled, to_all, lost = [], [], [], 0
    for _ in range(hands):
        start = time.perf_counter()
        confirm_hand(phone, sid)
        for group, delays in ((streamed, to_streamed), (polled, to_polled), (pages, to_all)):
            last, missing = wait_all(group, 1, start)
            if last is not None:
                delays.append(last - start)
            lost = max(lost, missing)
        undone = time.perf_counter()
        undo(phone, sid)
        wait_all(pages, 0, undone)
    print(f"steady: {len(streamed)} pages streamed, {len(polled)} polling, {hands} hands")
    print(line(f"  hand -> last streamed page ({len(streamed)})", to_streamed))
    print(line(f"  hand -> last polled page ({len(polled)})", to_polled))
    print(line(f"  hand -> last page ({len(pages)})", to_all))
    if to_streamed and to_polled:
        print(f"  ratio polled/streamed                  p50 {percentile(to_polled, 50) / percentile(to_streamed, 50):8.1f}x")
    if lost:
        print(f"  {lost} pages never got a hand within {WAIT:.0f} s")


def blip(phone: Phone, base: str, sid: str, pages: list[Page], reconnect: int, how: str, blips: int) -> None:
    to_all, state_again, posts, loads = [], [], [], []
    refused_total, fell_back_total, dropped_total, failures = 0, 0, 0, []
    for _ in range(blips):
        victims = [p for p in pages if p.streamed][:reconnect]
        dropped_total += len(victims)
        refused_before = {id(p): p.refused for p in victims}
        dropped_at = time.perf_counter()
        for p in victims:
            p.drop(how)
        # during the storm: a hand is confirmed and a page loaded, side by side
        loaded: list[tuple[float | None, str]] = []
        loader = threading.Thread(target=lambda: loaded.append(timed(
            lambda: urllib.request.urlopen(f"{base}/s/{sid}", timeout=60).read())))
        loader.start()
        start = time.perf_counter()
        posted, why = timed(lambda: confirm_hand(phone, sid))
        loader.join(90)
        if posted is None:
            failures.append(f"hand POST failed: {why}")
        else:
            posts.append(posted)
        page_time, why = loaded[0] if loaded else (None, "no answer")
        if page_time is None:
            failures.append(f"page load failed: {why}")
        else:
            loads.append(page_time)
        last, missing = wait_all(pages, 1, start)
        if last is not None:
            to_all.append(last - start)
        else:
            failures.append(f"{missing} pages never got the hand within {WAIT:.0f} s")
        deadline = time.perf_counter() + WAIT
        while any(p.state_again_at is None for p in victims) and time.perf_counter() < deadline:
            time.sleep(0.01)
        back = [p.state_again_at for p in victims if p.state_again_at is not None]
        if back and len(back) == len(victims):
            state_again.append(max(back) - dropped_at)
        elif victims:
            failures.append(f"{len(victims) - len(back)} reconnected pages had no state within {WAIT:.0f} s")
        refused = sum(p.refused - refused_before[id(p)] for p in victims)
        fell_back = sum(1 for p in victims if p.refused > refused_before[id(p)])
        refused_total += refused
        fell_back_total += fell_back
        undone = time.perf_counter()
        undo(phone, sid)
        wait_all(pages, 0, undone)
        time.sleep(2.0)
    print(f"blip ({how}): up to {reconnect} streamed pages reconnecting at once, {blips} times "
          f"({dropped_total} reconnections)")
    print(line("  hand -> last page (all)", to_all))
    print(line(f"  blip -> last reconnected page has state", state_again))
    print(line("  hand POST during the storm", posts))
    print(line("  page load during the storm", loads))
    print(f"  streams refused: {refused_total}; reconnected pages that fell back to polling: {fell_back_total}"
          f" of {dropped_total}")
    print(f"  hand POST answered {len(posts)} of {blips}, page load answered {len(loads)} of {blips}")
    for failure in failures:
        print(f"  ! {failure}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scoreboards", type=int, default=200, help="pages open on the session (200)")
    parser.add_argument("--reconnect", type=int, default=50, help="streamed pages that reconnect at once (50)")
    parser.add_argument("--clients", type=int, default=60, help="the server's `tenbou serve --clients` (60)")
    parser.add_argument("--hands", type=int, default=10, help="hands timed in the steady part (10)")
    parser.add_argument("--blips", type=int, default=3, help="Wi-Fi blips (3)")
    parser.add_argument("--blip", choices=("vanish", "close"), default="vanish",
                        help="what the blip leaves of the old connections (vanish: open but unread)")
    parser.add_argument("--poll", type=float, default=3.0, help="seconds between polls of a refused page (3, as live.js)")
    args = parser.parse_args()
    proc, base = start_server(args.clients)
    stop = threading.Event()
    try:
        phone = Phone(base)
        sid = phone.call("POST", "/api/sessions", {"players": ["Aki", "Ben", "Chiyo", "Dan"]})["id"]
        host, port = base.removeprefix("http://").split(":")
        pages = [Page(host, int(port), sid, args.poll, stop) for _ in range(args.scoreboards)]
        opened = time.perf_counter()
        for page in pages:
            page.start()
        last, missing = wait_all(pages, 0, 0.0)
        refused = sum(p.refused for p in pages)
        print(f"{args.scoreboards} scoreboards on {base} (tenbou serve --clients {args.clients}): "
              f"{sum(p.streamed for p in pages)} streamed, {refused} refused a stream and polled; "
              + (f"all had the state {(last - opened) * 1000:.0f} ms after opening" if last else
                 f"{missing} never had a state"))
        steady(phone, sid, pages, args.hands)
        if args.reconnect and args.blips:
            blip(phone, base, sid, pages, args.reconnect, args.blip, args.blips)
        with urllib.request.urlopen(f"{base}/", timeout=60) as response:
            assert response.status == 200
    finally:
        stop.set()
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        proc.stdout.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
