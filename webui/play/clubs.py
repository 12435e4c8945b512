"""Clubs in the database: members, seasons, who sat where, and each game's kept results.

A member is a person: a club session's seats name members (a guest's seat names nobody), and
renaming a member rewrites their name in every session they sat in, in one transaction, so the
scoreboards, settlements and standings all say the new name. The games' results for the
standings are in `club_results`.
"""
from __future__ import annotations

import hashlib
import json
import re
import secrets
import string
from dataclasses import dataclass, replace
from datetime import date

from scorer.names import clean_name, fold

import sqlalchemy as sa
from flask import abort

from webui.guard import limits
from webui.storage import store
from webui.storage.kept_results import forget, in_season
from webui.storage.store import name_clash
from webui.storage.db import get_db, now, transaction
from webui.guard.errors import PlayerError
from webui.storage.schema.tables import club as club_t
from webui.storage.schema.tables import member as member_t
from webui.storage.schema.tables import season as season_t
from webui.storage.schema.tables import seat as seat_t
from webui.storage.schema.tables import session as session_t


@dataclass(frozen=True)
class Club:
    id: str
    name: str
    join_code: str
    created_at: str


@dataclass(frozen=True)
class Member:
    id: str
    club_id: str
    name: str


@dataclass(frozen=True)
class Season:
    id: str
    name: str
    starts: str                 # YYYY-MM-DD
    ends: str | None            # the next season's start (not included); None: still running


# Letters and digits only: an id is typed on the command line (`tenbou club import ID`),
# where one starting with "-" would read as an option.
_ID_ALPHABET = string.ascii_letters + string.digits


def new_id() -> str:
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(11))     # 65 bits


# --- clubs ---------------------------------------------------------------------------------

def create_club(name: str) -> Club:
    club_id = new_id()
    with transaction() as db:
        db.execute(club_t.insert().values(id=club_id, name=name, join_code=store.unused_code(db, club_t),
                                          created_at=now()))
    return get_club(club_id)


def get_club(club_id: str) -> Club | None:
    row = get_db().execute(sa.select(club_t).where(club_t.c.id == club_id)).first()
    return Club(row.id, row.name, row.join_code, row.created_at) if row else None


def club_or_404(club_id: str) -> Club:
    found = get_club(club_id)
    if found is None:
        abort(404)
    return found


def list_clubs() -> list[Club]:
    rows = get_db().execute(sa.select(club_t).order_by(club_t.c.name, club_t.c.id))
    return [Club(r.id, r.name, r.join_code, r.created_at) for r in rows]


# --- members -------------------------------------------------------------------------------

def members(club_id: str) -> list[Member]:
    """The club's members by name, alike on both databases (SQLite sorts only ASCII by case)."""
    rows = get_db().execute(sa.select(member_t).where(member_t.c.club_id == club_id))
    return sorted((Member(r.id, r.club_id, r.name) for r in rows), key=lambda m: (m.name.casefold(), m.id))


def member_or_404(club_id: str, member_id: str) -> Member:
    row = get_db().execute(sa.select(member_t).where(member_t.c.id == member_id,
                                                     member_t.c.club_id == club_id)).first()
    if row is None:
        abort(404)
    return Member(row.id, row.club_id, row.name)


def _name_taken(db: sa.Connection, club_id: str, name: str, other_than: str | None = None) -> None:
    if name_clash(db, club_id, name, other_than) is not None:
        raise PlayerError(409, "bad_field", f"name: the club already has a member called {name}",
                          code="member_exists")


def member_name(value: str) -> str:
    """A member's name as people read it (`scorer.names`: normalised, nothing invisible, no
    look-alike letters of another alphabet mixed in), or a refusal in words."""
    name, why = clean_name(value or "", limits.NAME_LENGTH)
    if why:
        raise PlayerError(400, "bad_field", f"name: {why}")
    if not name:
        raise PlayerError(400, "bad_field", "name: a member needs a name")
    return name


