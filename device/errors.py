# SPDX-License-Identifier: GPL-3.0-or-later
"""Exceptions of :mod:`device`; all derive from :class:`DeviceError`. Also the ``ordvakt`` exit codes."""

from __future__ import annotations

import enum
import errno


class ExitCode(enum.IntEnum):
    """What ``ordvakt`` returns; the README lists them."""

    OK = 0
    NO = 1
    """A negative answer: a word not in the list, a record that does not add up, no board found."""
    INPUT = 2
    """Usage or input error: a bad argument, file, setting, record, photo or word list."""
    ENVIRONMENT = 3
    """The machine is in the way: disk full or read-only, database locked, no display, camera or GPIO."""
    INTERNAL = 4
    """A bug: the traceback went to the log (stderr / the journal)."""
    DISPLAY = 5
    """``ordvakt run`` cannot open the screen (no KMSDRM in SDL, no DRM device, no permission);
    the unit does not restart on it (``RestartPreventExitStatus=``)."""
    INTERRUPTED = 130
    """Ctrl-C; SIGTERM ends the running command as Ctrl-C does, with 143."""
    PIPE_CLOSED = 141
    """What read the output stopped reading (``ordvakt read PHOTO | head``): 128 + SIGPIPE, as a shell reports it."""
    TERMINATED = 143


class DeviceError(Exception):
    """Root of every error raised by :mod:`device`."""

    exit_code = ExitCode.INPUT


class ConfigError(DeviceError, ValueError):
    """The configuration file is wrong; the message names the file and setting. ``setting`` is that setting's
    name (``game.minutes``) when one setting is at fault, so a screen can name it in the players' language."""

    def __init__(self, *args: object, setting: str = "") -> None:
        super().__init__(*args)
        self.setting = setting


class GameUnavailable(DeviceError, LookupError):
    """A kind of game this build cannot play (unknown, or its flow module is missing)."""


class EnvironmentProblem(DeviceError, RuntimeError):
    """The machine, not the input, is in the way (disk full or read-only, locked database, no display)."""

    exit_code = ExitCode.ENVIRONMENT


class DisplayUnavailable(EnvironmentProblem):
    """The screen cannot be opened; the message names the video driver and what SDL said."""

    exit_code = ExitCode.DISPLAY


#: OSError numbers that mean the machine is in the way rather than the input being wrong.
ENVIRONMENT_ERRNOS = frozenset({
    errno.ENOSPC, errno.EROFS, errno.EACCES, errno.EPERM, errno.EDQUOT, errno.EIO, errno.EBUSY, errno.ENOMEM,
    errno.EMFILE, errno.ENFILE,
})


def exit_code_for(exc: BaseException) -> ExitCode:
    """The exit code for an error that reached the command line."""
    code = getattr(exc, "exit_code", None)
    if isinstance(code, int):
        return ExitCode(code)
    from engine.errors import EnvironmentFailure
    from hardware.errors import ConfigurationError, HardwareError

    if isinstance(exc, EnvironmentFailure):
        return ExitCode.ENVIRONMENT
    if isinstance(exc, HardwareError):
        return ExitCode.INPUT if isinstance(exc, ConfigurationError) else ExitCode.ENVIRONMENT
    if isinstance(exc, OSError) and exc.errno in ENVIRONMENT_ERRNOS:
        return ExitCode.ENVIRONMENT
    if isinstance(exc, MemoryError):
        return ExitCode.ENVIRONMENT
    return ExitCode.INPUT
