# SPDX-License-Identifier: GPL-3.0-or-later
"""Expanding a hunspell dictionary (aff + dic) into every full form it accepts, compounds aside.

Hunspell's own ``unmunch`` is not usable: it leaves flags in German and Swedish
output and fails on French (``FLAG long``). This expander reads the files with
spylls' parser and generates, per stem: the stem, stem+suffix, stem+suffix+suffix
(the second from the first's continuation flags), prefix+stem and
prefix+stem+suffix (both cross-product). It honours NEEDAFFIX, ONLYINCOMPOUND,
FORBIDDENWORD, CIRCUMFIX and FULLSTRIP. Compounds are not generated: they are
open-ended, and a spell-checker can still vouch for them as POSSIBLE.
tests/test_lexicon_expand.py re-checks a random sample of forms with C hunspell.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from engine.errors import LexiconError


@dataclass(frozen=True)
class _Affix:
    strip: str
    add: str
    test: re.Pattern[str]  # compiled condition: .search for suffixes, .match for prefixes
    flags: frozenset[str]
    cross: bool


class Stem(NamedTuple):
    stem: str
    flags: frozenset[str]


@dataclass
class Dictionary:
    """The stems of a ``.dic`` file with their flags (spylls' full reader builds lookup indexes we do not need)."""

    words: list[Stem]


_TAGS = re.compile(r"[ \t]\w{2}:")
_FLAG_SLASH = re.compile(r"(?<!\\)/")


def load_dictionary(base: Path) -> tuple[Any, Dictionary]:
    """spylls' parsed affix file and the stems of the ``.dic`` for ``base`` (a path without .aff/.dic)."""
    try:
        from spylls.hunspell import readers
        from spylls.hunspell.readers.file_reader import FileReader
    except ImportError:
        raise LexiconError("the Python package 'spylls' is missing: pip install spylls") from None
    for suffix in (".aff", ".dic"):
        if not base.with_suffix(suffix).is_file():
            raise LexiconError(f"hunspell file {str(base.with_suffix(suffix))!r} is missing")
    try:
        aff, context = readers.read_aff(FileReader(str(base) + ".aff"))
        # surrogateescape, as spylls: some dictionaries use bytes invalid in their encoding as flags.
        with open(str(base) + ".dic", encoding=context.encoding, errors="surrogateescape") as fh:
            words = list(_read_stems(fh, context))
    except (UnicodeDecodeError, ValueError) as exc:
        raise LexiconError(f"cannot read hunspell dictionary {str(base)!r}: {exc}") from None
    return aff, Dictionary(words)


def _read_stems(lines: Iterable[str], context: Any) -> Iterator[Stem]:
    """``stem/flags [data tags]`` lines, as spylls' reader splits them (tags after a tab or " xy:")."""
    ignore = context.ignore.tr if context.ignore else None
    parse_flags = context.parse_flags
    for number, raw in enumerate(lines):
        line = raw.strip()
        if number == 0:
            line = line.lstrip("\ufeff").replace("\xef\xbb\xbf", "")
            if line.split(maxsplit=1)[:1] and line.split(maxsplit=1)[0].isdigit():
                continue  # the approximate word count
        if not line:
            continue
        tags = _TAGS.search(line)
        end = tags.start() if tags else None
        tab = line.find("\t")
        if tab != -1 and (not end or end > tab):
            end = tab
        word = line[:end] if end else line
        flags = ""
        if not word.startswith("/"):
            parts = _FLAG_SLASH.split(word, 2)
            if len(parts) == 2:
                word, flags = parts
        if "\\/" in word:
            word = word.replace("\\/", "/")
        if ignore:
            word = word.translate(ignore)
        yield Stem(word, frozenset(parse_flags(flags)) if flags else frozenset())


#: Stems expanded between two progress reports.
PROGRESS_STEMS = 5000


def expand(base: Path, progress: Callable[[int, int], None] | None = None) -> Iterator[str]:
    """Every form of the dictionary at ``base``, as written (case and accents kept); may repeat.
    ``progress(stems_done, stems)`` is called every few thousand stems."""
    aff, dic = load_dictionary(Path(base))
    yield from expand_parsed(aff, dic, progress)


def expand_pairs(base: Path, progress: Callable[[int, int], None] | None = None) -> Iterator[list[tuple[str, str]]]:
    """:func:`expand_stems` of the dictionary at ``base``."""
    aff, dic = load_dictionary(Path(base))
    yield from expand_stems(aff, dic, progress)


def _condition_width(condition: str) -> int:
    """How many letters at the end of a word a suffix condition looks at.

    >>> _condition_width("[^aeiou]y"), _condition_width("."), _condition_width("ele")
    (2, 0, 3)
    """
    return 0 if condition in ("", ".") else len(re.findall(r"\[[^\]]*\]|.", condition))


class _FlagSuffixes:
    """One flag's suffix rules, with the ones that apply to a word remembered by the word's ending.

    Whether a rule applies depends only on the last ``width`` letters (its condition and strip) and, for
    words no longer than that, on the length (FULLSTRIP); so the answer for one word holds for every word
    with the same ending. Most stems share a few hundred endings: each rule is tested once per ending."""

    def __init__(self, affixes: list[_Affix], widths: list[int], minroot: int) -> None:
        self.affixes = affixes
        self.width = max([0, *widths, *(len(a.strip) for a in affixes)])
        self.minroot = minroot
        self._known: dict[str, list[tuple[int, str, _Affix]]] = {}

    def applicable(self, word: str) -> list[tuple[int, str, _Affix]]:
        """(letters to cut, letters to add, rule) for each rule that applies to ``word``."""
        width = self.width
        key = word[-width:] if len(word) > width else "\0" + word  # "\0": the whole word (its length counts)
        found = self._known.get(key)
        if found is None:
            found = self._known[key] = [(len(a.strip), a.add, a) for a in self.affixes if self._fits(word, a)]
        return found

    def _fits(self, word: str, a: _Affix) -> bool:
        if len(word) - len(a.strip) < self.minroot or not word.endswith(a.strip):
            return False
        return a.test.search(word) is not None


def expand_parsed(aff, dic, progress: Callable[[int, int], None] | None = None) -> Iterator[str]:
    """Every form of the parsed dictionary, as written; may repeat."""
    for forms in expand_stems(aff, dic, progress):
        for base, add in forms:
            yield base + add


def expand_stems(aff, dic, progress: Callable[[int, int], None] | None = None) -> Iterator[list[tuple[str, str]]]:
    """Per stem, its forms as (stem part, added letters) pairs: a consumer can fold the few distinct parts
    once instead of every form (build.clean_stem_forms)."""
    only = aff.ONLYINCOMPOUND or "\0only"
    minroot = 0 if aff.FULLSTRIP else 1

    def rule(a, test: re.Pattern[str]) -> _Affix:
        return _Affix(a.strip, a.add, test, frozenset(a.flags), a.crossproduct)

    sfx: dict[str, _FlagSuffixes] = {}
    for flag, affixes in aff.SFX.items():
        usable = [a for a in affixes if only not in a.flags]  # ONLYINCOMPOUND rules never make a word here
        tests = [re.compile((a.condition or ".").replace("-", "\\-") + "$") for a in usable]
        sfx[flag] = _FlagSuffixes([rule(a, t) for a, t in zip(usable, tests, strict=True)],
                                  [_condition_width(a.condition or ".") for a in usable], minroot)
    pfx = {flag: [rule(a, re.compile("^" + (a.condition or ".").replace("-", "\\-"))) for a in affixes]
           for flag, affixes in aff.PFX.items()}
    no_suffixes = _FlagSuffixes([], [], minroot)
    need = aff.NEEDAFFIX or "\0need"
    forbid = aff.FORBIDDENWORD or "\0forbid"
    circ = aff.CIRCUMFIX or "\0circ"

    forbidden = {w.stem for w in dic.words if forbid in w.flags}

    def add_prefix(stem: str, p: _Affix) -> str | None:
        if len(stem) - len(p.strip) < minroot or not stem.startswith(p.strip) or not p.test.match(stem):
            return None
        return p.add + stem[len(p.strip) :]

    def pairs(stem: str, flags: frozenset[str]) -> Iterator[tuple[str, str]]:
        """Each form as (part of the stem, with any prefix; the letters added after it)."""
        if need not in flags:
            yield stem, ""
        prefixes = [p for f in flags for p in pfx.get(f, ()) if only not in p.flags] if pfx else []
        for f in flags:
            rules = sfx.get(f)
            if rules is None:
                continue
            for cut, add, s in rules.applicable(stem):
                base = stem[:-cut] if cut else stem
                s_circ = circ in s.flags
                if need not in s.flags and not s_circ:
                    yield base, add
                if s.flags and not s_circ:
                    form = base + add
                    for f2 in s.flags:
                        for cut2, add2, s2 in sfx.get(f2, no_suffixes).applicable(form):
                            if need in s2.flags or circ in s2.flags:
                                continue
                            if cut2 <= len(add):
                                yield base, add[: len(add) - cut2] + add2
                            else:
                                yield base[: len(form) - cut2], add2
                if s.cross:
                    for p in prefixes:
                        if p.cross and (circ in p.flags) == s_circ:
                            both = add_prefix(base + add, p)
                            if both is not None:
                                yield both, ""
        for p in prefixes:
            if circ not in p.flags and need not in p.flags:
                prefixed = add_prefix(stem, p)
                if prefixed is not None:
                    yield prefixed, ""
            if not p.cross:
                continue
            # Suffixes allowed by the prefix's continuation flags rather than the stem's.
            for f in p.flags - flags:
                for cut, add, s in sfx.get(f, no_suffixes).applicable(stem):
                    if not s.cross or (circ in s.flags) != (circ in p.flags):
                        continue
                    both = add_prefix((stem[:-cut] if cut else stem) + add, p)
                    if both is not None:
                        yield both, ""

    total = len(dic.words)
    for number, word in enumerate(dic.words):
        if progress and number % PROGRESS_STEMS == 0:
            progress(number, total)
        flags = frozenset(word.flags)
        if forbid in flags or only in flags:
            continue
        if forbidden:
            yield [(base, add) for base, add in pairs(word.stem, flags) if base + add not in forbidden]
        else:
            yield list(pairs(word.stem, flags))
    if progress:
        progress(total, total)
