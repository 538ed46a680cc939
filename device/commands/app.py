# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt demo`` (a recorded game through the whole pipeline) and ``ordvakt run`` (the kiosk)."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.inputs import seconds_argument


def register(sub: argparse._SubParsersAction) -> None:
    demo = sub.add_parser(
        "demo", help="play the shipped tournament game through camera reading, scoring, UI and storage")
    demo.add_argument("--headless", action="store_true",
                      help="no window (SDL dummy driver); also used without a display")
    demo.add_argument("--data-dir", type=Path, metavar="DIR",
                      help="where the demo keeps its database, exports and screenshots (default: <data>/demo); "
                           "run again with the same DIR to resume a killed demo")
    demo.add_argument("--delay", type=seconds_argument(60, zero=True), default=None, metavar="S",
                      help="pause after each move (default 0.5 s in a window, 0 headless)")
    demo.add_argument("--no-screenshots", action="store_true", help="do not save a PNG per move")
    demo.set_defaults(func=run_demo)

    run = sub.add_parser("run", help="the kiosk: the touchscreen app with the configured buttons, camera and clock")
    run.add_argument("--config", metavar="FILE",
                     help="configuration file (default: $ORDVAKT_CONFIG or ~/.config/ordvakt/config.toml)")
    run.add_argument("--headless", action="store_true", help="no window (SDL dummy driver), for testing")
    run.set_defaults(func=run_kiosk)


def run_demo(args: argparse.Namespace) -> int:
    from device.demo import run_demo as demo
    from device.paths import data_dir

    target = args.data_dir or data_dir() / "demo"
    delay = args.delay if args.delay is not None else (0.0 if args.headless else 0.5)
    return demo(target, headless=args.headless, delay=max(0.0, delay), screenshots=not args.no_screenshots)


def run_kiosk(args: argparse.Namespace) -> int:
    from device.app import build
    from device.config import load_config

    config = load_config(args.config)
    app, store = build(config, headless=args.headless)
    try:
        app.run()
    finally:
        store.close()
    return 0
