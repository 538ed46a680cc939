# SPDX-License-Identifier: GPL-3.0-or-later
"""Moves: frozen values, each with a text form and a ``repr`` that round-trips.

A :class:`Placement` is the set of tiles put down in one turn. Its notation
is GCG's: position then word, ``.`` (or ``(LI)``) for letters already on the
board and lower case for blanks. Alfapet extends it: ``#`` before the
position puts a stop tile on that square (the word starts next to it), and a
``^`` after a letter bends the word there (the letter lies on an arrow tile;
across turns down, down turns across).

>>> board = Board(15)
>>> move = Placement.from_notation("8D WHEAT", board)
>>> move.notation(board)
'8D WHEAT'
>>> eval(repr(move)) == move
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from engine.board import Board, Cell
from engine.errors import InvalidNotation
from engine.squares import Direction, Square, format_position, parse_position
from engine.tiles import ARROW, STOP, TileKind


class PlacedTile(NamedTuple):
    square: Square
    letter: str
    blank: bool = False
    kind: TileKind = TileKind.LETTER
    arrow: bool = False

    @property
    def is_stop(self) -> bool:
        return self.kind is TileKind.STOP

    @property
    def cell(self) -> Cell:
        return Cell(self.letter, self.blank, self.kind, self.arrow)

    @property
    def rack_symbols(self) -> tuple[str, ...]:
        """The rack tiles this uses: a letter, ``?`` for a blank, ``#`` stop, plus ``^`` under an arrow letter."""
        if self.is_stop:
            return (STOP,)
        base = "?" if self.blank else self.letter
        return (base, ARROW) if self.arrow else (base,)

    def __repr__(self) -> str:
        extras = ""
        if self.blank:
            extras += ", blank=True"
        if self.kind is not TileKind.LETTER:
            extras += f", kind=TileKind.{self.kind.name}"
        if self.arrow:
            extras += ", arrow=True"
        return f"PlacedTile(Square({self.square.row}, {self.square.col}), {self.letter!r}{extras})"


_WORD_TOKEN = re.compile(r"\(([^)]*)\)|([^\W\d_](?:\^)?)|(\.)")


@dataclass(frozen=True)
class Placement:
    """Tiles put on the board in one turn, in reading order.

    ``start`` and ``direction`` locate the word as GCG writes it (the first
    square of the main word, which may hold an old tile).
    """

    tiles: tuple[PlacedTile, ...]
    start: Square
    direction: Direction
    notation_text: str = field(default="", compare=False, repr=False)

    @property
    def letter_tiles(self) -> tuple[PlacedTile, ...]:
        return tuple(t for t in self.tiles if not t.is_stop)

    @property
    def stop_tile(self) -> PlacedTile | None:
        return next((t for t in self.tiles if t.is_stop), None)

    @property
    def bend(self) -> PlacedTile | None:
        return next((t for t in self.tiles if t.arrow), None)

    @property
    def squares(self) -> tuple[Square, ...]:
        return tuple(t.square for t in self.tiles)

    def rack_symbols(self) -> list[str]:
        return [s for t in self.tiles for s in t.rack_symbols]

    @property
    def tiles_used(self) -> int:
        """Rack tiles this placement uses (letters, blanks, stop and arrow tiles)."""
        return len(self.rack_symbols())

    @classmethod
    def from_notation(cls, text: str, board: Board, *, lettered_rows: bool = False) -> Placement:
        """Parse ``8D WHE.T`` against ``board`` (which supplies the ``.`` letters)."""
        parts = text.split()
        if len(parts) != 2:
            raise InvalidNotation(f"not a placement: {text!r} (expected a position and a word, e.g. '8D WHEAT')")
        position, word = parts
        stop_square = None
        if position.startswith(STOP):
            stop_square, direction = parse_position(position[1:], lettered_rows=lettered_rows)
            start = stop_square.step(direction)
        else:
            start, direction = parse_position(position, lettered_rows=lettered_rows)
        tiles: list[PlacedTile] = []
        if stop_square is not None:
            tiles.append(PlacedTile(stop_square, STOP, kind=TileKind.STOP))
        square, current = start, direction
        consumed = 0
        for m in _WORD_TOKEN.finditer(word):
            if m.start() != consumed:
                break
            consumed = m.end()
            if m.group(1) is not None:  # (LI): letters already on the board
                for letter in m.group(1):
                    _expect_existing(board, square, letter, text)
                    square = square.step(current)
                continue
            if m.group(3):  # '.'
                _expect_existing(board, square, None, text)
                square = square.step(current)
                continue
            token = m.group(2)
            letter = token[0]
            arrow = token.endswith(ARROW)
            if not square.on_board(board.size):
                raise InvalidNotation(f"placement {text!r} runs off the {board.size}x{board.size} board")
            existing = board[square]
            if existing is not None and not arrow:
                # Some exporters write played-through letters in full (game03): accept a match.
                if existing.letter != letter.upper():
                    raise InvalidNotation(
                        f"placement {text!r}: square {square.name} already holds {existing.symbol!r}, not {letter!r}"
                    )
            else:
                tiles.append(PlacedTile(square, letter.upper(), blank=letter.islower(), arrow=arrow))
            if arrow:
                current = current.other
            square = square.step(current)
        if consumed != len(word) or not word:
            raise InvalidNotation(f"not a placement word: {word!r} in {text!r}")
        if not tiles:
            raise InvalidNotation(f"placement {text!r} puts no new tile on the board")
        return cls(tuple(tiles), start, direction, text)

    @classmethod
    def from_tiles(cls, tiles: list[PlacedTile] | tuple[PlacedTile, ...], board: Board,
                   direction: Direction | None = None) -> Placement:
        """Build a placement from new tiles alone (what the camera sees).

        The direction is the line the tiles share; a single tile takes the
        direction in which it forms the longer word (``direction`` overrides).
        Tiles that are not in one line keep their order; validation reports it.
        """
        letters = sorted((t for t in tiles if not t.is_stop), key=lambda t: t.square)
        stop = [t for t in tiles if t.is_stop]
        if not letters and not stop:
            raise InvalidNotation("a placement needs at least one tile")
        if direction is None:
            rows = {t.square.row for t in letters}
            cols = {t.square.col for t in letters}
            if len(letters) > 1 and len(rows) == 1:
                direction = Direction.ACROSS
            elif len(letters) > 1 and len(cols) == 1:
                direction = Direction.DOWN
            elif letters:
                probe = board.copy()
                for t in letters:
                    probe[t.square] = t.cell
                across = len(probe.run(letters[0].square, Direction.ACROSS))
                down = len(probe.run(letters[0].square, Direction.DOWN))
                direction = Direction.DOWN if down > across else Direction.ACROSS
            else:
                direction = Direction.ACROSS
        start = letters[0].square if letters else stop[0].square
        if letters:
            probe = board.copy()
            for t in letters:
                probe[t.square] = t.cell
            run = probe.run(letters[0].square, direction)
            if run:
                start = run[0]
        ordered = tuple(stop) + tuple(letters)
        return cls(ordered, start, direction)

    def notation(self, board: Board, *, lettered_rows: bool = False, through: str = ".") -> str:
        """GCG text of this placement on ``board`` (the board before it is played).

        ``through="()"`` writes played-through letters in parentheses instead of dots.
        """
        new = {t.square: t for t in self.letter_tiles}
        probe = board.copy()
        for t in self.letter_tiles:
            probe[t.square] = t.cell
        squares = _reading_squares(probe, self.start, self.direction, self.bend)
        out: list[str] = []
        old_run: list[str] = []
        for square in squares:
            tile = new.get(square)
            if tile is None:
                cell = probe[square]
                letter = cell.letter.lower() if cell and cell.blank else (cell.letter if cell else "?")
                old_run.append(letter)
                continue
            if old_run:
                out.append("." * len(old_run) if through == "." else f"({''.join(old_run)})")
                old_run = []
            out.append((tile.letter.lower() if tile.blank else tile.letter) + (ARROW if tile.arrow else ""))
        if old_run:
            out.append("." * len(old_run) if through == "." else f"({''.join(old_run)})")
        stop = self.stop_tile
        if stop is not None:
            position = STOP + format_position(stop.square, self.direction, lettered_rows=lettered_rows)
        else:
            position = format_position(self.start, self.direction, lettered_rows=lettered_rows)
        return f"{position} {''.join(out)}"

    def __repr__(self) -> str:
        return f"Placement(tiles={self.tiles!r}, start={self.start!r}, direction=Direction.{self.direction.name})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Placement):
            return NotImplemented
        return set(self.tiles) == set(other.tiles)

    def __hash__(self) -> int:
        return hash(frozenset(self.tiles))


