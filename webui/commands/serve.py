"""`tenbou serve` — the web app under waitress (a production WSGI server).

Each open scoreboard holds one waitress thread for its live stream, so the pool is sized for
the scoreboards expected (`--clients`, default 60) plus threads that streams may never take,
for pages, hand posts and photos; a scoreboard beyond `--clients` polls instead (webui/pages/live.py).
"""
from __future__ import annotations

import argparse
import logging
import signal
import socket
import sys
from pathlib import Path

from .options import camera_number, port_number

INTERRUPTED = 130     # README: stopped by Ctrl-C
PLAIN_THREADS = 8
# Seconds a connection may sit idle (a request sent in part, or a kept-alive connection between
# requests) before it is closed, and how often that is checked. Idle connections count against
# the connection limit, so a long timeout let 145 half-sent requests lock everyone out for two
# minutes; a phone sending a photo is never idle that long, and a live stream is not idle.
CHANNEL_TIMEOUT = 15
CLEANUP_INTERVAL = 5
# A connection whose sent data stays unacknowledged this long (a phone gone from the Wi-Fi
# without closing) is dropped by the kernel, which ends its stream at the next keep-alive.
UNACKED_MS = 10_000


def server_options(clients: int) -> dict:
    """Waitress settings for `clients` live scoreboards (see docs/web.md, Threads)."""
    clients = max(1, clients)
    options = {
        "threads": clients + PLAIN_THREADS,
        # every scoreboard has its stream and a kept-alive connection for pages and polls,
        # and refused or polling pages keep theirs: room for all of them and a crowd besides
        "connection_limit": max(500, 4 * clients + 100),
        "channel_timeout": CHANNEL_TIMEOUT,
        "cleanup_interval": CLEANUP_INTERVAL,
        # poll() rather than select(), which cannot watch file numbers past 1023
        "asyncore_use_poll": True,
        # keep reading a connection while its request runs, so a page that closes its live
        # stream is seen at once (webui/pages/live.py asks), not at the next write that fails
        "channel_request_lookahead": 1,
        # waitress drops X-Forwarded-For from every peer unless it trusts one itself; the app
        # reads it only from the proxies `--trusted-proxy` names (webui/guard/client_address.py)
        "clear_untrusted_proxy_headers": False,
    }
    return options


def drop_unacknowledged(server) -> None:
    """Set UNACKED_MS on the listening socket (Linux); accepted connections inherit it."""
    listening = getattr(server, "socket", None)
    if listening is not None and hasattr(socket, "TCP_USER_TIMEOUT"):
        try:
            listening.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, UNACKED_MS)
        except OSError:
            pass


def register(sub) -> None:
    parser = sub.add_parser("serve", help="run the web app (scoreboards, hands by photo, settlement)")
    add_server_arguments(parser)
    parser.set_defaults(run=run)


def add_server_arguments(parser: argparse.ArgumentParser, data_default: str = "~/.local/share/tenbou") -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on; 0.0.0.0 for phones on the network")
    parser.add_argument("--port", type=port_number, default=8000, help="port to listen on, 0-65535 (default 8000)")
    parser.add_argument("--data", type=Path, default=None, help=f"folder for the database (default: {data_default})")
    parser.add_argument("--database", default=None, metavar="URL",
                        help="the database: sqlite:///PATH (default: tenbou.sqlite3 in --data) or "
                             "postgresql://USER@HOST/DB, which several servers can share")
    parser.add_argument("--table-port", default=None, metavar="URL",
                        help="the automatic table's serial port or pyserial URL (e.g. /dev/ttyUSB0, socket://host:port)")
    parser.add_argument("--table-total", type=int, default=None, help="points in play at the table (default: from its hello)")
    parser.add_argument("--webcam", type=camera_number, default=None, metavar="N",
                        help="read hands from the webcam N on this computer too (OpenCV camera index)")
    parser.add_argument("--clients", type=_clients, default=60,
                        help="live scoreboards to stream to at once (one thread each; more poll instead)")
    parser.add_argument("--trusted-proxy", type=_proxy, action="append", default=[], metavar="ADDR",
                        help="a reverse proxy in front (address or network; repeatable): its X-Forwarded-For "
                             "names the client the join-code and creation throttles count")


