# SPDX-License-Identifier: GPL-3.0-or-later
"""Squares, directions and GCG coordinates.

A :class:`Square` is 0-based, row from the top and column from the left, the
way the camera sees the board. GCG names positions two ways:

* standard: ``8D`` = row 8, column D, across; ``H8`` = column H, row 8, down;
* "lettered rows" (some German records): ``H4`` = row H, column 4, across;
  ``5G`` = column 5, row G, down.

>>> parse_position("8D")
(Square(row=7, col=3), <Direction.ACROSS: 'across'>)
>>> format_position(Square(7, 3), Direction.DOWN)
'D8'
>>> parse_position("H4", lettered_rows=True)
(Square(row=7, col=3), <Direction.ACROSS: 'across'>)
"""

from __future__ import annotations

import enum
import re
from typing import NamedTuple

from engine.errors import InvalidNotation

COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Direction(enum.Enum):
    ACROSS = "across"
    DOWN = "down"

    @property
    def step(self) -> tuple[int, int]:
        """(row, column) increment along this direction."""
        return (0, 1) if self is Direction.ACROSS else (1, 0)

    @property
    def other(self) -> Direction:
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


class Square(NamedTuple):
    row: int
    col: int

    def step(self, direction: Direction, n: int = 1) -> Square:
        dr, dc = direction.step
        return Square(self.row + dr * n, self.col + dc * n)

    def on_board(self, size: int) -> bool:
        return 0 <= self.row < size and 0 <= self.col < size

    def neighbours(self) -> tuple[Square, Square, Square, Square]:
        """The four squares sharing a side with this one (right, left, below, above; some may be off the board).

        >>> Square(0, 3).neighbours()
        (Square(row=0, col=4), Square(row=0, col=2), Square(row=1, col=3), Square(row=-1, col=3))
        """
        r, c = self.row, self.col
        return Square(r, c + 1), Square(r, c - 1), Square(r + 1, c), Square(r - 1, c)

    @property
    def name(self) -> str:
        """Column letter then row number, as on the printed board: ``H8``."""
        return f"{COLUMN_LETTERS[self.col]}{self.row + 1}"

    @classmethod
    def parse(cls, text: str) -> Square:
        """Parse ``H8`` (column letter, row number; case-insensitive)."""
        m = re.fullmatch(r"\s*([A-Za-z])(\d{1,2})\s*", text)
        if not m:
            raise InvalidNotation(f"not a square: {text!r} (expected a column letter and a row number, e.g. 'H8')")
        return cls(int(m.group(2)) - 1, COLUMN_LETTERS.index(m.group(1).upper()))


_POSITION = re.compile(r"^(?:(\d{1,2})([A-Za-z])|([A-Za-z])(\d{1,2}))$")


def parse_position(text: str, *, lettered_rows: bool = False) -> tuple[Square, Direction]:
    """Parse a GCG position into the first square of the word and its direction."""
    m = _POSITION.match(text.strip())
    if not m:
        raise InvalidNotation(f"not a GCG position: {text!r} (expected e.g. '8D' across or 'H8' down)")
    number_first = m.group(1) is not None
    number = int(m.group(1) or m.group(4)) - 1
    letter = COLUMN_LETTERS.index((m.group(2) or m.group(3)).upper())
    if number < 0:
        raise InvalidNotation(f"not a GCG position: {text!r} (rows and columns start at 1)")
    if not lettered_rows:
        if number_first:  # 8D: row 8, column D
            return Square(number, letter), Direction.ACROSS
        return Square(number, letter), Direction.DOWN  # H8: column H, row 8
    if number_first:  # 5G: column 5, row G, down
        return Square(letter, number), Direction.DOWN
    return Square(letter, number), Direction.ACROSS  # H4: row H, column 4


def format_position(square: Square, direction: Direction, *, lettered_rows: bool = False) -> str:
    """Inverse of :func:`parse_position`."""
    if not lettered_rows:
        col = COLUMN_LETTERS[square.col]
        if direction is Direction.ACROSS:
            return f"{square.row + 1}{col}"
        return f"{col}{square.row + 1}"
    row = COLUMN_LETTERS[square.row]
    if direction is Direction.ACROSS:
        return f"{row}{square.col + 1}"
    return f"{square.col + 1}{row}"
