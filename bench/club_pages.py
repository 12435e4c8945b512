"""A club's ratings and statistics pages over 2,000 finished games of 40 members (issue 26:
"warm page p99 under 150 ms on SQLite and PostgreSQL"), timed through Flask's test client.

    python -m bench.club_pages [--pages-games 2000] [--pages-members 40] [--pages-renders 100] [--database URL]

It builds a club of `--members` members and `--games` riichi hanchan (bench/club_standings.py's
seeded games, each win naming its yaku, dora and calls as the han/fu form's picker gives them)
in a fresh SQLite file and in a database of a throwaway PostgreSQL cluster, then times, in
process, each page as a phone asks for it:

- `GET /c/<id>/ratings` (openskill over every game of the club, across seasons),
- `GET /c/<id>/stats?season=` (every member's statistics for the season),
- `GET /c/<id>/standings?sort=rating` (the standings with the ratings column, sorted by it),
- `GET /c/<id>/p/<member>` (a player's page: rating chart, placements, statistics, best hands).

First render: nothing kept, not even the games' results (each game replayed once and kept,
then the figures worked out and kept). Warm renders: figures and results kept. The peer is the
same warm page with the kept figures switched off (`webui.storage.kept_figures.kept` finding
nothing, `keep` keeping nothing): ratings and statistics worked out from the kept game results
on every render, what the pages would cost if only the results were kept.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.club_standings import build_club, forget_results, p99, timed  # noqa: E402

TARGET_P99 = 0.150      # seconds: issue 26's bound for a warm page


def pages(app, club_id: str, season_id: str) -> list[tuple[str, Callable[[], None], bool]]:
    from webui.play import clubs
    with app.app_context():
        member = clubs.members(club_id)[0]
    client = app.test_client()

    def getter(url: str) -> Callable[[], None]:
        def get() -> None:
            response = client.get(url)
            response.get_data()
            if response.status_code != 200:
                raise SystemExit(f"GET {url} answered {response.status_code}")
        return get
    # (what, the request, whether issue 26's bound is on it): the standings and a player's page
    # are timed beside the two pages the bound is on, for what the ratings and statistics add there
    return [("GET /c/<id>/ratings", getter(f"/c/{club_id}/ratings"), True),
            ("GET /c/<id>/stats", getter(f"/c/{club_id}/stats?season={season_id}"), True),
            ("GET /c/<id>/standings?sort=rating", getter(f"/c/{club_id}/standings?season={season_id}&sort=rating"), False),
            ("GET /c/<id>/p/<member>", getter(f"/c/{club_id}/p/{member.id}?season={season_id}"), False)]


@contextmanager
def nothing_kept():
    """The kept figures switched off while the block runs (the peer)."""
    from webui.storage import kept_figures
    kept, keep, calls = kept_figures.kept, kept_figures.keep, []

    def find_nothing(*args, **kwargs):
        calls.append(1)
        return None
    kept_figures.kept, kept_figures.keep = find_nothing, lambda *args, **kwargs: None
    try:
        yield
    finally:
        kept_figures.kept, kept_figures.keep = kept, keep
    if not calls:
        raise SystemExit("the pages did not look for kept figures: the peer would time the same thing")


def forget_figures(app) -> None:
    from webui.storage.db import transaction
    from webui.storage.schema.tables import club_figures
    with app.app_context(), transaction() as db:
        db.execute(club_figures.delete())


def _ms(value: float) -> str:
    return f"{value * 1000:7.1f} ms"


def measure(label: str, database: str | None, args: argparse.Namespace) -> list[bool]:
    """Time the pages on one database; whether each warm p99 is within TARGET_P99."""
    from webui import create_app
    config = {"DATA_DIR": tempfile.mkdtemp(prefix="tenbou-bench-"), "TESTING": True}
    if database:
        config["DATABASE_URL"] = database
    app = create_app(config)
    within = []
    try:
        began = time.perf_counter()
        club_id, season_id = build_club(app, args.pages_games, args.pages_members, args.pages_seed, detail=True)
        print(f"{label}: {args.pages_games} games, {args.pages_members} members, one season (built in "
              f"{time.perf_counter() - began:.1f} s); warm p99 bound {TARGET_P99 * 1000:.0f} ms", flush=True)
        forget_results(app)
        forget_figures(app)
        for how, render, bound in pages(app, club_id, season_id):
            first = timed(render)                      # the first page of all works out every game's results
            warm = [timed(render) for _ in range(args.pages_renders)]
            with nothing_kept():
                peer = [timed(render) for _ in range(args.pages_peer)]
            warm_p99 = p99(warm)
            if bound:
                within.append(warm_p99 <= TARGET_P99)
            verdict = ("ok" if warm_p99 <= TARGET_P99 else "OVER") if bound else "(no bound)"
            print(f"  {how:<36} first {_ms(first)}   warm p50 {_ms(statistics.median(warm))}  p99 {_ms(warm_p99)}"
                  f"   peer p50 {_ms(statistics.median(peer))}   peer/warm {statistics.median(peer) / statistics.median(warm):5.1f}x"
                  f"   {verdict}", flush=True)
    finally:
        app.extensions["tenbou.broker"].close()
        app.extensions["tenbou.db"].dispose()
    return within


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of their own (`--pages-...`), so they sit beside bench/club.py's other benches'."""
    parser.add_argument("--pages-games", dest="pages_games", type=int, default=2000, help="finished games (pages)")
    parser.add_argument("--pages-members", dest="pages_members", type=int, default=40, help="club members (pages)")
    parser.add_argument("--pages-renders", dest="pages_renders", type=int, default=100, help="warm renders timed a page")
    parser.add_argument("--pages-peer", dest="pages_peer", type=int, default=3, help="peer renders timed a page")
    parser.add_argument("--pages-seed", dest="pages_seed", type=int, default=26, help="the games' random seed (pages)")


def run(args: argparse.Namespace, postgres_url: Callable[[], str | None]) -> bool:
    """SQLite, then PostgreSQL where `postgres_url` gives one; whether every warm p99 was within."""
    within = measure("SQLite ratings and statistics pages", None, args)
    url = postgres_url()
    if url:
        within += measure("PostgreSQL ratings and statistics pages", url, args)
    return all(within)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default=None, metavar="URL",
                        help="a PostgreSQL to use (default: a throwaway cluster, where PostgreSQL is installed)")
    add_arguments(parser)
    args = parser.parse_args()
    cluster = None

    def postgres_url() -> str | None:
        nonlocal cluster
        if args.database:
            return args.database
        from tests.postgres_cluster import ClusterUnavailable, start_cluster
        try:
            cluster = start_cluster()
        except ClusterUnavailable as reason:
            print(f"PostgreSQL: not measured ({reason})")
            return None
        return cluster.new_database()
    try:
        ok = run(args, postgres_url)
    finally:
        if cluster is not None:
            cluster.stop()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
