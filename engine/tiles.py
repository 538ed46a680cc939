# SPDX-License-Identifier: GPL-3.0-or-later
"""Tile sets: which letters a game has, how many of each and what they score.

Tile sets are data files (``engine/data/tilesets/*.toml``); a user can add or
replace one by putting a file of the same form in a directory passed as
``extra_dirs``.

>>> de = load_tileset("scrabble-de")
>>> de.value("Ä"), de.count("E"), de.blanks, de.total
(6, 15, 2, 102)
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from engine._data import available_names, find_data_file, read_toml
from engine.errors import DataFileError

#: Rack/pool symbols of the tiles that are not letters.
BLANK = "?"
STOP = "#"
ARROW = "^"


class TileKind(enum.Enum):
    LETTER = "letter"
    BLANK = "blank"
    STOP = "stop"  # Alfapet's black tile: 0 points, blocks like the board's edge
    ARROW = "arrow"  # Alfapet's turn tile: lies under the letter where a word bends


@dataclass(frozen=True)
class TileSet:
    name: str
    game: str
    language: str
    alphabet: str
    rack_size: int
    counts: Mapping[str, int]
    values: Mapping[str, int]
    blanks: int = 0
    stops: int = 0
    arrows: int = 0
    provisional: bool = False
    source: str = field(default="", compare=False)

    def value(self, letter: str) -> int:
        """Face value of a letter tile; letters the set lacks (blank-only) score 0."""
        return self.values.get(letter, 0)

    def count(self, letter: str) -> int:
        return self.counts.get(letter, 0)

    def is_letter(self, letter: str) -> bool:
        """True for any letter of the language, including those only a blank can be."""
        return letter in self.alphabet or letter in self.counts

    @property
    def total(self) -> int:
        return sum(self.counts.values()) + self.blanks + self.stops + self.arrows

    def full_bag(self) -> Counter[str]:
        """Every tile of the set: letters, ``?`` blanks, ``#`` stop and ``^`` arrow tiles."""
        bag: Counter[str] = Counter(self.counts)
        for symbol, n in ((BLANK, self.blanks), (STOP, self.stops), (ARROW, self.arrows)):
            if n:
                bag[symbol] = n
        return bag

    def rack_value(self, rack: Iterable[str]) -> int:
        """Sum of face values of rack symbols (blank/stop/arrow are 0)."""
        return sum(self.value(t) for t in rack)

    def __repr__(self) -> str:
        return f"load_tileset({self.name!r})"


def load_tileset(name: str, extra_dirs: Iterable[Path] = ()) -> TileSet:
    path = find_data_file("tilesets", name, extra_dirs)
    return tileset_from_mapping(read_toml(path), source=str(path))


def load_tileset_file(path: Path) -> TileSet:
    """A tile set from a file of the built-in sets' format (an edition Ordvakt does not ship), checked
    like them; errors name the file."""
    path = Path(path)
    if path.suffix.lower() != ".toml":
        raise DataFileError(f"tile set {str(path)!r}: expected a .toml file like engine/data/tilesets/*.toml")
    return tileset_from_mapping(read_toml(path), source=str(path))


def available_tilesets(extra_dirs: Iterable[Path] = ()) -> list[str]:
    return list(available_names("tilesets", extra_dirs))


def tileset_from_mapping(data: Mapping, source: str = "<tileset>") -> TileSet:
    def fail(what: str) -> DataFileError:
        return DataFileError(f"tile set {source!r}: {what}")

    def small(entry: object) -> bool:  # [count, value]: at most 1000 tiles of a kind, worth -1000 to 1000
        return (isinstance(entry, list) and len(entry) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) and -1000 <= x <= 1000 for x in entry)
                and entry[0] >= 0)

    if not isinstance(data, Mapping):
        raise fail("must be a table")
    for key in ("name", "game", "language"):
        if key not in data:
            raise fail(f"missing key {key!r}")
        if not isinstance(data[key], str) or not 0 < len(data[key]) <= 64:
            raise fail(f"{key} must be text of 1 to 64 characters")
    name, game, language = data["name"], data["game"], data["language"]
    alphabet = data.get("alphabet", "")
    rack_size = data.get("rack_size", 7)
    tiles = data.get("tiles")
    if not isinstance(alphabet, str) or len(alphabet) > 200:
        raise fail("alphabet must be text")
    if isinstance(rack_size, bool) or not isinstance(rack_size, int) or not 1 <= rack_size <= 20:
        raise fail(f"rack_size must be a whole number from 1 to 20, got {rack_size!r}"[:200])
    if not isinstance(tiles, Mapping) or not tiles:
        raise fail("needs a [tiles] table of LETTER = [count, value]")
    counts: dict[str, int] = {}
    values: dict[str, int] = {}
    for letter, entry in tiles.items():
        if len(letter) != 1 or not letter.isalpha() or letter != letter.upper():
            raise fail(f"tile {letter[:20]!r} is not a single upper-case letter")
        if not small(entry):
            raise fail(f"tile {letter!r} must be [count, value] (count 0-1000, value -1000 to 1000), "
                       f"got {entry!r}"[:300])
        counts[letter], values[letter] = entry
    special = data.get("special", {})
    if not isinstance(special, Mapping):
        raise fail("special must be a table")
    extra = {}
    for kind in ("blank", "stop", "arrow"):
        entry = special.get(kind, [0, 0])
        if not small(entry):
            raise fail(f"special tile {kind!r} must be [count, value], got {entry!r}"[:300])
        extra[kind] = int(entry[0])
    unknown = set(special) - {"blank", "stop", "arrow"}
    if unknown:
        raise fail(f"unknown special tile kind(s) {sorted(unknown)!r}; known: blank, stop, arrow")
    tileset = TileSet(
        name=name,
        game=game,
        language=language,
        alphabet=alphabet or "".join(sorted(counts)),
        rack_size=rack_size,
        counts=MappingProxyType(counts),
        values=MappingProxyType(values),
        blanks=extra["blank"],
        stops=extra["stop"],
        arrows=extra["arrow"],
        provisional=bool(data.get("provisional", False)),
        source=source,
    )
    if "total" in data and data["total"] != tileset.total:
        raise fail(f"declares total = {data['total']} but its tiles add up to {tileset.total}")
    return tileset
