# SPDX-License-Identifier: GPL-3.0-or-later
"""Compiled full-form word lists: a marisa-trie or DAWG file plus a JSON manifest beside it.

A marisa trie is memory-mapped, so loading is a few milliseconds and only the pages
a lookup touches become resident (and are shared between processes). Lists that are
generated from paradigms (Estonian: 13 M forms) share their suffixes, which a DAWG
(minimised automaton) stores once: 28 MB as marisa, well under 1 MB as a DAWG. DAWGs
are built with the ``dawg2`` C extension (x86_64 wheels only) and read with it, or,
where it is not installed (a Raspberry Pi without a compiler), with the pure-Python
``DAWG2-Python`` reader of the same file format.

``<stem>.marisa`` or ``<stem>.dawg`` share one manifest, ``<stem>.json``, which says
which of the two it describes; when both files exist the ``.dawg`` is the current one.
"""

from __future__ import annotations

import bisect
import heapq
import importlib.util
import io
import json
import mmap
import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from itertools import chain, islice
from pathlib import Path
from typing import IO, Any

from engine.errors import LexiconError, LexiconWriteError

TRIE_SUFFIX = ".marisa"
DAWG_SUFFIX = ".dawg"
#: Compiled-list suffixes, the preferred first when a stem has both.
LIST_SUFFIXES = (DAWG_SUFFIX, TRIE_SUFFIX)
MANIFEST_SUFFIX = ".json"
FORMAT = 1
#: Lists with more distinct forms than this are built as a DAWG when dawg2 is installed.
#: Below it marisa meets every target on every platform (and reads at full speed on a Pi,
#: where dawg2 has no wheel and the pure-Python DAWG reader manages ~250 k lookups/s);
#: above it only paradigm-generated lists occur, where the DAWG is 50-80 times smaller.
DAWG_MIN_FORMS = 3_000_000
#: Forms sorted in memory at a time while building; larger lists are merged from sorted runs on disk.
RUN_FORMS = 1_000_000
#: Forms compiled into one part of a list file. The builders hold a part's whole structure in memory
#: (marisa ~85 MB and a DAWG of unrelated forms ~70 MB per million random forms), so a list of any size
#: is built in bounded memory: its sorted forms are cut into parts of consecutive forms, each built and
#: appended to the file in turn. The manifest's ``parts`` says where each starts (a one-part list has none).
PART_FORMS = 1_000_000
#: Parts start at multiples of this in the file (marisa maps its arrays in place).
PART_ALIGN = 8
#: Forms built both ways to choose between a DAWG and a marisa trie (see :func:`write_forms`).
COMPARE_FORMS = 200_000


@dataclass(frozen=True)
class SourceInfo:
    path: str
    sha256: str
    package: str = ""


@dataclass(frozen=True)
class Manifest:
    """What a compiled list is, where it came from and how it was folded."""

    name: str
    lang: str
    count: int
    trie_bytes: int
    normaliser_version: int
    kind: str  # "default" (built from installed packages) or "user" (imported)
    licence: str = ""
    sources: tuple[SourceInfo, ...] = field(default_factory=tuple)
    rejected: int = 0
    build_seconds: float = 0.0
    format: int = FORMAT
    backend: str = "marisa"  # "marisa" or "dawg": which file beside the manifest it describes
    #: (first form, byte offset, byte size) of each part of a list built in parts, in form order; empty
    #: for a list that is one structure (every list up to PART_FORMS forms).
    parts: tuple[tuple[str, int, int], ...] = ()

    @property
    def suffix(self) -> str:
        return DAWG_SUFFIX if self.backend == "dawg" else TRIE_SUFFIX

    def to_json(self) -> str:
        data = asdict(self)
        data["sources"] = [asdict(s) for s in self.sources]
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"

    @classmethod
    def read(cls, path: Path) -> Manifest:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            data["sources"] = tuple(SourceInfo(**s) for s in data.get("sources", ()))
            data["parts"] = tuple((str(first), int(offset), int(size)) for first, offset, size in data.get("parts", ()))
            return cls(**data)
        except FileNotFoundError:
            raise
        except (OSError, ValueError, TypeError, KeyError) as exc:
            raise LexiconError(
                f"word-list manifest {str(path)!r} is unreadable ({exc}); delete it and its "
                f"{TRIE_SUFFIX} or {DAWG_SUFFIX} file, then rebuild (ordvakt lexicon build LANG) or re-import the list"
            ) from None


