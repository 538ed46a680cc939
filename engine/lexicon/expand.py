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
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.errors import LexiconError


@dataclass(frozen=True)
class _Affix:
    strip: str
    add: str
    test: re.Pattern[str]  # compiled condition: .search for suffixes, .match for prefixes
    flags: frozenset[str]
    cross: bool


def load_dictionary(base: Path):
    """spylls' parsed dictionary for ``base`` (a path without .aff/.dic)."""
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
        dic = readers.read_dic(FileReader(str(base) + ".dic", encoding=context.encoding), aff=aff, context=context)
    except (UnicodeDecodeError, ValueError) as exc:
        raise LexiconError(f"cannot read hunspell dictionary {str(base)!r}: {exc}") from None
    return aff, dic


def expand(base: Path) -> Iterator[str]:
    """Every form of the dictionary at ``base``, as written (case and accents kept); may repeat."""
    aff, dic = load_dictionary(Path(base))
    yield from expand_parsed(aff, dic)


def expand_parsed(aff, dic) -> Iterator[str]:
    def table(raw, cls_is_suffix: bool) -> dict[str, list[_Affix]]:
        out: dict[str, list[_Affix]] = {}
        for flag, affixes in raw.items():
            out[flag] = [
                _Affix(a.strip, a.add, a.cond_regexp, frozenset(a.flags), a.crossproduct) for a in affixes
            ]
        return out

    sfx = table(aff.SFX, True)
    pfx = table(aff.PFX, False)
    need = aff.NEEDAFFIX or "\0need"
    only = aff.ONLYINCOMPOUND or "\0only"
    forbid = aff.FORBIDDENWORD or "\0forbid"
    circ = aff.CIRCUMFIX or "\0circ"
    minroot = 0 if aff.FULLSTRIP else 1

    forbidden = {w.stem for w in dic.words if forbid in w.flags}

    def add_suffix(stem: str, s: _Affix) -> str | None:
        if len(stem) - len(s.strip) < minroot or not stem.endswith(s.strip) or not s.test.search(stem):
            return None
        return stem[: len(stem) - len(s.strip)] + s.add

    def add_prefix(stem: str, p: _Affix) -> str | None:
        if len(stem) - len(p.strip) < minroot or not stem.startswith(p.strip) or not p.test.match(stem):
            return None
        return p.add + stem[len(p.strip) :]

    def forms(stem: str, flags: frozenset[str]) -> Iterator[str]:
        if need not in flags:
            yield stem
        prefixes = [p for f in flags for p in pfx.get(f, ()) if only not in p.flags]
        for f in flags:
            for s in sfx.get(f, ()):
                if only in s.flags:
                    continue
                form = add_suffix(stem, s)
                if form is None:
                    continue
                s_circ = circ in s.flags
                if need not in s.flags and not s_circ:
                    yield form
                for f2 in s.flags:
                    for s2 in sfx.get(f2, ()):
                        if only in s2.flags or need in s2.flags or circ in s2.flags or s_circ:
                            continue
                        form2 = add_suffix(form, s2)
                        if form2 is not None:
                            yield form2
                if s.cross:
                    for p in prefixes:
                        if p.cross and (circ in p.flags) == s_circ:
                            both = add_prefix(form, p)
                            if both is not None:
                                yield both
        for p in prefixes:
            if circ not in p.flags and need not in p.flags:
                form = add_prefix(stem, p)
                if form is not None:
                    yield form
            if not p.cross:
                continue
            # Suffixes allowed by the prefix's continuation flags rather than the stem's.
            for f in p.flags - flags:
                for s in sfx.get(f, ()):
                    if not s.cross or only in s.flags or (circ in s.flags) != (circ in p.flags):
                        continue
                    form = add_suffix(stem, s)
                    if form is not None:
                        both = add_prefix(form, p)
                        if both is not None:
                            yield both

    for word in dic.words:
        flags = frozenset(word.flags)
        if forbid in flags or only in flags:
            continue
        for form in forms(word.stem, flags):
            if form not in forbidden:
                yield form
