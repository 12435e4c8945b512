"""A club night: the organiser lists who plays (members), Tenbou draws each round's tables with
`scorer.seating` (fewest repeat meetings first; then by standing, by rating, or by lot), draws
each table's winds, starts each table's session in one tap from the club's rules, and adds the
night's finished games up into standings after each round. A round timer runs on the TV.

A round is drawn once the round before it is over (every table's game finished), so Swiss
pairing sees the standings; the search still looks at the rounds to come, so an early round
never forces repeats later. Everything drawn comes from the night's seed and the round's
number: the same night draws the same tables on every server.
"""
from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from decimal import Decimal

from flask import abort

from scorer import seating
from scorer.rounding import DEFAULT_ROUNDING

from webui.guard import limits
from webui.guard.errors import PlayerError
from webui.play import clubs
from webui.play import written_results
from webui.storage import nights as stored
from webui.storage import store

MOST_ROUNDS = 12
MOST_PLAYERS = 80                  # twenty tables: a large club's evening
MOST_TIMER_MINUTES = 240
STYLES = seating.STYLES            # swiss, rating, random
SHORT_RULES = seating.SHORT_RULES  # three, bye
WIND_DRAWS = seating.WIND_DRAWS    # shuffle, tiles


@dataclass(frozen=True)
class Table:
    number: int                    # 1, 2, ... within its round
    seats: tuple[str, ...]         # member ids from East
    draw: dict                     # seating.WindDraw.to_json(), by member id
    session: str | None            # its game, once started


@dataclass(frozen=True)
class NightRound:
    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...]

    def table_of(self, member_id: str) -> Table | None:
        return next((t for t in self.tables if member_id in t.seats), None)


@dataclass(frozen=True)
class Night:
    id: str
    club_id: str
    name: str
    created_at: str
    players: tuple[str, ...]
    rounds_total: int
    style: str
    short: str
    winds: str
    seed: int
    rounds: tuple[NightRound, ...]
    timer: dict | None

    @property
    def current(self) -> NightRound | None:
        return self.rounds[-1] if self.rounds else None


def _from_row(row: stored.NightRow) -> Night:
    s = row.settings
    rounds = tuple(NightRound(r["round"], tuple(Table(i + 1, tuple(t["seats"]), t["draw"], t.get("session"))
                                                for i, t in enumerate(r["tables"])), tuple(r["byes"]))
                   for r in row.rounds)
    return Night(row.id, row.club_id, row.name, row.created_at, tuple(row.players), s["rounds"], s["style"],
                 s["short"], s["winds"], s["seed"], rounds, row.timer)


def _rounds_json(rounds) -> list[dict]:
    return [{"round": r.number, "byes": list(r.byes),
             "tables": [{"seats": list(t.seats), "draw": t.draw, "session": t.session} for t in r.tables]}
            for r in rounds]


# --- making a night ------------------------------------------------------------------------

def create(club: clubs.Club, name: str, member_ids: list[str], rounds: int, style: str, short: str,
           winds: str) -> Night:
    if not name:
        raise PlayerError(400, "bad_field", "name: a club night needs a name")
    if not 1 <= rounds <= MOST_ROUNDS:
        raise PlayerError(400, "bad_field", f"rounds: from 1 to {MOST_ROUNDS}")
    for value, options, field in ((style, STYLES, "pairing"), (short, SHORT_RULES, "a player short"),
                                  (winds, WIND_DRAWS, "winds")):
        if value not in options:
            raise PlayerError(400, "bad_field", f"{field}: one of {', '.join(options)}")
    known = {m.id for m in clubs.members(club.id)}
    players = list(dict.fromkeys(member_ids))
    if any(p not in known for p in players):
        raise PlayerError(400, "bad_field", "players: only the club's members play a club night")
    if not 3 <= len(players) <= MOST_PLAYERS:
        raise PlayerError(400, "bad_field", f"players: from 3 to {MOST_PLAYERS} members", code="night_players")
    settings = {"rounds": rounds, "style": style, "short": short, "winds": winds,
                "seed": secrets.randbelow(2 ** 31)}
    return _from_row(stored.create_night(clubs.new_id(), club.id, name, players, settings))


def night_or_404(club: clubs.Club, night_id: str) -> Night:
    row = stored.get_night(night_id)
    if row is None or row.club_id != club.id:
        abort(404)
    return _from_row(row)


def nights_of(club: clubs.Club) -> list[Night]:
    return [_from_row(r) for r in stored.nights_of(club.id)]


# --- results -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Standing:
    member: str
    name: str
    # the results added up as the club writes them (play.standings): riichi in thousands, each
    # game rounded the club's way (a Decimal); the other rule sets in points (an int)
    total: int | Decimal
    games: int
    places: int                    # sum of places, for the tie-break
    by_round: tuple[int | Decimal | None, ...]   # each round's result, None: not played (a bye, or not yet)


