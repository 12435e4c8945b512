"""The lobby of a busy club (issue 25, Medium 5: "8 tables of 1,999 events make /api/lobby take
714 ms, 8 such requests at once 8.2 s, a TV page beside them 1.66 s"), on SQLite and PostgreSQL.

    python -m bench.club --lobby-only [--lobby-tables 8] [--lobby-events 1999] [--lobby-looks 10]

It stores `--lobby-tables` live riichi tables of `--lobby-events` events each (riichi and
exhaustive draws the dealer stays ready at, a correction every twenty events, so the game
never ends), and one ended game as long, in a fresh SQLite file and in a database of a
throwaway PostgreSQL cluster. It serves the app with waitress on 127.0.0.1 as `tenbou serve`
sets it up (`server_options`), in this process, twice on the same database: with each table's
scoreboard kept per version of its events (`webui/play/kept_boards.py`, the app as shipped),
and the peer with nothing kept (`KEEP_BOARDS` off: every look replays every table, as before
issue 25). For each it times over HTTP: the first `GET /api/lobby` (nothing kept yet), the
lobby warm (p50 of `--lobby-looks`), `--lobby-tables` lobby requests at once (until the last is
answered), a table's TV page asked for while they run, and the ended game's settlement PDF
(first and again).
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable

CONFIG = {"rules": "riichi", "preset": "tenhou", "players": ["Aki", "Bo", "Chie", "Dai"], "length": "south"}


def table_events(count: int, end: bool = False) -> list[dict]:
    """`count` events of a game that never ends (the ledger takes each), and an `end` if asked."""
    from scorer.game import GameConfig, apply, new_game
    config = GameConfig.from_json(CONFIG)
    state, events = new_game(config), []
    while len(events) < count:
        n = len(events)
        if n % 20 == 19:
            event = {"type": "correction", "scores": [25000] * 4, "riichi_sticks": 0, "honba": 0}
        elif n % 2 == 0:
            event = {"type": "riichi", "seat": (n // 2) % 4}
        else:
            event = {"type": "draw", "tenpai": [0, 1, 2, 3]}      # the dealer ready: the deal stays
        state = apply(config, state, event)
        events.append(event)
    if state.finished:
        raise SystemExit("the bench's table ended by itself")
    return events + ([{"type": "end"}] if end else [])


def build_tables(app, tables: int, events: int) -> tuple[list[str], str]:
    """(live session ids, the ended session's id), events written straight to the database."""
    import json

    from webui.storage import store
    from webui.storage.db import now, transaction
    from webui.storage.schema.tables import event as event_t
    from scorer.game import GameConfig
    config = GameConfig.from_json(CONFIG).to_json()
    made = []
    with app.app_context():
        for n in range(tables + 1):
            ended = n == tables
            found = store.create_session(config, "Ended" if ended else f"Table {n + 1}")
            rows = [{"session_id": found.id, "body_json": json.dumps(body), "created_at": now()}
                    for body in table_events(events, end=ended)]
            with transaction() as db:
                db.execute(event_t.insert(), rows)
            made.append(found.id)
    return made[:-1], made[-1]


def serve(app) -> tuple[str, Callable[[], None]]:
    """The app under waitress on a free port, set up as `tenbou serve` sets it: (base URL, stop)."""
    from waitress import create_server

    from webui.commands.serve import server_options
    server = create_server(app, host="127.0.0.1", port=0, ident="tenbou-bench", **server_options(60))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()

    def stop() -> None:
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=10)     # answered first, then closed
        server.close()
    return f"http://127.0.0.1:{server.effective_port}", stop


def get(url: str) -> float:
    began = time.perf_counter()
    with urllib.request.urlopen(url, timeout=120) as response:
        response.read()
        if response.status != 200:
            raise SystemExit(f"GET {url} answered {response.status}")
    return time.perf_counter() - began


