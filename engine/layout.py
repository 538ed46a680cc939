# SPDX-License-Identifier: GPL-3.0-or-later
"""Board layouts: premium squares drawn as ASCII maps in data files.

>>> layout = load_layout("scrabble-15")
>>> layout.size, layout.centre, layout.premium(Square(0, 0))
(15, Square(row=7, col=7), <Premium.W3: 'W3'>)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from engine._data import available_names, find_data_file, read_toml
from engine.errors import DataFileError
from engine.squares import Square

#: Largest board a layout may describe (Alfapet's is 17x17).
MAX_SIZE = 25


class Premium(enum.Enum):
    NONE = "."
    L2 = "L2"
    L3 = "L3"
    L4 = "L4"
    W2 = "W2"
    W3 = "W3"
    W4 = "W4"
    M2 = "M2"  # Alfapet minus square: the tile's value is doubled and subtracted

    @property
    def letter_multiplier(self) -> int:
        return {Premium.L2: 2, Premium.L3: 3, Premium.L4: 4}.get(self, 1)

    @property
    def word_multiplier(self) -> int:
        return {Premium.W2: 2, Premium.W3: 3, Premium.W4: 4}.get(self, 1)

    @property
    def is_minus(self) -> bool:
        return self is Premium.M2


@dataclass(frozen=True)
class Layout:
    name: str
    grid: tuple[tuple[Premium, ...], ...]
    centre: Square
    provisional: bool = False
    source: str = field(default="", compare=False)

    @property
    def size(self) -> int:
        return len(self.grid)

    def premium(self, square: Square) -> Premium:
        return self.grid[square.row][square.col]

    def to_text(self) -> str:
        """The grid as it is written in a layout file (centre shown as ``*``)."""
        rows = []
        for r, row in enumerate(self.grid):
            cells = ["*" if Square(r, c) == self.centre else p.value for c, p in enumerate(row)]
            rows.append(" ".join(f"{x:<2}" for x in cells).rstrip())
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"load_layout({self.name!r})"


def load_layout(name: str, extra_dirs: Iterable[Path] = ()) -> Layout:
    path = find_data_file("layouts", name, extra_dirs)
    return layout_from_mapping(read_toml(path), source=str(path))


def available_layouts(extra_dirs: Iterable[Path] = ()) -> list[str]:
    return list(available_names("layouts", extra_dirs))


def layout_from_text(name: str, text: str, centre_premium: str = ".", provisional: bool = False,
                     source: str = "<layout>") -> Layout:
    """Build a layout from an ASCII grid (see ``engine/data/layouts/*.toml`` for the codes)."""
    if len(text) > MAX_SIZE * MAX_SIZE * 4 + 1000:
        raise DataFileError(f"layout {source!r}: the grid is too big (at most {MAX_SIZE}x{MAX_SIZE})")
    try:
        centre_kind = Premium(centre_premium)
    except ValueError:
        raise DataFileError(f"layout {source!r}: unknown centre_premium {centre_premium!r}") from None
    rows = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    size = len(rows)
    centre = None
    grid = []
    for r, tokens in enumerate(rows):
        if len(tokens) != size:
            raise DataFileError(
                f"layout {source!r}: row {r + 1} has {len(tokens)} squares, expected {size} (the board is square)"
            )
        row = []
        for c, token in enumerate(tokens):
            if token == "*":
                if centre is not None:
                    raise DataFileError(f"layout {source!r}: more than one centre '*' (row {r + 1})")
                centre = Square(r, c)
                row.append(centre_kind)
                continue
            try:
                row.append(Premium(token))
            except ValueError:
                raise DataFileError(
                    f"layout {source!r}: unknown square code {token!r} at row {r + 1}, column {c + 1}; "
                    f"known: {', '.join(p.value for p in Premium)}, *"
                ) from None
        grid.append(tuple(row))
    if size == 0:
        raise DataFileError(f"layout {source!r}: the grid is empty")
    if size > MAX_SIZE:
        raise DataFileError(f"layout {source!r}: {size}x{size} squares; at most {MAX_SIZE}x{MAX_SIZE}")
    if centre is None:
        centre = Square(size // 2, size // 2)
    return Layout(name=name, grid=tuple(grid), centre=centre, provisional=provisional, source=source)


def layout_from_mapping(data: Mapping, source: str = "<layout>") -> Layout:
    if not isinstance(data, Mapping) or "grid" not in data or "name" not in data:
        raise DataFileError(f"layout {source!r}: needs 'name' and 'grid'")
    for key in ("name", "grid", "centre_premium"):
        if key in data and not isinstance(data[key], str):
            raise DataFileError(f"layout {source!r}: {key} must be text")
    return layout_from_text(
        str(data["name"]),
        str(data["grid"]),
        centre_premium=str(data.get("centre_premium", ".")),
        provisional=bool(data.get("provisional", False)),
        source=source,
    )