@dataclass(frozen=True)
class Results:
    """What the night's finished games say: each table's game, who is where after each round."""
    games: dict                    # session id -> kept_results.ClubGame (finished games only)
    complete: tuple[int, ...]      # the rounds every table of which has finished
    rules: str                     # the rule set the results are in (for how they are written)
    rounding: str = DEFAULT_ROUNDING   # how the club writes riichi results, as its standings do

    def finished(self, table: Table) -> bool:
        return table.session is not None and table.session in self.games

    def _game_and_seat(self, table: Table, member_id: str):
        """(the table's finished game, the member's seat in it), or None: not played."""
        game = self.games.get(table.session or "")
        seat = None if game is None else game.seat_of(member_id)
        return None if seat is None else (game, seat)

    def seat_line(self, table: Table, member_id: str):
        found = self._game_and_seat(table, member_id)
        return None if found is None else found[0].summary.seats[found[1]]

    def seat_result(self, table: Table, member_id: str) -> int | Decimal | None:
        """The member's result at `table` as the club writes it (the club standings' own
        `written_game`, so the night and the season agree to the last digit); None: not played."""
        found = self._game_and_seat(table, member_id)
        if found is None:
            return None
        game, seat = found
        written = written_results.written_game(game.summary, self.rounding)
        return game.summary.seats[seat].result if written is None else written[seat]

    def shown(self, value: int | Decimal) -> str:
        """A result of this night on a page: +12.3 (Tenhou), +12 (五捨六入), +12.25 (none), points otherwise."""
        return written_results.shown_result(value, self.rules, self.rounding)


def results(night: Night) -> Results:
    sessions = [t.session for r in night.rounds for t in r.tables if t.session]
    games = stored.games_of(sessions)
    # a round is over once every one of its tables has a finished game
    complete = tuple(r.number for r in night.rounds if r.tables and all(t.session in games for t in r.tables))
    kept_rules = (stored.club_rules(night.club_id) or {}).get("rules", "riichi")
    rules = next((g.summary.rules for g in games.values()), kept_rules)
    return Results(games, complete, rules, written_results.rounding_of(night.club_id))


def standings(night: Night, found: Results, through: int | None = None) -> list[Standing]:
    """The night's standings counting the finished games of rounds 1 to `through` (all), best
    first: the most result as the club writes it (the order its standings page would give), then
    the lower sum of places, then by name."""
    names = {m.id: m.name for m in clubs.members(night.club_id)}
    counted = [r for r in night.rounds if through is None or r.number <= through]
    rows = []
    for member in night.players:
        by_round, places = [], 0
        for r in counted:
            table = r.table_of(member)
            line = found.seat_line(table, member) if table else None
            by_round.append(None if line is None else found.seat_result(table, member))
            places += line.place if line else 0
        played = [v for v in by_round if v is not None]
        rows.append(Standing(member, names.get(member, "?"), sum(played), len(played), places, tuple(by_round)))
    return sorted(rows, key=lambda s: (-s.total, s.places, s.name.casefold()))


# --- drawing a round -----------------------------------------------------------------------

def _played(night: Night) -> list[seating.Round]:
    return [seating.Round(r.number, tuple(t.seats for t in r.tables), r.byes) for r in night.rounds]


def repeats(night: Night) -> tuple[int, int]:
    """(repeat meetings in the rounds drawn, the fewest any plan of that many rounds could have)."""
    played = _played(night)
    if not played:
        return 0, 0
    return (seating.repeat_meetings(played),
            seating.fewest_possible_repeats(len(night.players), len(played), night.short))


def repeated_pairs(night: Night) -> list[tuple[str, str, int]]:
    names = {m.id: m.name for m in clubs.members(night.club_id)}
    return [(names.get(a, "?"), names.get(b, "?"), n) for a, b, n in seating.repeated_pairs(_played(night))]


def ratings_of(night: Night, ratings_now: dict[str, dict[str, dict]]) -> dict[str, float]:
    """The night's players' ratings to spread by (``rating`` pairing), from the club's ratings
    now (`club_ratings.ratings_now`: rules -> member -> {rating, ...}) in the rule set the club
    plays: the shown number, mu - 3 sigma. Players without a rated game have none."""
    rules = (stored.club_rules(night.club_id) or {}).get("rules", "riichi")
    now = ratings_now.get(rules, {})
    return {member: float(now[member]["rating"]) for member in night.players if member in now}


