# SPDX-License-Identifier: GPL-3.0-or-later
"""The word judge: one verdict for a whole play, from an ordered list of lexicons.

The first binding lexicon (a full-form list) decides VALID or INVALID. When it says
INVALID, a spell-checker later in the list may only raise the word to POSSIBLE
("not listed; accepted by the spell-checker"). Whether POSSIBLE words make a play
acceptable is the judge's ``possible_counts`` setting: off by default (the list is
the answer of record, as in tournaments); on for Finnish with the default list,
where no good full-form list exists and Voikko is the primary source. Like a
tournament word judge, the play verdict says only ACCEPTABLE or UNACCEPTABLE;
the per-word verdicts are there for the ``--each`` view.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.errors import LexiconError
from engine.lexicon.core import AcceptAll, Lexicon, is_binding
from engine.lexicon.languages import Language, expand_path, language
from engine.lexicon.normalise import Normaliser
from engine.lexicon.trie import LIST_SUFFIXES, MANIFEST_SUFFIX, Manifest, list_file, open_list

POSSIBLE_NOTE = "not listed; accepted by the spell-checker"


class Verdict(enum.Enum):
    VALID = "valid"
    POSSIBLE = "possible"
    INVALID = "invalid"


@dataclass(frozen=True)
class WordVerdict:
    word: str  # as normalised for the game
    verdict: Verdict
    source: str  # the lexicon that decided

    def __str__(self) -> str:
        text = f"{self.verdict.name} in {self.source}"
        return f"{text} ({POSSIBLE_NOTE})" if self.verdict is Verdict.POSSIBLE else text


@dataclass(frozen=True)
class PlayVerdict:
    acceptable: bool
    words: tuple[WordVerdict, ...]

    def __str__(self) -> str:
        return "ACCEPTABLE" if self.acceptable else "UNACCEPTABLE"


class Judge:
    """Judges words and plays against ``lexicons`` in order (see the module docstring)."""

    def __init__(self, lexicons: Sequence[Lexicon], lang: str, *, possible_counts: bool = False) -> None:
        if not lexicons:
            raise LexiconError(f"a judge for {lang!r} needs at least one lexicon (use AcceptAll for none)")
        self.lang = language(lang).code
        self.lexicons = tuple(lexicons)
        self.possible_counts = possible_counts
        self._norm = Normaliser.for_language(language(self.lang))

    @property
    def name(self) -> str:
        """The lexicons in use, e.g. ``"hunspell-sv-2026 + hunspell sv_SE"``."""
        return " + ".join(lex.name for lex in self.lexicons)

    def judge_word(self, word: str) -> WordVerdict:
        folded = self._norm.normalise(word)
        binding: Lexicon | None = None
        for lex in self.lexicons:
            if is_binding(lex):
                if binding is None:
                    binding = lex
                    if self._norm.in_alphabet(folded) and lex.contains(folded):
                        return WordVerdict(folded, Verdict.VALID, lex.name)
                continue
            if self._norm.in_alphabet(folded) and lex.contains(folded):
                return WordVerdict(folded, Verdict.POSSIBLE, lex.name)
        decider = binding if binding is not None else self.lexicons[-1]
        return WordVerdict(folded, Verdict.INVALID, decider.name)

    def judge_play(self, words: Iterable[str]) -> PlayVerdict:
        """One verdict for every word a play formed (main word and cross-words)."""
        verdicts = tuple(self.judge_word(w) for w in words)
        if not verdicts:
            raise LexiconError("a play to judge must form at least one word")
        ok = {Verdict.VALID, Verdict.POSSIBLE} if self.possible_counts else {Verdict.VALID}
        return PlayVerdict(all(v.verdict in ok for v in verdicts), verdicts)

    def __repr__(self) -> str:
        return f"Judge({self.name!r}, lang={self.lang!r}, possible_counts={self.possible_counts})"


def installed_lists(lexicon_dir: Path) -> list[tuple[Path, Manifest | None, str]]:
    """Every compiled list in ``lexicon_dir``: (list file, manifest or None, problem or "").

    A list whose stem has both a .dawg and a .marisa file is shown once, as its .dawg.
    """
    out: list[tuple[Path, Manifest | None, str]] = []
    directory = Path(lexicon_dir)
    if not directory.is_dir():
        return out
    stems = sorted({p.with_suffix("") for suffix in LIST_SUFFIXES for p in directory.glob(f"*{suffix}")})
    for stem in stems:
        trie_path = list_file(stem)
        if trie_path is None:
            continue
        try:
            lex = open_list(trie_path)
            out.append((trie_path, lex.manifest, ""))
        except (LexiconError, OSError) as exc:
            manifest = None
            try:
                manifest = Manifest.read(trie_path.with_suffix(MANIFEST_SUFFIX))
            except (LexiconError, OSError):
                pass
            out.append((trie_path, manifest, str(exc)))
    return out


def find_list(lexicon_dir: Path, name: str) -> Path:
    """The list file (.dawg or .marisa) of the list called ``name`` (its manifest name or file stem)."""
    directory = Path(lexicon_dir)
    candidates = []
    for man_path in sorted(directory.glob(f"*{MANIFEST_SUFFIX}")) if directory.is_dir() else []:
        try:
            manifest = Manifest.read(man_path)
        except (LexiconError, OSError):
            continue
        if name in (manifest.name, man_path.stem):
            stem = man_path.with_suffix("")
            candidates.append(list_file(stem) or stem.with_name(stem.name + manifest.suffix))
    if not candidates:
        raise LexiconError(
            f"no word list named {name!r} in {str(directory)!r}; see `ordvakt lexicon list`, or import one: "
            f"ordvakt lexicon import FILE --lang LANG --name {name}"
        )
    return candidates[0]


def open_checker(lang: Language) -> Lexicon | None:
    """The language's spell-checker, or None when it has none or it is not installed."""
    if lang.checker is None:
        return None
    try:
        if lang.checker.kind == "voikko":
            from engine.lexicon.voikko import VoikkoLexicon

            return VoikkoLexicon(lang.code)
        from engine.lexicon.hunspell import HunspellLexicon, find_dictionary

        base = find_dictionary(tuple(expand_path(p) for p in lang.checker.paths), lang.checker.package)
        return HunspellLexicon(base, lang.code, name=f"hunspell {base.name}", capitalised=lang.keep_capitalised)
    except LexiconError:
        return None  # the second opinion is optional; the list still judges