def add_member(club_id: str, name: str) -> Member:
    name = member_name(name)
    with transaction() as db:
        db.execute(sa.select(club_t.c.id).where(club_t.c.id == club_id).with_for_update())
        if db.execute(sa.select(sa.func.count()).select_from(member_t)
                      .where(member_t.c.club_id == club_id)).scalar() >= limits.MOST_MEMBERS:
            raise PlayerError(422, "bad_field", f"a club has at most {limits.MOST_MEMBERS} members",
                              code="too_many_members")
        _name_taken(db, club_id, name)
        member_id = new_id()
        db.execute(member_t.insert().values(id=member_id, club_id=club_id, name=name, created_at=now()))
    return Member(member_id, club_id, name)


def rename_member(club_id: str, member_id: str, name: str) -> Member:
    """Rename a member here and in every session they sat in, or nowhere."""
    name = member_name(name)
    with transaction() as db:
        db.execute(sa.select(club_t.c.id).where(club_t.c.id == club_id).with_for_update())
        _name_taken(db, club_id, name, other_than=member_id)
        updated = db.execute(member_t.update().where(member_t.c.id == member_id, member_t.c.club_id == club_id)
                             .values(name=name)).rowcount
        if not updated:
            abort(404)
        seated = db.execute(sa.select(session_t.c.id, session_t.c.config_json, seat_t.c.seat)
                            .join(seat_t, seat_t.c.session_id == session_t.c.id)
                            .where(seat_t.c.member_id == member_id)).all()
        for row in seated:
            config = json.loads(row.config_json)
            others = [p for s, p in enumerate(config["players"]) if s != row.seat]
            if fold(name) in (fold(p) for p in others):
                raise PlayerError(409, "bad_field", f"name: {name} also sat at a game this member played "
                                                    "(two seats cannot have one name)", code="member_exists")
            config["players"][row.seat] = name
            db.execute(session_t.update().where(session_t.c.id == row.id).values(config_json=json.dumps(config)))
        forget(db, [r.id for r in seated])        # the kept results name the players too
    return Member(member_id, club_id, name)


def seats_from_names(club_id: str, names: list[str]) -> dict[int, str]:
    """The members a session's typed names are (matched without regard to case or normal form);
    a name no member has is a guest's. One member sits in one seat: Bea, bea and BEA are one."""
    by_name = {fold(m.name): m.id for m in members(club_id)}
    found = {s: by_name[fold(n)] for s, n in enumerate(names) if fold(n) in by_name}
    if len(set(found.values())) != len(found):
        raise PlayerError(400, "bad_field", "players: one member cannot sit in two seats of one game")
    return found


def as_members_write_them(club_id: str, names: list[str], seats: dict[int, str]) -> list[str]:
    """The typed names, each seat taken by a member written as the club writes that member
    ("aki" typed for Aki is shown as Aki on the board, the settlement and the standings)."""
    spelled = {m.id: m.name for m in members(club_id)}
    return [spelled.get(seats.get(s, ""), name) for s, name in enumerate(names)]


def seated(session_id: str) -> dict[int, str]:
    rows = get_db().execute(sa.select(seat_t).where(seat_t.c.session_id == session_id))
    return {r.seat: r.member_id for r in rows}


# --- seasons -------------------------------------------------------------------------------

def seasons(club_id: str) -> list[Season]:
    """The club's seasons, newest first, each ending where the next one starts."""
    rows = get_db().execute(sa.select(season_t).where(season_t.c.club_id == club_id)
                            .order_by(season_t.c.starts.desc())).all()
    found, ends = [], None
    for row in rows:
        found.append(Season(row.id, row.name, row.starts, ends))
        ends = row.starts
    return found


def pick_season(club_id: str, wanted: str | None) -> Season | None:
    """The season asked for by id, or None for `all`; by default the one running today, or
    every game where the club has no seasons."""
    found = seasons(club_id)
    if wanted == "all":
        return None
    if wanted:
        for season in found:
            if season.id == wanted:
                return season
        raise PlayerError(404, "not_found", "season: the club has no such season")
    today = date.today().isoformat()
    return next((s for s in found if s.starts <= today), None)


_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def day(value: object, field: str) -> str:
    """A calendar day as YYYY-MM-DD, the one form the seasons compare (a season starting
    `20260401` or `2026-W14-1`, which Python's own reader takes, would count no games)."""
    try:
        if not isinstance(value, str) or not _DAY.fullmatch(value.strip()):
            raise ValueError(value)
        return date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        raise PlayerError(400, "bad_field", f"{field}: a date such as 2026-04-01 (year-month-day)") from None