def draw_round(club: clubs.Club, night: Night, ratings: dict[str, float] | None = None) -> Night:
    """The next round's tables and winds, once every table of the round before has finished;
    `ratings` (`ratings_of`) spread the players under ``rating`` pairing (none: by lot)."""
    found = results(night)
    if len(night.rounds) >= night.rounds_total:
        raise PlayerError(409, "bad_field", f"the night has {night.rounds_total} rounds, all drawn", code="night_over")
    if night.rounds and night.rounds[-1].number not in found.complete:
        raise PlayerError(409, "bad_field", "round: every table of this round finishes its game first",
                          code="round_in_play")
    by_standing = {s.member: float(s.total) for s in standings(night, found)}
    rng = random.Random(f"{night.seed}:{len(night.rounds) + 1}")
    try:
        planned = seating.plan_round(list(night.players), _played(night), rng, style=night.style,
                                     standings=by_standing, ratings=ratings or {}, short=night.short,
                                     rounds_total=night.rounds_total)
    except ValueError as err:
        raise PlayerError(422, "bad_field", str(err)) from None
    tables = []
    for number, players in enumerate(planned.tables, start=1):
        draw = seating.draw_winds(players, rng, night.winds)
        tables.append(Table(number, draw.seats, draw.to_json(), None))
    made = NightRound(planned.number, tuple(tables), planned.byes)

    def add(row: stored.NightRow) -> dict:
        if len(row.rounds) != len(night.rounds):       # another phone drew it a moment ago
            raise PlayerError(409, "bad_field", "round: this round was drawn already", code="round_drawn")
        return {"rounds": row.rounds + _rounds_json([made]), "timer": None}
    return _from_row(stored.change_night(night.id, add))


# --- starting a table ----------------------------------------------------------------------

def start_table(club: clubs.Club, night: Night, round_number: int, table_number: int,
                config_for: Callable[[list[str]], dict]) -> str:
    """The table's session (made now, unless it was made already, with `config_for(players)`:
    the club's rules, `club_rules.config_for`): its players in their drawn seats, East first,
    seated as the members they are."""
    table = _table(night, round_number, table_number)
    if table.session:
        return table.session
    names = {m.id: m.name for m in clubs.members(club.id)}
    players = [names[m] for m in table.seats]
    config = config_for(players)
    title = f"{night.name} · R{round_number} T{table_number}"[:limits.TITLE_LENGTH]
    made = store.create_session(config, title, club_id=club.id, members=dict(enumerate(table.seats)))
    stored.keep_seat_draw(made.id, _draw_by_name(table.draw, names))

    def link(row: stored.NightRow) -> dict:
        rounds = row.rounds
        kept = rounds[round_number - 1]["tables"][table_number - 1]
        if kept.get("session") is None:
            kept["session"] = made.id
        return {"rounds": rounds}
    after = _from_row(stored.change_night(night.id, link))
    return _table(after, round_number, table_number).session


def _table(night: Night, round_number: int, table_number: int) -> Table:
    if not 1 <= round_number <= len(night.rounds):
        abort(404)
    tables = night.rounds[round_number - 1].tables
    if not 1 <= table_number <= len(tables):
        abort(404)
    return tables[table_number - 1]


def _draw_by_name(draw: dict, names: dict[str, str]) -> dict:
    """A table's draw with members' names for ids, as the session's scoreboard shows it."""
    return {**draw, "seats": [names.get(m, "?") for m in draw["seats"]],
            "drawn": [{"player": names.get(d["player"], "?"), "wind": d["wind"]} for d in draw.get("drawn", [])]}


# --- the round timer -----------------------------------------------------------------------

def _now() -> datetime:
    return datetime.now(timezone.utc)


def set_timer(night: Night, minutes: int | None) -> Night:
    """Start the round timer for `minutes` from now; None stops it."""
    timer = None
    if minutes is not None:
        ends = _now() + timedelta(minutes=minutes)
        timer = {"ends": ends.isoformat(timespec="seconds"), "minutes": minutes,
                 "round": night.current.number if night.current else 0}
    return _from_row(stored.change_night(night.id, lambda row: {"timer": timer}))


def seconds_left(night: Night) -> int | None:
    """Whole seconds until the timer ends (0 once it has: the hand in play is the last); None: no timer."""
    if not night.timer:
        return None
    left = (datetime.fromisoformat(night.timer["ends"]) - _now()).total_seconds()
    return max(0, int(left + 0.999))


# --- one player's night --------------------------------------------------------------------

@dataclass(frozen=True)
class Seat:
    round: int
    table: Table | None            # None: a bye
    wind: str | None               # E, S, W, N
    others: tuple[tuple[str, str], ...]   # (wind, name) of the others at the table, from East


def player_rounds(night: Night, member_id: str) -> list[Seat]:
    names = {m.id: m.name for m in clubs.members(night.club_id)}
    found = []
    for r in night.rounds:
        table = r.table_of(member_id)
        if table is None:
            found.append(Seat(r.number, None, None, ()))
            continue
        winds = seating.WINDS
        found.append(Seat(r.number, table, winds[table.seats.index(member_id)],
                          tuple((winds[i], names.get(m, "?")) for i, m in enumerate(table.seats) if m != member_id)))
    return found


def state(night: Night) -> dict:
    """What the TV and a player's phone poll: enough to know whether to look again."""
    made, fewest = repeats(night)
    return {"night": night.id, "rounds": len(night.rounds), "rounds_total": night.rounds_total,
            "tables": [[t.session for t in r.tables] for r in night.rounds],
            "timer": night.timer, "seconds_left": seconds_left(night),
            "repeat_meetings": made, "fewest_possible": fewest}