def at_once(urls: list[str], beside: str | None = None) -> tuple[float, float | None]:
    """(seconds until the last of `urls`, asked for together, is answered; the time of `beside`
    asked for while they run)."""
    barrier = threading.Barrier(len(urls) + (1 if beside else 0))
    took: list[float] = []
    other: list[float] = []

    def ask(url: str, into: list[float]) -> None:
        barrier.wait()
        into.append(get(url))
    threads = [threading.Thread(target=ask, args=(url, took)) for url in urls]
    if beside:
        threads.append(threading.Thread(target=ask, args=(beside, other)))
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - began, (other[0] if other else None)


def measure_one(base: str, tables: list[str], ended: str, looks: int) -> dict[str, float]:
    lobby = f"{base}/api/lobby"
    get(f"{base}/s/{ended}/tv")         # the server's first page (templates, connections), not timed
    first = get(lobby)
    warm = statistics.median(get(lobby) for _ in range(looks))
    crowd, tv = at_once([lobby] * len(tables), beside=f"{base}/s/{tables[0]}/tv")
    pdf_first = get(f"{base}/s/{ended}/settle.pdf")
    pdf_again = statistics.median(get(f"{base}/s/{ended}/settle.pdf") for _ in range(3))
    return {"first": first, "warm": warm, "crowd": crowd, "tv": tv or 0.0, "pdf_first": pdf_first,
            "pdf_again": pdf_again}


def measure(label: str, database: str | None, args: argparse.Namespace) -> None:
    from webui import create_app
    folder = tempfile.mkdtemp(prefix="tenbou-bench-")
    config = {"DATA_DIR": folder}
    if database:
        config["DATABASE_URL"] = database
    kept_app = create_app(config)
    began = time.perf_counter()
    tables, ended = build_tables(kept_app, args.lobby_tables, args.lobby_events)
    built = time.perf_counter() - began
    peer_app = create_app({**config, "DATABASE_URL": kept_app.config["DATABASE_URL"], "KEEP_BOARDS": False})
    apps = [kept_app, peer_app]
    try:
        figures = {}
        for name, app in (("kept", kept_app), ("peer", peer_app)):
            base, stop = serve(app)
            try:
                figures[name] = measure_one(base, tables, ended, args.lobby_looks)
            finally:
                stop()
        n = args.lobby_tables
        print(f"{label}: {n} live tables of {args.lobby_events:,} events and an ended game as long "
              f"(built in {built:.1f} s); kept boards vs the peer replaying every table")
        rows = [("GET /api/lobby, first (nothing kept yet)", "first"), ("GET /api/lobby, warm (p50)", "warm"),
                (f"{n} x GET /api/lobby at once, the last", "crowd"),
                (f"GET /s/<id>/tv beside those {n}", "tv"),
                ("GET /s/<ended>/settle.pdf, first", "pdf_first"), ("GET /s/<ended>/settle.pdf, again (p50)", "pdf_again")]
        for text, key in rows:
            kept, peer = figures["kept"][key], figures["peer"][key]
            print(f"  {text:<44} kept {kept * 1000:8.1f} ms   peer {peer * 1000:8.1f} ms   "
                  f"({peer / kept:.1f}x)" if kept else "")
        print(flush=True)
    finally:
        for app in apps:
            app.extensions["tenbou.broker"].close()
            app.extensions["tenbou.db"].dispose()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lobby-tables", type=int, default=8, help="live tables in the lobby (lobby)")
    parser.add_argument("--lobby-events", type=int, default=1999, help="events of each table (lobby)")
    parser.add_argument("--lobby-looks", type=int, default=10, help="warm lobby looks timed (lobby)")


def run(args: argparse.Namespace, postgres_url: Callable[[], str | None]) -> None:
    """SQLite, then PostgreSQL where `postgres_url` gives one."""
    measure("SQLite lobby", None, args)
    url = postgres_url()
    if url:
        measure("PostgreSQL lobby", url, args)
