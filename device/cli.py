# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``ordvakt`` command line.

Each sub-command lives in its own module under :mod:`device.commands` and
provides ``register(subparsers)``, which adds its parser and sets ``func``.
Errors from any Ordvakt package reach the user as one clear line (exit 2),
never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

COMMAND_MODULES = (
    "gcg",
    "lexicon",
    "judge",
    "timer",
    "vision",
    "ordskifte",
    "keywords",
    "app",
)


def _known_errors() -> tuple[type[BaseException], ...]:
    from device.errors import DeviceError
    from engine.errors import EngineError
    from hardware.errors import HardwareError
    from vision.errors import VisionError

    return (EngineError, VisionError, HardwareError, DeviceError)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ordvakt",
        description="Companion for physical word-game boards: scorekeeping, clocks, word judge.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"device.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"device.commands.{name}":
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # One BLAS thread: the letter classifier's small matrix products get several times slower when
    # OpenBLAS spreads them over the Pi's (or a busy machine's) cores. Must be set before numpy loads.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep the demo's output to the game
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except _known_errors() as exc:
        print(f"ordvakt: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        name = f" {exc.filename!r}" if exc.filename else ""
        print(f"ordvakt: cannot use{name}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
