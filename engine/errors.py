# SPDX-License-Identifier: GPL-3.0-or-later
"""Exceptions of the rules engine. Every one derives from :class:`EngineError`
and, where it fits, the matching builtin; messages quote the input."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class EngineError(Exception):
    """Root of every error raised by :mod:`engine`.

    A refusal a player can meet carries ``code`` (a stable name such as ``"ordskifte.own_word"``) and
    ``values`` (what its wording needs), so the device can say it in the player's language.

    >>> err = EngineError("you cannot change your own word").coded("ordskifte.own_word")
    >>> err.code, dict(err.values)
    ('ordskifte.own_word', {})
    """

    code: str = ""
    values: Mapping[str, Any] = {}

    def coded(self, code: str, **values: Any) -> EngineError:
        """This error with its code and values (returns self, for ``raise X(...).coded(...)``)."""
        self.code = code
        self.values = values
        return self


class DataFileError(EngineError, ValueError):
    """A tile-set, layout or other data file is missing or malformed."""


class InvalidNotation(EngineError, ValueError):
    """Text that should name a square, move or rack cannot be parsed."""


class IllegalMove(EngineError, ValueError):
    """A move breaks the rules; ``problems`` lists every reason at once."""

    def __init__(self, message: str, problems: tuple = ()) -> None:
        super().__init__(message)
        self.problems = problems


class GameStateError(EngineError, RuntimeError):
    """An event does not fit the game (nothing to undo, game over, wrong player)."""


class GcgError(EngineError, ValueError):
    """A GCG record is malformed; names the source and line."""

    def __init__(self, message: str, source: str = "<gcg>", line: int | None = None) -> None:
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")
        self.source = source
        self.line = line
        self.reason = message


class ClockError(EngineError, ValueError):
    """A clock was configured or driven wrongly."""


class LexiconError(EngineError):
    """A word list or spell-checker cannot be used; says what to do about it."""


class EnvironmentFailure(EngineError):
    """The machine, not the input, stopped the work (disk full, read-only folder); the CLI exits with 3."""


class LexiconWriteError(LexiconError, EnvironmentFailure):
    """A word list could not be written (disk full, read-only); a list of the same name is unchanged."""
