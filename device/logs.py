# SPDX-License-Identifier: GPL-3.0-or-later
"""Logging for every ``ordvakt`` command: the standard :mod:`logging` module to stderr, with levels.

``$ORDVAKT_LOG_LEVEL`` (DEBUG, INFO, WARNING, ERROR; default WARNING, the kiosk unit sets INFO) chooses
what is written. Under systemd (``$JOURNAL_STREAM`` set) each line starts with its syslog priority
(``<4>`` = warning), which journald turns into the entry's level: ``journalctl -u ordvakt -p warning``.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import TextIO

LEVEL_ENV = "ORDVAKT_LOG_LEVEL"
#: syslog priorities journald reads from a ``<N>`` line prefix.
SYSLOG_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}
#: Libraries that are chatty at INFO (picamera2 logs every configuration).
QUIET_LIBRARIES = ("picamera2", "PIL", "asyncio")


class LevelFormatter(logging.Formatter):
    """``WARNING device.app: ...`` on a terminal; ``<4>device.app: ...`` for the journal."""

    def __init__(self, journal: bool) -> None:
        super().__init__("%(name)s: %(message)s" if journal else "%(levelname)s %(name)s: %(message)s")
        self.journal = journal

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        if not self.journal:
            return text
        priority = SYSLOG_PRIORITY.get(record.levelno, 4)
        # Every line of a traceback gets the prefix, so the journal keeps it as one level.
        return "\n".join(f"<{priority}>{line}" for line in text.splitlines())


class _OrdvaktHandler(logging.StreamHandler):
    """The handler :func:`configure_logging` installs (and replaces when called again)."""


def configure_logging(environ: Mapping[str, str] | None = None, stream: TextIO | None = None, *,
                      force: bool = False) -> int:
    """Send log records to ``stream`` (stderr) at the level ``$ORDVAKT_LOG_LEVEL`` names; returns the level.

    As :func:`logging.basicConfig`, it leaves a logging set up by someone else (a test runner, a program
    that calls :func:`device.cli.main`) alone, unless ``force``.

    >>> import io
    >>> out = io.StringIO()
    >>> configure_logging({"ORDVAKT_LOG_LEVEL": "info", "JOURNAL_STREAM": "8:1234"}, out, force=True) == logging.INFO
    True
    >>> logging.getLogger("device.app").warning("camera: no such camera")
    >>> out.getvalue()
    '<4>device.app: camera: no such camera\\n'
    """
    env = os.environ if environ is None else environ
    name = env.get(LEVEL_ENV, "WARNING").strip().upper() or "WARNING"
    level = logging.getLevelName(name)
    unknown = not isinstance(level, int)
    if unknown:
        level = logging.WARNING
    root = logging.getLogger()
    if not force and any(not isinstance(h, _OrdvaktHandler) for h in root.handlers):
        return root.getEffectiveLevel()
    for old in [h for h in root.handlers if isinstance(h, _OrdvaktHandler)]:
        root.removeHandler(old)
    handler = _OrdvaktHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(LevelFormatter(journal=bool(env.get("JOURNAL_STREAM"))))
    root.addHandler(handler)
    root.setLevel(level)
    for library in QUIET_LIBRARIES:
        logging.getLogger(library).setLevel(max(level, logging.WARNING))
    if unknown:
        logging.getLogger("ordvakt").warning("%s=%r is not a level (DEBUG, INFO, WARNING, ERROR); using WARNING",
                                             LEVEL_ENV, name)
    return level
