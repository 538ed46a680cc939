# SPDX-License-Identifier: GPL-3.0-or-later
"""Voikko (Finnish morphology) as the Finnish spell-checker.

Voikko accepts proper nouns when they are capitalised (HELSINKI, Helsinki), so
board words are lower-cased before checking.
"""

from __future__ import annotations

from engine.errors import LexiconError

PACKAGES = "libvoikko1 voikko-fi"


def open_voikko(lang: str = "fi"):
    """A ``libvoikko.Voikko`` handle, or a LexiconError naming the packages to install."""
    try:
        import libvoikko
    except ImportError:
        raise LexiconError("the Python package 'libvoikko' is missing: pip install libvoikko") from None
    try:
        return libvoikko.Voikko(lang)
    except OSError as exc:
        raise LexiconError(f"the Voikko library is missing ({exc}); install it: apt-get install {PACKAGES}") from None
    except libvoikko.VoikkoException as exc:
        raise LexiconError(
            f"Voikko has no {lang!r} dictionary ({exc}); install it: apt-get install {PACKAGES}"
        ) from None


class VoikkoLexicon:
    """Voikko spell-checking; not enumerable (Finnish compounds are productive)."""

    enumerable = False
    binding = False

    def __init__(self, lang: str = "fi", name: str = "voikko-fi") -> None:
        self._v = open_voikko(lang)
        self.name = name
        self.lang = lang

    def contains(self, word: str) -> bool:
        return bool(word) and bool(self._v.spell(word.lower()))

    def close(self) -> None:
        if self._v is not None:
            self._v.terminate()
            self._v = None

    def __repr__(self) -> str:
        return f"VoikkoLexicon(lang={self.lang!r})"