def _marisa():
    try:
        import marisa_trie
    except ImportError:
        raise LexiconError(
            "the Python package 'marisa-trie' is missing: pip install marisa-trie "
            "(or re-run python3 device/bootstrap.py)"
        ) from None
    return marisa_trie


def dawg_builder_available() -> bool:
    """Whether ``dawg2`` (the C extension that can build DAWGs) is installed."""
    return importlib.util.find_spec("dawg") is not None


def dawg_reader() -> tuple[object, str]:
    """(module, package name) that reads ``.dawg`` files: dawg2 when installed, else DAWG2-Python."""
    try:
        import dawg

        return dawg, "dawg2"
    except ImportError:
        pass
    try:
        import dawg_python

        return dawg_python, "DAWG2-Python"
    except ImportError:
        raise LexiconError(
            "reading a .dawg word list needs the Python package 'DAWG2-Python' (any platform) or 'dawg2' "
            "(x86_64): pip install DAWG2-Python (or re-run python3 device/bootstrap.py)"
        ) from None


class SortedForms:
    """The distinct forms of ``words`` in code-point order (= UTF-8 byte order, as a DAWG needs).

    At most ``run_forms`` forms are held in memory: larger inputs are sorted in runs
    written to ``workdir`` and merged lazily. Use as a context manager (it removes the runs).
    """

    def __init__(self, words: Iterable[str], workdir: Path, run_forms: int = RUN_FORMS) -> None:
        self._workdir = Path(workdir)
        remove_stale_files(self._workdir)
        self._runs: list[Path] = []
        self._memory: list[str] = []
        #: An upper bound on the distinct forms (exact unless runs were spilled).
        self.bound = 0
        run: set[str] = set()
        try:
            for word in words:
                run.add(word)
                if len(run) >= run_forms:
                    self._spill(run)
                    run = set()
            if self._runs:
                if run:
                    self._spill(run)
            else:
                self._memory = sorted(run)
                self.bound = len(self._memory)
        except BaseException:
            self.close()
            raise

    def _spill(self, run: set[str]) -> None:
        fd, name = tempfile.mkstemp(prefix=f"forms-{os.getpid()}-", suffix=".run", dir=self._workdir)
        self._runs.append(Path(name))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.writelines(w + "\n" for w in sorted(run))
        self.bound += len(run)

    @property
    def spilled(self) -> bool:
        return bool(self._runs)

    def __iter__(self) -> Iterator[str]:
        if not self._runs:
            yield from self._memory
            return
        files = [open(path, encoding="utf-8") for path in self._runs]  # noqa: SIM115 (closed below)
        try:
            previous = None
            for line in heapq.merge(*files):
                if line != previous:
                    previous = line
                    yield line[:-1]
        finally:
            for fh in files:
                fh.close()

    def close(self) -> None:
        for path in self._runs:
            path.unlink(missing_ok=True)
        self._runs = []

    def __enter__(self) -> SortedForms:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_OWNED = re.compile(r"(?:forms-|.+\.)(\d+)-[^/]*\.(?:run|tmp)")
#: Spill files without a process id (written before ids were added) are stale after this long.
_UNOWNED_STALE_S = 6 * 3600


def remove_stale_files(workdir: Path) -> int:
    """Remove sorted runs and half-written lists left in ``workdir`` by builds that were killed (their
    process is gone); a running build's files are kept. Returns how many were removed."""
    removed = 0
    for path in list(workdir.glob("forms-*.run")) + list(workdir.glob("*.tmp")):
        match = _OWNED.fullmatch(path.name)
        try:
            if match:
                try:
                    os.kill(int(match[1]), 0)
                    continue  # the build is still running
                except ProcessLookupError:
                    pass
                except (PermissionError, OverflowError, ValueError):
                    continue
            elif not path.name.startswith("forms-") or time.time() - path.stat().st_mtime < _UNOWNED_STALE_S:
                continue
            if path.is_dir():  # the sort program's own spill folder
                shutil.rmtree(path)
            else:
                path.unlink()
            removed += 1
        except OSError:
            continue
    return removed


