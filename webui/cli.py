"""`tenbou` — the command line. Each subcommand lives in its own module under
`webui/commands/` and registers itself through a `register(subparsers)` function."""
from __future__ import annotations

import argparse
import importlib
import sys

# Module names under webui.commands, in the order `tenbou --help` lists them.
COMMANDS = ("score", "table", "scan", "camera", "serve", "demo", "settle", "db", "club")


class OneLineParser(argparse.ArgumentParser):
    """A refused option is said in one line, exit 2 (README: every command's bad input), not
    argparse's usage block; `--help` still shows the usage. Subcommands' parsers are made of
    this class too (argparse makes them of their parent's)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="tenbou", description="Mahjong scoring, table tracking and settlement.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"webui.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args) or 0
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
