"""`tenbou demo` — the README's run command: the web app with a demo session that follows
a simulated automatic table on a pseudo-terminal, so a newcomer sees everything at once."""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from .serve import add_server_arguments, make_app, serve_app

DEMO_PLAYERS = ["Aki", "Ben", "Chiyo", "Dan"]


def register(sub) -> None:
    parser = sub.add_parser("demo", help="run the web app with a demo session and a simulated table")
    add_server_arguments(parser)
    parser.add_argument("--seed", type=int, default=None, help="seed of the simulated table's game")
    parser.set_defaults(run=run)


def seed_demo_session(app) -> tuple[str, str]:
    """A session with a few hands already played: (session id, join code)."""
    from webui import game, store
    from webui.recording import record

    with app.test_request_context("/"):
        config = game.config_from_form({"player0": DEMO_PLAYERS[0], "player1": DEMO_PLAYERS[1],
                                        "player2": DEMO_PLAYERS[2], "player3": DEMO_PLAYERS[3],
                                        "rules": "riichi", "preset": "tenhou", "length": "south",
                                        "starting_points": "25000", "return_points": "30000",
                                        "uma": "15,5,-5,-15", "rate": "0.5", "chip_value": "0"})
        created = store.create_session(config, "Demo table", uses_table=True)
        record(created, {"type": "riichi", "seat": 1}, None)
        record(created, game.win_event(created, {"winner": 1, "discarder": 3, "tsumo": "", "hand": {
            "concealed": "234m456p678s22z5z55z", "win_tile": "5z"}}), None)
        record(created, {"type": "win", "winner": 2, "discarder": None, "han": 3, "fu": 30}, None)
        return created.id, created.join_code


def run(args: argparse.Namespace) -> int:
    halt = None
    if args.table_port is None:
        try:
            from device.ports import start_simulated_table
            from device.simulator import SimOptions
            args.table_port, halt = start_simulated_table(SimOptions(seed=args.seed))
        except (ImportError, OSError) as err:
            print(f"tenbou demo: no simulated table ({err}); running without one", file=sys.stderr)
    if args.data is None:
        args.data = Path(tempfile.mkdtemp(prefix="tenbou-demo-"))
    try:
        app = make_app(args)
        session_id, code = seed_demo_session(app)

        def banner(base: str) -> str:
            lines = [f"  demo session: {base}/s/{session_id}/join?code={code}",
                     f"  TV view:      {base}/s/{session_id}/tv"]
            if args.table_port:
                lines.append(f"  simulated table on {args.table_port}")
            return "\n".join(lines)
        return serve_app(app, args, banner)
    finally:
        if halt is not None:
            halt()