def _clients(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of scoreboards") from None
    if not 1 <= value <= 1000:
        raise argparse.ArgumentTypeError("--clients takes 1 to 1000 scoreboards")
    return value


def _proxy(text: str) -> str:
    from webui.guard.client_address import proxy_network
    try:
        return str(proxy_network(text))
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _allow_open_files(wanted: int) -> None:
    """Raise this process's open-file limit towards `wanted` (each connection is one), as far as
    the system lets a user; waitress refuses connections past its own limit, never crashes."""
    try:
        import resource
    except ImportError:          # not on Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass


def lan_address() -> str | None:
    """This computer's address on the local network, best effort (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.168.0.1", 9))     # picks the interface a LAN peer would reach us on
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def make_app(args: argparse.Namespace):
    from webui import create_app
    config = {"TABLE_PORT": args.table_port, "TABLE_TOTAL": args.table_total, "WEBCAM": args.webcam,
              "TABLE_FRESH": getattr(args, "table_fresh", False), "SSE_STREAMS": args.clients,
              "TRUSTED_PROXIES": list(getattr(args, "trusted_proxy", None) or [])}
    if args.data is not None:
        config["DATA_DIR"] = str(args.data)
    if getattr(args, "database", None):
        config["DATABASE_URL"] = args.database
    return create_app(config)


def serve_app(app, args: argparse.Namespace, banner=None) -> int:
    """Serve until Ctrl+C; `banner(base_url)` adds lines to the start message."""
    from webui.guard.client_address import proxy_network
    from webui.guard.connections import create_guarded_server
    from webui.play.photos import bound_allocator

    options = server_options(args.clients)
    _allow_open_files(options["connection_limit"] + 100)   # the database, the table, logs besides
    proxies = tuple(proxy_network(p) for p in app.config.get("TRUSTED_PROXIES") or ())
    bound_allocator()           # before the threads start: see webui/play/photos.py
    try:
        server = create_guarded_server(app, host=args.host, port=args.port, ident="tenbou", proxies=proxies,
                                       **options)
    except OSError as err:
        print(f"tenbou serve: cannot listen on {args.host}:{args.port}: {err.strerror or err}", file=sys.stderr)
        return 2
    drop_unacknowledged(server)
    # waitress's loop ends on Ctrl+C by catching the KeyboardInterrupt itself, so whether it
    # was one is noted here, for the exit status the README gives it. The handler goes in before
    # the start message invites Ctrl+C: started with SIGINT ignored (as a shell's background job
    # is), a Ctrl+C sent on reading "stop with Ctrl+C" was otherwise lost and the server ran on.
    interrupted = []

    def on_ctrl_c(signum, frame):
        interrupted.append(signum)
        raise KeyboardInterrupt
    try:
        previous = signal.signal(signal.SIGINT, on_ctrl_c)
    except ValueError:          # not the main thread: Python's own handler stays
        previous = None
    try:
        announce(app, args, server.effective_port, banner)
        server.run()
    except KeyboardInterrupt:
        interrupted.append(signal.SIGINT)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        server.close()
    return INTERRUPTED if interrupted else 0


def announce(app, args: argparse.Namespace, port: int, banner=None) -> None:
    """The start message: where Tenbou runs (and, listening on every address, where phones
    reach it), its data, the `banner`'s lines, and how to stop it."""
    from webui.storage.db import shown

    host = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    print(f"Tenbou is running at http://{host}:{port}/", flush=True)
    if args.host in ("0.0.0.0", ""):
        lan = lan_address()
        if lan:
            app.config["PUBLIC_URL"] = f"http://{lan}:{port}"
            print(f"  phones on this network: http://{lan}:{port}/", flush=True)
        else:
            print("  phones on this network: this computer's address, same port", flush=True)
    print(f"  data: {shown(app.config['DATABASE_URL'])}", flush=True)
    if banner is not None:
        print(banner(f"http://{host}:{port}"), flush=True)
    print("  stop with Ctrl+C", flush=True)


def table_port_problem(args: argparse.Namespace, command: str) -> int | None:
    """Exit status 2 with the reason said when `--table-port` names a device that is not there
    or is no serial port (a typo, or the cable not plugged in): a player starting the server
    for a table expects its scores, so a port that cannot be one is said before anything
    starts. A URL (socket://) is connected to once running, and a table unplugged later is
    waited for (the table panel says so)."""
    from device.reader import port_problem

    problem = port_problem(args.table_port) if args.table_port else None
    if problem is None:
        return None
    print(f"{command}: cannot follow the table on {args.table_port}: {problem}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    refused = table_port_problem(args, "tenbou serve")
    if refused is not None:
        return refused
    opened = open_app(args, "tenbou serve")
    return opened if isinstance(opened, int) else serve_app(opened, args)


def open_app(args: argparse.Namespace, command: str):
    """The app, or exit status 2 with the reason said when its data folder or database
    cannot be used (a URL Tenbou does not read, a PostgreSQL that is not there)."""
    from sqlalchemy.exc import SQLAlchemyError

    from webui.storage.db import DatabaseURLError, failure_reason, shown
    try:
        return make_app(args)
    except DatabaseURLError as err:     # first: a --database file that is no database is an OSError too
        print(f"{command}: {err}", file=sys.stderr)
    except OSError as err:
        print(f"{command}: cannot use the data folder: {err}", file=sys.stderr)
    except SQLAlchemyError as err:
        where = shown(args.database) if getattr(args, "database", None) else "the database"
        print(f"{command}: cannot open {where}: {failure_reason(err)}", file=sys.stderr)
    return 2
