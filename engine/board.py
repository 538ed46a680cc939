# SPDX-License-Identifier: GPL-3.0-or-later
"""The board: which tile lies on which square.

A board is mutable on purpose (like ``chess.Board``); :meth:`Board.copy` is
explicit. Its one-line text form lists rows top to bottom separated by ``/``,
digits for runs of empty squares, lower case for blanks, ``#`` for a stop tile
and ``^`` after a letter that lies on an arrow tile::

    >>> board = Board(5)
    >>> board[Square(2, 1)] = Cell("O")
    >>> board[Square(2, 2)] = Cell("K", blank=True)
    >>> board.to_text()
    '5/5/1Ok2/5/5'
    >>> Board.from_text('5/5/1Ok2/5/5') == board
    True
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from engine.errors import InvalidNotation
from engine.squares import Direction, Square
from engine.tiles import ARROW, STOP, TileKind


class Cell(NamedTuple):
    """What lies on one square. A stop tile has ``letter == "#"``."""

    letter: str
    blank: bool = False
    kind: TileKind = TileKind.LETTER
    arrow: bool = False

    @property
    def is_stop(self) -> bool:
        return self.kind is TileKind.STOP

    @property
    def symbol(self) -> str:
        if self.is_stop:
            return STOP
        text = self.letter.lower() if self.blank else self.letter
        return text + (ARROW if self.arrow else "")

    def __repr__(self) -> str:
        if self.is_stop:
            return "Cell.stop()"
        extras = (", blank=True" if self.blank else "") + (", arrow=True" if self.arrow else "")
        return f"Cell({self.letter!r}{extras})"

    @classmethod
    def stop(cls) -> Cell:
        return cls(STOP, kind=TileKind.STOP)


class Board:
    __slots__ = ("size", "_cells")

    def __init__(self, size: int = 15) -> None:
        self.size = size
        self._cells: list[list[Cell | None]] = [[None] * size for _ in range(size)]

    def __getitem__(self, square: Square) -> Cell | None:
        return self._cells[square[0]][square[1]]

    def __setitem__(self, square: Square, cell: Cell | None) -> None:
        self._cells[square[0]][square[1]] = cell

    def get(self, square: Square) -> Cell | None:
        """Like ``board[square]`` but None off the board."""
        r, c = square
        if 0 <= r < self.size and 0 <= c < self.size:
            return self._cells[r][c]
        return None

    def has_letter(self, square: Square) -> bool:
        """A letter tile (not a stop tile) lies on this on-board square."""
        cell = self.get(square)
        return cell is not None and not cell.is_stop

    def __iter__(self) -> Iterator[tuple[Square, Cell]]:
        """Occupied squares, row by row."""
        for r, row in enumerate(self._cells):
            for c, cell in enumerate(row):
                if cell is not None:
                    yield Square(r, c), cell

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def is_empty(self) -> bool:
        return not any(any(row) for row in self._cells)

    def copy(self) -> Board:
        other = Board(self.size)
        other._cells = [row[:] for row in self._cells]
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.size == other.size and self._cells == other._cells

    __hash__ = None  # type: ignore[assignment]  # mutable

    def run(self, square: Square, direction: Direction) -> list[Square]:
        """The maximal run of letter squares through ``square`` along ``direction``
        (stop tiles and the edge end a run). ``square`` itself must hold a letter."""
        start = square
        while self.has_letter(start.step(direction, -1)):
            start = start.step(direction, -1)
        squares = []
        current = start
        while self.has_letter(current):
            squares.append(current)
            current = current.step(direction)
        return squares

    def word(self, squares: list[Square]) -> str:
        return "".join(self[s].letter for s in squares)  # type: ignore[union-attr]

    def to_text(self) -> str:
        rows = []
        for row in self._cells:
            out, empty = [], 0
            for cell in row:
                if cell is None:
                    empty += 1
                    continue
                if empty:
                    out.append(str(empty))
                    empty = 0
                out.append(cell.symbol)
            if empty:
                out.append(str(empty))
            rows.append("".join(out))
        return "/".join(rows)

    @classmethod
    def from_text(cls, text: str) -> Board:
        rows = text.strip().split("/")
        board = cls(len(rows))
        for r, row_text in enumerate(rows):
            c = 0
            for token in re.findall(r"\d+|#|[^\W\d_]\^?", row_text):
                if token.isdigit():
                    c += int(token)
                    continue
                if c >= board.size:
                    raise InvalidNotation(f"board row {r + 1} is longer than {board.size} squares in {text!r}")
                if token == STOP:
                    board[Square(r, c)] = Cell.stop()
                else:
                    letter = token[0]
                    board[Square(r, c)] = Cell(letter.upper(), blank=letter.islower(), arrow=token.endswith(ARROW))
                c += 1
            if c != board.size:
                raise InvalidNotation(f"board row {r + 1} has {c} squares, expected {board.size}, in {text!r}")
        return board

    def __str__(self) -> str:
        """A printable diagram with column letters and row numbers."""
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[: self.size]
        lines = ["    " + " ".join(letters)]
        for r, row in enumerate(self._cells):
            cells = " ".join((cell.symbol[0] if cell else ".") for cell in row)
            lines.append(f"{r + 1:>3} {cells}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Board.from_text({self.to_text()!r})"
