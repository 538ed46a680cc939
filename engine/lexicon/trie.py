# SPDX-License-Identifier: GPL-3.0-or-later
"""Compiled full-form word lists: a marisa-trie file plus a JSON manifest beside it.

The trie is memory-mapped, so loading is a few milliseconds and only the pages a
lookup touches become resident (and are shared between processes).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from engine.errors import LexiconError

TRIE_SUFFIX = ".marisa"
MANIFEST_SUFFIX = ".json"
FORMAT = 1


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

    def to_json(self) -> str:
        data = asdict(self)
        data["sources"] = [asdict(s) for s in self.sources]
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"

    @classmethod
    def read(cls, path: Path) -> Manifest:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            data["sources"] = tuple(SourceInfo(**s) for s in data.get("sources", ()))
            return cls(**data)
        except FileNotFoundError:
            raise
        except (OSError, ValueError, TypeError, KeyError) as exc:
            raise LexiconError(
                f"word-list manifest {str(path)!r} is unreadable ({exc}); delete it and its "
                f"{TRIE_SUFFIX} file, then rebuild (ordvakt lexicon build LANG) or re-import the list"
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


def write_list(
    words: Iterable[str], trie_path: Path, manifest: Manifest, *, num_tries: int | None = None
) -> Manifest:
    """Compile ``words`` (already folded) and write trie and manifest atomically; returns the final manifest."""
    marisa_trie = _marisa()
    trie_path.parent.mkdir(parents=True, exist_ok=True)
    kwargs = {"num_tries": num_tries} if num_tries else {}
    trie = marisa_trie.Trie(words, **kwargs)
    count = len(trie)
    fd, tmp = tempfile.mkstemp(prefix=trie_path.name, suffix=".tmp", dir=trie_path.parent)
    os.close(fd)
    try:
        trie.save(tmp)
        size = os.path.getsize(tmp)
        final = Manifest(**{**asdict(manifest), "sources": manifest.sources, "count": count, "trie_bytes": size})
        man_path = trie_path.with_suffix(MANIFEST_SUFFIX)
        man_tmp = man_path.with_suffix(".json.tmp")
        man_tmp.write_text(final.to_json(), encoding="utf-8")
        os.replace(tmp, trie_path)
        os.replace(man_tmp, man_path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return final


class TrieLexicon:
    """A memory-mapped full-form list; binding and enumerable."""

    enumerable = True
    binding = True

    def __init__(self, trie_path: Path, manifest: Manifest | None = None) -> None:
        trie_path = Path(trie_path)
        man_path = trie_path.with_suffix(MANIFEST_SUFFIX)
        if manifest is None:
            try:
                manifest = Manifest.read(man_path)
            except FileNotFoundError:
                raise LexiconError(
                    f"word list {str(trie_path)!r} has no manifest {man_path.name!r}; rebuild it "
                    "(ordvakt lexicon build LANG) or re-import it (ordvakt lexicon import)"
                ) from None
        self.manifest = manifest
        self.name = manifest.name
        self.lang = manifest.lang
        self.path = trie_path
        fix = (
            f"run: ordvakt lexicon build {manifest.lang}"
            if manifest.kind == "default"
            else f"import it again: ordvakt lexicon import FILE --lang {manifest.lang} --name {manifest.name}"
        )
        try:
            size = trie_path.stat().st_size
        except FileNotFoundError:
            raise LexiconError(f"word list {str(trie_path)!r} is missing; {fix}") from None
        if size != manifest.trie_bytes:
            raise LexiconError(
                f"word list {str(trie_path)!r} is truncated or corrupt ({size} bytes, manifest says "
                f"{manifest.trie_bytes}); delete it and {fix}"
            )
        try:
            self._trie = _marisa().Trie().mmap(str(trie_path))
        except RuntimeError as exc:
            raise LexiconError(
                f"word list {str(trie_path)!r} is corrupt ({exc}); delete it and {fix}"
            ) from None

    def contains(self, word: str) -> bool:
        return word in self._trie

    def __contains__(self, word: str) -> bool:
        return word in self._trie

    def __len__(self) -> int:
        return len(self._trie)

    def words(self, prefix: str = "") -> list[str]:
        """Every listed word starting with ``prefix`` (for hints and move generation)."""
        return self._trie.keys(prefix)

    def __repr__(self) -> str:
        return f"TrieLexicon({self.name!r}, lang={self.lang!r}, {len(self)} words)"
