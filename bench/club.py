"""A club night: many tables recording hands at once, each with its scoreboards, on SQLite (one
server) and on PostgreSQL (two servers sharing the database).

    python bench/club.py [--tables 20] [--boards 10] [--hands 10] [--database postgresql://...]

For each database it starts `tenbou serve` on 127.0.0.1 (fresh data folders; PostgreSQL is a
throwaway cluster from tests/postgres_cluster.py unless `--database` names one, whose contents
it adds to), makes one session per table and opens `--boards` live scoreboards per table (on
PostgreSQL half on each server, and each table's phone records through one of them, so most
updates cross from one server to the other). Then every table confirms `--hands` hands at once
(a tsumo scored from its tiles through the JSON API, undone after each so the game never ends)
and it times, per hand, the confirmation (POST answered) and the time from the POST to the last
scoreboard of that table showing the hand. Every wait is bounded; the servers and the cluster
are stopped at the end.

Then it times a season's standings over 2,000 games, first render and warm, against replaying
every game (bench/club_standings.py); `--standings-only` times those alone. Last, the lobby of 8
tables of 1,999 events and an ended game's settlement PDF, with each table's scoreboard kept
per version of its events against replaying every table (bench/club_lobby.py); `--lobby-only`
times those alone. Then a club's ratings and members' statistics over 2,000 games of 40
members, from kept summaries against replaying every game (bench/club_ratings.py);
`--ratings-only` times those alone. Last, the ratings and statistics pages of that club,
warm, against recomputing them on every look (bench/club_pages.py); `--pages-only` times those
alone.
"""
from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import club_lobby, club_pages, club_ratings, club_standings  # noqa: E402
from bench.serving import Phone, start_server  # noqa: E402
HAND = {"type": "win", "winner": 0, "tsumo": True, "hand": {"concealed": "234m456p678s22z555z", "win_tile": "5z"}}
WAIT = 30.0           # seconds a table waits for its scoreboards before counting the hand as lost