class ExternalSortedForms:
    """:class:`SortedForms` done by the system's ``sort -u`` (bytes order = code-point order in UTF-8):
    several times faster on lists of millions of forms, in bounded memory (``sort -S``), spilling to ``workdir``.

    ``available()`` says whether a ``sort`` program is there; otherwise use :class:`SortedForms`.
    """

    MEMORY = "64M"

    def __init__(self, words: Iterable[str], workdir: Path) -> None:
        import subprocess

        self._workdir = Path(workdir)
        fd, name = tempfile.mkstemp(prefix=f"forms-{os.getpid()}-", suffix=".run", dir=self._workdir)
        os.close(fd)
        self._path = Path(name)
        # sort's spill files in a folder of this build's, so a killed build's are found and removed
        self._spill = Path(tempfile.mkdtemp(prefix=f"forms-{os.getpid()}-", suffix=".tmp", dir=self._workdir))
        env = {**os.environ, "LC_ALL": "C", "TMPDIR": str(self._spill)}
        command = [_sort_program(), "-u", "-S", self.MEMORY, "-T", str(self._spill), "-o", name]
        try:
            with subprocess.Popen(command, stdin=subprocess.PIPE, env=env) as sort:
                assert sort.stdin is not None
                batch: list[str] = []
                for word in words:
                    batch.append(word)
                    if len(batch) >= 65536:
                        sort.stdin.write(("\n".join(batch) + "\n").encode("utf-8"))
                        batch.clear()
                if batch:
                    sort.stdin.write(("\n".join(batch) + "\n").encode("utf-8"))
                sort.stdin.close()
            if sort.returncode != 0:
                raise LexiconWriteError(f"sorting the forms in {str(self._workdir)!r} failed (sort exited with "
                                        f"{sort.returncode}): is the disk full? A list of the same name is unchanged")
            with open(name, "rb") as fh:
                #: The number of distinct forms (exact).
                self.bound = sum(block.count(b"\n") for block in iter(lambda: fh.read(1 << 20), b""))
        except BaseException:
            self.close()
            raise

    @staticmethod
    def available() -> bool:
        return _sort_program() != ""

    def __iter__(self) -> Iterator[str]:
        with open(self._path, encoding="utf-8", newline="\n") as fh:
            for line in fh:
                yield line[:-1]

    def close(self) -> None:
        self._path.unlink(missing_ok=True)
        shutil.rmtree(self._spill, ignore_errors=True)

    def __enter__(self) -> ExternalSortedForms:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _sort_program() -> str:
    import shutil

    return shutil.which("sort") or ""


@dataclass(frozen=True)
class Written:
    path: Path
    manifest: Manifest
    note: str = ""  # e.g. why a large list was built as marisa


def choose_backend(bound: int, backend: str = "auto") -> tuple[str, str]:
    """("dawg" or "marisa", note) for a list of about ``bound`` distinct forms."""
    if backend not in ("auto", "dawg", "marisa"):
        raise LexiconError(f"unknown word-list backend {backend!r}: use auto, dawg or marisa")
    if backend == "marisa":
        return "marisa", ""
    if dawg_builder_available():
        return ("dawg" if backend == "dawg" or bound > DAWG_MIN_FORMS else "marisa"), ""
    if backend == "dawg":
        raise LexiconError(
            "building a .dawg word list needs the Python package 'dawg2' (x86_64 wheels; elsewhere a C++ "
            "compiler and Cython): pip install dawg2"
        )
    if bound > DAWG_MIN_FORMS:
        return "marisa", (
            f"dawg2 is not installed, so these {bound:,} forms were built as a marisa trie (tens of MB; "
            "pip install dawg2 on x86_64, or copy a .dawg built on another machine, makes it under 1 MB)"
        )
    return "marisa", ""


