"""`tenbou club` — a club's games from the command line: `list` the clubs of a database with
their members, `import` a `tenbou settle` log as games the club played without the app (as
the club page's import does), and `standings` printed or as CSV for a spreadsheet."""
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
    importing.set_defaults(run=run_import)
    table = actions.add_parser("standings", parents=[common], help="a season's standings")
    table.add_argument("club", help="the club's id")
    table.add_argument("--season", default=None, help="a season's id, or all (default: the season running today)")
    table.add_argument("--csv", action="store_true", help="print CSV, as the standings page exports")
    table.set_defaults(run=run_standings)


def _app(args: argparse.Namespace):
    """The web app on the chosen database, for its storage alone (nothing is served)."""
    from webui import create_app, default_data_dir
    config = {"DATA_DIR": str(args.data or default_data_dir())}
    if args.database:
        config["DATABASE_URL"] = args.database
    return create_app(config)


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
        except DatabaseURLError as err:
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
        club = clubs.get_club(args.club)
        if club is None:
            return _fail(f"no club {args.club} (see `tenbou club list`)")
        made = clubs.import_log(club, log, args.played_on, args.title)
        seated = sum(len(clubs.seated(s.id)) for s in made)
    print(f"Added {len(made)} game(s) to {club.name}, played on {args.played_on}; {seated} seat(s) taken by members")
    return 0


@_guarded
def run_standings(args: argparse.Namespace) -> int:
    from webui.play import clubs
    from webui.play.club_export import season_csv
    from webui.play.standings import season_standings, shown_result
    with _app(args).app_context():
        club = clubs.get_club(args.club)
        if club is None:
            return _fail(f"no club {args.club} (see `tenbou club list`)")
        season = clubs.pick_season(club.id, args.season)
        played, table = season_standings(club, season)
    if args.csv:
        sys.stdout.write(season_csv(table))
        return 0
    print(f"{club.name}: {season.name if season else 'all games'}, {len(played)} games")
    for rules, rows in table.items():
        print(f"\n{rules}")
        print(f"  {'#':>2} {'Player':<16}{'Games':>6}{'Result':>10}{'Money':>10}{'Avg':>6}")
        for place, row in enumerate(rows, start=1):
            print(f"  {place:>2} {row.name:<16}{row.games:>6}{shown_result(row.result, rules):>10}"
                  f"{row.money / 100:>+10.2f}{row.average_place:>6.2f}")
    return 0
