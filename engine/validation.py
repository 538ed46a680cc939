# SPDX-License-Identifier: GPL-3.0-or-later
"""Checking a placement against the rules, reporting every problem at once.

>>> from engine.rules import Rules
>>> from engine.moves import Placement, PlacedTile
>>> rules = Rules.scrabble("en")
>>> board = Board(15)
>>> move = Placement.from_tiles([PlacedTile(Square(0, 0), "A"), PlacedTile(Square(1, 1), "B")], board)
>>> sorted(p.code.name for p in validate(board, move, rules))
['FIRST_NOT_ON_CENTRE', 'NOT_IN_LINE']
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.board import Board
from engine.moves import Placement
from engine.rules import Game, Rules
from engine.squares import Direction, Square
from engine.tiles import ARROW, BLANK, STOP


class ProblemCode(enum.Flag):
    NONE = 0
    NO_TILES = enum.auto()
    OFF_BOARD = enum.auto()
    SQUARE_OCCUPIED = enum.auto()
    DUPLICATE_SQUARE = enum.auto()
    NOT_IN_LINE = enum.auto()
    GAP = enum.auto()
    NOT_CONNECTED = enum.auto()
    FIRST_NOT_ON_CENTRE = enum.auto()
    FIRST_TOO_SHORT = enum.auto()
    UNKNOWN_LETTER = enum.auto()
    TOO_MANY_COPIES = enum.auto()
    TOO_MANY_TILES = enum.auto()
    SPECIAL_TILES_OFF = enum.auto()
    BAD_STOP_TILE = enum.auto()
    BAD_BEND = enum.auto()
    NOT_ON_RACK = enum.auto()


@dataclass(frozen=True)
class Problem:
    code: ProblemCode
    message: str
    #: The values in ``message`` by name (squares, letters, counts), for a translated wording keyed by ``code``.
    args: Mapping[str, object] = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        return self.message


def flags(problems: Iterable[Problem]) -> ProblemCode:
    """All problem codes as one flag set."""
    result = ProblemCode.NONE
    for problem in problems:
        result |= problem.code
    return result


def validate(board: Board, placement: Placement, rules: Rules, *, rack: str | None = None) -> list[Problem]:
    """Every rule the placement breaks on ``board`` (empty list: legal).

    ``rack``, when known, is checked too (``?`` blank, ``#`` stop, ``^`` arrow).
    Words are not judged here; the lexicon does that.
    """
    problems: list[Problem] = []

    def add(code: ProblemCode, message: str, **args: object) -> None:
        problems.append(Problem(code, message, args))

    tiles = placement.tiles
    letters = placement.letter_tiles
    if not letters:
        add(ProblemCode.NO_TILES, "the move puts no letter on the board")
        return problems
    size = board.size
    squares = [t.square for t in tiles]
    off = [s for s in squares if not s.on_board(size)]
    for s in off:
        add(ProblemCode.OFF_BOARD, f"square {s} is off the {size}x{size} board", square=str(s), size=size)
    if off:
        return problems
    for s, n in Counter(squares).items():
        if n > 1:
            add(ProblemCode.DUPLICATE_SQUARE, f"two tiles on {s.name}", square=s.name)
    for t in tiles:
        if (existing := board[t.square]) is not None:
            add(ProblemCode.SQUARE_OCCUPIED, f"{t.square.name} is already covered by {existing.symbol!r}",
                square=t.square.name, letter=existing.symbol)

    # Letters and counts.
    tileset = rules.tileset
    for t in letters:
        if not tileset.is_letter(t.letter):
            add(ProblemCode.UNKNOWN_LETTER, f"{t.letter!r} is not a letter of the {tileset.name} tile set",
                letter=t.letter)
        elif not t.blank and tileset.count(t.letter) == 0:
            add(ProblemCode.UNKNOWN_LETTER, f"the {tileset.name} set has no {t.letter!r} tile; only a blank can be one",
                letter=t.letter)
    used = Counter(s for t in board_tiles(board) for s in t)
    used.update(placement.rack_symbols())
    available = tileset.full_bag()
    for symbol, n in used.items():
        if n > available.get(symbol, 0) and (symbol != BLANK or tileset.blanks):
            what = {BLANK: "blanks", STOP: "stop tiles", ARROW: "arrow tiles"}.get(symbol, f"{symbol!r} tiles")
            have = available.get(symbol, 0)
            add(ProblemCode.TOO_MANY_COPIES, f"{n} {what} on the board, the {tileset.name} set has {have}",
                letter=symbol, count=n, have=have)
    if placement.tiles_used > rules.rack_size:
        add(ProblemCode.TOO_MANY_TILES, f"{placement.tiles_used} tiles placed, the rack holds {rules.rack_size}",
            count=placement.tiles_used, rack_size=rules.rack_size)
    if rack is not None:
        missing = Counter(placement.rack_symbols()) - Counter(rack)
        if missing:
            tiles_missing = "".join(sorted(missing.elements()))
            add(ProblemCode.NOT_ON_RACK, f"tiles {tiles_missing!r} are not on the rack {rack!r}", tiles=tiles_missing,
                rack=rack)
    if (placement.stop_tile or placement.bend) and not rules.special_tiles:
        add(ProblemCode.SPECIAL_TILES_OFF, "stop and arrow tiles are not used in this game")
    if rules.game is Game.ALFAPET and not rules.special_tiles and any(t.blank for t in letters):
        # Alfapet's blank is one of its special tiles (seeds 000/001); Scrabble always has its blanks.
        add(ProblemCode.SPECIAL_TILES_OFF, "blank tiles are not used in this game")
    if problems and any(p.code & (ProblemCode.SQUARE_OCCUPIED | ProblemCode.DUPLICATE_SQUARE) for p in problems):
        return problems

    after = board.copy()
    for t in tiles:
        after[t.square] = t.cell
    _check_geometry(board, after, placement, add)
    if board.is_empty():
        centre = rules.layout.centre
        if centre not in squares:
            add(ProblemCode.FIRST_NOT_ON_CENTRE, f"the first word must cover the centre square {centre.name}",
                square=centre.name)
        if len(letters) < 2:
            add(ProblemCode.FIRST_TOO_SHORT, "the first word needs at least two letters")
    elif placement.stop_tile is None and not _touches_old_tile(board, placement):
        add(ProblemCode.NOT_CONNECTED, "the word does not touch any tile already on the board")
    return problems


def board_tiles(board: Board) -> Iterable[tuple[str, ...]]:
    for _, cell in board:
        if cell.is_stop:
            yield (STOP,)
        else:
            base = BLANK if cell.blank else cell.letter
            yield (base, ARROW) if cell.arrow else (base,)


def _touches_old_tile(board: Board, placement: Placement) -> bool:
    return any(board.has_letter(near) for t in placement.letter_tiles for near in t.square.neighbours())


def _check_geometry(board: Board, after: Board, placement: Placement, add) -> None:
    letters = placement.letter_tiles
    bend = placement.bend
    direction = placement.direction
    if bend is not None:
        corner = bend.square
        first = [t.square for t in letters if _on_leg(t.square, corner, direction, before=True)]
        second = [t.square for t in letters if _on_leg(t.square, corner, direction.other, before=False)]
        if len(first) + len(second) - 1 != len(letters):  # the corner is in both legs
            add(ProblemCode.BAD_BEND, f"with an arrow on {corner.name} the tiles must run {direction.value} to it, "
                                      f"then {direction.other.value} from it")
            return
        if len([t for t in letters if t.arrow]) > 1:
            add(ProblemCode.BAD_BEND, "only one arrow tile per word")
        for leg, d in ((first, direction), (second, direction.other)):
            _check_contiguous(after, sorted(leg), d, add)
    else:
        rows = {s.row for s in (t.square for t in letters)}
        cols = {s.col for s in (t.square for t in letters)}
        if len(rows) > 1 and len(cols) > 1:
            add(ProblemCode.NOT_IN_LINE, "the new tiles are not in one row or one column")
            return
        line = Direction.ACROSS if len(rows) == 1 and len(letters) > 1 else direction
        if len(letters) > 1 and len(cols) == 1:
            line = Direction.DOWN
        _check_contiguous(after, sorted(t.square for t in letters), line, add)
    if placement.stop_tile is not None:
        _check_stop(board, placement, add)
    _check_old_stops(board, after, placement, add)


def _on_leg(square: Square, corner: Square, direction: Direction, *, before: bool) -> bool:
    if direction is Direction.ACROSS:
        return square.row == corner.row and (square.col <= corner.col if before else square.col >= corner.col)
    return square.col == corner.col and (square.row <= corner.row if before else square.row >= corner.row)


def _check_contiguous(after: Board, squares: list[Square], direction: Direction, add) -> None:
    if len(squares) < 2:
        return
    first, last = squares[0], squares[-1]
    current = first
    while current != last:
        current = current.step(direction)
        if not after.has_letter(current):
            add(ProblemCode.GAP, f"the word has a gap at {current.name}", square=current.name)
            return


def _check_stop(board: Board, placement: Placement, add) -> None:
    """Alfapet stop tile (seeds 000/001): "Pelaaja aloittaa pelivuoronsa asettamalla pysäytyslaatan pelilaudalla
    olevan sanan perään ... Uuden sanan voi muodostaa vaakasuoraan pysäytyslaatan jälkeen tai pystysuoraan sen alle."
    / "lägga en svart bricka efter ett ord ... Antingen kan du lägga ett ord vågrätt efter den svarta brickan, eller
    lodrätt under den." The black tile lies right after the last letter of a word in the word's direction (right of
    an across word, below a down word; ../shared/RULES.md §1.4 [R]); the new word starts right after it (across) or
    right below it (down). One stop tile per turn."""
    stops = [t for t in placement.tiles if t.is_stop]
    if len(stops) > 1:
        add(ProblemCode.BAD_STOP_TILE, f"{len(stops)} stop tiles in one turn; a turn lays one")
    s = stops[0].square
    ends_word = False
    for direction in (Direction.ACROSS, Direction.DOWN):
        last = s.step(direction, -1)
        if board.has_letter(last) and len(board.run(last, direction)) >= 2:
            ends_word = True
    if not ends_word:
        add(ProblemCode.BAD_STOP_TILE,
            f"a stop tile on {s.name} must lie right after the last letter of a word (to its right, or below it)")
    first = min(t.square for t in placement.letter_tiles)
    if first != s.step(placement.direction):
        add(ProblemCode.BAD_STOP_TILE, f"the new word must start right after or right below the stop tile on {s.name}")


def _check_old_stops(board: Board, after: Board, placement: Placement, add) -> None:
    """"Tämän pelivuoron päätyttyä ei pysäytyslaatasta voi enää aloittaa sanoja." / "Ingen annan spelare får lägga
    ett ord efter eller under den svarta brickan." (seeds 000/001): once its turn is over, no word may start from a
    stop tile, i.e. no new tile right after or right below it may begin a word. Extending the word already lying
    there at its far end starts nothing new and is allowed."""
    for tile in placement.letter_tiles:
        for direction in (Direction.ACROSS, Direction.DOWN):
            before = board.get(tile.square.step(direction, -1))
            if before is not None and before.is_stop and len(after.run(tile.square, direction)) >= 2:
                where = "after" if direction is Direction.ACROSS else "below"
                add(ProblemCode.BAD_STOP_TILE,
                    f"no word may start {where} the stop tile on {tile.square.step(direction, -1).name} "
                    "once the turn that laid it is over")
