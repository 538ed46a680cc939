# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt live``: the read-only live page for spectators on the local network (its own process)."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    live = sub.add_parser("live", help="serve the read-only live page of the game on this device")
    live.add_argument("--db", type=Path, metavar="PATH", help="the saved-games database (default: <data>/games.sqlite)")
    live.add_argument("--host", default="127.0.0.1",
                      help="address to listen on (default: this machine only; the service listens on 0.0.0.0 "
                           "and its unit lets only the local networks connect)")
    live.add_argument("--port", type=int, default=8080, help="TCP port (default 8080; 0 = any free port)")
    live.add_argument("--max-viewers", type=int, default=256, metavar="N",
                      help="live viewers served at once (more are told to come back later)")
    live.set_defaults(func=run_live)


def run_live(args: argparse.Namespace) -> int:
    from device.errors import DeviceError
    from device.live.server import serve
    from device.paths import data_dir

    if not 0 <= args.port <= 65535:
        raise DeviceError(f"--port {args.port}: must be 0 to 65535")
    if args.max_viewers < 1:
        raise DeviceError(f"--max-viewers {args.max_viewers}: must be at least 1")
    db = args.db or data_dir() / "games.sqlite"

    def ready(server) -> None:
        print(f"live page: http://{server.host}:{server.port}/ (database {db})", flush=True)

    serve(db, host=args.host, port=args.port, max_viewers=args.max_viewers, ready=ready)
    return 0
