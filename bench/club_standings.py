"""A club's season standings over 2,000 finished games (issue 18: "standings for a season of
2,000 games render in under 200 ms"), on SQLite and on PostgreSQL.

    python -m bench.club --standings-only [--games 2000] [--members 12] [--renders 20]

It builds a club of `--members` members and `--games` riichi hanchan (seeded: four members
drawn and seated at random, each hand a riichi or two, then a ron, a tsumo, a double ron, a
draw or an abortive draw, played through the ledger until the game ends) stored as played
sessions, in a fresh SQLite file and in a database of a throwaway PostgreSQL cluster. Then it
times, in-process through Flask's test client, the season's standings page: the first render
after the results were kept for no game (each game replayed once, its results kept), and
warm renders (kept results read back). The peer is the same page with every game replayed on
each render and nothing kept (the events of all games read in one query): what the page would
cost without kept results.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = {"rules": "riichi", "preset": "tenhou", "length": "south", "uma": "10-20", "rate": 0.1, "currency": "EUR"}
SEASON_STARTS = "2026-01-05"
NAMES = ("Aki", "Bo", "Chie", "Dai", "Emi", "Fumi", "Gen", "Haru", "Ima", "Jun", "Kei", "Len", "Mio", "Nao",
         "Oto", "Ren", "Sora", "Taka", "Umi", "Yui",
         # more members for the ratings and statistics (bench/club_ratings.py: 40)
         "Ayu", "Botan", "Chika", "Daiki", "Eri", "Fuka", "Goro", "Hana", "Iori", "Jiro", "Kaho", "Riku",
         "Mai", "Nori", "Osamu", "Rin", "Saki", "Toru", "Yoko", "Zen")
# han of a win, as often as a club sees them (about: riichi-pinfu-tanyao mostly, a mangan in
# six, a yakuman in two hundred); fu for the hands below mangan
HAN = (1, 2, 3, 4, 5, 6, 7, 8, 11, 13)
HAN_WEIGHTS = (22, 26, 20, 12, 9, 4, 2, 2, 1, 0.5)
FU = (30, 40, 50, 70)
FU_WEIGHTS = (60, 28, 9, 3)
# with `detail`: the yaku, dora and open/closed a han/fu form would be given with each win
YAKU_SEEN = ("riichi", "tanyao", "pinfu", "menzen_tsumo", "yakuhai_haku", "yakuhai_chun", "ittsu", "honitsu",
             "toitoi", "chiitoitsu")
YAKU_WEIGHTS = (40, 25, 20, 15, 8, 8, 3, 4, 3, 3)


def member_names(count: int) -> tuple[str, ...]:
    if count > len(NAMES):
        raise SystemExit(f"the bench names at most {len(NAMES)} members, not {count}")
    return NAMES[:count]


# --- a season's games ----------------------------------------------------------------------

def play_game(rng: random.Random, players: list[str], detail: bool = False) -> list[dict]:
    """One hanchan's events, each taken by the ledger: hands until the game ends. `detail`: each
    win also names its yaku, dora and whether it was open (drawn after the rest, so the games
    without it are the same as before)."""
    from scorer.game import GameConfig, LedgerError, apply, new_game
    config = GameConfig.from_json({**CONFIG, "players": players})
    state, events = new_game(config), []

    def take(event: dict) -> bool:
        nonlocal state
        try:
            state = apply(config, state, event)
        except LedgerError:         # riichi without 1,000 points, a value the rules refuse: not played
            return False
        events.append(event)
        return True

    while not state.finished and len(events) < 400:
        riichi = [s for s in range(4) if rng.random() < 0.18 and take({"type": "riichi", "seat": s})]
        roll = rng.random()
        if roll < 0.42:                                     # ron
            winner, discarder = rng.sample(range(4), 2)
            if rng.random() < 0.03:
                second = next(s for s in rng.sample(range(4), 4) if s not in (winner, discarder))
                done = take({"type": "win", "discarder": discarder,
                             "winners": [_value(rng, winner, False, detail), _value(rng, second, False, detail)]})
            else:
                done = take({**_value(rng, winner, False, detail), "discarder": discarder})
        elif roll < 0.68:                                   # tsumo
            done = take(_value(rng, rng.randrange(4), True, detail))
        elif roll < 0.97:                                   # exhaustive draw: riichi players are ready
            ready = sorted(set(riichi) | {s for s in range(4) if rng.random() < 0.4})
            done = take({"type": "draw", "tenpai": ready})
        else:
            done = take({"type": "abortive_draw", "reason": "four_winds"})
        if not done:                                        # the hand replayed as a plain draw
            take({"type": "draw", "tenpai": sorted(riichi)})
    return events


def _value(rng: random.Random, winner: int, tsumo: bool, detail: bool = False) -> dict:
    han = rng.choices(HAN, HAN_WEIGHTS)[0]
    fu = rng.choices(FU, FU_WEIGHTS)[0]
    if tsumo and han == 1 and fu == 30 and rng.random() < 0.5:
        han, fu = 2, 20                                     # pinfu tsumo
    win = {"type": "win", "winner": winner, "han": han, "fu": fu}
    if detail:
        dora = min(han - 1, rng.choice((0, 0, 0, 1, 1, 2, 3)))
        yaku = sorted(set(rng.choices(YAKU_SEEN, YAKU_WEIGHTS, k=max(1, min(3, han - dora)))))
        win.update(yaku=yaku, dora=dora, open=rng.random() < 0.3)
    return win


def build_club(app, games: int, members: int, seed: int, detail: bool = False) -> tuple[str, str]:
    """A club with `members` members, one season and `games` finished games: (club id, season id).
    `detail`: wins name their yaku, dora and calls (`play_game`), for the statistics pages."""
    from scorer.game import GameConfig
    from webui.play import clubs
    from webui.storage import store
    rng = random.Random(seed)
    with app.app_context():
        club = clubs.create_club("Bench club")
        people = [clubs.add_member(club.id, name) for name in member_names(members)]
        season = clubs.add_season(club.id, "Winter", SEASON_STARTS)
        for n in range(games):
            seated = rng.sample(people, 4)
            names = [m.name for m in seated]
            config = GameConfig.from_json({**CONFIG, "players": names}).to_json()
            day, slot = divmod(n, 30)                       # thirty games a club day, in the season
            on = f"{date.fromisoformat(SEASON_STARTS) + timedelta(days=day)}T18:{slot * 2:02d}:00.000Z"
            store.create_session(config, f"Game {n + 1}", club_id=club.id,
                                 members={s: m.id for s, m in enumerate(seated)},
                                 played=store.Played(on, play_game(rng, names, detail)))
        return club.id, season.id


# --- the peer: every game replayed on each render ------------------------------------------

def replayed_games(club_id: str, season=None, wins: bool = False, member: str | None = None) -> list:
    """`webui.storage.kept_results.games` without kept results: every game's events read (one query) and
    replayed, nothing written; `member`: only the games that member sat in."""
    import sqlalchemy as sa

    from scorer.club import summarise
    from scorer.game import GameConfig, replay
    from webui.storage import kept_results
    from webui.play import clubs
    from webui.storage.db import get_db
    from webui.storage.schema.tables import event as event_t
    from webui.storage.schema.tables import seat as seat_t
    sessions = list(reversed(clubs.club_sessions(club_id, season)))
    ids = [s.id for s in sessions]
    bodies: dict[str, list[dict]] = {i: [] for i in ids}
    db = get_db()
    for row in db.execute(sa.select(event_t.c.session_id, event_t.c.body_json)
                          .where(event_t.c.session_id.in_(ids), event_t.c.undone_at.is_(None))
                          .order_by(event_t.c.id)):
        bodies[row.session_id].append(json.loads(row.body_json))
    seats: dict[str, dict[int, str]] = {}
    for row in db.execute(sa.select(seat_t).where(seat_t.c.session_id.in_(ids))):
        seats.setdefault(row.session_id, {})[row.seat] = row.member_id
    found = []
    for s in sessions:
        config = GameConfig.from_json(s.config)
        summary = summarise(config, replay(config, bodies[s.id]), bodies[s.id])
        if (summary.finished or s.imported) and (member is None or member in seats.get(s.id, {}).values()):
            found.append(kept_results.ClubGame(s.id, s.title, s.created_at, s.imported, summary,
                                               seats.get(s.id, {})))
    return found


@contextmanager
def replaying_every_game():
    """The app's `kept_results.games` swapped for the peer while the block runs; refuses to time a
    page that did not call it (it would be timing kept results as the peer)."""
    from webui.storage import kept_results
    kept, calls = kept_results.games, []

    def peer(*args, **kwargs):
        calls.append(1)
        return replayed_games(*args, **kwargs)
    kept_results.games = peer
    try:
        yield
    finally:
        kept_results.games = kept
    if not calls:
        raise SystemExit("the standings page did not call webui.storage.kept_results.games: the peer cannot be timed")


# --- timing --------------------------------------------------------------------------------

def renderer(app, club_id: str, season_id: str) -> tuple[str, Callable[[], None]]:
    """The season's standings page, as a phone or the TV asks for it."""
    client = app.test_client()
    url = f"/c/{club_id}/standings?season={season_id}"

    def page() -> None:
        response = client.get(url)
        response.get_data()
        if response.status_code != 200:
            raise SystemExit(f"GET {url} answered {response.status_code}")
    return "GET /c/<id>/standings", page


