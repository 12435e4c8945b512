"""`tenbou settle LOG.json` — standings and who pays whom for a game or a session.

The log format is in docs/ledger.md (examples in docs/examples/). `--json` prints the
settlement for tools. Exit status 2 when the log cannot be read or replayed (why, on stderr).
"""
from __future__ import annotations

import argparse
import json
import sys

from scorer.errors import HandError
from scorer.game.log import read_log
from scorer.settlement import Settlement, settle_session

from webui.commands.json_file import Unreadable, read_json

UNREADABLE = 2
LENGTH_NAMES = {"east": "East only", "south": "East-South", "west": "three winds", "full": "four winds"}


def register(sub) -> None:
    parser = sub.add_parser("settle", help="standings and payments for a game or session log",
                            description="Replay a game or session event log (docs/ledger.md) and print the "
                                        "standings and the fewest payments that settle it.")
    parser.add_argument("log", help="the log file (JSON), or - for stdin")
    parser.add_argument("--json", action="store_true", help="print the settlement as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        log = read_json(args.log)
    except Unreadable as error:
        return _fail(str(error))
    try:
        games = read_log(log)
    except HandError as error:
        return _fail(f"{error.message} ({error.code})")
    settlement = settle_session(games)
    if args.json:
        print(json.dumps(settlement.to_json(), ensure_ascii=False, indent=2))
    else:
        print("\n".join(render(games, settlement)))
    return 0


def _fail(message: str) -> int:
    print(f"tenbou settle: {message}", file=sys.stderr)
    return UNREADABLE


def _signed(value: float, decimals: int) -> str:
    return f"{value:+,.{decimals}f}"


def render(games, settlement: Settlement) -> list[str]:
    """The sheet as people at the table read it."""
    money_unit = f" {settlement.currency}" if settlement.currency else ""
    lines = []
    for number, ((config, state), sheet) in enumerate(zip(games, settlement.games), start=1):
        rules = config.rules + (f" ({config.preset})" if config.rules == "riichi" else "")
        status = f"over: {state.end_reason}" if state.finished else f"not finished, stopped at {state.round_label}"
        lines.append(f"Game {number}: {rules}, {LENGTH_NAMES[config.length]}, {len(state.hands)} hands, {status}")
        thousands = config.rules == "riichi"
        chips = f"{'Chips':>7}" if config.chips else ""
        lines.append(f"  {'Place':<6}{'Player':<14}{'Score':>8}{'Result':>10}{chips}{'Money':>11}")
        for st in sheet.standings:
            result = _signed(st.result / 1000, 1) if thousands else _signed(st.result, 0)
            chips = f"{st.chips:>+7}" if config.chips else ""
            lines.append(f"  {st.place:<6}{st.name:<14}{st.score:>8}{result:>10}{chips}"
                         f"{_signed(st.money / 100, 2):>11}{money_unit}")
            notes = []
            if st.chip_money:
                notes.append(f"chips {_signed(st.chip_money / 100, 2)}")
            if st.uma:
                notes.append(f"uma {_signed(st.uma / 1000, 0)}")
            if st.oka:
                notes.append(f"oka {_signed(st.oka / 1000, 0)}")
            if st.penalty:
                notes.append(f"chombo penalty -{st.penalty / 1000:g}")
            if notes:
                lines[-1] += "   (" + ", ".join(notes) + ")"
        if state.riichi_sticks and state.finished:
            lines.append(f"  {state.riichi_sticks} riichi stick(s) left on the table are lost")
        lines.append("")
    if len(games) > 1:
        lines.append("Session totals")
        for name, total in sorted(settlement.totals.items(), key=lambda item: -item[1]["money"]):
            lines.append(f"  {name:<14}{_signed(total['money'] / 100, 2):>11}{money_unit}")
        lines.append("")
    if settlement.payments:
        lines.append("Payments")
        lines += [f"  {p.payer} pays {p.payee} {p.cents / 100:,.2f}{money_unit}" for p in settlement.payments]
    else:
        lines.append("Nobody owes anything" + ("" if any(c.rate for c, _ in games) else
                                               " (no money rate is set: add \"rate\" to the config)"))
    return lines
