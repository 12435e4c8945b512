"""`tenbou serve` — the web app under waitress (a production WSGI server).

Each open scoreboard holds one waitress thread for its live stream, so the pool is sized for
the scoreboards expected (`--clients`, default 60) plus threads for ordinary requests.
"""
from __future__ import annotations

import argparse
import logging
import socket
import sys
from pathlib import Path

PLAIN_THREADS = 8


def register(sub) -> None:
    parser = sub.add_parser("serve", help="run the web app (scoreboards, hands by photo, settlement)")
    add_server_arguments(parser)
    parser.set_defaults(run=run)


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on; 0.0.0.0 for phones on the network")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--data", type=Path, default=None, help="folder for the database (default: ~/.local/share/tenbou)")
    parser.add_argument("--table-port", default=None, metavar="URL",
                        help="the automatic table's serial port or pyserial URL (e.g. /dev/ttyUSB0, socket://host:port)")
    parser.add_argument("--table-total", type=int, default=None, help="points in play at the table (default: from its hello)")
    parser.add_argument("--webcam", type=int, default=None, metavar="N",
                        help="read hands from the webcam N on this computer too (OpenCV camera index)")
    parser.add_argument("--clients", type=int, default=60, help="live scoreboards to serve at once (one thread each)")


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
              "TABLE_FRESH": getattr(args, "table_fresh", False)}
    if args.data is not None:
        config["DATA_DIR"] = str(args.data)
    return create_app(config)


def serve_app(app, args: argparse.Namespace, banner=None) -> int:
    """Serve until Ctrl+C; `banner(base_url)` adds lines to the start message."""
    from waitress import create_server

    threads = max(4, args.clients + PLAIN_THREADS)
    try:
        server = create_server(app, host=args.host, port=args.port, threads=threads,
                               connection_limit=max(100, args.clients * 2 + 20), channel_timeout=120,
                               ident="tenbou")
    except OSError as err:
        print(f"tenbou serve: cannot listen on {args.host}:{args.port}: {err.strerror or err}", file=sys.stderr)
        return 2
    host = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    print(f"Tenbou is running at http://{host}:{server.effective_port}/", flush=True)
    if args.host in ("0.0.0.0", ""):
        lan = lan_address()
        if lan:
            app.config["PUBLIC_URL"] = f"http://{lan}:{server.effective_port}"
            print(f"  phones on this network: http://{lan}:{server.effective_port}/", flush=True)
        else:
            print("  phones on this network: this computer's address, same port", flush=True)
    print(f"  data: {app.config['DATABASE']}", flush=True)
    if banner is not None:
        print(banner(f"http://{host}:{server.effective_port}"), flush=True)
    print("  stop with Ctrl+C", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        app = make_app(args)
    except OSError as err:
        print(f"tenbou serve: cannot use the data folder: {err}", file=sys.stderr)
        return 2
    return serve_app(app, args)
