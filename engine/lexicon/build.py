# SPDX-License-Identifier: GPL-3.0-or-later
"""Building each language's default full-form list from installed packages (shared LEXICONS.md §7).

GPL-derived lists are built on the machine, never shipped. Each list is cleaned the
same way: entries with apostrophes, hyphens, digits or letters the game has no tile
for are dropped, as are ALL-CAPS abbreviations and (except in German, where nouns
are capitalised) Capitalised entries, which are proper nouns.
"""

from __future__ import annotations

import hashlib
import re
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from engine.errors import LexiconError
from engine.lexicon.expand import expand, expand_pairs
from engine.lexicon.languages import Language, Source, expand_path, language, load_languages
from engine.lexicon.normalise import NORMALISER_VERSION, Normaliser
from engine.lexicon.trie import (
    MANIFEST_SUFFIX,
    TRIE_SUFFIX,
    Manifest,
    SourceInfo,
    list_file,
    open_list,
    write_forms,
)

MIN_LENGTH = 2
#: The longest word any supported board holds (Alfapet is 17 squares wide).
MAX_LENGTH = 17


@dataclass(frozen=True)
class BuildResult:
    lang: str
    path: Path
    manifest: Manifest
    seconds: float
    skipped_sources: tuple[str, ...] = ()  # sources named in the table but not installed
    note: str = ""  # e.g. that a large list was built as marisa because dawg2 is missing


def default_list_stem(lexicon_dir: Path, lang: str) -> Path:
    """``<dir>/default-<lang>``: the list file adds .dawg or .marisa, the manifest .json."""
    return Path(lexicon_dir) / f"default-{lang}"


def default_list_path(lexicon_dir: Path, lang: str) -> Path:
    """The default list's file: the .dawg or .marisa that exists (the .dawg when both do);
    when neither does, the .marisa path."""
    stem = default_list_stem(lexicon_dir, lang)
    return list_file(stem) or stem.with_name(stem.name + TRIE_SUFFIX)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class LetterFolder:
    """``Normaliser.fold`` for millions of words: NFC and upper case on the word, then one ``str.translate``
    through a table of each letter's fold, filled as letters are met (the normaliser's other steps act on
    one letter at a time), and one more to test the alphabet.

    >>> from engine.lexicon.normalise import normaliser
    >>> fold = LetterFolder(normaliser("fr"))
    >>> fold("cœur"), fold("Noël"), fold("naïveté"), fold("smørrebrød"), fold("ad hoc")
    ('COEUR', 'NOEL', 'NAIVETE', '', '')
    """

    def __init__(self, norm: Normaliser) -> None:
        self._norm = norm
        self._single = all(len(old) == 1 for old, _ in norm.table)
        self._letters = _LetterTable(norm)
        self._outside = {ord(letter): None for letter in norm.alphabet}
        # Words already spelt in the alphabet need no folding, unless the fold table rewrites one of its letters.
        rewritten = {old for old, _ in norm.table} & norm.alphabet
        letters = "".join(sorted(norm.alphabet - rewritten)).replace("\\", "\\\\").replace("]", "\\]")
        letters = letters.replace("^", "\\^").replace("-", "\\-")
        self._spelt = re.compile(f"[{letters}]+").fullmatch if letters else (lambda text: None)

    def __call__(self, word: str) -> str:
        if not self._single:
            return self._norm.fold(word)
        word = word.strip()
        text = word.upper() if word.isascii() else unicodedata.normalize("NFC", word).upper()
        if self._spelt(text):
            return text
        text = text.translate(self._letters)
        return text if text and not text.translate(self._outside) else ""


class _LetterTable(dict):
    def __init__(self, norm: Normaliser) -> None:
        super().__init__()
        self._norm = norm

    def __missing__(self, code: int) -> str:
        letter = chr(code)
        # normalise() strips a word's surrounding spaces; inside a word a space must stay (and fail the alphabet).
        folded = self[code] = letter if letter.isspace() else self._norm.normalise(letter)
        return folded


