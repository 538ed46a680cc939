# SPDX-License-Identifier: GPL-3.0-or-later
"""Exceptions of :mod:`vision`; all derive from :class:`VisionError`."""


class VisionError(Exception):
    """Root of every error raised by :mod:`vision`."""
