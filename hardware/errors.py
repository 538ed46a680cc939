# SPDX-License-Identifier: GPL-3.0-or-later
"""Exceptions of :mod:`hardware`; all derive from :class:`HardwareError`."""


class HardwareError(Exception):
    """Root of every error raised by :mod:`hardware`."""


class ConfigurationError(HardwareError, ValueError):
    """A hardware setting is wrong; the message names the setting."""
