"""`tenbou table` — the automatic table's point display: watch a port, or simulate a table."""
from __future__ import annotations

import argparse
import json
import os
import queue
import signal
import sys
import threading
import time

import serial

from device.display import describe
from device.events import Event, LinkEvent, StatsEvent, to_json
from device.faults import FAULTS
from device.ports import PtyLink, SerialLink, run_simulator
from device.reader import TableReader, port_problem, why_closed
from device.simulator import SimOptions, SimulatedTable


# Seconds `table watch` waits for the first frame: a table says hello when asked (at once) and
# every 10 s unasked, so a port where nothing valid came in this long has no table on it.
FIRST_FRAME_WAIT = 15.0
# Exit statuses (README): stopped by Ctrl-C; the port has no table.
INTERRUPTED, UNUSABLE = 130, 2


def register(sub) -> None:
    parser = sub.add_parser("table", help="read an automatic table's point display, or simulate one")
    table_sub = parser.add_subparsers(dest="table_command", metavar="ACTION")
    table_sub.required = True

    watch = table_sub.add_parser("watch", help="show the table's points live")
    watch.add_argument("--port", required=True, metavar="URL",
                       help="serial port or pyserial URL: /dev/ttyUSB0, /dev/pts/3, socket://host:port, loop://")
    watch.add_argument("--json", action="store_true", help="one JSON object a line")
    watch.add_argument("--total", type=_points, metavar="N",
                       help="points in play (default: what the table says, else the first steady total)")
    watch.add_argument("--wait", type=_seconds, default=FIRST_FRAME_WAIT, metavar="S",
                       help=f"stop when no table has answered within this many seconds ({FIRST_FRAME_WAIT:g}); "
                            "once one has, a cable pulled out is waited for")
    watch.set_defaults(run=run_watch)

    sim = table_sub.add_parser("simulate", help="play a simulated table on a pseudo-terminal or a port")
    sim.add_argument("--port", metavar="PATH", help="write to this port (default: a new pseudo-terminal, printed)")
    sim.add_argument("--seats", type=int, choices=(3, 4), default=4)
    sim.add_argument("--seed", type=int, help="replay the same game")
    sim.add_argument("--pace", type=_seconds, default=6.0, metavar="S", help="seconds a hand takes, roughly (6)")
    sim.add_argument("--faults", type=_fault_list, default=(), metavar="LIST",
                     help=f"inject these faults in turn, comma-separated, or 'all': {','.join(FAULTS)}")
    sim.add_argument("--fault-every", type=_seconds, default=8.0, metavar="S", help="seconds between faults (8)")
    sim.add_argument("--silence", type=_seconds, default=5.0, metavar="S", help="how long the silence fault lasts (5)")
    sim.add_argument("--flood", type=int, default=2000, metavar="N", help="frames the flood fault sends at once")
    sim.set_defaults(run=run_simulate)


