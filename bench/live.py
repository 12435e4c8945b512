"""Live scoreboard latency: from a confirmed hand to the last of 50 scoreboards updated.

    python bench/live.py [--clients 50] [--hands 20] [--poll 1.0]

Starts `tenbou serve` on 127.0.0.1 (a fresh data folder), opens the scoreboards' server-sent
event streams (`/live/<session>`, as the pages do), then confirms hands through the JSON API
(a tsumo scored from its tiles) and times, for each hand, when every client has received the
new state. Between hands the hand is undone, so the game never ends. The peer, measured in the
same run on the same server, is what a page without live updates would do: poll the session's
state every `--poll` seconds. Prints p50/p99 for both and their ratio.
"""
from __future__ import annotations

import argparse
import http.client
import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HAND = {"concealed": "234m456p678s22z555z", "win_tile": "5z"}


def start_server(clients: int) -> tuple[subprocess.Popen, str]:
    data = tempfile.mkdtemp(prefix="tenbou-bench-")
    proc = subprocess.Popen([sys.executable, "-m", "webui.cli", "serve", "--port", "0", "--data", data,
                             "--clients", str(clients + 10)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    match = re.search(r"running at (http://[\d.]+:\d+)/", proc.stdout.readline())
    if not match:
        proc.kill()
        raise SystemExit("the server did not start")
    return proc, match.group(1)


class Phone:
    """The player who confirms hands: a cookie jar and the CSRF token, like the record page."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.csrf = ""
        self.csrf = self.call("GET", "/api/csrf")["csrf_token"]

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(self.base + path, method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        with self.opener.open(request, timeout=30) as response:
            return json.loads(response.read())


class StreamClient(threading.Thread):
    """One scoreboard: reads its event stream and notes when each `events` count arrived."""

    def __init__(self, host: str, port: int, session_id: str) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection(host, port, timeout=60)
        self.conn.request("GET", f"/live/{session_id}")
        self.response = self.conn.getresponse()
        self.seen: dict[int, list[float]] = {}
        self.ready = threading.Event()

    def run(self) -> None:
        try:
            while True:
                line = self.response.readline()
                if not line:
                    return
                if line.startswith(b"data: "):
                    now = time.perf_counter()
                    self.seen.setdefault(json.loads(line[6:])["events"], []).append(now)
                    self.ready.set()
        except (OSError, ValueError):
            return


class Poller(threading.Thread):
    """The peer: a page that reloads the state every `interval` seconds."""

    def __init__(self, base: str, session_id: str, interval: float, offset: float) -> None:
        super().__init__(daemon=True)
        self.url = f"{base}/api/sessions/{session_id}"
        self.interval, self.offset = interval, offset
        self.seen: dict[int, list[float]] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        self.stop.wait(self.offset)
        while not self.stop.is_set():
            with urllib.request.urlopen(self.url, timeout=30) as response:
                events = json.loads(response.read())["events"]
            self.seen.setdefault(events, []).append(time.perf_counter())
            self.stop.wait(self.interval)


def wait_all(clients, key: int, after: float, timeout: float = 30.0) -> float:
    """Time the last client first saw `key` after `after`."""
    deadline = time.perf_counter() + timeout
    while True:
        times = [next((t for t in c.seen.get(key, []) if t >= after), None) for c in clients]
        if all(t is not None for t in times):
            return max(times)
        if time.perf_counter() > deadline:
            raise SystemExit(f"{sum(t is None for t in times)} clients never got the update")
        time.sleep(0.002)


def measure(phone: Phone, session_id: str, clients, hands: int) -> list[float]:
    delays = []
    for _ in range(hands):
        start = time.perf_counter()
        phone.call("POST", f"/api/sessions/{session_id}/events",
                   {"event": {"type": "win", "winner": 0, "tsumo": True, "hand": HAND}})
        delays.append(wait_all(clients, 1, start) - start)
        undo = time.perf_counter()
        phone.call("POST", f"/api/sessions/{session_id}/undo", {})
        wait_all(clients, 0, undo)
    return delays


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


def report(name: str, delays: list[float]) -> tuple[float, float]:
    p50, p99 = percentile(delays, 50) * 1000, percentile(delays, 99) * 1000
    print(f"{name:<28} p50 {p50:8.1f} ms   p99 {p99:8.1f} ms   mean {statistics.mean(delays) * 1000:8.1f} ms")
    return p50, p99


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--poll", type=float, default=1.0, help="the peer's polling interval in seconds")
    args = parser.parse_args()
    proc, base = start_server(args.clients)
    try:
        phone = Phone(base)
        session_id = phone.call("POST", "/api/sessions", {"players": ["Aki", "Ben", "Chiyo", "Dan"]})["id"]
        host, port = base.removeprefix("http://").split(":")
        streams = [StreamClient(host, int(port), session_id) for _ in range(args.clients)]
        for s in streams:
            s.start()
        for s in streams:
            s.ready.wait(10)
        print(f"{args.clients} scoreboards on {base}, {args.hands} hands each way")
        sse = report(f"server-sent events ({args.clients})", measure(phone, session_id, streams, args.hands))
        for s in streams:
            s.conn.close()
        pollers = [Poller(base, session_id, args.poll, args.poll * i / args.clients) for i in range(args.clients)]
        for p in pollers:
            p.start()
        poll = report(f"polling every {args.poll:g} s ({args.clients})", measure(phone, session_id, pollers, args.hands))
        for p in pollers:
            p.stop.set()
        print(f"ratio polling/SSE            p50 {poll[0] / sse[0]:8.1f}x    p99 {poll[1] / sse[1]:8.1f}x")
    finally:
        proc.terminate()
        proc.wait(10)
        proc.stdout.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
