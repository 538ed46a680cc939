# SPDX-License-Identifier: GPL-3.0-or-later
"""Importing a word list the user owns (a tournament list such as NSF's or an ODS export).

Accepts UTF-8 or Latin-1 text, optionally ``.gz`` or ``.zip``; one word per line,
only the first token counts (so "WORD definition" lines work), blank lines and
``#`` comments are skipped. Words are folded like every other list; lines that
cannot be spelt with the game's tiles, or are not 2–17 letters long, are rejected
and reported. The list stays on the device and is never redistributed.
"""

from __future__ import annotations

import gzip
import re
import time
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.errors import LexiconError
from engine.lexicon.build import MAX_LENGTH, MIN_LENGTH, sha256_file, write_list_seconds
from engine.lexicon.languages import language
from engine.lexicon.normalise import NORMALISER_VERSION, Normaliser
from engine.lexicon.trie import Manifest, SourceInfo, write_forms

EXAMPLES = 10


@dataclass(frozen=True)
class Rejected:
    line: int
    text: str
    reason: str


@dataclass(frozen=True)
class ImportResult:
    path: Path
    manifest: Manifest
    encoding: str
    rejected: int
    examples: tuple[Rejected, ...]  # the first few rejected lines


def list_stem(lexicon_dir: Path, name: str) -> Path:
    """``<dir>/user-<name>``: the list file adds .marisa (or .dawg for huge lists), the manifest .json."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "list"
    return Path(lexicon_dir) / f"user-{slug}"


def read_bytes(source: Path) -> bytes:
    """The file's bytes, unpacked from .gz or .zip."""
    where = repr(str(source))
    suffix = source.suffix.lower()
    try:
        if suffix == ".gz":
            return gzip.decompress(source.read_bytes())
        if suffix == ".zip":
            with zipfile.ZipFile(source) as archive:
                members = [i for i in archive.infolist() if not i.is_dir() and not i.filename.startswith("__MACOSX")]
                if len(members) != 1:
                    names = ", ".join(i.filename for i in members) or "nothing"
                    raise LexiconError(
                        f"zip file {where} must hold exactly one word list, it holds {names}; unpack the one you "
                        "want and import that"
                    )
                return archive.read(members[0])
        return source.read_bytes()
    except (OSError, EOFError, zlib.error, zipfile.BadZipFile, gzip.BadGzipFile) as exc:
        if isinstance(exc, FileNotFoundError):
            raise LexiconError(f"word-list file {where} does not exist") from None
        raise LexiconError(
            f"cannot unpack {where} ({exc}); check that the file is a complete {suffix} archive"
        ) from None


def decode(data: bytes, source: Path) -> tuple[str, str]:
    """(text, encoding): UTF-8, else Latin-1 (Windows-1252 when it has its punctuation)."""
    where = repr(str(source))
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data[:4096]:
        raise LexiconError(
            f"{where} looks like UTF-16 or binary data, not a text word list; save it as UTF-8 text and import again"
        )
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        pass
    text = data.decode("latin-1")
    if re.search("[\x80-\x9f]", text):
        try:
            return data.decode("cp1252"), "windows-1252"
        except UnicodeDecodeError:
            raise LexiconError(
                f"{where} is neither UTF-8 nor Latin-1 text; save it as UTF-8 and import again"
            ) from None
    return text, "latin-1"


def _tokens(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, stripped.split()[0]


def import_list(source: Path, lang: str, name: str, lexicon_dir: Path) -> ImportResult:
    """Compile ``source`` into ``user-<name>.marisa`` (``.dawg`` when it is huge, see
    trie.DAWG_MIN_FORMS) with its manifest in ``lexicon_dir``."""
    source = Path(source)
    if not name.strip():
        raise LexiconError("a word list needs a name (--name), e.g. NSF-2022")
    language_ = language(lang)
    norm = Normaliser.for_language(language_)
    started = time.perf_counter()
    text, encoding = decode(read_bytes(source), source)
    words: list[str] = []
    rejected = 0
    examples: list[Rejected] = []
    for number, token in _tokens(text):
        folded = norm.normalise(token)
        if not norm.in_alphabet(folded):
            bad = "".join(sorted({c for c in folded if c not in norm.alphabet}))
            reason = f"letters without tiles in {language_.code}: {bad!r}"
        elif not MIN_LENGTH <= len(folded) <= MAX_LENGTH:
            reason = f"length {len(folded)} outside {MIN_LENGTH}-{MAX_LENGTH}"
        else:
            words.append(folded)
            continue
        rejected += 1
        if len(examples) < EXAMPLES:
            examples.append(Rejected(number, token, reason))
    if not words:
        hint = (
            f" ({rejected} lines rejected, e.g. line {examples[0].line} {examples[0].text!r}: "
            f"{examples[0].reason}; is --lang {language_.code} right?)"
            if examples
            else ""
        )
        raise LexiconError(f"{str(source)!r} contains no usable words{hint}; nothing was imported")
    manifest = Manifest(
        name=name.strip(),
        lang=language_.code,
        count=0,
        trie_bytes=0,
        normaliser_version=NORMALISER_VERSION,
        kind="user",
        licence="user-supplied, not redistributed",
        sources=(SourceInfo(path=source.name, sha256=sha256_file(source), package="user file"),),
        rejected=rejected,
    )
    written = write_forms(words, list_stem(lexicon_dir, name.strip()), manifest)
    final = write_list_seconds(written.path, written.manifest, time.perf_counter() - started)
    return ImportResult(written.path, final, encoding, rejected, tuple(examples))