def _points(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise _arg_error(f"{text!r} is not a number of points") from None
    if value <= 0:
        raise _arg_error("the total must be more than 0 points")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise _arg_error(f"{text!r} is not a number of seconds") from None
    if not 0 < value < 3600:
        raise _arg_error("seconds must be more than 0 and less than an hour")
    return value


def _fault_list(text: str) -> tuple[str, ...]:
    names = FAULTS if text.strip() == "all" else tuple(n.strip() for n in text.split(",") if n.strip())
    for name in names:
        if name not in FAULTS:
            raise _arg_error(f"unknown fault {name!r}; choose from {', '.join(FAULTS)} or all")
    return names


def _arg_error(message: str) -> argparse.ArgumentTypeError:
    return argparse.ArgumentTypeError(message)


class _StopOnSignal:
    """SIGINT and SIGTERM end the command cleanly (the final stats still print); `status` is
    then 130 for Ctrl-C (SIGINT), as every command answers it, and 0 for SIGTERM, a stop asked
    by a service manager."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.status = 0

    def __enter__(self) -> _StopOnSignal:
        self._old = {sig: signal.signal(sig, self._handle) for sig in (signal.SIGINT, signal.SIGTERM)}
        return self

    def __exit__(self, *exc) -> None:
        for sig, handler in self._old.items():
            signal.signal(sig, handler)

    def _handle(self, signum, frame) -> None:
        self.status = INTERRUPTED if signum == signal.SIGINT else 0
        # The handler runs on the main thread, which may be inside `stop.wait` holding the
        # event's own lock at that moment: `stop.set()` here would wait on that lock for ever
        # (Python's signal docs warn so, and a Ctrl+C now and then left the command running).
        # Another thread takes the lock once the main thread lets it go.
        threading.Thread(target=self.stop.set, name="stop on signal", daemon=True).start()


def run_watch(args) -> int:
    events: queue.Queue[Event] = queue.Queue()
    if not args.port.strip():
        print("tenbou: --port needs a port, e.g. /dev/ttyUSB0 or the path `tenbou table simulate` printed",
              file=sys.stderr)
        return UNUSABLE
    try:
        reader = TableReader(args.port, events.put, total=args.total)
    except ValueError as error:
        print(f"tenbou: {args.port!r} is not a port I can open: {error}", file=sys.stderr)
        return UNUSABLE
    problem = port_problem(args.port)
    if problem:
        print(f"tenbou: cannot watch {args.port}: {problem}", file=sys.stderr)
        return UNUSABLE
    show = (lambda e: json.dumps(to_json(e), separators=(", ", ": "))) if args.json else describe
    reason = None                # the last reason the port gave for being closed
    answered = False
    deadline = time.monotonic() + args.wait
    with _StopOnSignal() as signalled:
        reader.start()
        while not signalled.stop.is_set():
            try:
                event = events.get(timeout=0.1)
                if isinstance(event, LinkEvent) and event.reason:
                    reason = event.reason
                print(show(event), flush=True)
            except queue.Empty:
                pass
            answered = answered or reader.stats()["frames"] > 0
            if not answered and time.monotonic() > deadline:
                reader.stop()
                why = f" ({reason})" if reason else ""
                print(f"tenbou: no table answers on {args.port}: no valid frame within {args.wait:g} s{why}",
                      file=sys.stderr)
                return UNUSABLE
        reader.stop()
    while not events.empty():
        print(show(events.get_nowait()), flush=True)
    print(show(StatsEvent(reader.stats())), flush=True)
    return signalled.status


def run_simulate(args) -> int:
    options = SimOptions(seats=args.seats, seed=args.seed, pace=args.pace, faults=args.faults,
                         fault_every=args.fault_every, silence=args.silence, flood=args.flood)
    problem = port_problem(args.port) if args.port and os.path.exists(args.port) else None
    if problem:     # a file would be written over; a port that is not there is said below
        print(f"tenbou: cannot simulate on {args.port}: {problem}", file=sys.stderr)
        return UNUSABLE
    try:
        link = SerialLink(args.port) if args.port else PtyLink()
    except (serial.SerialException, OSError, ValueError) as error:
        where = f"open {args.port}: {why_closed(error)}" if args.port else f"make a pseudo-terminal: {error}"
        print(f"tenbou: cannot {where}", file=sys.stderr)
        return 2
    table = SimulatedTable(options, time.monotonic())
    try:
        # Ctrl+C is caught before the path is printed: a caller that waits for the path and then
        # stops the table must find it stoppable (started with SIGINT ignored, as a shell's
        # background job is, nothing else would stop it on Ctrl+C)
        with _StopOnSignal() as signalled:
            print(link.path, flush=True)
            print(f"simulated table on {link.path} — watch it with: tenbou table watch --port {link.path}",
                  file=sys.stderr, flush=True)
            run_simulator(link, table, signalled.stop)
    except (serial.SerialException, OSError) as error:
        print(f"tenbou: the simulated table stopped: {why_closed(error)}", file=sys.stderr)
        return 1
    finally:
        link.close()
    return signalled.status