def add_season(club_id: str, name: str, starts: str) -> Season:
    starts = day(starts, "starts")
    if not name:
        raise PlayerError(400, "bad_field", "name: a season needs a name")
    with transaction() as db:
        db.execute(sa.select(club_t.c.id).where(club_t.c.id == club_id).with_for_update())
        if db.execute(sa.select(season_t.c.id).where(season_t.c.club_id == club_id,
                                                     season_t.c.starts == starts)).first():
            raise PlayerError(409, "bad_field", f"starts: a season already starts on {starts}",
                              code="season_exists")
        if db.execute(sa.select(sa.func.count()).select_from(season_t)
                      .where(season_t.c.club_id == club_id)).scalar() >= limits.MOST_SEASONS:
            raise PlayerError(422, "bad_field", f"a club keeps at most {limits.MOST_SEASONS} seasons",
                              code="too_many_seasons")
        season_id = new_id()
        db.execute(season_t.insert().values(id=season_id, club_id=club_id, name=name, starts=starts))
    return next(s for s in seasons(club_id) if s.id == season_id)


# --- games ---------------------------------------------------------------------------------

def club_sessions(club_id: str, season: Season | None = None) -> list[store.Session]:
    """The club's sessions (of a season: started on or after its start, before its end), newest first."""
    query = in_season(sa.select(session_t), club_id, season)
    rows = get_db().execute(query.order_by(session_t.c.created_at.desc(), session_t.c.id.desc()))
    return [store.session_from_row(r) for r in rows]


# --- games played without the app ----------------------------------------------------------

def import_log(club: Club, log: object, played_on: str, title: str = "", again: bool = False) -> list[store.Session]:
    """Add the games of a `tenbou settle` log (docs/ledger.md) to the club, as played on
    `played_on` (YYYY-MM-DD): each game a session with its events, its players seated as the
    members of those names (others as guests). Every game is replayed first; a log the ledger
    refuses adds nothing. A log the club imported before is refused (`AlreadyImported`)
    unless `again`: the same games counted twice would change every standing."""
    from scorer.errors import HandError
    from scorer.game.log import check_log, log_games

    played_day = day(played_on, "played on")
    try:
        if len(log_games(log)) > limits.MOST_IMPORTED_GAMES:
            raise PlayerError(422, "bad_log", f"a log adds at most {limits.MOST_IMPORTED_GAMES} games at once",
                              code="too_many_games")
        # checked as a typed hand is: every number bounded, every hand scored again, replayed;
        # what is stored is the events rebuilt from what the log says happened (issue 25)
        checked = check_log(log)
    except HandError as err:
        raise PlayerError(422, "bad_log", err.message, code=err.code) from None
    made = []
    for number, game in enumerate(checked, start=1):
        where = f"game {number}: " if len(checked) > 1 else ""
        names = list(game.config.players)
        try:
            members = seats_from_names(club.id, names)
        except PlayerError as err:
            raise PlayerError(422, "bad_log", where + err.detail, code="bad_log") from None
        # games of one day keep their order: a second apart
        on = f"{played_day}T00:00:{min(number, 59):02d}.000Z"
        made.append((game.config.to_json(), members, store.Played(on, game.events)))
    digest = log_digest([(config, played.events) for config, _, played in made])
    if not again:
        earlier = store.imported_with(club.id, digest)
        if earlier:
            raise AlreadyImported(earlier)
    return [store.create_session(config, title, club_id=club.id, members=members,
                                 played=replace(played, digest=digest))
            for config, members, played in made]


def log_digest(games: list[tuple[dict, list[dict]]]) -> str:
    """A log's fingerprint: SHA-256 of its games as replayed (rules, players, events), so the
    same games written another way (keys reordered, spaced, a different day) are one log."""
    canonical = json.dumps([{"config": config, "events": events} for config, events in games],
                           sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class AlreadyImported(PlayerError):
    """The club imported this log before: its sessions (oldest first) say when."""

    def __init__(self, earlier: list[store.Session]):
        self.played_on = earlier[0].created_at[:10]
        self.games = len(earlier)
        games = f"{self.games} game{'s' if self.games != 1 else ''}"
        super().__init__(409, "bad_log", f"this log was already imported ({games} played on {self.played_on})",
                         code="already_imported")
