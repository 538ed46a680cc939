# SPDX-License-Identifier: GPL-3.0-or-later
"""Exceptions of :mod:`hardware`; all derive from :class:`HardwareError`."""


class HardwareError(Exception):
    """Root of every error raised by :mod:`hardware`."""


class ConfigurationError(HardwareError, ValueError):
    """A hardware setting is wrong; the message names the setting."""


class DeviceUnavailable(HardwareError, RuntimeError):
    """The configured device cannot be used here (library missing, no such camera, GPIO not accessible);
    the message names the setting and what to install or change."""


class CaptureError(HardwareError, RuntimeError):
    """A camera that opened fine failed to deliver a frame."""