def timed(work: Callable[[], object]) -> float:
    """Seconds `work` took (also timing bench/club_ratings.py and bench/club_pages.py)."""
    began = time.perf_counter()
    work()
    return time.perf_counter() - began


def forget_results(app) -> None:
    from webui.storage.db import transaction
    from webui.storage.schema.tables import game_result
    with app.app_context(), transaction() as db:
        db.execute(game_result.delete())


def measure(label: str, database: str | None, args: argparse.Namespace) -> None:
    from webui import create_app
    folder = tempfile.mkdtemp(prefix="tenbou-bench-")
    config = {"DATA_DIR": folder, "TESTING": True}
    if database:
        config["DATABASE_URL"] = database
    app = create_app(config)
    try:
        began = time.perf_counter()
        club_id, season_id = build_club(app, args.games, args.members, args.seed)
        built = time.perf_counter() - began
        how, render = renderer(app, club_id, season_id)
        first = [timed(render)]                 # no results kept yet: each game replayed and kept
        warm = [timed(render) for _ in range(args.renders)]
        for _ in range(args.cold - 1):          # again from nothing kept
            forget_results(app)
            first.append(timed(render))
        with replaying_every_game():
            peer = [timed(render) for _ in range(args.cold)]
        print(f"{label}: {args.games} games, {args.members} members, one season (built in {built:.1f} s); "
              f"{how}")
        print(f"  first render (results kept for no game)   p50 {median_ms(first)}   max {median_ms([max(first)])}   "
              f"({len(first)} runs)")
        print(f"  warm render (kept results)                p50 {median_ms(warm)}   p99 {median_ms([p99(warm)])}   "
              f"({len(warm)} runs)")
        print(f"  peer: every game replayed, nothing kept   p50 {median_ms(peer)}   max {median_ms([max(peer)])}   "
              f"({len(peer)} runs)")
        print(f"  warm is {statistics.median(peer) / statistics.median(warm):.1f}x faster than the peer; "
              f"the first render {statistics.median(first) / statistics.median(peer):.2f}x the peer", flush=True)
    finally:
        app.extensions["tenbou.broker"].close()
        app.extensions["tenbou.db"].dispose()


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:8.1f} ms"


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=2000, help="finished games in the season (standings)")
    parser.add_argument("--members", type=int, default=12, help="club members (standings)")
    parser.add_argument("--renders", type=int, default=20, help="warm renders timed (standings)")
    parser.add_argument("--cold", type=int, default=3, help="first renders and peer renders timed (standings)")
    parser.add_argument("--seed", type=int, default=18, help="the games' random seed (standings)")


def run(args: argparse.Namespace, postgres_url: Callable[[], str | None]) -> None:
    """SQLite, then PostgreSQL where `postgres_url` gives one."""
    measure("SQLite standings", None, args)
    url = postgres_url()
    if url:
        measure("PostgreSQL standings", url, args)
