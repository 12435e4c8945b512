"""`tenbou demo` — the README's run command: the web app with a demo session and a simulated
automatic table on a pseudo-terminal, so a newcomer sees everything at once.

The simulated table follows the demo session: it comes on showing the session's scores, and
each hand recorded (or undone) in the app has the simulated players hand the sticks over, so
the table panel shows the new drawers and confirms the payment, as at a real automatic table.
"""
from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from webui.commands.serve import add_server_arguments, open_app, serve_app, table_port_problem

DEMO_PLAYERS = ["Aki", "Ben", "Chiyo", "Dan"]

log = logging.getLogger("tenbou.demo")


def register(sub) -> None:
    parser = sub.add_parser("demo", help="run the web app with a demo session and a simulated table")
    add_server_arguments(parser, data_default="a new temporary folder, so each demo starts afresh")
    parser.add_argument("--seed", type=int, default=None, help="seed of the simulated table's stick hand-overs")
    parser.set_defaults(run=run)


def seed_demo_session(app) -> tuple[str, str]:
    """A session with a few hands already played: (session id, join code)."""
    from webui.play import ledger, wins
    from webui.storage import store
    from webui.play.recording import record

    with app.test_request_context("/"):
        config = ledger.config_from_form({"player0": DEMO_PLAYERS[0], "player1": DEMO_PLAYERS[1],
                                        "player2": DEMO_PLAYERS[2], "player3": DEMO_PLAYERS[3],
                                        "rules": "riichi", "preset": "tenhou", "length": "south",
                                        "starting_points": "25000", "return_points": "30000",
                                        "uma": "15,5,-5,-15", "rate": "0.5", "chip_value": "0"})
        created = store.create_session(config, "Demo table", uses_table=True)
        record(created, {"type": "riichi", "seat": 1}, None)
        record(created, wins.win_event(created, {"winner": 1, "discarder": 3, "tsumo": "", "hand": {
            "concealed": "234m456p678s22z5z55z", "win_tile": "5z"}}), None)
        record(created, {"type": "win", "winner": 2, "discarder": None, "han": 3, "fu": 30}, None)
        return created.id, created.join_code


def table_state(snapshot: dict):
    """A scoreboard snapshot (webui.play.ledger.snapshot) as the table's drawers would show it."""
    from device.frames import ROUNDS, Snapshot

    round_ = f"{snapshot['round_wind']}{snapshot['hand_number']}"
    return Snapshot(points=tuple(int(p) for p in snapshot["scores"]),
                    round=None if snapshot["finished"] or round_ not in ROUNDS else round_,
                    honba=int(snapshot["honba"]), sticks=int(snapshot["riichi_sticks"]),
                    dealer=int(snapshot["dealer"]) + 1, riichi=tuple(bool(r) for r in snapshot["riichi"]))


def follow_session(app, session_id: str, table) -> Callable[[], None]:
    """Switch the following table on at the session's scores, then tell it every new state the
    session announces on its live topic; returns a function that stops following."""
    from webui.play import ledger
    from webui.storage import store

    with app.app_context():
        table.follow(table_state(ledger.snapshot(store.get_session(session_id))))
    sub = app.extensions["tenbou.broker"].subscribe(session_id)
    stop = threading.Event()

    def listen() -> None:
        with sub:
            while not stop.is_set():
                message = sub.get(timeout=0.5)
                if message is None or message[0] != "state":
                    continue
                try:
                    table.follow(table_state(json.loads(message[1])))
                except (ValueError, KeyError, TypeError):
                    log.exception("the simulated table cannot show this state")

    thread = threading.Thread(target=listen, name="demo table follows session", daemon=True)
    thread.start()

    def halt() -> None:
        stop.set()
        thread.join(2.0)
    return halt


def run(args: argparse.Namespace) -> int:
    halts: list[Callable[[], None]] = []
    table = None
    refused = table_port_problem(args, "tenbou demo")
    if refused is not None:
        return refused
    if args.table_port is None:
        try:
            from device.ports import start_simulated_table
            from device.simulator import SimOptions, SimulatedTable
            table = SimulatedTable(SimOptions(seed=args.seed, follow=True), time.monotonic())
            args.table_port, halt = start_simulated_table(table=table)
            args.table_fresh = True     # made for this run: no earlier reading of it to compare with
            halts.append(halt)
        except (ImportError, OSError) as err:
            table = None
            print(f"tenbou demo: no simulated table ({err}); running without one", file=sys.stderr)
    if args.data is None:
        args.data = Path(tempfile.mkdtemp(prefix="tenbou-demo-"))
    try:
        app = open_app(args, "tenbou demo")
        if isinstance(app, int):
            return app
        session_id, code = seed_demo_session(app)
        if table is not None:
            halts.insert(0, follow_session(app, session_id, table))

        def banner(base: str) -> str:
            lines = [f"  demo session: {base}/s/{session_id}/join?code={code}",
                     f"  TV view:      {base}/s/{session_id}/tv"]
            if args.table_port:
                lines.append(f"  simulated table on {args.table_port}")
            return "\n".join(lines)
        return serve_app(app, args, banner)
    finally:
        for halt in halts:
            halt()
