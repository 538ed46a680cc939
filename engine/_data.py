# SPDX-License-Identifier: GPL-3.0-or-later
"""Finding and reading the engine's own data files (TOML), with user overrides."""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from engine.errors import DataFileError


def builtin_dir(kind: str) -> Path:
    return Path(str(resources.files("engine") / "data" / kind))


def find_data_file(kind: str, name: str, extra_dirs: Iterable[Path] = ()) -> Path:
    """``<root>/<kind>/<name>.toml`` from the first user data root in ``extra_dirs`` that has it,
    else the built-in one (``engine/data/<kind>/<name>.toml``). A name ending in ``.toml`` is the path of
    the user's own file (validated like the built-in ones by the caller); any other name must be a plain
    name, never a path."""
    if name.lower().endswith(".toml"):
        if not Path(name).is_file():
            raise DataFileError(f"{kind[:-1]} file {name!r} does not exist")
        return Path(name)
    if not _NAME.fullmatch(name):
        known = sorted(available_names(kind, extra_dirs))
        raise DataFileError(f"{name[:80]!r} is not a {kind[:-1]} name; use one of {', '.join(known) or 'none'} "
                            "or the path of your own .toml file")
    dirs = [Path(d) / kind for d in extra_dirs] + [builtin_dir(kind)]
    for directory in dirs:
        candidate = directory / f"{name}.toml"
        if candidate.is_file():
            return candidate
    known = sorted(available_names(kind, extra_dirs))
    raise DataFileError(f"no {kind[:-1]} named {name!r}; known: {', '.join(known) or 'none'}")


_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def available_names(kind: str, extra_dirs: Iterable[Path] = ()) -> Iterator[str]:
    seen = set()
    for directory in [Path(d) / kind for d in extra_dirs] + [builtin_dir(kind)]:
        if directory.is_dir():
            for path in sorted(directory.glob("*.toml")):
                if path.stem not in seen:
                    seen.add(path.stem)
                    yield path.stem


#: A tile set or layout is a few kilobytes; a bigger file is not one.
MAX_DATA_FILE_BYTES = 1_000_000


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML data file; parsed files are cached until they change on disk."""
    try:
        info = path.stat()
    except OSError as exc:
        raise DataFileError(f"cannot read {str(path)!r}: {exc.strerror}") from None
    if info.st_size > MAX_DATA_FILE_BYTES:
        raise DataFileError(f"{str(path)!r}: {info.st_size:,} bytes is too big for a data file")
    stamp = info.st_mtime_ns
    return _read_toml_cached(path, stamp)


@functools.lru_cache(maxsize=64)
def _read_toml_cached(path: Path, stamp: int) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"{str(path)!r} is not valid TOML: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise DataFileError(f"{str(path)!r} is not UTF-8 text: {exc.reason}") from exc
    except RecursionError:
        raise DataFileError(f"{str(path)!r}: nested too deeply to be a data file") from None
    except OSError as exc:
        raise DataFileError(f"cannot read {str(path)!r}: {exc.strerror}") from None