def open_judge(lang: str, lexicon_dir: Path, lexicon_name: str | None = None) -> Judge:
    """The judge for ``lang``: the named list (or the default list) first, then the spell-checker.

    Raises LexiconError naming the file and the command that fixes it.
    """
    language_ = language(lang)
    if lexicon_name is None:
        from engine.lexicon.build import default_list_path

        path = default_list_path(lexicon_dir, language_.code)
        if not path.exists():
            raise LexiconError(
                f"the default {language_.name} word list {str(path)!r} is not built; "
                f"run: ordvakt lexicon build {language_.code}"
            )
        possible_counts = language_.possible_counts
    else:
        path = find_list(lexicon_dir, lexicon_name)
        possible_counts = False  # a list the players chose is the answer of record
    trie = open_list(path)
    if trie.lang != language_.code:
        raise LexiconError(
            f"word list {trie.name!r} ({str(path)!r}) is for {trie.lang!r}, not {language_.code!r}"
        )
    lexicons: list[Lexicon] = [trie]
    if (checker := open_checker(language_)) is not None:
        lexicons.append(checker)
    return Judge(lexicons, language_.code, possible_counts=possible_counts)


def accept_all_judge(lang: str) -> Judge:
    """A judge that accepts everything ("no dictionary" play)."""
    return Judge([AcceptAll(language(lang).code)], lang)
