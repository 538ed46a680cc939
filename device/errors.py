# SPDX-License-Identifier: GPL-3.0-or-later
"""Exceptions of :mod:`device`; all derive from :class:`DeviceError`."""


class DeviceError(Exception):
    """Root of every error raised by :mod:`device`."""


class ConfigError(DeviceError, ValueError):
    """The configuration file is wrong; the message names the file and setting."""


class GameUnavailable(DeviceError, LookupError):
    """A kind of game this build cannot play (unknown, or its flow module is missing)."""
