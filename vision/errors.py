# SPDX-License-Identifier: GPL-3.0-or-later
"""Exceptions of :mod:`vision`; all derive from :class:`VisionError`."""


class VisionError(Exception):
    """Root of every error raised by :mod:`vision`."""


class ProfileError(VisionError, ValueError):
    """A board profile file is missing, malformed or names something unknown."""


class BoardNotFound(VisionError, LookupError):
    """No board matching the profile could be found in the frame."""


class ImageReadError(VisionError, OSError):
    """An image file could not be decoded."""


class ModelError(VisionError, ValueError):
    """A letter model file is missing, malformed or made for other glyph settings."""
