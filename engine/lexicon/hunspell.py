# SPDX-License-Identifier: GPL-3.0-or-later
"""Hunspell as a second opinion, through the ``chunspell`` C binding.

Board words arrive in capitals; hunspell accepts proper nouns in capitals
(OSLO, MARSEILLE), so words are lower-cased first, and for German (nouns are
capitalised) the Capitalised form is tried too.
"""

from __future__ import annotations

from pathlib import Path

from engine.errors import LexiconError


def find_dictionary(candidates: tuple[Path, ...], package: str) -> Path:
    """The first candidate base path (without .aff/.dic) whose two files exist."""
    for base in candidates:
        if base.with_suffix(".aff").is_file() and base.with_suffix(".dic").is_file():
            return base
    tried = ", ".join(repr(str(c) + ".dic") for c in candidates)
    raise LexiconError(f"hunspell dictionary not found (looked for {tried}); install it: apt-get install {package}")


class HunspellLexicon:
    """A hunspell dictionary; not enumerable, so it never gives a binding verdict."""

    enumerable = False
    binding = False

    def __init__(self, base: Path, lang: str, name: str | None = None, *, capitalised: bool = False) -> None:
        try:
            import hunspell  # the chunspell distribution's module
        except ImportError:
            raise LexiconError(
                "the Python package 'chunspell' is missing: pip install chunspell (or re-run "
                "python3 device/bootstrap.py)"
            ) from None
        base = Path(base)
        try:
            self._h = hunspell.Hunspell(base.name, hunspell_data_dir=str(base.parent))
        except (OSError, ValueError) as exc:
            raise LexiconError(f"cannot load hunspell dictionary {str(base)!r}.aff/.dic: {exc}") from None
        self.name = name or f"hunspell {base.name}"
        self.lang = lang
        self.base = base
        self._capitalised = capitalised

    def _spell(self, word: str) -> bool:
        try:
            return bool(self._h.spell(word))
        except UnicodeEncodeError:
            return False  # a letter the dictionary's character set cannot even spell

    def variants(self, word: str) -> list[str]:
        """The spellings tried for a folded board word: never the all-capitals one."""
        lower = word.lower()
        out = [lower]
        if self._capitalised:
            out.append(lower.capitalize())
            if "ss" in lower:
                sharp = lower.replace("ss", "ß")
                out += [sharp, sharp.capitalize()]
        return out

    def contains(self, word: str) -> bool:
        return any(self._spell(v) for v in self.variants(word))

    def spell_exact(self, form: str) -> bool:
        """Hunspell's own answer for a form as written (used to re-check expanded lists)."""
        return self._spell(form)

    def __repr__(self) -> str:
        return f"HunspellLexicon({str(self.base)!r}, lang={self.lang!r})"
