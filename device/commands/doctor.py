# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt doctor``: checks the display, touch, camera, GPIO, buzzer, word lists, database, disk and clock."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "doctor", help="check that this machine can run the kiosk: one line per check with ok/warn/fail and the fix")
    parser.add_argument("--config", metavar="FILE",
                        help="configuration file (default: $ORDVAKT_CONFIG or ~/.config/ordvakt/config.toml)")
    parser.set_defaults(func=run_doctor)


def run_doctor(args: argparse.Namespace) -> int:
    """Exit 0 when nothing failed (warnings allowed), 1 when a check failed."""
    from device.config import load_config
    from device.doctor import Machine, Status, run_checks
    from device.errors import ExitCode
    from device.paths import lexicon_dir

    config = load_config(args.config)
    checks = run_checks(config, Machine(), data_dir=config.resolved_data_dir(), lexicon_dir=lexicon_dir())
    for check in checks:
        print(check.line(), flush=True)
    failed = [c.name for c in checks if c.status is Status.FAIL]
    print(f"{len(checks) - len(failed)} of {len(checks)} checks passed" + (f"; failed: {', '.join(failed)}"
                                                                           if failed else ""))
    return ExitCode.NO if failed else ExitCode.OK
