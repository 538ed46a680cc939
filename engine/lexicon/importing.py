# SPDX-License-Identifier: GPL-3.0-or-later
"""Importing a word list the user owns (a tournament list such as NSF's or an ODS export).

Accepts UTF-8 or Latin-1 text, optionally ``.gz`` or ``.zip``; one word per line,
only the first token counts (so "WORD definition" lines work), blank lines and
``#`` comments are skipped. Words are folded like every other list; lines that
cannot be spelt with the game's tiles, or are not 2–17 letters long, are rejected
and reported. The list stays on the device and is never redistributed.

The file is streamed, never held whole: memory stays bounded whatever its size,
and an archive that unpacks to more than :data:`MAX_UNPACKED_BYTES` (a "zip bomb")
is refused. The encoding is decided from the whole file: UTF-8 when it has valid
UTF-8 letters, Latin-1/Windows-1252 only when nothing in it is UTF-8. A UTF-8 list
with a few stray Latin-1 bytes stays UTF-8; those lines are rejected and named.
"""

from __future__ import annotations

import gzip
import os
import re
import time
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from itertools import chain
from pathlib import Path
from typing import IO, cast

from engine.errors import LexiconError, LexiconWriteError
from engine.lexicon.build import MAX_LENGTH, MIN_LENGTH, sha256_file
from engine.lexicon.languages import language
from engine.lexicon.normalise import NORMALISER_VERSION, Normaliser
from engine.lexicon.trie import MANIFEST_SUFFIX, Manifest, SourceInfo, write_forms

EXAMPLES = 10
#: The most an imported file may unpack to; the biggest real lists (Estonian full forms) are ~200 MB.
MAX_UNPACKED_BYTES = 1 << 30
#: A line longer than this is not a word list entry (a word and a short definition fit easily).
MAX_LINE_BYTES = 4096
#: Characters a list name may use (it also names the file: no paths, no collisions by folding).
NAME_PATTERN = re.compile(r"[^\W_][\w .+-]{0,63}")


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
    warnings: tuple[str, ...] = ()
    """Things the user should know although the import worked (stray bytes in a UTF-8 list)."""