class Board(threading.Thread):
    """One scoreboard: a live stream, reopened when the server ends it (about a minute)."""

    def __init__(self, base: str, session_id: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.address = urllib.parse.urlsplit(base)
        self.path = f"/live/{session_id}"
        self.stop = stop
        self.lock = threading.Lock()
        self.seen: list[tuple[float, int]] = []       # (when, events) of every state shown
        self.ready = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            conn = http.client.HTTPConnection(self.address.hostname, self.address.port, timeout=WAIT)
            try:
                conn.request("GET", self.path)
                response = conn.getresponse()
                if response.status != 200:
                    raise SystemExit(f"a scoreboard was refused its stream ({response.status}): raise --clients")
                event = None
                for raw in iter(response.readline, b""):
                    line = raw.decode()
                    if line.startswith("event: "):
                        event = line[7:].strip()
                    elif line.startswith("data: ") and event == "state":
                        with self.lock:
                            self.seen.append((time.monotonic(), json.loads(line[6:])["events"]))
                        self.ready.set()
                    if self.stop.is_set():
                        break
            except OSError:
                time.sleep(0.2)
            finally:
                conn.close()

    def shown_after(self, since: float, events: int) -> float | None:
        with self.lock:
            return next((t for t, n in self.seen if t >= since and n == events), None)


def table(phone: Phone, session_id: str, boards: list[Board], hands: int, start: threading.Barrier,
          posts: list[float], updates: list[float], lost: list[int]) -> None:
    start.wait()
    for _ in range(hands):
        sent = time.monotonic()
        phone.call("POST", f"/api/sessions/{session_id}/events", {"event": HAND})
        posts.append(time.monotonic() - sent)
        latest = _all_shown(boards, sent, 1)
        if latest is None:
            lost.append(1)
        else:
            updates.append(latest - sent)
        undone = time.monotonic()
        phone.call("POST", f"/api/sessions/{session_id}/undo", {})
        _all_shown(boards, undone, 0)


def _all_shown(boards: list[Board], since: float, events: int) -> float | None:
    """When the last board showed `events` events after `since`, or None after WAIT seconds."""
    ends = time.monotonic() + WAIT
    while time.monotonic() < ends:
        times = [b.shown_after(since, events) for b in boards]
        if all(t is not None for t in times):
            return max(times)
        time.sleep(0.005)
    return None


def _line(name: str, values: list[float]) -> str:
    if not values:
        return f"  {name:<40} (none)"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (f"  {name:<40} p50 {statistics.median(ordered) * 1000:8.1f} ms   p99 {p99 * 1000:8.1f} ms"
            f"   max {ordered[-1] * 1000:8.1f} ms")


def run(label: str, databases: list[str | None], args: argparse.Namespace) -> None:
    per_server = args.tables * args.boards // len(databases) + 20
    servers = [start_server(per_server, database) for database in databases]
    stop = threading.Event()
    try:
        bases = [base for _, base in servers]
        phones, sessions, boards = [], [], []
        for n in range(args.tables):
            phone = Phone(bases[n % len(bases)])
            created = phone.call("POST", "/api/sessions", {"players": ["A", "B", "C", "D"], "title": f"Table {n + 1}"})
            phones.append(phone)
            sessions.append(created["id"])
            # on two servers the boards are split, so most of them follow hands recorded on the other one
            boards.append([Board(bases[(n + 1 + b) % len(bases)], created["id"], stop) for b in range(args.boards)])
        for board in (b for group in boards for b in group):
            board.start()
        if not all(b.ready.wait(WAIT) for group in boards for b in group):
            raise SystemExit("not every scoreboard got its first state")
        posts: list[float] = []
        updates: list[float] = []
        lost: list[int] = []
        start = threading.Barrier(args.tables)
        threads = [threading.Thread(target=table, args=(phones[n], sessions[n], boards[n], args.hands, start,
                                                        posts, updates, lost)) for n in range(args.tables)]
        began = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        took = time.monotonic() - began
        print(f"{label}: {args.tables} tables x {args.boards} scoreboards, {args.hands} hands each at once "
              f"({len(posts)} hands in {took:.1f} s, {len(lost)} not seen by every board within {WAIT:.0f} s)")
        print(_line("hand POST confirmed", posts))
        print(_line("hand -> last scoreboard of its table", updates), flush=True)
    finally:
        stop.set()
        for proc, _ in servers:
            proc.terminate()
            proc.wait(10)
            proc.stdout.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--boards", type=int, default=10, help="scoreboards per table")
    parser.add_argument("--hands", type=int, default=10, help="hands each table confirms")
    parser.add_argument("--database", default=None, metavar="URL",
                        help="a PostgreSQL to use (default: a throwaway cluster, where PostgreSQL is installed)")
    parser.add_argument("--standings-only", action="store_true", help="time only a season's standings")
    parser.add_argument("--lobby-only", action="store_true", help="time only the lobby and an ended game's PDF")
    parser.add_argument("--ratings-only", action="store_true",
                        help="time only the ratings and statistics of 2,000 games, 40 members")
    parser.add_argument("--pages-only", action="store_true",
                        help="time only the ratings and statistics pages of 2,000 games, 40 members")
    club_standings.add_arguments(parser)
    club_lobby.add_arguments(parser)
    club_ratings.add_arguments(parser)
    club_pages.add_arguments(parser)
    args = parser.parse_args()
    cluster, unavailable = None, False

    def postgres_url() -> str | None:
        """A fresh database: `--database`, or one in a throwaway cluster started on first use."""
        nonlocal cluster, unavailable
        if args.database:
            return args.database
        if cluster is None and not unavailable:
            from tests.postgres_cluster import ClusterUnavailable, start_cluster
            try:
                cluster = start_cluster()
            except ClusterUnavailable as reason:
                print(f"PostgreSQL: not measured ({reason})")
                unavailable = True
        return cluster.new_database() if cluster is not None else None
    only = args.standings_only or args.lobby_only or args.ratings_only or args.pages_only
    try:
        if not only:
            run("SQLite, one server", [None], args)
            url = postgres_url()
            if url:
                run("PostgreSQL, two servers", [url, url], args)
        if args.standings_only or not only:
            club_standings.run(args, postgres_url)
        if args.lobby_only or not only:
            club_lobby.run(args, postgres_url)
        if args.ratings_only or not only:
            club_ratings.run(args)
        if args.pages_only or not only:
            club_pages.run(args, postgres_url)
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    main()