def clean_stem_forms(stems: Iterable[list[tuple[str, str]]], norm: Normaliser, keep_capitalised: bool) -> Iterator[str]:
    """:func:`clean_forms` of hunspell forms given per stem as (stem part, added letters) pairs
    (expand.expand_stems): each distinct part is folded once, as folding acts letter by letter
    (an added part that starts with a combining mark, which NFC could join to the letter before, is
    folded with its stem part instead).

    >>> from engine.lexicon.normalise import normaliser
    >>> list(clean_stem_forms([[("Pariis", ""), ("kala", ""), ("kala", "de"), ("kal", "u")]], normaliser("et"), False))
    ['KALA', 'KALADE', 'KALU']
    """
    fold = LetterFolder(norm)
    added: dict[str, str] = {"": ""}
    joining: set[str] = set()  # added parts that start with a combining mark
    for forms in stems:
        # Per stem part: its folding ("" = a letter the game has no tile for), whether it starts with a capital.
        parts: dict[str, tuple[str, bool]] = {}
        for base, add in forms:
            part = parts.get(base)
            if part is None:
                part = parts[base] = (fold(base), base[:1].isupper())
            folded_base, capital = part
            folded_add = added.get(add)
            if folded_add is None:
                folded_add = added[add] = fold(add)
                if unicodedata.combining(add[0]):
                    joining.add(add)
            if (capital or (not base and add[:1].isupper())) and (not keep_capitalised or (base + add).isupper()):
                continue
            if joining and add in joining:
                folded = fold(base + add)
            elif (base and not folded_base) or (add and not folded_add):
                continue  # a letter the game has no tile for
            else:
                folded = folded_base + folded_add
            size = len(folded)
            # Folding can turn one letter into two (ß -> SS): the length limit is on the word as written too.
            if MIN_LENGTH <= size <= MAX_LENGTH and (size > MIN_LENGTH or len(base) + len(add) >= MIN_LENGTH):
                yield folded


def clean_forms(forms: Iterable[str], norm: Normaliser, keep_capitalised: bool) -> Iterator[str]:
    """Folded, game-spellable forms of 2–17 letters; proper nouns and abbreviations dropped."""
    fold = LetterFolder(norm)
    for raw in forms:
        word = raw.strip()
        if len(word) < MIN_LENGTH:
            continue
        if word[0].isupper() and (not keep_capitalised or word.isupper()):
            continue
        folded = fold(word)
        if MIN_LENGTH <= len(folded) <= MAX_LENGTH:
            yield folded


