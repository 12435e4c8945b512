"""A club's ratings and members' statistics over 2,000 finished games of 40 members (issue 26),
worked out in-process from the games' kept summaries, against a peer that replays every game.

    python -m bench.club --ratings-only [--games 2000] [--stats-members 40] [--stats-runs 20]

It plays `--games` riichi hanchan through the ledger (seeded, bench/club_standings.py's
games, each numbers win carrying the yaku, dora and open/closed a han/fu form would give),
four of `--stats-members` members drawn per game, and keeps each game's summary as the app
keeps it (`webui/storage/kept_results.py`: the seats' JSON text, the wins' apart). Then it
times, in this process and with no database or page around it:

- reading the kept summaries back (JSON text to `GameSummary`), without and with the wins
  (best hands need the wins);
- statistics: every member's figures for the season (`scorer.club_stats.member_stats`) from
  the summaries read;
- ratings from nothing: every game rated in turn (`scorer.ratings.rate`, openskill's
  Plackett-Luce), each member's history kept; and one more game carried onto kept ratings
  (`rate(..., onto=...)`), what a finished game costs when the ratings are kept;
- the peer: every game replayed from its events and summarised, then the statistics and the
  ratings from nothing, as a page would without anything kept.

The ratings and statistics pages (once they exist) add their database reads and rendering on
top of these; this is the part that is Tenbou's own arithmetic.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from datetime import date, timedelta

from bench.club_standings import CONFIG, SEASON_STARTS, median_ms, member_names, p99, play_game, timed

MEMBERS = 40


def build_games(games: int, members: int, seed: int) -> list[dict]:
    """`games` finished games: each {"id", "when", "config", "events", "members" (seat -> id),
    "summary" (the kept JSON text)}, members "m01", "m02", ... named from the bench's names."""
    from scorer.club import summarise
    from scorer.game import GameConfig, replay
    rng = random.Random(seed)
    people = [(f"m{i + 1:02d}", name) for i, name in enumerate(member_names(members))]
    played = []
    for n in range(games):
        seated = rng.sample(people, 4)
        names = [name for _, name in seated]
        config = GameConfig.from_json({**CONFIG, "players": names})
        events = play_game(rng, names, detail=True)
        state = replay(config, events)
        day, slot = divmod(n, 30)
        when = f"{date.fromisoformat(SEASON_STARTS) + timedelta(days=day)}T18:{slot * 2:02d}:00.000Z"
        data = summarise(config, state, events).to_json()
        wins = data.pop("wins")
        played.append({"id": f"g{n + 1:05d}", "when": when, "config": config, "events": events,
                       "members": {s: member for s, (member, _) in enumerate(seated)},
                       "summary": json.dumps(data, separators=(",", ":")),
                       "wins": json.dumps(wins, separators=(",", ":")), "finished": state.finished})
    return played


def names_of(members: int) -> dict[str, str]:
    return {f"m{i + 1:02d}": name for i, name in enumerate(member_names(members))}


def kept(played: list[dict], wins: bool = False) -> list[tuple]:
    """(game id, when, summary, members) from the kept JSON, as a page reads kept results."""
    from dataclasses import replace

    from scorer.club import GameSummary, WinLine
    found = []
    for g in played:
        summary = GameSummary.from_json(json.loads(g["summary"]))
        if wins:
            summary = replace(summary, wins=tuple(WinLine.from_json(w) for w in json.loads(g["wins"])))
        found.append((g["id"], g["when"], summary, g["members"]))
    return found


def replayed(played: list[dict]) -> list[tuple]:
    """The same from the events: every game replayed and summarised (the peer)."""
    from scorer.club import summarise
    from scorer.game import replay
    found = []
    for g in played:
        state = replay(g["config"], g["events"])
        found.append((g["id"], g["when"], summarise(g["config"], state, g["events"]), g["members"]))
    return found


def ratings_of(games: list[tuple], onto: dict | None = None) -> dict:
    from scorer.ratings import RatedGame, rate
    return rate((RatedGame(i, when, summary, members) for i, when, summary, members in games if summary.finished),
                onto)


def stats_of(games: list[tuple], names: dict[str, str]) -> dict:
    from scorer.club_stats import member_stats
    return member_stats(((summary, members) for _, _, summary, members in games if summary.finished), names)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stats-members", type=int, default=MEMBERS, help="club members (ratings and statistics)")
    parser.add_argument("--stats-runs", type=int, default=20, help="timed runs of ratings and of statistics")
    parser.add_argument("--stats-peer-runs", type=int, default=3, help="timed runs of the replaying peer")


def _line(label: str, values: list[float]) -> str:
    return f"  {label:<46} p50 {median_ms(values)}   p99 {median_ms([p99(values)])}   ({len(values)} runs)"


def run(args: argparse.Namespace) -> None:
    began = time.perf_counter()
    played = build_games(args.games, args.stats_members, args.seed)
    names = names_of(args.stats_members)
    built = time.perf_counter() - began
    finished = sum(g["finished"] for g in played)
    summaries, with_wins = kept(played), kept(played, wins=True)
    # the same figures either way, or the comparison means nothing
    from_events = replayed(played)
    if (ratings_of(summaries)["riichi"]["m01"].rating != ratings_of(from_events)["riichi"]["m01"].rating
            or stats_of(with_wins, names)["riichi"]["m01"].to_json() != stats_of(from_events, names)["riichi"]["m01"].to_json()):
        raise SystemExit("the kept summaries and the replayed games disagree")
    runs = args.stats_runs
    read = [timed(lambda: kept(played)) for _ in range(runs)]
    read_wins = [timed(lambda: kept(played, wins=True)) for _ in range(runs)]
    stats = [timed(lambda: stats_of(summaries, names)) for _ in range(runs)]
    stats_best = [timed(lambda: stats_of(with_wins, names)) for _ in range(runs)]
    rating = [timed(lambda: ratings_of(summaries)) for _ in range(runs)]
    before_last = ratings_of(summaries[:-1])
    one_more = [timed(lambda: ratings_of(summaries[-1:], before_last)) for _ in range(runs)]
    peer = [timed(lambda: (lambda games: (ratings_of(games), stats_of(games, names)))(replayed(played)))
            for _ in range(args.stats_peer_runs)]
    ours = statistics.median(read_wins) + statistics.median(stats_best) + statistics.median(rating)
    members = ratings_of(summaries).get("riichi", {})
    print(f"Ratings and statistics: {len(played)} games ({finished} finished), {args.stats_members} members "
          f"({len(members)} rated), built in {built:.1f} s; in-process, no database or page")
    print(_line("read kept summaries (JSON), no wins", read))
    print(_line("read kept summaries with wins (best hands)", read_wins))
    print(_line("statistics of every member", stats))
    print(_line("statistics with best hands", stats_best))
    print(_line("ratings from nothing (every game rated)", rating))
    print(_line("ratings: one more game onto kept ratings", one_more))
    print(f"  {'peer: every game replayed, statistics, ratings':<46} p50 {median_ms(peer)}   max {median_ms([max(peer)])}   "
          f"({len(peer)} runs)")
    print(f"  kept summaries read, statistics and ratings from nothing: {ours * 1000:.1f} ms, "
          f"{statistics.median(peer) / ours:.1f}x faster than the peer", flush=True)