def list_stem(lexicon_dir: Path, name: str) -> Path:
    """``<dir>/user-<name>``: the list file adds .marisa (or .dawg for huge lists), the manifest .json."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "list"
    return Path(lexicon_dir) / f"user-{slug}"


def check_name(name: str, lexicon_dir: Path) -> str:
    """The list name, stripped; refused when it is not a plain name or another list already has its file."""
    name = name.strip()
    if not name:
        raise LexiconError("a word list needs a name (--name), e.g. NSF-2022")
    if not NAME_PATTERN.fullmatch(name):
        raise LexiconError(f"word-list name {name[:70]!r}: use letters, digits, spaces, '.', '+' and '-' "
                           "(at most 64 characters, no '/')")
    manifest_path = list_stem(lexicon_dir, name).with_name(list_stem(lexicon_dir, name).name + MANIFEST_SUFFIX)
    if manifest_path.is_file():
        try:
            existing = Manifest.read(manifest_path).name
        except (LexiconError, OSError):
            existing = None
        if existing is not None and existing != name:
            raise LexiconError(f"word-list name {name!r} would replace the list {existing!r} (both are stored as "
                               f"{manifest_path.stem}); choose a different name")
    return name


# -- reading the file as a stream of byte lines --------------------------------------------------------

@contextmanager
def _open_stream(source: Path) -> Iterator[IO[bytes]]:
    """The file's bytes as a binary stream, unpacked from .gz or .zip."""
    where = repr(str(source))
    suffix = source.suffix.lower()
    try:
        if suffix == ".gz":
            with gzip.open(source, "rb") as stream:
                yield cast(IO[bytes], stream)
        elif suffix == ".zip":
            with zipfile.ZipFile(source) as archive:
                members = [i for i in archive.infolist() if not i.is_dir() and not i.filename.startswith("__MACOSX")]
                if len(members) != 1:
                    names = ", ".join(i.filename[:60] for i in members[:5]) or "nothing"
                    raise LexiconError(
                        f"zip file {where} must hold exactly one word list, it holds {names}; unpack the one you "
                        "want and import that"
                    )
                if members[0].file_size > MAX_UNPACKED_BYTES:
                    raise _too_big(source)
                with archive.open(members[0]) as stream:
                    yield stream
        else:
            with open(source, "rb") as stream:
                yield stream
    except (OSError, EOFError, zlib.error, zipfile.BadZipFile, gzip.BadGzipFile,
            NotImplementedError, RuntimeError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise LexiconError(f"word-list file {where} does not exist") from None
        if isinstance(exc, IsADirectoryError):
            raise LexiconError(f"word-list file {where} is a folder") from None
        raise LexiconError(
            f"cannot unpack {where} ({exc}); check that the file is a complete {suffix or 'text'} archive"
        ) from None


def _too_big(source: Path) -> LexiconError:
    return LexiconError(f"{str(source)!r} unpacks to more than {MAX_UNPACKED_BYTES >> 20} MB, far more than any "
                        "word list; it is not one (or is an archive bomb)")


def _byte_lines(source: Path) -> Iterator[tuple[int, bytes | None]]:
    """(line number, bytes without the line end) for each line; None for a line over MAX_LINE_BYTES."""
    total = 0
    with _open_stream(source) as stream:
        number = 0
        while True:
            raw = stream.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            number += 1
            total += len(raw)
            overlong = len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n")
            while overlong and raw and not raw.endswith(b"\n"):  # skip the rest of the line, chunk by chunk
                raw = stream.readline(1 << 16)
                total += len(raw)
                if total > MAX_UNPACKED_BYTES:
                    raise _too_big(source)
            if total > MAX_UNPACKED_BYTES:
                raise _too_big(source)
            yield number, None if overlong else raw.rstrip(b"\r\n")


# -- deciding the encoding -----------------------------------------------------------------------------

@dataclass
class _EncodingScan:
    utf8_lines: int = 0  # lines with valid multi-byte UTF-8
    bad_lines: int = 0  # lines that are not UTF-8
    first_bad: tuple[int, int, int] | None = None  # (line, column, byte)
    c1_controls: bool = False  # bytes 0x80-0x9F outside UTF-8: Windows-1252 punctuation


def _scan(source: Path) -> _EncodingScan:
    scan = _EncodingScan()
    first = True
    for number, raw in _byte_lines(source):
        if raw is None:
            continue
        if first and (raw.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in raw[:4096]):
            raise LexiconError(f"{str(source)!r} looks like UTF-16 or binary data, not a text word list; save it "
                               "as UTF-8 text and import again")
        first = False
        if raw.isascii():
            continue
        try:
            raw.decode("utf-8")
            scan.utf8_lines += 1
        except UnicodeDecodeError as exc:
            scan.bad_lines += 1
            if scan.first_bad is None:
                scan.first_bad = (number, exc.start + 1, raw[exc.start])
            scan.c1_controls = scan.c1_controls or any(0x80 <= b <= 0x9F for b in raw)
    return scan


def _choose_encoding(scan: _EncodingScan, source: Path) -> tuple[str, tuple[str, ...]]:
    if scan.bad_lines == 0:
        return "utf-8", ()
    if scan.utf8_lines == 0:
        return ("windows-1252" if scan.c1_controls else "latin-1"), ()
    line, column, byte = scan.first_bad or (0, 0, 0)
    return "utf-8", (
        f"{str(source)!r} is UTF-8 ({scan.utf8_lines:,} lines) but {scan.bad_lines:,} lines are not, the first "
        f"at line {line}, column {column} (byte {byte:#04x}); those lines were rejected, the rest read as UTF-8",
    )


# -- importing -----------------------------------------------------------------------------------------

def import_list(source: Path, lang: str, name: str, lexicon_dir: Path) -> ImportResult:
    """Compile ``source`` into ``user-<name>.marisa`` (``.dawg`` when it is huge, see
    trie.DAWG_MIN_FORMS) with its manifest in ``lexicon_dir``."""
    source = Path(source)
    name = check_name(name, lexicon_dir)
    language_ = language(lang)
    norm = Normaliser.for_language(language_)
    started = time.perf_counter()
    scan = _scan(source)
    encoding, warnings = _choose_encoding(scan, source)
    rejected = 0
    examples: list[Rejected] = []

    def reject(number: int, text: str, reason: str) -> None:
        nonlocal rejected
        rejected += 1
        if len(examples) < EXAMPLES:
            examples.append(Rejected(number, text[:80], reason))

    words = _words(source, encoding, norm, language_.code, reject)
    first = next(words, None)
    if first is None:
        hint = (
            f" ({rejected} lines rejected, e.g. line {examples[0].line} {examples[0].text!r}: "
            f"{examples[0].reason}; is --lang {language_.code} right?)"
            if examples
            else ""
        )
        raise LexiconError(f"{str(source)!r} contains no usable words{hint}; nothing was imported")
    manifest = Manifest(
        name=name,
        lang=language_.code,
        count=0,
        trie_bytes=0,
        normaliser_version=NORMALISER_VERSION,
        kind="user",
        licence="user-supplied, not redistributed",
        sources=(SourceInfo(path=source.name, sha256=sha256_file(source), package="user file"),),
        rejected=0,
    )
    try:
        # The system's sort (bounded memory, in its own process) when there is one: this process then only
        # streams, and its peak is one part being compiled (trie.PART_FORMS).
        written = write_forms(chain([first], words), list_stem(lexicon_dir, name), manifest, external_sort=True)
        final = replace(written.manifest, rejected=rejected, build_seconds=round(time.perf_counter() - started, 2))
        manifest_path = written.path.with_suffix(MANIFEST_SUFFIX)
        temporary = manifest_path.with_suffix(".json.tmp")
        temporary.write_text(final.to_json(), encoding="utf-8")
        os.replace(temporary, manifest_path)
    except OSError as exc:
        raise LexiconWriteError(f"cannot write the word list into {str(lexicon_dir)!r}: {exc.strerror or exc} "
                           "(is the disk full?); a list of the same name is unchanged") from None
    except RuntimeError as exc:  # marisa-trie reports a full disk as MARISA_IO_ERROR
        raise LexiconWriteError(f"cannot write the word list into {str(lexicon_dir)!r} ({str(exc)[:120]}); is the disk "
                           "full? A list of the same name is unchanged") from None
    return ImportResult(written.path, final, encoding, rejected, tuple(examples), warnings)


def _words(source: Path, encoding: str, norm: Normaliser, code: str,
           reject: Callable[[int, str, str], None]) -> Iterator[str]:
    """The folded words of the file, streamed; every refused line goes to ``reject``."""
    for number, raw in _byte_lines(source):
        if raw is None:
            reject(number, "", f"line longer than {MAX_LINE_BYTES} bytes")
            continue
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as exc:
            reject(number, raw.decode(encoding, "backslashreplace").strip(),
                   f"byte {raw[exc.start]:#04x} at column {exc.start + 1} is not {encoding} (the rest of the file is)")
            continue
        if number == 1:
            text = text.lstrip("\ufeff")
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        token = stripped.split()[0]
        folded = norm.normalise(token)
        if not norm.in_alphabet(folded):
            bad = "".join(sorted({c for c in folded if c not in norm.alphabet}))[:20]
            reject(number, token, f"letters without tiles in {code}: {bad!r}")
        elif not MIN_LENGTH <= len(folded) <= MAX_LENGTH:
            reject(number, token, f"length {len(folded)} outside {MIN_LENGTH}-{MAX_LENGTH}")
        else:
            yield folded

