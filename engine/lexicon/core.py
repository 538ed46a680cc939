# SPDX-License-Identifier: GPL-3.0-or-later
"""The lexicon protocol and the accept-everything lexicon."""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Lexicon(Protocol):
    """Something that can say whether a word is allowed.

    ``contains`` takes a word already normalised to the game alphabet (upper case,
    folded). Enumerable lexicons (full-form lists) give binding verdicts; the others
    (spell-checkers) can only give a second opinion.
    """

    name: str
    lang: str
    enumerable: bool

    def contains(self, word: str) -> bool: ...


class AcceptAll:
    """Accepts every word: for tests and for playing without a dictionary. Its verdicts are binding."""

    enumerable = False
    binding = True

    def __init__(self, lang: str = "", name: str = "no dictionary") -> None:
        self.name = name
        self.lang = lang

    def contains(self, word: str) -> bool:
        return True

    def __repr__(self) -> str:
        return f"AcceptAll(lang={self.lang!r})"


def is_binding(lexicon: Lexicon) -> bool:
    """Whether a lexicon's answer is binding (full-form lists, AcceptAll) rather than a second opinion."""
    return bool(getattr(lexicon, "binding", lexicon.enumerable))
