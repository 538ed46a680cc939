# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``ordvakt`` command line.

Each sub-command lives in its own module under :mod:`device.commands` and
provides ``register(subparsers)``, which adds its parser and sets ``func``.
Errors from any Ordvakt package reach the user as one clear line, never as a
traceback; the exit code says what kind of problem it was
(:class:`device.errors.ExitCode`, listed in the README). Anything unexpected is
a bug: its traceback goes to the log (stderr, so the journal under systemd) and
the user still gets one line.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import signal
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
    "games",
    "live",
    "club",
    "doctor",
    "analyse",
    "best",
    "gallery",
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
    # OpenCV refuses bigger images itself (vision.imageio checks the header first): 64 megapixels.
    os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(64 * 1024 * 1024))
    from device.errors import ExitCode, exit_code_for
    from device.logs import configure_logging

    configure_logging()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return ExitCode.INPUT
    # Installed before pygame starts, so SDL keeps it (SDL only replaces the default handler):
    # SIGTERM unwinds like Ctrl-C, closing the database and the display on the way out.
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not as a traceback at exit
        return code
    except _known_errors() as exc:
        print(f"ordvakt: {exc}", file=sys.stderr)
        return exit_code_for(exc)
    except BrokenPipeError:
        # Nothing more can reach the reader; the output still buffered must not fail again at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return ExitCode.PIPE_CLOSED
    except OSError as exc:
        name = f" {exc.filename!r}" if exc.filename else ""
        print(f"ordvakt: cannot use{name}: {exc.strerror or exc}", file=sys.stderr)
        return exit_code_for(exc)
    except MemoryError:
        print("ordvakt: out of memory; the input is too big for this machine", file=sys.stderr)
        return ExitCode.ENVIRONMENT
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    except _Terminated:
        return ExitCode.TERMINATED
    except Exception as exc:  # the last guard: a bug, logged in full, one line for the user
        logging.getLogger("ordvakt").exception("unexpected error in %r", args.command)
        print(f"ordvakt: internal error ({type(exc).__name__}: {str(exc)[:200]}); "
              "the details are in the log above or in the journal", file=sys.stderr)
        return ExitCode.INTERNAL
    finally:
        signal.signal(signal.SIGTERM, previous)


class _Terminated(BaseException):
    """SIGTERM arrived; unwinds like KeyboardInterrupt (``finally`` blocks run, nothing catches it by accident)."""


def _terminate(signum: int, frame: object) -> None:
    raise _Terminated()


if __name__ == "__main__":
    sys.exit(main())
