# SPDX-License-Identifier: GPL-3.0-or-later
"""Logging as a command sets it up (a fresh process: no test runner's handlers): levels, journal priorities."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = (
    "import logging\n"
    "from device.logs import configure_logging\n"
    "configure_logging()\n"
    "log = logging.getLogger('device.app')\n"
    "log.info('kiosk ready')\n"
    "log.warning('camera unavailable, moves are typed in: no such camera')\n"
    "try:\n"
    "    1 / 0\n"
    "except ZeroDivisionError:\n"
    "    log.exception('unexpected error')\n"
)


def stderr_of(**env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("ORDVAKT_LOG_LEVEL", "JOURNAL_STREAM")}
    done = subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, env={**clean, **env}, capture_output=True,
                          text=True, timeout=60, check=True)
    return done.stderr.splitlines()


def test_default_level_is_warning_with_the_level_named():
    lines = stderr_of()
    assert lines[0] == "WARNING device.app: camera unavailable, moves are typed in: no such camera"
    assert lines[1] == "ERROR device.app: unexpected error" and lines[-1] == "ZeroDivisionError: division by zero"
    assert not any("kiosk ready" in line for line in lines)


def test_the_journal_gets_syslog_priorities_on_every_line():
    lines = stderr_of(ORDVAKT_LOG_LEVEL="INFO", JOURNAL_STREAM="8:4242")
    assert lines[:2] == ["<6>device.app: kiosk ready",
                         "<4>device.app: camera unavailable, moves are typed in: no such camera"]
    assert lines[2] == "<3>device.app: unexpected error"
    assert all(line.startswith("<3>") for line in lines[2:])  # the traceback stays one error entry


def test_an_unknown_level_is_reported_and_warning_used():
    lines = stderr_of(ORDVAKT_LOG_LEVEL="chatty")
    assert lines[0] == "WARNING ordvakt: ORDVAKT_LOG_LEVEL='CHATTY' is not a level (DEBUG, INFO, WARNING, ERROR); " \
                       "using WARNING"
    assert not any("kiosk ready" in line for line in lines)