def _expect_existing(board: Board, square: Square, letter: str | None, text: str) -> None:
    cell = board.get(square)
    if cell is None or cell.is_stop:
        raise InvalidNotation(
            f"placement {text!r}: expects a tile already on {square.name if square.on_board(board.size) else square}"
            ", but that square is empty"
        )
    if letter is not None and cell.letter != letter.upper():
        raise InvalidNotation(f"placement {text!r}: {square.name} holds {cell.letter!r}, not {letter!r}")


def _reading_squares(board: Board, start: Square, direction: Direction, bend: PlacedTile | None) -> list[Square]:
    squares = []
    square, current = start, direction
    while board.has_letter(square):
        squares.append(square)
        if bend is not None and square == bend.square:
            current = current.other
        square = square.step(current)
    return squares


@dataclass(frozen=True)
class Exchange:
    """Tiles swapped with the bag. ``tiles`` may be empty with only ``count`` known (GCG ``-3``)."""

    tiles: str = ""
    count: int = 0

    def __post_init__(self) -> None:
        if self.tiles and not self.count:
            object.__setattr__(self, "count", len(self.tiles))

    def __repr__(self) -> str:
        return f"Exchange({self.tiles!r})" if self.tiles else f"Exchange(count={self.count})"


@dataclass(frozen=True)
class Pass:
    def __repr__(self) -> str:
        return "Pass()"


@dataclass(frozen=True)
class Withdraw:
    """The previous placement was challenged off: its tiles leave the board, its score is taken back."""

    def __repr__(self) -> str:
        return "Withdraw()"


@dataclass(frozen=True)
class ChallengeBonus:
    """Points a player receives because their valid play was challenged (5- or 10-point rules)."""

    points: int


@dataclass(frozen=True)
class TimePenalty:
    """Points lost for overtime (a negative number)."""

    points: int


@dataclass(frozen=True)
class RackPoints:
    """End of game rack accounting: ``rack`` is the tiles counted (the opponent's when going out, else one's own).

    ``points`` is the signed amount; None lets the game compute it from the rules.
    """

    rack: str
    points: int | None = None


Move = Placement | Exchange | Pass | Withdraw | ChallengeBonus | TimePenalty | RackPoints

