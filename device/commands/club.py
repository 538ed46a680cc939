# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt club``: join boards through an MQTT broker (link), direct an event (serve), make the broker."""

from __future__ import annotations

import argparse
import json
import logging
import signal
import threading
from pathlib import Path

from device.errors import ConfigError

log = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction) -> None:
    club = sub.add_parser("club", help="a club or tournament: boards on one MQTT broker, one standings view")
    actions = club.add_subparsers(dest="club_command", metavar="ACTION")

    link = actions.add_parser("link", help="publish this device's games to the club broker ([club] in the config)")
    link.add_argument("--config", metavar="FILE", help="configuration file with a [club] table")
    link.add_argument("--db", type=Path, metavar="FILE", help="the kiosk's database (default: <data>/games.sqlite)")
    link.set_defaults(func=run_link)

    serve = actions.add_parser("serve", help="the director: follow every board of an event, serve its page")
    serve.add_argument("--event", required=True, help="the event id (a topic level)")
    serve.add_argument("--broker", default="localhost", metavar="HOST")
    serve.add_argument("--port", type=int, default=8883)
    serve.add_argument("--ca-file", default="", metavar="FILE", help="the club CA certificate (TLS)")
    serve.add_argument("--password-file", required=True, metavar="FILE",
                       help="the broker password of the user 'director' (also the page's director login)")
    serve.add_argument("--db", type=Path, default=Path("club.sqlite"), metavar="FILE",
                       help="where the director keeps the event (default: ./club.sqlite)")
    serve.add_argument("--http-host", default="127.0.0.1", metavar="HOST")
    serve.add_argument("--http-port", type=int, default=8090, metavar="PORT")
    serve.set_defaults(func=run_serve)

    setup = actions.add_parser("setup-broker", help="write a Mosquitto configuration, CA and board credentials")
    setup.add_argument("directory", type=Path)
    setup.add_argument("--event", required=True)
    group = setup.add_mutually_exclusive_group(required=True)
    group.add_argument("--boards", help="board ids, comma-separated (e.g. board01,board02)")
    group.add_argument("--count", type=int, help="make board01 .. boardNN")
    setup.add_argument("--port", type=int, default=8883)
    setup.add_argument("--bind", default="", help="listen address (default: all)")
    setup.add_argument("--host", action="append", default=[], metavar="NAME",
                       help="a name or address the devices use for the broker (repeat; default: localhost, "
                            "127.0.0.1 and this machine's name)")
    setup.set_defaults(func=run_setup)

    tsh = actions.add_parser("tsh", help="print a round's results as tsh entry lines from the director's database")
    tsh.add_argument("--db", type=Path, default=Path("club.sqlite"), metavar="FILE")
    tsh.add_argument("--event", required=True)
    tsh.add_argument("--round", type=int, required=True)
    tsh.add_argument("--division", default="A")
    tsh.set_defaults(func=run_tsh)
    club.set_defaults(func=lambda args: club.print_help() or 2)


def _stop_on_signals() -> threading.Event:
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    return stop


def run_link(args: argparse.Namespace) -> int:
    from device.club.link import BoardLink
    from device.config import load_config

    config = load_config(args.config)
    settings = config.club_settings()
    if not settings.enabled:
        raise ConfigError(f"{config.source}: club.enabled is not true; the club link has nothing to do")
    db = args.db or config.resolved_data_dir() / "games.sqlite"
    link = BoardLink(db, settings)
    link.run(_stop_on_signals())
    return 0


def _read_password(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()[0].strip()
    except (OSError, IndexError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path!r}: cannot read the password ({exc})") from None


def run_serve(args: argparse.Namespace) -> int:
    import paho.mqtt.client as mqtt

    from device.club.director import Director, subscribe
    from device.club.settings import TOPIC_LEVEL
    from device.club.web import make_server

    if not TOPIC_LEVEL.match(args.event):
        raise ConfigError(f"--event {args.event!r}: use 1-64 letters, digits, '-' or '_'")
    password = _read_password(args.password_file)
    director = Director(args.db, args.event)
    client = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2,
                         client_id=f"ordvakt-director-{args.event}", clean_session=False, protocol=mqtt.MQTTv311)
    client.username_pw_set("director", password)
    if args.ca_file:
        client.tls_set(ca_certs=args.ca_file)
    subscribe(director, client)

    def send_command(board: str, command: dict) -> None:
        client.publish(f"ordvakt/{args.event}/cmd/{board}", json.dumps(command), qos=1)

    server = make_server(director, args.http_host, args.http_port, director_password=password,
                         send_command=send_command)
    client.connect_async(args.broker, args.port, keepalive=15)
    client.loop_start()
    web = threading.Thread(target=server.serve_forever, name="club-web", daemon=True)
    web.start()
    print(f"club {args.event}: page on http://{args.http_host}:{server.server_address[1]}/", flush=True)
    stop = _stop_on_signals()
    stop.wait()
    server.shutdown()
    client.disconnect()
    client.loop_stop()
    return 0


def run_setup(args: argparse.Namespace) -> int:
    from device.club.broker import write_broker_config

    if args.count is not None:
        if not 1 <= args.count <= 999:
            raise ConfigError(f"--count {args.count}: a club has 1 to 999 boards")
        boards = [f"board{n:02d}" for n in range(1, args.count + 1)]
    else:
        boards = [b.strip() for b in args.boards.split(",") if b.strip()]
    files = write_broker_config(args.directory, args.event, boards, port=args.port, bind=args.bind,
                                hosts=args.host or None)
    print(f"broker configuration: {files.conf}")
    print(f"start it with: mosquitto -c {files.conf}")
    print(f"give every device {files.ca_file} and its credentials/<board>.password; "
          f"the director uses credentials/director.password")
    return 0


def run_tsh(args: argparse.Namespace) -> int:
    from device.club.director import Director
    from device.club.web import tsh_text

    if not args.db.exists():
        raise ConfigError(f"{str(args.db)!r}: no director database here")
    print(tsh_text(Director(args.db, args.event), args.round, args.division), end="")
    return 0
