"""`tenbou club` — a club's games from the command line: `list` the clubs of a database with
their members, `import` a `tenbou settle` log as games the club played without the app (as
the club page's import does; a log imported before only with `--again`), `seasons` with their
ids, and `standings` printed or as CSV for a spreadsheet."""
from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

from webui.commands.json_file import Unreadable, read_json


def register(sub) -> None:
    parser = sub.add_parser("club", help="list clubs, import a settle log into a club, print a season's standings")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--database", default=None, metavar="URL",
                        help="sqlite:///PATH or postgresql://USER@HOST/DB (default: tenbou.sqlite3 in --data)")
    common.add_argument("--data", type=Path, default=None, help="the data folder (default: ~/.local/share/tenbou)")
    listing = actions.add_parser("list", parents=[common], help="the clubs, with their ids and members")
    listing.set_defaults(run=run_list)
    importing = actions.add_parser("import", parents=[common], help="add the games of a settle log to a club")
    importing.add_argument("club", help="the club's id (see `tenbou club list`)")
    importing.add_argument("log", help="the log file (JSON, as `tenbou settle` reads), or - for stdin")
    importing.add_argument("--played-on", default=date.today().isoformat(), metavar="YYYY-MM-DD",
                           help="the day the games were played (default: today)")
    importing.add_argument("--title", default="", help="the games' title (default: none, the players' names show)")
    importing.add_argument("--again", action="store_true",
                           help="import a log the club imported before (its games are then counted twice)")
    importing.set_defaults(run=run_import)
    seasons = actions.add_parser("seasons", parents=[common], help="a club's seasons, with their ids")
    seasons.add_argument("club", help="the club's id")
    seasons.set_defaults(run=run_seasons)
    table = actions.add_parser("standings", parents=[common], help="a season's standings")
    table.add_argument("club", help="the club's id")
    table.add_argument("--season", default=None,
                       help="a season's id (see `tenbou club seasons`), or all (default: the season running today)")
    table.add_argument("--csv", action="store_true", help="print CSV, as the standings page exports")
    table.set_defaults(run=run_standings)


class NoData(Exception):
    """The data folder or database named holds no Tenbou data, or no such club: said, never made."""


def _app(args: argparse.Namespace):
    """The web app on the chosen database, for its storage alone (nothing is served). A data
    folder or SQLite file that is not there is refused: `club` reads what `serve` stored, and
    making an empty one for a mistyped name would only say "no clubs"."""
    from webui import create_app, default_data_dir
    from webui.storage.db import parse_url
    folder = args.data or default_data_dir()
    config = {"DATA_DIR": str(folder)}
    if args.database:
        url = parse_url(args.database)
        if url.get_backend_name() == "sqlite" and not Path(url.database).is_file():
            raise NoData(f"no such database: {url.database}")
        config["DATABASE_URL"] = args.database
    elif not (folder / "tenbou.sqlite3").is_file():
        why = "there is no such folder" if not folder.exists() else "it holds no tenbou.sqlite3"
        raise NoData(f"no Tenbou data in {folder}: {why} (give the folder `tenbou serve --data` used)")
    return create_app(config)


def _club(club_id: str):
    """The club named on the command line (within the app's context), or NoData saying there is none."""
    from webui.play import clubs
    club = clubs.get_club(club_id)
    if club is None:
        raise NoData(f"no club {club_id} (see `tenbou club list`)")
    return club


def _count(number: int, thing: str) -> str:
    """'1 game', '2 games'."""
    return f"{number} {thing}{'' if number == 1 else 's'}"


def _fail(message: str) -> int:
    print(f"tenbou club: {message}", file=sys.stderr)
    return 2


def _guarded(run):
    """Say a refused or unreachable database, or a refused club change, in one line: exit 2."""
    def guarded(args: argparse.Namespace) -> int:
        from sqlalchemy.exc import SQLAlchemyError

        from webui.storage.db import DatabaseURLError, failure_reason
        from webui.guard.errors import PlayerError
        try:
            return run(args)
        except PlayerError as err:
            return _fail(err.detail or err.key.replace("_", " "))
        except (DatabaseURLError, NoData) as err:
            return _fail(str(err))
        except (SQLAlchemyError, OSError) as err:
            return _fail(f"cannot use the database: {failure_reason(err)}")
    return guarded


@_guarded
def run_list(args: argparse.Namespace) -> int:
    from webui.play import clubs
    with _app(args).app_context():
        found = clubs.list_clubs()
        if not found:
            print("No clubs yet: start one at /clubs in the web app.")
        for club in found:
            names = ", ".join(m.name for m in clubs.members(club.id)) or "no members"
            print(f"{club.id}  {club.name}  ({names})")
    return 0


@_guarded
def run_import(args: argparse.Namespace) -> int:
    from webui.play import clubs
    try:
        log = read_json(args.log)
    except Unreadable as error:
        return _fail(str(error))
    with _app(args).app_context():
        club = _club(args.club)
        try:
            made = clubs.import_log(club, log, args.played_on, args.title, again=args.again)
        except clubs.AlreadyImported as err:
            return _fail(f"{err.detail}: nothing added (add --again to import it again)")
        seated = sum(len(clubs.seated(s.id)) for s in made)
    print(f"Added {_count(len(made), 'game')} to {club.name}, played on {args.played_on}; "
          f"{_count(seated, 'seat')} taken by members")
    return 0


@_guarded
def run_seasons(args: argparse.Namespace) -> int:
    from webui.play import clubs
    with _app(args).app_context():
        club = _club(args.club)
        found = clubs.seasons(club.id)
    if not found:
        print(f"{club.name} has no seasons: its standings count every game (add seasons on the club page).")
    for season in found:
        until = f" to {season.ends}" if season.ends else ""
        print(f"{season.id}  {season.name}  from {season.starts}{until}")
    return 0


@_guarded
def run_standings(args: argparse.Namespace) -> int:
    from webui.play import clubs
    from webui.play.club_export import season_csv
    from webui.play.standings import club_rounding, season_standings, shown_total, sort_by_written, written_totals
    with _app(args).app_context():
        club = _club(args.club)
        season = clubs.pick_season(club.id, args.season)
        played, table = season_standings(club, season)
        rounding = club_rounding(club)
    totals = written_totals(played, rounding)
    table = {rules: sort_by_written(rows, totals) for rules, rows in table.items()}
    if args.csv:
        sys.stdout.write(season_csv(table, totals))
        return 0
    print(f"{club.name}: {season.name if season else 'all games'}, {_count(len(played), 'game')}")
    for rules, rows in table.items():
        print(f"\n{rules}")
        print(f"  {'#':>2} {'Player':<16}{'Games':>6}{'Result':>10}{'Money':>10}{'Avg':>6}")
        for place, row in enumerate(rows, start=1):
            print(f"  {place:>2} {row.name:<16}{row.games:>6}{shown_total(row, totals, rounding):>10}"
                  f"{row.money / 100:>+10.2f}{row.average_place:>6.2f}")
    return 0
