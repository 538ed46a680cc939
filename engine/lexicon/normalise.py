# SPDX-License-Identifier: GPL-3.0-or-later
"""Folding words to a game's alphabet: NFC, upper case, per-language letter folds,
diacritics stripped except on the letters the language keeps."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from engine.lexicon.languages import Language, language

#: Bumped whenever folding changes, so compiled lists know they must be rebuilt.
NORMALISER_VERSION = 1


@dataclass(frozen=True)
class Normaliser:
    """Folds words for one language; ``fold`` returns ``""`` when a word cannot be spelt in the alphabet."""

    lang: str
    alphabet: frozenset[str]
    keep: frozenset[str]
    table: tuple[tuple[str, str], ...]

    @classmethod
    def for_language(cls, lang: Language) -> Normaliser:
        return cls(lang.code, frozenset(lang.alphabet), frozenset(lang.keep), lang.fold)

    def normalise(self, word: str) -> str:
        """NFC, upper case, folded; letters outside the alphabet are left in place."""
        text = unicodedata.normalize("NFC", word.strip()).upper()
        for old, new in self.table:
            text = text.replace(old, new)
        if text.isascii():
            return text
        out = []
        for ch in text:
            if ch in self.keep or ch.isascii():
                out.append(ch)
                continue
            base = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
            out.append(unicodedata.normalize("NFC", base))
        return "".join(out)

    def in_alphabet(self, word: str) -> bool:
        return bool(word) and all(ch in self.alphabet for ch in word)

    def fold(self, word: str) -> str:
        """The normalised word, or ``""`` if it has a letter the game has no tile for."""
        text = self.normalise(word)
        return text if self.in_alphabet(text) else ""


def normaliser(lang: str) -> Normaliser:
    """A normaliser for ``lang``; keep it when folding many words (this reads the language table)."""
    return Normaliser.for_language(language(lang))


def normalise(word: str, lang: str) -> str:
    """NFC, upper case and the per-language fold (fr: accents stripped, Œ→OE; de: ß→SS, ÄÖÜ kept ...)."""
    return normaliser(lang).normalise(word)
