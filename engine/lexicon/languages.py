# SPDX-License-Identifier: GPL-3.0-or-later
"""The seven languages the word judge knows: alphabet, folding and word-list sources,
read from ``data/languages.toml``."""

from __future__ import annotations

import sys
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from engine.errors import LexiconError


@dataclass(frozen=True)
class Source:
    """One installed resource a default list can be built from."""

    name: str
    kind: str  # "hunspell" (aff+dic expanded), "wordlist" (one word a line), "wordfreq-voikko"
    package: str
    licence: str
    path: str = ""  # word list file, or hunspell base path without .aff/.dic
    drop_name_twins: bool = False

    def resolved(self) -> Path:
        return expand_path(self.path)


@dataclass(frozen=True)
class Checker:
    """A spell-checker that can give a second opinion (never enumerable)."""

    kind: str  # "hunspell" or "voikko"
    package: str
    paths: tuple[str, ...] = ()


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    alphabet: str
    keep: str
    fold: tuple[tuple[str, str], ...]
    possible_counts: bool
    keep_capitalised: bool
    combine: str  # "first": the first installed source; "union": all installed sources
    sources: tuple[Source, ...]
    checker: Checker | None
    aliases: tuple[str, ...] = ()


def expand_path(template: str) -> Path:
    """Fill in ``{prefix}`` (this Python's installation prefix) and ``{chunspell}`` (its bundled dictionaries)."""
    if "{chunspell}" in template:
        try:
            import hunspell  # chunspell's module name

            bundled = Path(hunspell.__file__).parent / "dictionaries"
        except ImportError:
            bundled = Path("/nonexistent-chunspell")
        template = template.replace("{chunspell}", str(bundled))
    return Path(template.replace("{prefix}", sys.prefix))


def load_languages() -> dict[str, Language]:
    """Every language, keyed by its code."""
    text = resources.files("engine.lexicon").joinpath("data/languages.toml").read_text(encoding="utf-8")
    raw = tomllib.loads(text)
    result = {}
    for code, table in raw.items():
        sources = tuple(
            Source(
                name=s["name"],
                kind=s["kind"],
                package=s["package"],
                licence=s["licence"],
                path=s.get("path") or s.get("dic", ""),
                drop_name_twins=bool(s.get("drop_name_twins", False)),
            )
            for s in table.get("sources", [])
        )
        checker = None
        if c := table.get("checker"):
            checker = Checker(kind=c["kind"], package=c["package"], paths=tuple(c.get("dic", ())))
        result[code] = Language(
            code=code,
            name=table["name"],
            alphabet=table["alphabet"],
            keep=table["keep"],
            fold=tuple(table.get("fold", {}).items()),
            possible_counts=bool(table["possible_counts"]),
            keep_capitalised=bool(table["keep_capitalised"]),
            combine=table.get("combine", "first"),
            sources=sources,
            checker=checker,
            aliases=tuple(table.get("aliases", ())),
        )
    return result


def language(code: str, languages: dict[str, Language] | None = None) -> Language:
    """The language for ``code`` (aliases such as ``no`` for ``nb`` accepted)."""
    table = languages if languages is not None else load_languages()
    key = code.strip().lower()
    if key in table:
        return table[key]
    for lang in table.values():
        if key in lang.aliases:
            return lang
    raise LexiconError(f"unknown language {code!r}: use one of {', '.join(sorted(table))}")