def read_word_file(path: Path) -> list[str]:
    """First token of every line of a system word list, UTF-8 or (failing that) Latin-1."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # /usr/share/dict/bokmaal and friends are ISO-8859-1
    return [line.split()[0] for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _source_files(source: Source) -> list[Path]:
    if source.kind == "hunspell":
        base = source.resolved()
        return [base.with_suffix(".aff"), base.with_suffix(".dic")]
    if source.kind == "wordlist":
        return [source.resolved()]
    if source.kind == "wordfreq-voikko":
        try:
            import wordfreq
        except ImportError:
            return [Path("wordfreq (Python package)")]
        return [Path(wordfreq.__file__).parent / "data" / "large_fi.msgpack.gz"]
    raise LexiconError(f"unknown source kind {source.kind!r} in languages.toml")


def source_installed(source: Source) -> bool:
    return all(p.is_file() for p in _source_files(source))


def _name_twins(words: list[str], lang: Language) -> set[str]:
    """Lower-case entries whose Capitalised twin is listed and that the spell-checker rejects ("london")."""
    from engine.lexicon.hunspell import HunspellLexicon, find_dictionary

    listed = set(words)
    twins = [w for w in words if w[:1].islower() and w.capitalize() in listed]
    if not twins or lang.checker is None or lang.checker.kind != "hunspell":
        return set()
    checker = HunspellLexicon(
        find_dictionary(tuple(expand_path(p) for p in lang.checker.paths), lang.checker.package), lang.code
    )
    return {w for w in twins if not checker.spell_exact(w)}


def _clean_source_forms(source: Source, lang: Language, norm: Normaliser,
                        stems: Callable[[int, int], None] | None = None) -> Iterator[str]:
    if source.kind == "hunspell":
        return clean_stem_forms(expand_pairs(source.resolved(), stems), norm, lang.keep_capitalised)
    return clean_forms(_raw_forms(source, lang), norm, lang.keep_capitalised)


def _raw_forms(source: Source, lang: Language) -> Iterable[str]:
    if source.kind == "hunspell":
        return expand(source.resolved())
    if source.kind == "wordlist":
        words = read_word_file(source.resolved())
        if source.drop_name_twins:
            drop = _name_twins(words, lang)
            words = [w for w in words if w not in drop]
        return words
    if source.kind == "wordfreq-voikko":
        return _wordfreq_voikko(lang)
    raise LexiconError(f"unknown source kind {source.kind!r}")


def _wordfreq_voikko(lang: Language) -> Iterator[str]:
    import wordfreq

    from engine.lexicon.voikko import open_voikko

    voikko = open_voikko(lang.code)
    try:
        for word in wordfreq.iter_wordlist(lang.code, "large"):
            if word.isalpha() and voikko.spell(word):
                yield word
    finally:
        voikko.terminate()


def _missing_message(lang: Language, missing: list[Source]) -> str:
    packages = "; ".join(f"{s.name}: {s.package}" for s in missing)
    return f"no source for the default {lang.name} ({lang.code}) word list is installed ({packages})"


def build_default(
    lang_code: str,
    lexicon_dir: Path,
    *,
    progress: Callable[[str], None] | None = None,
    backend: str = "auto",
    stems: Callable[[int, int], None] | None = None,
) -> BuildResult:
    """Build ``default-<lang>.dawg`` or ``.marisa`` (``backend``: see trie.choose_backend) and its
    manifest in ``lexicon_dir`` from the installed sources, replacing the other one if present.

    ``progress(message)`` hears each step; ``stems(done, total)`` follows a hunspell expansion, the long part.
    The forms stream from the expander through the folding into ``sort -u`` (see trie.ExternalSortedForms):
    memory stays bounded whatever the number of forms."""
    lang = language(lang_code)
    installed = [s for s in lang.sources if source_installed(s)]
    skipped = tuple(s.name for s in lang.sources if s not in installed)
    if not installed:
        raise LexiconError(_missing_message(lang, list(lang.sources)) + ": install it with apt-get/pip")
    if lang.combine == "first":
        installed = installed[:1]
        skipped = ()  # fall-backs that were not needed are not missing
    started = time.perf_counter()
    norm = Normaliser.for_language(lang)
    infos = []
    for s in installed:
        for p in _source_files(s):
            infos.append(SourceInfo(path=str(p), sha256=sha256_file(p), package=s.package))
        if progress:
            progress(f"{lang.code}: reading {s.name}")

    def all_forms() -> Iterator[str]:
        for s in installed:
            yield from _clean_source_forms(s, lang, norm, stems)

    manifest = Manifest(
        name="+".join(s.name for s in installed),
        lang=lang.code,
        count=0,
        trie_bytes=0,
        normaliser_version=NORMALISER_VERSION,
        kind="default",
        licence="; ".join(f"{s.name}: {s.licence}" for s in installed),
        sources=tuple(infos),
    )
    written = write_forms(all_forms(), default_list_stem(lexicon_dir, lang.code), manifest, backend=backend,
                          external_sort=True)
    if progress and written.note:
        progress(f"{lang.code}: {written.note}")
    seconds = time.perf_counter() - started
    final = write_list_seconds(written.path, written.manifest, seconds)
    return BuildResult(lang.code, written.path, final, seconds, skipped, written.note)


def write_list_seconds(path: Path, manifest: Manifest, seconds: float) -> Manifest:
    """Record the build time in the manifest beside ``path``."""
    updated = replace(manifest, build_seconds=round(seconds, 2))
    path.with_suffix(MANIFEST_SUFFIX).write_text(updated.to_json(), encoding="utf-8")
    return updated


def default_is_current(lexicon_dir: Path, lang_code: str) -> bool:
    """Whether a usable default list for the language is already there (same folding version)."""
    path = default_list_path(lexicon_dir, language(lang_code).code)
    try:
        lex = open_list(path)
    except (LexiconError, OSError):
        return False
    return lex.manifest.normaliser_version == NORMALISER_VERSION


def all_languages() -> list[str]:
    return list(load_languages())