def write_forms(words: Iterable[str], stem: Path, manifest: Manifest, *, backend: str = "auto",
                external_sort: bool = False) -> Written:
    """Compile ``words`` (already folded; any order, repeats allowed) into ``<stem>.dawg`` or
    ``<stem>.marisa`` (see :func:`choose_backend`) and ``<stem>.json``, atomically.

    Memory is bounded whatever the list's size: the forms are sorted on disk past RUN_FORMS and
    compiled in parts of PART_FORMS. When ``auto`` would choose a DAWG, the first COMPARE_FORMS forms
    are built both ways and the DAWG kept only if it is smaller (lists of unrelated forms share no
    suffixes: their DAWG is several times the marisa trie, and a DAWG is read whole into memory).
    ``external_sort``: sort with the system's ``sort`` when there is one (lists of millions of forms).
    The other backend's file, left from an earlier build, is removed.
    """
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_files(stem.parent)
    sorter: SortedForms | ExternalSortedForms
    if external_sort and ExternalSortedForms.available():
        sorter = ExternalSortedForms(words, stem.parent)
    else:
        sorter = SortedForms(words, stem.parent, RUN_FORMS)
    with sorter as forms:
        kind, note = choose_backend(forms.bound, backend)
        compare = backend == "auto" and kind == "dawg"
        stream = iter(forms)
        sample = list(islice(stream, COMPARE_FORMS)) if compare else []
        if sample and _compiled_size("dawg", sample, stem) >= _compiled_size("marisa", sample, stem):
            kind = "marisa"
        suffix = DAWG_SUFFIX if kind == "dawg" else TRIE_SUFFIX
        path = stem.with_name(stem.name + suffix)
        fd, tmp = tempfile.mkstemp(prefix=f"{path.name}.{os.getpid()}-", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                parts, count = _write_parts(kind, chain(sample, stream), out, stem)
            size = os.path.getsize(tmp)
            final = replace(manifest, count=count, trie_bytes=size, backend=kind,
                            parts=tuple(parts) if len(parts) > 1 else ())
            man_path = stem.with_name(stem.name + MANIFEST_SUFFIX)
            man_tmp = man_path.with_suffix(".json.tmp")
            man_tmp.write_text(final.to_json(), encoding="utf-8")
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
            os.replace(man_tmp, man_path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    for other in LIST_SUFFIXES:
        if other != suffix:
            stem.with_name(stem.name + other).unlink(missing_ok=True)
    return Written(path, final, note)


def _write_parts(kind: str, forms: Iterator[str], out: IO[bytes], stem: Path) -> tuple[list[tuple[str, int, int]], int]:
    """Compile sorted ``forms`` part by part into ``out``: [(first form, offset, size)] and the form count."""
    parts: list[tuple[str, int, int]] = []
    count = 0
    while True:
        if out.tell() % PART_ALIGN:
            out.write(b"\0" * (PART_ALIGN - out.tell() % PART_ALIGN))
        offset = out.tell()
        tally = _Tally()
        with _part_file(stem) as part_path:
            _compile(kind, tally.through(islice(forms, PART_FORMS)), part_path)
            if not tally.count:
                return parts, count
            with open(part_path, "rb") as part_file:
                shutil.copyfileobj(part_file, out, 1 << 20)
        parts.append((tally.first, offset, out.tell() - offset))
        count += tally.count


class _Tally:
    """The first form and the number of forms that went through :meth:`through`."""

    def __init__(self) -> None:
        self.first = ""
        self.count = 0

    def through(self, forms: Iterable[str]) -> Iterator[str]:
        for word in forms:
            if not self.count:
                self.first = word
            self.count += 1
            yield word


@contextmanager
def _part_file(stem: Path) -> Iterator[Path]:
    fd, name = tempfile.mkstemp(prefix=f"{stem.name}.{os.getpid()}-part-", suffix=".tmp", dir=stem.parent)
    os.close(fd)
    try:
        yield Path(name)
    finally:
        Path(name).unlink(missing_ok=True)


def _compile(kind: str, forms: Iterable[str], path: Path) -> None:
    """Build one structure of sorted ``forms`` into ``path``."""
    if kind == "dawg":
        import dawg

        # CompletionDAWG (not plain DAWG) so the list stays enumerable: words(prefix).
        dawg.CompletionDAWG(forms, input_is_sorted=True).save(str(path))
    else:
        trie = _marisa().Trie(forms)
        trie.save(str(path))
        del trie


def _compiled_size(kind: str, forms: list[str], stem: Path) -> int:
    with _part_file(stem) as path:
        _compile(kind, forms, path)
        return path.stat().st_size


def list_file(stem: Path) -> Path | None:
    """The compiled file of the list ``<stem>`` (the .dawg when both exist), or None."""
    for suffix in LIST_SUFFIXES:
        path = stem.with_name(stem.name + suffix)
        if path.is_file():
            return path
    return None


def open_list(path: Path, manifest: Manifest | None = None) -> TrieLexicon | DawgLexicon:
    """The lexicon for a compiled list file, by its suffix."""
    if Path(path).suffix == DAWG_SUFFIX:
        return DawgLexicon(path, manifest)
    return TrieLexicon(path, manifest)


def _checked(path: Path, manifest: Manifest | None, backend: str) -> tuple[Manifest, str]:
    """The list's manifest and the command that repairs it; raises LexiconError when the file is
    missing, truncated or not the one the manifest describes."""
    man_path = path.with_suffix(MANIFEST_SUFFIX)
    if manifest is None:
        try:
            manifest = Manifest.read(man_path)
        except FileNotFoundError:
            raise LexiconError(
                f"word list {str(path)!r} has no manifest {man_path.name!r}; rebuild it "
                "(ordvakt lexicon build LANG) or re-import it (ordvakt lexicon import)"
            ) from None
    fix = (
        f"run: ordvakt lexicon build {manifest.lang}"
        if manifest.kind == "default"
        else f"import it again: ordvakt lexicon import FILE --lang {manifest.lang} --name {manifest.name}"
    )
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise LexiconError(f"word list {str(path)!r} is missing; {fix}") from None
    if manifest.backend != backend:
        raise LexiconError(
            f"word list {str(path)!r} is stale: its manifest {man_path.name!r} describes the "
            f"{manifest.suffix} file; delete {path.name!r} or {fix}"
        )
    if size != manifest.trie_bytes:
        raise LexiconError(
            f"word list {str(path)!r} is truncated or corrupt ({size} bytes, manifest says "
            f"{manifest.trie_bytes}); delete it and {fix}"
        )
    if not _parts_fit(manifest.parts, size):
        raise LexiconError(f"word list {str(path)!r}: its manifest {man_path.name!r} is corrupt (the parts do not fit "
                           f"the file); delete both and {fix}")
    return manifest, fix


def _parts_fit(parts: tuple[tuple[str, int, int], ...], size: int) -> bool:
    """Whether the part table is in form order and its parts lie one after another inside the file."""
    end = 0
    for index, (first, offset, length) in enumerate(parts):
        if offset < end or length <= 0 or offset + length > size or (index and first <= parts[index - 1][0]):
            return False
        end = offset + length
    return True


class _Parted:
    """Lookups over a list's parts: part ``i`` holds the forms from ``firsts[i]`` up to ``firsts[i + 1]``."""

    def __init__(self, parts: tuple[tuple[str, int, int], ...]) -> None:
        self._firsts = [first for first, _offset, _size in parts] or [""]

    def _part_of(self, word: str) -> int:
        """The part that would hold ``word`` (-1: before the first form)."""
        return bisect.bisect_right(self._firsts, word) - 1

    def _parts_with(self, prefix: str) -> range:
        """The parts that may hold forms starting with ``prefix`` (those forms are consecutive)."""
        start = max(self._part_of(prefix), 0)
        stop = start + 1
        while stop < len(self._firsts) and self._firsts[stop].startswith(prefix):
            stop += 1
        return range(start, stop)


class TrieLexicon(_Parted):
    """A memory-mapped full-form list; binding and enumerable.

    ``TrieLexicon(path)`` on a ``.dawg`` file returns a :class:`DawgLexicon`, so callers
    that predate DAWG lists keep working; new code should call :func:`open_list`.
    """

    enumerable = True
    binding = True

    def __new__(cls, trie_path: Path, manifest: Manifest | None = None):  # type: ignore[no-untyped-def]
        if cls is TrieLexicon and Path(trie_path).suffix == DAWG_SUFFIX:
            return DawgLexicon(trie_path, manifest)
        return super().__new__(cls)

    def __init__(self, trie_path: Path, manifest: Manifest | None = None) -> None:
        trie_path = Path(trie_path)
        manifest, fix = _checked(trie_path, manifest, "marisa")
        self.manifest = manifest
        self.name = manifest.name
        self.lang = manifest.lang
        self.path = trie_path
        super().__init__(manifest.parts)
        try:
            if manifest.parts:
                with open(trie_path, "rb") as fh:
                    self._map = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
                view = memoryview(self._map)
                self._tries = [_marisa().Trie().map(view[offset:offset + size])
                               for _first, offset, size in manifest.parts]
            else:
                self._tries = [_marisa().Trie().mmap(str(trie_path))]
                self.contains = self._tries[0].__contains__  # type: ignore[method-assign]  # no part to find
        except (RuntimeError, OSError, ValueError) as exc:
            raise LexiconError(
                f"word list {str(trie_path)!r} is corrupt ({exc}); delete it and {fix}"
            ) from None

    def contains(self, word: str) -> bool:
        part = self._part_of(word)
        return part >= 0 and word in self._tries[part]

    __contains__ = contains

    def __len__(self) -> int:
        return sum(len(trie) for trie in self._tries)

    def words(self, prefix: str = "") -> list[str]:
        """Every listed word starting with ``prefix`` (for hints and move generation)."""
        if len(self._tries) == 1:
            return self._tries[0].keys(prefix)
        return [word for part in self._parts_with(prefix) for word in self._tries[part].keys(prefix)]

    def __repr__(self) -> str:
        return f"TrieLexicon({self.name!r}, lang={self.lang!r}, {len(self)} words)"


class DawgLexicon(_Parted):
    """A full-form list stored as a DAWG (read whole: the file is small); binding and enumerable.

    ``reader`` says which package reads it: "dawg2" (C, several M lookups/s) or
    "DAWG2-Python" (pure Python, ~250 k lookups/s, any platform).
    """

    enumerable = True
    binding = True

    def __init__(self, path: Path, manifest: Manifest | None = None) -> None:
        path = Path(path)
        manifest, fix = _checked(path, manifest, "dawg")
        self.manifest = manifest
        self.name = manifest.name
        self.lang = manifest.lang
        self.path = path
        super().__init__(manifest.parts)
        module, self.reader = dawg_reader()
        try:
            if manifest.parts:
                with open(path, "rb") as fh:
                    self._dawgs = [_read_dawg(module, fh, offset, size) for _first, offset, size in manifest.parts]
            else:
                self._dawgs = [module.CompletionDAWG().load(str(path))]  # type: ignore[attr-defined]
                self.contains = self._dawgs[0].__contains__  # type: ignore[method-assign]  # no part to find
        except (OSError, ValueError, IndexError, EOFError, MemoryError) as exc:
            raise LexiconError(
                f"word list {str(path)!r} is corrupt ({self.reader}: {exc or type(exc).__name__}); delete it and {fix}"
            ) from None

    def contains(self, word: str) -> bool:
        part = self._part_of(word)
        return part >= 0 and word in self._dawgs[part]

    __contains__ = contains

    def __len__(self) -> int:
        return self.manifest.count

    def words(self, prefix: str = "") -> list[str]:
        """Every listed word starting with ``prefix`` (for hints and move generation)."""
        if len(self._dawgs) == 1:
            return self._dawgs[0].keys(prefix)
        return [word for part in self._parts_with(prefix) for word in self._dawgs[part].keys(prefix)]

    def __repr__(self) -> str:
        return f"DawgLexicon({self.name!r}, lang={self.lang!r}, {len(self)} words, read by {self.reader})"


def _read_dawg(module: Any, fh: IO[bytes], offset: int, size: int) -> Any:
    """One part of a DAWG list file, read by dawg2 or by the pure-Python reader (which reads only whole files)."""
    fh.seek(offset)
    data = fh.read(size)
    if len(data) != size:
        raise EOFError(f"part at byte {offset} is cut short")
    completion = module.CompletionDAWG()
    if hasattr(completion, "frombytes"):
        return completion.frombytes(data)
    from dawg_python import wrapper

    stream = io.BytesIO(data)
    completion.dct, completion.guide = wrapper.Dictionary(), wrapper.Guide()
    completion.dct.read(stream)
    completion.guide.read(stream)
    return completion
